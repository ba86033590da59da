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
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar';
import type { ObjectStore } from '../storage/objectStore.ts';
import { buildDirName, type SiteLayout } from './publication.ts';

export function buildDirOf(layout: SiteLayout, buildId: number): string {
  return path.join(layout.buildsDir, buildDirName(buildId));
}

export function artifactKey(buildId: number): string {
  return `site/builds/${buildDirName(buildId)}.tar`;
}

/** Whether a build directory is complete (both halves present). */
export function isCompleteBuild(buildDir: string): boolean {
  return existsSync(path.join(buildDir, 'dist')) && existsSync(path.join(buildDir, 'content'));
}

/** Makes a finished build fetchable by every process. */
export async function saveBuild(objects: ObjectStore, layout: SiteLayout, buildId: number): Promise<void> {
  if (objects.kind === 'local') return;
  const pack = tar.create({ cwd: buildDirOf(layout, buildId), portable: true }, ['dist', 'content']);
  await objects.put(artifactKey(buildId), Readable.toWeb(Readable.from(pack)) as ReadableStream<Uint8Array>, { contentType: 'application/x-tar' });
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
