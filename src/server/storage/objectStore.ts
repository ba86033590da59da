/**
 * Where files that every API process must see are kept: uploaded certification files and the
 * published site builds. One interface, two engines chosen by configuration (STORAGE):
 *
 * - `local` (default, the embedded setup): a directory under DATA_DIR; a key is a relative path
 *   (storage/localStore.ts).
 * - `s3`: a bucket of any S3-compatible object store (AWS S3, Aliyun OSS, MinIO, Ceph RGW)
 *   (storage/s3Store.ts).
 *
 * Keys are built by the server only (`uploads/<32 hex>`, `site/builds/<id>.tar`), never taken from
 * a request, and checked against `keyPattern` by both engines all the same. Bodies stream in and
 * out; no engine holds a whole object in memory.
 */

export interface PutOptions {
  /**
   * Bytes in the body, when known: the S3 engine then sends one streamed PUT; unknown sizes go
   * multipart. A body of another length fails the put (and replaces nothing).
   */
  size?: number;
  /** Kept with the object on S3 (the CDN serves it); the local engine does not keep it. */
  contentType?: string;
  cacheControl?: string;
  contentEncoding?: string;
}

export interface StoredObject {
  body: ReadableStream<Uint8Array>;
  size: number;
}

/** An object as a listing reports it. */
export interface ObjectEntry {
  key: string;
  size: number;
  /** The service's ETag without quotes; for an object put in one request on S3, MinIO, OSS: its MD5 in hex. */
  etag: string | undefined;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Writes an object, replacing one with the same key; readers see the old or the new object, never a part. */
  put(key: string, body: Uint8Array | ReadableStream<Uint8Array>, options?: PutOptions): Promise<void>;
  /** The object's bytes as a stream, or null when there is none. Read or cancel the stream. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes objects; a key already missing is fine. */
  remove(keys: readonly string[]): Promise<void>;
  /** Keys that start with `prefix` (`''`: all), in byte order. */
  list(prefix: string): Promise<string[]>;
  /** The same with each object's size and ETag (S3 engine only; the CDN upload skips unchanged files with it). */
  entries?(prefix: string): Promise<ObjectEntry[]>;
  /**
   * Throws with a message a person can act on when the store cannot be used (S3: the bucket is
   * missing or the credentials cannot reach it). Run once at start.
   */
  check?(): Promise<void>;
}

/** A key segment: letters, digits, `.`, `_`, `-` (not `.` or `..` alone). */
const segmentPattern = /^[A-Za-z0-9._-]+$/;
/** Keys are short; S3 allows 1024 bytes, including S3_PREFIX. */
export const maxKeyLength = 512;

/**
 * The store did not answer within its deadline, could not be reached, or answered that it cannot
 * serve now (HTTP 5xx): the call answers 503 `api.busy` (envelope.ts) and may succeed later.
 */
export class ObjectStoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ObjectStoreUnavailableError';
  }
}

export class InvalidKeyError extends Error {
  constructor(key: string, what = 'object key') {
    super(`not a valid ${what}: ${JSON.stringify(key.slice(0, 100))}`);
    this.name = 'InvalidKeyError';
  }
}

export function isValidSegment(segment: string): boolean {
  return segmentPattern.test(segment) && segment !== '.' && segment !== '..';
}

/**
 * A key: relative, segments of `[A-Za-z0-9._-]` separated by single `/` (no leading or trailing
 * `/`, no empty, `.` or `..` segment), at most `maxKeyLength` characters.
 */
export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= maxKeyLength && key.split('/').every(isValidSegment);
}

export function checkKey(key: string): string {
  if (!isValidKey(key)) throw new InvalidKeyError(key);
  return key;
}

/**
 * A list prefix: `''`, or a key's beginning — whole segments separated by `/`, the last one
 * possibly partial or empty (`uploads/`, `site/builds/12`).
 */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const segments = prefix.split('/');
  const last = segments.pop() ?? '';
  const valid =
    prefix.length <= maxKeyLength &&
    segments.every(isValidSegment) &&
    (last === '' ? segments.length > 0 : segmentPattern.test(last));
  if (!valid) throw new InvalidKeyError(prefix, 'object key prefix');
  return prefix;
}
