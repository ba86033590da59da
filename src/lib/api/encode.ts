/**
 * How request data becomes a query string, a form body or a multipart body (spec section 7).
 * Pure functions, no DOM beyond FormData/Blob, unit-tested in tests/unit/api-encode.test.ts.
 *
 * Rules shared by all encoders: `null` and `undefined` fields are left out; a Date is sent as its
 * ISO string; numbers, booleans and bigints as their String().
 */

/** Plain request data: field name → value. */
export type RequestData = Readonly<Record<string, unknown>>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * Flattens data for a query string: arrays are joined by commas, nested plain objects become
 * `key.subkey` (to any depth), null/undefined are skipped (inside arrays too), an empty array is
 * left out. Used for GET parameters and for downloads.
 */
export function flattenQuery(data: RequestData, prefix = ''): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(data)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      const items = value.filter((item) => item !== null && item !== undefined);
      if (items.length > 0) pairs.push([name, items.map(scalar).join(',')]);
    } else if (isPlainObject(value)) {
      pairs.push(...flattenQuery(value, name));
    } else {
      pairs.push([name, scalar(value)]);
    }
  }
  return pairs;
}

/**
 * The query string (without `?`) for a download or GET: flattened as above, percent-encoded with
 * encodeURIComponent (a space is `%20`, which every server decodes the same way).
 * @example toDownloadQuery({ ids: [1, 2], range: { start: '2024-01' } }) // 'ids=1%2C2&range.start=2024-01'
 */
export function toDownloadQuery(data: RequestData = {}): string {
  return flattenQuery(data)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
}

/** Appends the flattened data to a URL as its query string (keeping a query it already has). */
export function withQuery(url: string, data?: RequestData): string {
  const query = data ? toDownloadQuery(data) : '';
  if (!query) return url;
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${joiner}${query}${hash}`;
}

/**
 * The default body: `application/x-www-form-urlencoded`. Scalars as strings; arrays and plain
 * objects as JSON strings in their field — so a table request can be passed either already
 * stringified (`{ antTable: JSON.stringify(req) }`) or as an object (`{ antTable: req }`), and
 * the server receives the same JSON string in the `antTable` field either way.
 */
export function toFormBody(data: RequestData = {}): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    if (value === null || value === undefined) continue;
    body.append(key, scalar(value));
  }
  return body;
}

/**
 * The multipart body of an upload: File/Blob values are appended as files (a File keeps its
 * name); an array appends each of its items under the same field name (several files in one
 * field); other values as in the form body; null/undefined skipped. A FormData is used as is.
 */
export function toMultipart(data: RequestData | FormData = {}): FormData {
  if (data instanceof FormData) return data;
  const form = new FormData();
  const append = (key: string, value: unknown): void => {
    if (value === null || value === undefined) return;
    if (value instanceof Blob) {
      if (value instanceof File) form.append(key, value, value.name);
      else form.append(key, value);
    } else {
      form.append(key, scalar(value));
    }
  };
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) {
      for (const item of value) append(key, item);
    } else {
      append(key, value);
    }
  }
  return form;
}
