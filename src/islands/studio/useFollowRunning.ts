import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { followBuild, studioBuild } from '../../stores/studioBuild.ts';
import type { StudioBuildView } from '../../lib/api/studio.ts';

/**
 * Follows a build found running when the page loaded (its progress then shows like one started
 * here), and calls `onFinished` once the followed build ends, so the page reads what it changed.
 */
export function useFollowRunning(running: StudioBuildView | null, onFinished: () => void): void {
  const build = useStore(studioBuild);
  useEffect(() => {
    if (running && studioBuild.get()?.buildId !== running.buildId) followBuild(running);
  }, [running]);
  const finished = build && build.status !== 'running' ? build.buildId : null;
  useEffect(() => {
    if (finished !== null) onFinished();
  }, [finished, onFinished]);
}
