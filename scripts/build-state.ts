/**
 * The static build behind `dist/`, and whether it is older than its sources, so `npm start` and
 * `npm test` build only when needed.
 *
 * Every build is made in a fresh directory under `.dist-builds/` and `dist` is then switched to it
 * in one step (a symbolic link renamed over the old one, as the editors' rebuild switches
 * `current`: src/server/site/servedSite.ts), so `dist/` is always one complete build — also while
 * another build runs (two `npm start`s in one checkout), and a failed build changes nothing.
 * Readers keep using the path `dist/` (the tests, scripts/check-budgets.ts, STATIC_DIR=dist).
 *
 * A finished build carries `.build-stamp`, dated when the build STARTED: a source saved during a
 * build is newer than it, so the next start builds again. `npm run build` (scripts/build.ts)
 * marks its build too, so `npm run build` then `npm start` builds once.
 *
 * A finished build also carries `.release.json`, the version and commit it was built from
 * (src/server/release.ts): a deployment shipped without `.git` reads its commit there.
 */
import { existsSync, lstatSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { recordRelease } from '../src/server/release.ts';
import { run } from './run.ts';

export const projectRoot = new URL('..', import.meta.url).pathname;
export const distDir = join(projectRoot, 'dist');
const stampName = '.build-stamp';
const sources = ['src', 'public', 'astro.config.mjs', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true })) {
    newest = Math.max(newest, statSync(join(path, String(entry))).mtimeMs);
  }
  return newest;
}

export function buildIsStale(root: string = projectRoot): boolean {
  const stampFile = join(root, 'dist', stampName);
  if (!existsSync(stampFile)) return true;
  const built = statSync(stampFile).mtimeMs;
  return sources.some((source) => newestMtime(join(root, source)) > built);
}

/** Marks a finished build directory as made from the sources as they were at `startedAt`. */
export function markBuilt(dir: string, startedAt: number): void {
  const stampFile = join(dir, stampName);
  writeFileSync(stampFile, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stampFile, startedAt / 1000, startedAt / 1000);
}

/** The command that builds the site into `outDir` (tests pass a tiny stand-in). */
export type BuildCommand = (outDir: string) => { command: string; args: string[]; env?: NodeJS.ProcessEnv };

export const astroBuild: BuildCommand = (outDir) => ({ command: 'astro', args: ['build', '--outDir', outDir] });

export interface BuildSiteOptions {
  /** The checkout (default: this one); `dist` and `.dist-builds/` are made in it. */
  root?: string;
  command?: BuildCommand;
  /** Finished builds kept besides the one `dist` points at (a reader may still be inside one). */
  keep?: number;
  /** Put before each line the build prints (run.ts), when it runs beside other commands. */
  label?: string;
}

/**
 * Builds into a fresh directory, marks it built and switches `dist` to it. A failed build
 * removes its directory and leaves `dist` as it was. Returns the new build's directory.
 */
export async function buildSite({
  root = projectRoot,
  command = astroBuild,
  keep = 2,
  label,
}: BuildSiteOptions = {}): Promise<string> {
  const startedAt = Date.now();
  const buildsDir = join(root, '.dist-builds');
  await mkdir(buildsDir, { recursive: true });
  // Named by start time, so that names sort by age; the random tail keeps two starts apart.
  const outDir = await mkdtemp(join(buildsDir, `${new Date(startedAt).toISOString().replace(/[:.]/g, '-')}-`));
  const { command: file, args, env } = command(outDir);
  const code = await run(file, args, env, label).catch((error: unknown) => {
    throw new Error(`the build could not start: ${String(error)}`);
  });
  if (code !== 0) {
    await rm(outDir, { recursive: true, force: true });
    throw new Error(`the build failed with exit code ${code}; dist/ is unchanged`);
  }
  recordRelease(outDir, root);
  markBuilt(outDir, startedAt);
  await switchDist(root, outDir);
  await pruneBuilds(root, keep);
  return outDir;
}

/** Points `dist` at a build: a new link renamed over the old one, so `dist` is never missing or half made. */
export async function switchDist(root: string, buildDir: string): Promise<void> {
  const dist = join(root, 'dist');
  const next = `${dist}.next-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await symlink(relative(root, buildDir), next, 'dir');
  // A checkout from before this scheme has a real dist/ directory: move it aside once (a rename
  // cannot put a link over a directory), then it is pruned like any older build.
  const existing = lstatOrUndefined(dist);
  if (existing?.isDirectory()) await rename(dist, join(root, '.dist-builds', `${previousPrefix}${Date.now()}`));
  await rename(next, dist);
}

/** The name of a dist/ directory of the old layout once moved aside: sorts as the oldest, counts as finished. */
const previousPrefix = '0000-previous-';

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Removes finished builds beyond the newest `keep` (never the one `dist` points at), and
 * directories of builds that never finished (no stamp) once a day old. A build still running
 * has no stamp yet, so another process's build is never removed under it.
 */
async function pruneBuilds(root: string, keep: number): Promise<void> {
  const buildsDir = join(root, '.dist-builds');
  const dist = join(root, 'dist');
  const currentName = lstatOrUndefined(dist)?.isSymbolicLink()
    ? relative(buildsDir, join(root, await readlink(dist)))
    : undefined;
  const names = (await readdir(buildsDir)).sort().reverse();
  let finished = 0;
  for (const name of names) {
    if (name === currentName) continue;
    const dir = join(buildsDir, name);
    const stamp = await stat(join(dir, stampName)).catch(() => undefined);
    if (stamp || name.startsWith(previousPrefix)) {
      finished += 1;
      if (finished > keep) await rm(dir, { recursive: true, force: true });
    } else {
      const made = await stat(dir).catch(() => undefined);
      if (made && Date.now() - made.mtimeMs > 86_400_000) await rm(dir, { recursive: true, force: true });
    }
  }
}
