/**
 * `npm run bucket-sync -- <from> <to>`: copies a bucket's objects to a local directory, a
 * directory's files to a bucket, or one bucket's objects to another — the stand-in for
 * `aws s3 sync` / `rclone copy` on a machine that has neither (docs/operations.md). The backup and
 * the restore of the portal's object store use it, and so does the restore drill in CI.
 *
 * Same rules as `aws s3 sync` without `--delete`: an object is copied when the destination lacks
 * its key, has it with another size, or has an older copy (times compared to the second); nothing
 * is ever deleted at the destination, so a backup directory keeps every object it ever received.
 * Bodies are streamed (a large object goes multipart, a few parts in memory at most); listings are
 * paged. Ends with one summary line (objects copied and their bytes, objects unchanged, failures);
 * exits 1 when any copy failed, after trying every other.
 *
 * A bucket is `s3://BUCKET[/PREFIX]`, reached with the portal's own connection settings
 * (S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE) and the
 * portal's S3 client (src/server/storage/s3Store.ts). Anything else is a directory, created when
 * missing. A key `a/b/c` is the file `DIR/a/b/c`.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import { createS3Store } from '../src/server/storage/s3Store.ts';

/** An object (or file) as a listing shows it. */
interface Entry {
  key: string;
  size: number;
  modified: Date;
}

/** What is kept with an object besides its bytes (the CDN bucket's headers; a directory keeps none). */
interface ObjectHeaders {
  contentType?: string | undefined;
  cacheControl?: string | undefined;
  contentEncoding?: string | undefined;
}

interface Source {
  body: Readable;
  size: number;
  headers: ObjectHeaders;
}

/** One end of a copy: a bucket (under a prefix) or a directory. */
interface Location {
  readonly name: string;
  list(): Promise<Entry[]>;
  read(key: string): Promise<Source>;
  write(key: string, source: Source, modified: Date): Promise<void>;
}

export interface SyncSummary {
  copied: number;
  bytes: number;
  unchanged: number;
  failed: { key: string; reason: string }[];
  ms: number;
}

/** Objects copied at once: the work is waiting on the network and the disk, not the CPU. */
const parallelCopies = 4;
const MiB = 1024 * 1024;
/** Up to this a body goes as one streamed PutObject; above it, multipart (S3 allows one PUT up to 5 GiB). */
const singlePutMaxBytes = 64 * MiB;
const partSize = 16 * MiB;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** A key that names a file inside the directory (no empty, `.` or `..` segment, no `\` or NUL). */
function safeRelativePath(key: string): boolean {
  return (
    !/[\\\0]/.test(key) && key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

function bucketLocation(client: S3Client, bucket: string, prefix: string): Location {
  return {
    name: `s3://${bucket}/${prefix}`,
    async list() {
      const found: Entry[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(ContinuationToken ? { ContinuationToken } : {}),
          }),
        );
        for (const item of page.Contents ?? []) {
          const key = item.Key?.slice(prefix.length);
          // A console's "folder" marker (`a/`, empty) is no object of ours.
          if (!key || key.endsWith('/')) continue;
          found.push({ key, size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
    async read(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
      if (!answer.Body) throw new Error('no body in the answer');
      return {
        body: Readable.fromWeb(answer.Body.transformToWebStream() as NodeWebReadableStream<Uint8Array>),
        size: answer.ContentLength ?? 0,
        headers: {
          contentType: answer.ContentType,
          cacheControl: answer.CacheControl,
          contentEncoding: answer.ContentEncoding,
        },
      };
    },
    async write(key, source) {
      const params = {
        Bucket: bucket,
        Key: prefix + key,
        ...(source.headers.contentType ? { ContentType: source.headers.contentType } : {}),
        ...(source.headers.cacheControl ? { CacheControl: source.headers.cacheControl } : {}),
        ...(source.headers.contentEncoding ? { ContentEncoding: source.headers.contentEncoding } : {}),
      };
      if (source.size <= singlePutMaxBytes) {
        await client.send(new PutObjectCommand({ ...params, Body: source.body, ContentLength: source.size }));
        return;
      }
      await new Upload({
        client,
        params: { ...params, Body: source.body },
        partSize,
        queueSize: 2,
        leavePartsOnError: false,
      }).done();
    },
  };
}

function directoryLocation(dir: string): Location {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    if (!safeRelativePath(key)) throw new Error(`the key cannot be a file name under ${root}`);
    return path.join(root, ...key.split('/'));
  };
  return {
    name: root,
    async list() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return [];
          throw error;
        },
      );
      const found: Entry[] = [];
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const info = await stat(file);
        found.push({ key: path.relative(root, file).split(path.sep).join('/'), size: info.size, modified: info.mtime });
      }
      return found;
    },
    async read(key) {
      const file = fileOf(key);
      const info = await stat(file);
      return { body: createReadStream(file), size: info.size, headers: {} };
    },
    async write(key, source, modified) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await pipeline(source.body, createWriteStream(file, { mode: 0o600 }));
      // The object's time, so that the next run sees the copy as current (as `aws s3 sync` does).
      await utimes(file, modified, modified);
    },
  };
}

/** The S3_* connection settings, as the portal reads them (docs/deployment.md, "Object storage"). */
function bucketClient(env: NodeJS.ProcessEnv, bucket: string): S3Client {
  const endpoint = env['S3_ENDPOINT'] || undefined;
  const pathStyle = env['S3_FORCE_PATH_STYLE'];
  const yes = ['1', 'true', 'yes', 'on'];
  const no = ['0', 'false', 'no', 'off'];
  if (pathStyle !== undefined && !yes.includes(pathStyle) && !no.includes(pathStyle)) {
    throw new Error(`S3_FORCE_PATH_STYLE="${pathStyle}": use true or false`);
  }
  return createS3Store({
    bucket,
    endpoint,
    region: env['S3_REGION'] || 'us-east-1',
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : yes.includes(pathStyle),
    accessKeyId: env['S3_ACCESS_KEY_ID'] || undefined,
    secretAccessKey: env['S3_SECRET_ACCESS_KEY'] || undefined,
  }).client;
}

/** `s3://BUCKET[/PREFIX]` or a directory. */
export function locationOf(argument: string, env: NodeJS.ProcessEnv = process.env): Location {
  const bucketUrl = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(argument);
  if (!bucketUrl) return directoryLocation(argument);
  const bucket = bucketUrl[1]!;
  const rest = bucketUrl[2] ?? '';
  const prefix = rest === '' || rest.endsWith('/') ? rest : `${rest}/`;
  return bucketLocation(bucketClient(env, bucket), bucket, prefix);
}

/** The copies `from` → `to` needs: missing there, another size, or older there (to the second). */
function copiesNeeded(from: Entry[], to: Entry[]): { copy: Entry[]; unchanged: number } {
  const there = new Map(to.map((entry) => [entry.key, entry]));
  const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
  const copy = from.filter((entry) => {
    const other = there.get(entry.key);
    return !other || other.size !== entry.size || seconds(entry.modified) > seconds(other.modified);
  });
  return { copy, unchanged: from.length - copy.length };
}

export async function syncObjects(from: Location, to: Location): Promise<SyncSummary> {
  const started = performance.now();
  const listed = (location: Location) =>
    location.list().catch((error: unknown) => {
      throw new Error(`${location.name}: ${reasonOf(error)}`, { cause: error });
    });
  const [sourceEntries, targetEntries] = await Promise.all([listed(from), listed(to)]);
  const { copy, unchanged } = copiesNeeded(sourceEntries, targetEntries);
  const summary: SyncSummary = { copied: 0, bytes: 0, unchanged, failed: [], ms: 0 };
  let next = 0;
  const copier = async () => {
    for (let entry = copy[next++]; entry; entry = copy[next++]) {
      try {
        const source = await from.read(entry.key);
        await to.write(entry.key, source, entry.modified);
        summary.copied += 1;
        summary.bytes += source.size;
      } catch (error) {
        summary.failed.push({ key: entry.key, reason: reasonOf(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: parallelCopies }, copier));
  summary.ms = Math.round(performance.now() - started);
  return summary;
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function summaryLine(from: Location, to: Location, summary: SyncSummary): string {
  return (
    `bucket-sync: ${summary.copied} objects copied (${megabytes(summary.bytes)}), ${summary.unchanged} unchanged, ` +
    `${summary.failed.length} failed: ${from.name} → ${to.name} in ${(summary.ms / 1000).toFixed(1)} s`
  );
}

const usage = `Usage: npm run bucket-sync -- <from> <to>

Copies every object of <from> that <to> lacks, has with another size, or has an older copy of.
Deletes nothing. Each of <from> and <to> is
  s3://BUCKET[/PREFIX]   a bucket, reached with S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,
                         S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE (the portal's settings)
  DIRECTORY              a local directory (created when missing)
Prints one summary line; exits 1 when a copy failed.
`;

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(usage);
    return 0;
  }
  if (argv.length !== 2) {
    process.stderr.write(usage);
    return 2;
  }
  try {
    const from = locationOf(argv[0]!);
    const to = locationOf(argv[1]!);
    const summary = await syncObjects(from, to);
    for (const failure of summary.failed.slice(0, 20))
      process.stderr.write(`  not copied: ${failure.key}: ${failure.reason}\n`);
    process.stdout.write(`${summaryLine(from, to, summary)}\n`);
    return summary.failed.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`bucket-sync: ${reasonOf(error)}\n`);
    return 1;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.filename === process.argv[1];
if (isMain) process.exitCode = await main(process.argv.slice(2));
