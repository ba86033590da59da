/**
 * Where uploaded files live: DATA_DIR/uploads/<random name>, outside the web root (the static
 * handler serves STATIC_DIR only), so a file is reachable only through the download call that
 * checks who asks. Names are generated here, never taken from the upload, so no path the client
 * sends reaches the file system.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A stored name: 32 hex characters, nothing else (checked before any path is built from it). */
const storedNamePattern = /^[0-9a-f]{32}$/;

export function uploadsDirOf(config: { dataDir: string }): string {
  return path.join(config.dataDir, 'uploads');
}

export function newStoredName(): string {
  return randomBytes(16).toString('hex');
}

function pathOf(dir: string, storedName: string): string {
  if (!storedNamePattern.test(storedName)) throw new Error(`not a stored file name: ${JSON.stringify(storedName)}`);
  return path.join(dir, storedName);
}

/** Writes a new file (never overwrites one), readable by this process's user only. */
export async function storeFile(dir: string, storedName: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(pathOf(dir, storedName), bytes, { flag: 'wx', mode: 0o600 });
}

/** The bytes, or null when the file is not there. */
export async function readStoredFile(dir: string, storedName: string): Promise<Buffer | null> {
  try {
    return await readFile(pathOf(dir, storedName));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Removes files after the rows that named them are gone; a file already missing is fine. */
export async function removeStoredFiles(dir: string, storedNames: readonly string[]): Promise<void> {
  await Promise.all(storedNames.map((name) => rm(pathOf(dir, name), { force: true })));
}
