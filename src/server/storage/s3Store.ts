/**
 * The S3 engine of the object store (objectStore.ts): a bucket of any S3-compatible service —
 * AWS S3, Aliyun OSS, MinIO, Ceph RGW — through @aws-sdk/client-s3, with @aws-sdk/lib-storage's
 * `Upload` for bodies of unknown size (docs/deployment.md, "Object storage").
 *
 * - put: bytes, or a stream of known size up to `singlePutMaxBytes`, go as one streamed
 *   PutObject (nothing buffered); a stream of unknown (or larger) size goes multipart, one part
 *   (`partSize`, 5 MiB) in memory at a time. An object appears whole or not at all.
 * - get: the body as a web stream (`transformToWebStream`); null on NoSuchKey (a missing bucket
 *   is an error, not a missing object).
 * - list, and entries (keys with size and ETag): ListObjectsV2, page by page. remove:
 *   DeleteObjects, 1000 keys a call, with Content-MD5 (MinIO and OSS refuse the SDK's default
 *   CRC32 there).
 * - Checksums only where the API requires them (`WHEN_REQUIRED`): the SDK's default adds
 *   trailing CRC32 checksums in `aws-chunked` bodies, which many S3-compatible services refuse.
 * - `prefix` (S3_PREFIX) is put before every key, so one bucket can hold several portals.
 */
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { isNetworkFailure } from '../../lib/networkErrors.ts';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import {
  checkKey,
  checkPrefix,
  isValidKey,
  ObjectStoreUnavailableError,
  type ObjectEntry,
  type ObjectStore,
  type PutOptions,
  type StoredObject,
} from './objectStore.ts';

export interface S3StoreOptions {
  bucket: string;
  /** e.g. `us-east-1`, `cn-hangzhou` (OSS), anything for MinIO (it ignores it). */
  region: string;
  /** The service's URL; omitted: AWS's endpoint for the region. */
  endpoint?: string | undefined;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO, Ceph, s3rver). */
  forcePathStyle: boolean;
  /** Both or neither; neither: the SDK's default chain (AWS_* variables, instance role…). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Put before every key, e.g. `portal/` (a trailing `/` is added when missing). */
  prefix?: string | undefined;
  /** Keys per ListObjectsV2 call, 1–1000 (default 1000; smaller in tests to see paging). */
  listPageSize?: number;
  /** Bytes per multipart part, at least 5 MiB (S3's minimum). */
  partSize?: number;
  /** A stream of known size up to this goes as one PutObject; larger ones multipart. */
  singlePutMaxBytes?: number;
  /**
   * Each call's deadline, retries included, plus a second per MiB it sends (S3_TIMEOUT_MS; 5 s);
   * a multipart upload's, for each part. A download's runs until the answer starts; its body then
   * streams under the socket's idle limit.
   */
  timeoutMs?: number;
}

const MiB = 1024 * 1024;
const deleteBatch = 1000;

/** The SDK's error shape: a `name` (the S3 error code) and the HTTP status. */
function errorInfo(error: unknown): { name: string; status: number | undefined; code: string | undefined } {
  const e = error as { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: number } };
  return {
    name: typeof e.name === 'string' ? e.name : '',
    status: e.$metadata?.httpStatusCode,
    code: typeof e.code === 'string' ? e.code : undefined,
  };
}

/**
 * The stream, failing when it yields more or fewer bytes than announced (a short body must not
 * hang a PUT). The latest chunk is held back until the next one or the end shows the length
 * right, so on a mismatch the service never receives the announced number of bytes.
 */
function exactly(
  body: ReadableStream<Uint8Array>,
  size: number,
  key: string,
): { stream: ReadableStream<Uint8Array>; failure: () => Error | undefined } {
  let seen = 0;
  let held: Uint8Array | undefined;
  let failure: Error | undefined;
  const fail = (message: string): never => {
    failure = new Error(`object ${key}: ${message}`);
    throw failure;
  };
  const stream = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > size) fail(`more than the ${size} bytes announced`);
        if (held) controller.enqueue(held);
        held = chunk;
      },
      flush(controller) {
        if (seen !== size) fail(`${seen} bytes received, ${size} announced`);
        if (held) controller.enqueue(held);
      },
    }),
  );
  // The length error is the one to report, not what the SDK made of the broken body.
  return { stream, failure: () => failure };
}

/** The SDK's names for a call that timed out. */
const timeoutNames = new Set(['TimeoutError', 'RequestTimeout']);

/** Whether an SDK error says the service could not serve the call now (rather than refused it). */
function isUnavailable(error: unknown): boolean {
  const { name, status, code } = errorInfo(error);
  return (
    (status !== undefined && status >= 500) ||
    timeoutNames.has(name) ||
    isNetworkFailure(name) ||
    isNetworkFailure(code)
  );
}

/** The SDK writes some warnings to the console unless given a logger; this module reports its own errors. */
const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function normalisedPrefix(prefix: string | undefined): string {
  if (!prefix) return '';
  const withSlash = prefix.endsWith('/') ? prefix : `${prefix}/`;
  checkPrefix(withSlash);
  return withSlash;
}

export function createS3Store(
  options: S3StoreOptions,
): ObjectStore & { readonly client: S3Client; readonly bucket: string } {
  const bucket = options.bucket;
  const keyPrefix = normalisedPrefix(options.prefix);
  const listPageSize = Math.min(1000, Math.max(1, options.listPageSize ?? 1000));
  const partSize = Math.max(5 * MiB, options.partSize ?? 5 * MiB);
  const singlePutMaxBytes = options.singlePutMaxBytes ?? 64 * MiB;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const where = `bucket "${bucket}" at ${options.endpoint ?? `AWS S3 (${options.region})`}`;
  if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined)) {
    throw new Error('S3 credentials: give both the access key id and the secret, or neither');
  }
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A dead endpoint fails in seconds, not never; a slow transfer is not cut short (socket idle only).
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
    maxAttempts: 3,
    logger: quietLogger,
  });
  const objectKey = (key: string): string => keyPrefix + checkKey(key);

  /**
   * One SDK call under its deadline (retries included): `call` gets the signal to pass on. A call
   * past it, or one the service could not serve, fails as ObjectStoreUnavailableError.
   */
  async function withDeadline<T>(
    what: string,
    call: (signal: AbortSignal) => Promise<T>,
    sentBytes = 0,
    given?: AbortSignal,
  ): Promise<T> {
    const ms = timeoutMs + Math.ceil(sentBytes / MiB) * 1000;
    const deadline = new AbortController();
    const timer = setTimeout(
      () =>
        deadline.abort(
          new ObjectStoreUnavailableError(
            `Object storage: no answer from ${where} to a ${what} within ${ms} ms (S3_TIMEOUT_MS)`,
          ),
        ),
      ms,
    );
    try {
      return await call(given ? AbortSignal.any([given, deadline.signal]) : deadline.signal);
    } catch (error) {
      if (deadline.signal.aborted) throw deadline.signal.reason;
      if (isUnavailable(error)) {
        const { name, status, code } = errorInfo(error);
        throw new ObjectStoreUnavailableError(
          status === undefined
            ? `Object storage: cannot reach ${where} (${what}): ${code ?? name}`
            : `Object storage: ${where} could not serve a ${what}: HTTP ${status} (${name})`,
          { cause: error },
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function put(
    key: string,
    body: Uint8Array | ReadableStream<Uint8Array>,
    putOptions: PutOptions = {},
  ): Promise<void> {
    const Key = objectKey(key);
    const params: PutObjectCommandInput = {
      Bucket: bucket,
      Key,
      ...(putOptions.contentType ? { ContentType: putOptions.contentType } : {}),
      ...(putOptions.cacheControl ? { CacheControl: putOptions.cacheControl } : {}),
      ...(putOptions.contentEncoding ? { ContentEncoding: putOptions.contentEncoding } : {}),
    };
    if (body instanceof Uint8Array) {
      if (putOptions.size !== undefined && putOptions.size !== body.byteLength) {
        throw new Error(`object ${key}: ${body.byteLength} bytes given, ${putOptions.size} announced`);
      }
      await withDeadline(
        'put',
        (abortSignal) =>
          client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.byteLength }), { abortSignal }),
        body.byteLength,
      );
      return;
    }
    const size = putOptions.size;
    if (size !== undefined && size <= singlePutMaxBytes) {
      // One request, the body streamed straight from the source (unsigned payload, exact length).
      const sized = exactly(body, size, key);
      const stream = Readable.fromWeb(sized.stream as NodeWebReadableStream<Uint8Array>);
      // A failing source (short, long, broken) ends the request at once instead of leaving it open.
      const abort = new AbortController();
      let sourceError: unknown;
      stream.once('error', (error) => {
        sourceError = error;
        abort.abort(error);
      });
      try {
        await withDeadline(
          'put',
          (abortSignal) =>
            client.send(new PutObjectCommand({ ...params, Body: stream, ContentLength: size }), { abortSignal }),
          size,
          abort.signal,
        );
      } catch (error) {
        throw sized.failure() ?? sourceError ?? error;
      } finally {
        stream.destroy();
      }
      return;
    }
    const sized = size === undefined ? undefined : exactly(body, size, key);
    const source = sized?.stream ?? body;
    const abort = new AbortController();
    const upload = new Upload({
      client,
      params: { ...params, Body: source, ...(size === undefined ? {} : { ContentLength: size }) },
      // One part in flight: memory stays at about one part, whatever the object's size.
      queueSize: 1,
      partSize,
      leavePartsOnError: false,
      abortController: abort,
    });
    // Each part has the deadline of a call sending a part: the watch starts again at every part sent.
    const partMs = timeoutMs + Math.ceil(partSize / MiB) * 1000;
    let stalled: ObjectStoreUnavailableError | undefined;
    const stall = () => {
      stalled = new ObjectStoreUnavailableError(
        `Object storage: no answer from ${where} to an upload's part within ${partMs} ms (S3_TIMEOUT_MS)`,
      );
      abort.abort(stalled);
    };
    let watch = setTimeout(stall, partMs);
    upload.on('httpUploadProgress', () => {
      clearTimeout(watch);
      watch = setTimeout(stall, partMs);
    });
    try {
      await upload.done();
    } catch (error) {
      await source.cancel(error).catch(() => {});
      if (stalled) throw stalled;
      if (isUnavailable(error))
        throw new ObjectStoreUnavailableError(
          `Object storage: cannot reach ${where} (upload): ${errorInfo(error).code ?? errorInfo(error).name}`,
          {
            cause: error,
          },
        );
      throw sized?.failure() ?? error;
    } finally {
      clearTimeout(watch);
    }
  }

  async function get(key: string): Promise<StoredObject | null> {
    try {
      const Key = objectKey(key);
      const answer = await withDeadline('get', (abortSignal) =>
        client.send(new GetObjectCommand({ Bucket: bucket, Key }), { abortSignal }),
      );
      if (!answer.Body) throw new Error(`object ${key}: no body in the answer`);
      return {
        body: answer.Body.transformToWebStream() as ReadableStream<Uint8Array>,
        size: answer.ContentLength ?? 0,
      };
    } catch (error) {
      const { name, status } = errorInfo(error);
      if (name === 'NoSuchKey' || (status === 404 && name !== 'NoSuchBucket')) return null;
      throw error;
    }
  }

  async function remove(keys: readonly string[]): Promise<void> {
    const objectKeys = keys.map(objectKey);
    for (let start = 0; start < objectKeys.length; start += deleteBatch) {
      const batch = objectKeys.slice(start, start + deleteBatch);
      const answer = await withDeadline('delete', (abortSignal) =>
        client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            ChecksumAlgorithm: 'MD5',
          }),
          { abortSignal },
        ),
      );
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        throw new Error(
          `S3 DeleteObjects: ${failed.length} of ${batch.length} objects not removed (first: ${failed[0]?.Code ?? '?'})`,
        );
      }
    }
  }

  async function entries(prefix: string): Promise<ObjectEntry[]> {
    const Prefix = keyPrefix + checkPrefix(prefix);
    const found: ObjectEntry[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await withDeadline('list', (abortSignal) =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix,
            MaxKeys: listPageSize,
            ...(ContinuationToken ? { ContinuationToken } : {}),
          }),
          { abortSignal },
        ),
      );
      for (const item of page.Contents ?? []) {
        const key = item.Key?.slice(keyPrefix.length);
        // Objects put there by other means, under names no key may have, are not ours.
        if (key !== undefined && isValidKey(key))
          found.push({ key, size: item.Size ?? 0, etag: item.ETag?.replace(/^(W\/)?"|"$/g, '') });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async function list(prefix: string): Promise<string[]> {
    return (await entries(prefix)).map((entry) => entry.key);
  }

  async function check(): Promise<void> {
    try {
      await withDeadline('check', (abortSignal) =>
        client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal }),
      );
    } catch (error) {
      if (error instanceof ObjectStoreUnavailableError) throw error;
      const { name, status, code } = errorInfo(error);
      if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket') {
        throw new Error(`Object storage: ${where} does not exist (S3_BUCKET, S3_ENDPOINT, S3_REGION)`, {
          cause: error,
        });
      }
      if (status === 403 || status === 401) {
        throw new Error(
          `Object storage: access to ${where} refused (HTTP ${status}): check S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY and the bucket's policy (s3:ListBucket, s3:GetObject, s3:PutObject, s3:DeleteObject)`,
          { cause: error },
        );
      }
      if (name === 'CredentialsProviderError') {
        throw new Error(
          `Object storage: no credentials for ${where}: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or give the process an AWS role or profile`,
          { cause: error },
        );
      }
      if (status === 301 || status === 400) {
        throw new Error(`Object storage: ${where} answered HTTP ${status}: check S3_REGION and S3_FORCE_PATH_STYLE`, {
          cause: error,
        });
      }
      throw new Error(
        `Object storage: cannot reach ${where}: ${code ?? name ?? 'error'}${status ? ` (HTTP ${status})` : ''}`,
        { cause: error },
      );
    }
  }

  return { kind: 's3', client, bucket, put, get, remove, list, entries, check };
}
