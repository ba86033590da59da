/**
 * The site build the studio is following (a preview or a publication it started, or one already
 * running when a page opens), shared by the islands that show it: the pending-changes panel
 * starts it, the overview shows it. Polled about once a second while it runs
 * (GET /api/studio/build); the poll stops when it ends or another build is followed.
 */
import { atom } from 'nanostores';
import { OK } from '../lib/apiCodes.ts';
import { loadBuild, type StudioBuildView } from '../lib/api/studio.ts';

export const studioBuild = atom<StudioBuildView | null>(null);

const pollMs = 1000;
let following = 0;

/** Shows `build` and keeps it current until it has finished. */
export function followBuild(build: StudioBuildView): void {
  following += 1;
  const ticket = following;
  studioBuild.set(build);
  if (build.status !== 'running') return;
  const tick = async () => {
    if (ticket !== following) return;
    const answer = await loadBuild(build.buildId);
    if (ticket !== following) return;
    if (answer?.code === OK) studioBuild.set(answer.data);
    // A failed poll (network) keeps the last state and tries again; the build goes on regardless.
    if (answer?.code !== OK || answer.data.status === 'running') setTimeout(() => void tick(), pollMs);
  };
  setTimeout(() => void tick(), pollMs);
}

/** Stops following (the shown build stays until replaced). */
export function stopFollowing(): void {
  following += 1;
}
