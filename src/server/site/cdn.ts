/**
 * The CDN upload (docs/deployment.md, "The CDN"): a build's `dist/` copied into the bucket a CDN
 * serves (CDN_S3_BUCKET), with the headers our own server gives the same files (static.ts), before
 * the build is published (rebuild.ts: after a rebuild, and on a rollback).
 *
 * - Every file under its own path as key (`welcome/home/index.html`), Content-Type by extension
 *   and Cache-Control by path by the rules static.ts serves them with (src/lib/site/fileHeaders.ts):
 *   `_astro/*` immutable for a year, HTML `no-cache`, the rest an hour. Hidden files
 *   (`.build-stamp`) are not uploaded, as static.ts does not serve them.
 * - Precompressed siblings (`x.html.br`, `x.html.gz`) under their own keys, with
 *   `Content-Encoding: br` / `gzip` and the original's Content-Type and Cache-Control, so an edge
 *   rule can pick one by Accept-Encoding. A file of a compressible type (fileHeaders.ts's list) that
 *   lacks a sibling — the build skips files under 256 bytes — gets one made here, so that the edge
 *   rule is a function of the address alone: every compressible key has `.br` and `.gz`.
 * - Order: hashed assets (`_astro/`) first, then every other non-HTML file, HTML last, each group
 *   finished before the next starts, so no page in the bucket refers to an asset not there yet.
 * - At most `concurrency` (8) puts at a time; bodies up to 1 MiB read whole, larger ones streamed
 *   from disk: memory stays at a few MiB whatever the size of the build.
 * - Unchanged files are skipped: one listing of the bucket (size and ETag of each object) and the
 *   MD5 of a file whose size matches; an object put in one request has its MD5 as ETag on S3, OSS,
 *   MinIO and Ceph (anything else simply never matches). The headers are not in a listing, so
 *   skipping holds only while the header rules are those of the last complete upload: a marker
 *   object (`.cdn-upload.json`, written last) keeps their fingerprint, and without a matching one
 *   everything is uploaded again.
 * - The first failure stops the upload (puts in flight finish) with an error naming the file.
 * - Pages go up as built, with their Content-Security-Policy `<meta>`. The headers a bucket cannot
 *   send (`frame-ancestors`, which no `<meta>` can carry, first of all) are the CDN's to add
 *   (docs/deployment.md, "Security headers").
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import {
  cacheControl,
  cacheControlOf,
  compressible,
  contentTypeOf,
  contentTypes,
  extensionOf,
  hashedAssetPrefix,
} from '../../lib/site/fileHeaders.ts';
import type { S3Config } from '../config.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { createS3Store } from '../storage/s3Store.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The object written after a complete upload: what it held and under which header rules. */
export const cdnMarkerKey = '.cdn-upload.json';
/** Bodies up to this size are read whole (one PutObject with bytes); larger ones are streamed. */
const wholeBodyMax = 1024 * 1024;

export type CdnPhase = 'hashed assets' | 'other files' | 'pages';
const phases: readonly CdnPhase[] = ['hashed assets', 'other files', 'pages'];

export interface CdnUploadOptions {
  /** Puts at a time (default 8). */
  concurrency?: number;
  /** Skip files the bucket already holds with the same bytes (default true; needs `store.entries`). */
  skipUnchanged?: boolean;
  /** Written into the marker object, to tell which build the bucket holds. */
  buildId?: number;
  /** Told the objects done (put or skipped) so far, of how many. */
  onProgress?: (done: number, total: number) => void;
}

export interface CdnUploadResult {
  /** Objects the build has in the bucket now (files, their siblings, siblings made here). */
  objects: number;
  /** Of those, put by this upload. */
  uploaded: number;
  /** Of those, already there with the same bytes. */
  skipped: number;
  /** Siblings made here for small files the build did not compress. */
  generated: number;
  /** Bytes put. */
  bytes: number;
  ms: number;
}

export class CdnUploadError extends Error {
  /** The file of the build (relative to dist/) whose upload failed. */
  readonly file: string;
  constructor(file: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CdnUploadError';
    this.file = file;
  }
}

interface Item {
  /** Key and path under dist/, `/`-separated. */
  key: string;
  phase: CdnPhase;
  contentType: string;
  cacheControl: string;
  encoding: 'br' | 'gzip' | undefined;
  /** Made here from this file of dist/ (a missing sibling), rather than read from `key`. */
  madeFrom: string | undefined;
}

/** The header rules in force; a change makes the next upload put every file again. */
export function cdnPolicyFingerprint(): string {
  const rules = {
    version: 1,
    contentTypes,
    cacheControl,
    compressible: compressible.source,
    immutable: hashedAssetPrefix,
  };
  return createHash('sha256').update(JSON.stringify(rules)).digest('hex');
}

function isHidden(relative: string): boolean {
  return relative.split('/').some((segment) => segment.startsWith('.') && segment !== '.well-known');
}

/** What to put for a build directory, in upload order (keys sorted within a phase). */
export async function planCdnUpload(distDir: string): Promise<Item[]> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  const files = new Set(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .filter((relative) => !isHidden(relative)),
  );
  const items: Item[] = [];
  const describe = (original: string) => ({
    phase: (`/${original}`.startsWith(hashedAssetPrefix)
      ? 'hashed assets'
      : extensionOf(original) === '.html'
        ? 'pages'
        : 'other files') as CdnPhase,
    contentType: contentTypeOf(original),
    cacheControl: cacheControlOf(`/${original}`),
  });
  for (const file of files) {
    const sibling = /^(.+)\.(br|gz)$/.exec(file);
    const original = sibling?.[1];
    if (sibling && original !== undefined && files.has(original)) {
      items.push({
        key: file,
        ...describe(original),
        encoding: sibling[2] === 'br' ? 'br' : 'gzip',
        madeFrom: undefined,
      });
      continue;
    }
    items.push({ key: file, ...describe(file), encoding: undefined, madeFrom: undefined });
    if (compressible.test(file)) {
      for (const [suffix, encoding] of [
        ['.br', 'br'],
        ['.gz', 'gzip'],
      ] as const) {
        if (!files.has(file + suffix)) items.push({ key: file + suffix, ...describe(file), encoding, madeFrom: file });
      }
    }
  }
  const byKey = (a: Item, b: Item) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return phases.flatMap((phase) => items.filter((item) => item.phase === phase).sort(byKey));
}

async function compress(source: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (encoding === 'gzip') return gz(source, { level: 9 });
  const quality = source.byteLength <= wholeBodyMax ? zlibConstants.BROTLI_MAX_QUALITY : 5;
  return brotli(source, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.byteLength,
    },
  });
}

function md5(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readText(store: ObjectStore, key: string): Promise<string | undefined> {
  const found = await store.get(key);
  if (!found) return undefined;
  return new Response(found.body).text();
}

/** What the bucket holds now (key → size and MD5), when skipping is possible; else an empty map. */
async function inventory(
  store: ObjectStore,
  fingerprint: string,
): Promise<Map<string, { size: number; etag: string | undefined }>> {
  const known = new Map<string, { size: number; etag: string | undefined }>();
  if (!store.entries) return known;
  const marker = await readText(store, cdnMarkerKey).catch(() => undefined);
  let policy: unknown;
  try {
    policy = marker === undefined ? undefined : (JSON.parse(marker) as { policy?: unknown }).policy;
  } catch {
    policy = undefined;
  }
  if (policy !== fingerprint) return known;
  for (const entry of await store.entries(''))
    known.set(entry.key, { size: entry.size, etag: entry.etag?.toLowerCase() });
  return known;
}

/** Runs `work` over `items`, `concurrency` at a time; the first failure stops new work and is thrown once the rest settled. */
async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (failures.length === 0 && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

/**
 * Copies a build's `dist/` into the CDN bucket: assets first, pages last (see above). Throws a
 * CdnUploadError naming the file whose put failed; objects put until then stay.
 */
export async function uploadToCdn(
  store: ObjectStore,
  distDir: string,
  options: CdnUploadOptions = {},
): Promise<CdnUploadResult> {
  const started = performance.now();
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const fingerprint = cdnPolicyFingerprint();
  const plan = await planCdnUpload(distDir);
  const known =
    options.skipUnchanged === false
      ? new Map<string, { size: number; etag: string | undefined }>()
      : await inventory(store, fingerprint);
  const result: CdnUploadResult = { objects: plan.length, uploaded: 0, skipped: 0, generated: 0, bytes: 0, ms: 0 };

  async function upload(item: Item): Promise<void> {
    const file = path.join(distDir, ...(item.madeFrom ?? item.key).split('/'));
    let body: Uint8Array | undefined;
    let size: number;
    if (item.madeFrom !== undefined) {
      body = await compress(await readFile(file), item.encoding ?? 'gzip');
      size = body.byteLength;
    } else {
      size = (await stat(file)).size;
      if (size <= wholeBodyMax) body = await readFile(file);
    }
    const stored = known.get(item.key);
    if (
      stored &&
      stored.size === size &&
      stored.etag !== undefined &&
      stored.etag === (body ? md5(body) : await md5OfFile(file))
    ) {
      result.skipped += 1;
      return;
    }
    await store.put(item.key, body ?? (Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>), {
      size,
      contentType: item.contentType,
      cacheControl: item.cacheControl,
      ...(item.encoding ? { contentEncoding: item.encoding } : {}),
    });
    result.uploaded += 1;
    if (item.madeFrom !== undefined) result.generated += 1;
    result.bytes += size;
  }

  let done = 0;
  options.onProgress?.(0, plan.length);
  const attempt = async (item: Item) => {
    try {
      await upload(item);
      options.onProgress?.((done += 1), plan.length);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const what = item.madeFrom === undefined ? item.key : `${item.key} (made from ${item.madeFrom})`;
      throw new CdnUploadError(item.madeFrom ?? item.key, `CDN upload stopped at ${what}: ${reason}`, { cause: error });
    }
  };
  for (const phase of phases) {
    await pool(
      plan.filter((item) => item.phase === phase),
      concurrency,
      attempt,
    );
  }

  const marker = JSON.stringify({
    policy: fingerprint,
    buildId: options.buildId ?? null,
    uploadedAt: new Date().toISOString(),
    objects: plan.length,
  });
  await store.put(cdnMarkerKey, new TextEncoder().encode(marker), {
    contentType: 'application/json; charset=utf-8',
    cacheControl: 'no-store',
  });
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** The CDN bucket's store (CDN_S3_BUCKET with the S3_* connection), or undefined when none is configured. */
export function cdnStoreFromConfig(config: { cdn: S3Config | undefined }): ObjectStore | undefined {
  const cdn = config.cdn;
  if (!cdn) return undefined;
  return createS3Store({
    endpoint: cdn.endpoint,
    region: cdn.region,
    bucket: cdn.bucket,
    forcePathStyle: cdn.forcePathStyle,
    accessKeyId: cdn.accessKeyId,
    secretAccessKey: cdn.secretAccessKey,
    prefix: cdn.prefix,
    timeoutMs: cdn.timeoutMs,
  });
}
