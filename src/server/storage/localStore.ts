/**
 * The local engine of the object store (objectStore.ts): a directory, DATA_DIR in the embedded
 * setup, where a key is a relative path — `uploads/<name>` is DATA_DIR/uploads/<name>, where the
 * certification files always were, so an existing install needs no migration.
 *
 * - Keys are checked (objectStore.ts `checkKey`) before any path is built from them.
 * - A put streams into a temporary file in the target's directory (mode 0600; directories made
 *   0700), flushed to disk, then renamed over the key: readers see the old or the new file, never
 *   a part, and a failed put leaves nothing behind. Temporary names hold a `~`, which no key may,
 *   so `list` never reports them.
 * - `list` walks the prefix's directory; symbolic links are neither followed nor listed.
 * - PutOptions' content type, cache control and encoding are not kept (the database keeps what
 *   the download needs).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type Dirent } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import {
  checkKey,
  checkPrefix,
  isValidSegment,
  type ObjectStore,
  type PutOptions,
  type StoredObject,
} from './objectStore.ts';

const missingCodes = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function isMissing(error: unknown): boolean {
  return missingCodes.has((error as NodeJS.ErrnoException).code ?? '');
}

export function createLocalStore(root: string): ObjectStore {
  const base = path.resolve(root);
  const pathOf = (key: string): string => path.join(base, ...checkKey(key).split('/'));

  async function put(
    key: string,
    body: Uint8Array | ReadableStream<Uint8Array>,
    options: PutOptions = {},
  ): Promise<void> {
    const file = pathOf(key);
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(8).toString('hex')}~tmp`);
    try {
      if (body instanceof Uint8Array) {
        await writeFile(temp, body, { flag: 'wx', mode: 0o600, flush: true });
      } else {
        const source = Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>);
        await pipeline(source, createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true }));
      }
      if (options.size !== undefined) {
        const written = (await stat(temp)).size;
        if (written !== options.size)
          throw new Error(`object ${key}: ${written} bytes received, ${options.size} announced`);
      }
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async function get(key: string): Promise<StoredObject | null> {
    const file = pathOf(key);
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      // The stream owns the handle from here: it closes it at the end, on an error or on cancel.
      const stream = handle.createReadStream({ highWaterMark: 64 * 1024 });
      return { body: Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>, size: info.size };
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  async function remove(keys: readonly string[]): Promise<void> {
    const files = keys.map(pathOf);
    await Promise.all(files.map((file) => rm(file, { force: true })));
  }

  async function list(prefix: string): Promise<string[]> {
    checkPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash < 0 ? '' : prefix.slice(0, slash);
    const rest = prefix.slice(slash + 1);
    const keys: string[] = [];
    const walk = async (dir: string, keyOfDir: string, filter: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const entry of entries) {
        if (!isValidSegment(entry.name) || !entry.name.startsWith(filter)) continue;
        const key = keyOfDir === '' ? entry.name : `${keyOfDir}/${entry.name}`;
        if (entry.isDirectory()) await walk(path.join(dir, entry.name), key, '');
        else if (entry.isFile()) keys.push(key);
      }
    };
    await walk(dirKey === '' ? base : path.join(base, ...dirKey.split('/')), dirKey, rest);
    // Keys are ASCII, so UTF-16 order is byte order (S3's order).
    return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  return { kind: 'local', put, get, remove, list };
}
