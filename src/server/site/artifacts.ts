/**
 * A published build as every API process can fetch it. A build is a directory
 * `DATA_DIR/site/builds/<id>/` holding `dist/` (the pages) and `content/` (the content snapshot
 * they were built from).
 *
 * - With the local object store (the embedded default, one process, or processes sharing DATA_DIR)
 *   the build directory itself is the artifact: nothing is copied.
 * - With an S3-compatible store the directory is streamed as one tar archive to
 *   `site/builds/<id>.tar`, and a process that lacks the build streams it back into a temporary
 *   directory that is renamed into place when complete (a half-fetched build is never served).
 * - An incremental build's archive holds only what differs from its base build (the files that
 *   are not the base's, its content, and `delta.json`: the base and every file of its `dist/`); a
 *   process rebuilds the directory from the base it has (or fetches) and the archive. At most
 *   `maxDeltaDepth` deltas are stacked: the next build's archive is whole again, so a process that
 *   starts late fetches a bounded chain.
 */
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar';
import type { ObjectStore } from '../storage/objectStore.ts';
import { buildDirName, type SiteLayout } from './servedSite.ts';

export function buildDirOf(layout: SiteLayout, buildId: number): string {
  return path.join(layout.buildsDir, buildDirName(buildId));
}

export function artifactKey(buildId: number): string {
  return `site/builds/${buildDirName(buildId)}.tar`;
}

/**
 * In a build's directory while a build writes it (site/buildJob.ts), removed once its pages are all
 * written: a directory that a worker killed mid-build left behind is never taken for the build
 * (another worker may have built and published the same build id since).
 */
const buildingMarker = '.building';

export async function markBuilding(buildDir: string): Promise<void> {
  await writeFile(path.join(buildDir, buildingMarker), String(process.pid));
}

export async function markBuilt(buildDir: string): Promise<void> {
  await rm(path.join(buildDir, buildingMarker), { force: true });
}

/** Whether a build directory is complete: both halves present, and no build still writing it. */
export function isCompleteBuild(buildDir: string): boolean {
  return (
    existsSync(path.join(buildDir, 'dist')) &&
    existsSync(path.join(buildDir, 'content')) &&
    !existsSync(path.join(buildDir, buildingMarker))
  );
}

/** Deltas stacked at most on one whole archive (see the header). */
export const maxDeltaDepth = 8;
const deltaFile = 'delta.json';

/** What an incremental build's archive adds to its base. */
interface Delta {
  base: number;
  /** Deltas from this build down to a whole archive (1: its base's archive is whole). */
  depth: number;
  /** Every file of its `dist/`, relative. */
  files: string[];
}

function readDelta(buildDir: string): Delta | undefined {
  const file = path.join(buildDir, deltaFile);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Delta) : undefined;
}

async function distFiles(distDir: string): Promise<string[]> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(distDir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The same file on disk (a hard link to the base's). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return x !== undefined && y !== undefined && x.ino === y.ino && x.dev === y.dev;
}

/**
 * Makes a finished build fetchable by every process; `base`: the build an incremental one reused
 * files of (its directory on this machine), archived as a delta over it when the chain allows.
 */
export async function saveBuild(
  objects: ObjectStore,
  layout: SiteLayout,
  buildId: number,
  base?: number,
): Promise<void> {
  if (objects.kind === 'local') return;
  const buildDir = buildDirOf(layout, buildId);
  const entries = ['dist', 'content'];
  const baseDir = base === undefined ? undefined : buildDirOf(layout, base);
  const depth = baseDir && isCompleteBuild(baseDir) ? (readDelta(baseDir)?.depth ?? 0) + 1 : Number.POSITIVE_INFINITY;
  if (base !== undefined && baseDir && depth <= maxDeltaDepth) {
    const files = await distFiles(path.join(buildDir, 'dist'));
    const own: string[] = [];
    for (const file of files) {
      if (!(await sameFile(path.join(buildDir, 'dist', file), path.join(baseDir, 'dist', file))))
        own.push(`dist/${file}`);
    }
    await writeFile(path.join(buildDir, deltaFile), JSON.stringify({ base, depth, files } satisfies Delta));
    entries.splice(0, entries.length, 'content', deltaFile, ...own);
  } else await rm(path.join(buildDir, deltaFile), { force: true });
  const pack = tar.create({ cwd: buildDir, portable: true }, entries);
  await objects.put(artifactKey(buildId), Readable.toWeb(Readable.from(pack)) as ReadableStream<Uint8Array>, {
    contentType: 'application/x-tar',
  });
}

/** Completes a delta's directory with its base's files (hard links: the base's bytes never change). */
async function applyDelta(objects: ObjectStore, layout: SiteLayout, dir: string, delta: Delta): Promise<void> {
  const baseDir = await ensureLocalBuild(objects, layout, delta.base);
  for (const file of delta.files) {
    const target = path.join(dir, 'dist', file);
    if (existsSync(target)) continue;
    await mkdir(path.dirname(target), { recursive: true });
    await link(path.join(baseDir, 'dist', file), target);
  }
}

/** The builds a build's archive needs besides its own (the bases of its deltas), nearest first. */
export function deltaChain(builds: ReadonlyMap<number, number | null>, buildId: number): number[] {
  const chain: number[] = [];
  let base = builds.get(buildId) ?? null;
  while (base !== null && chain.length < maxDeltaDepth && !chain.includes(base)) {
    chain.push(base);
    base = builds.get(base) ?? null;
  }
  return chain;
}

/**
 * The build's directory on this machine, fetched from the object store when missing. Throws when
 * the build is nowhere to be found.
 */
export async function ensureLocalBuild(objects: ObjectStore, layout: SiteLayout, buildId: number): Promise<string> {
  const buildDir = buildDirOf(layout, buildId);
  if (isCompleteBuild(buildDir)) return buildDir;
  if (objects.kind === 'local') throw new Error(`build ${buildId} is not on this machine (${buildDir})`);
  const archive = await objects.get(artifactKey(buildId));
  if (!archive) throw new Error(`build ${buildId} has no archive in the object store (${artifactKey(buildId)})`);
  const partial = `${buildDir}.fetching-${process.pid}-${Date.now()}`;
  await mkdir(partial, { recursive: true });
  try {
    await extract(archive.body, partial);
    const delta = readDelta(partial);
    if (delta) {
      await mkdir(path.join(partial, 'dist'), { recursive: true });
      await applyDelta(objects, layout, partial, delta);
    }
    if (!isCompleteBuild(partial)) throw new Error(`build ${buildId}'s archive is incomplete`);
    await rm(buildDir, { recursive: true, force: true });
    await rename(partial, buildDir);
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
  return buildDir;
}

/** Unpacks a tar stream into `dir`; settles when every entry is written. */
async function extract(body: ReadableStream<Uint8Array>, dir: string): Promise<void> {
  const unpack = tar.extract({ cwd: dir, strict: true });
  const done = new Promise<void>((resolve, reject) => {
    unpack.on('close', () => resolve());
    unpack.on('error', reject);
  });
  for await (const chunk of body) {
    // tar parses Buffers (a plain Uint8Array fails its header checksums); a view, not a copy.
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Backpressure: wait for the unpacker to drain before reading on.
    if (!unpack.write(buffer)) await new Promise<void>((resolve) => unpack.once('drain', () => resolve()));
  }
  unpack.end();
  await done;
}

/** Removes builds' archives from the object store (their rows stay, as history). */
export async function removeBuildArtifacts(objects: ObjectStore, buildIds: readonly number[]): Promise<void> {
  if (objects.kind === 'local' || buildIds.length === 0) return;
  await objects.remove(buildIds.map(artifactKey));
}
