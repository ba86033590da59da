import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { compressible } from '../lib/site/fileHeaders.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Below this a compressed copy saves less than the extra lookup costs. */
const minBytes = 256;

/** Files compressed at once (per call): zlib's work runs on libuv's pool (four threads), so the cores stay busy. */
const parallelFiles = 4;

/** Every compressible file under `root` (hidden files aside). */
export async function compressibleFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && compressible.test(entry.name) && !entry.name.startsWith('.'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Writes the `.br` and `.gz` of each of `files` (those of at least `minBytes`); answers how many. */
export async function compressFiles(files: readonly string[], onDone?: (done: number) => void): Promise<number> {
  let count = 0;
  let done = 0;
  let next = 0;
  const compressOne = async (file: string) => {
    const content = await readFile(file);
    if (content.length < minBytes) return;
    const [br, gzipped] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gz(content, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
    count += 1;
  };
  const lane = async () => {
    for (let index = next++; index < files.length; index = next++) {
      await compressOne(files[index] as string);
      done += 1;
      onDone?.(done);
    }
  };
  await Promise.all(Array.from({ length: parallelFiles }, lane));
  return count;
}
