/**
 * What the API fuzz test (fuzz.test.ts) builds on, so that it needs no list of calls of its own:
 * - `enumerateRoutes`: every endpoint the Hono app registered (a route added later is fuzzed with
 *   no change here);
 * - `loadSchemaCatalogue`: every field name (and enum / literal / default value) of every zod
 *   schema exported by src/lib/schemas/*.ts, and the tables' column names;
 * - `routeInputs`: which of those schemas each endpoint validates, read from the source of the
 *   module's `create…Routes` function (the `validate(c, schema, …)` calls between one route
 *   registration and the next), so each endpoint gets its own field names first;
 * - a small request model (`Val`, `Payload`) and its encodings: query string, form-urlencoded,
 *   JSON and multipart, with raw bytes that `encodeURIComponent` / `JSON.stringify` would refuse
 *   or normalise (lone surrogates, overlong UTF-8, `__proto__` keys, number tokens beyond int8).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type { Hono } from 'hono';
import type { ApiModule } from '../../src/server/routes/index.ts';

// ---------------------------------------------------------------------------------------------
// Routes

export type FuzzMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface FuzzRoute {
  method: FuzzMethod;
  /** The path as registered (`/api/*` keeps its star; `pathFor` fills it in). */
  path: string;
  /** The method it was registered under (`ALL` endpoints are fuzzed as GET and POST). */
  registeredAs: string;
}

export interface SkippedRoute {
  method: string;
  path: string;
  reason: string;
}

/**
 * The endpoints of the app, one per (method, path). `app.routes` lists every handler Hono
 * registered, middleware included; an entry is skipped only when it is middleware:
 * - `use()` registrations (`ALL /*`, `ALL /api/*`: request log, security headers, locale,
 *   no-store, CSRF, body limit, session) and route-level `use`/guards registered under `ALL`
 *   (e.g. the rebuild token check): a middleware handler takes `(c, next)` and is not an
 *   endpoint — its behaviour is exercised through every endpoint behind it;
 * - guards registered with a method (`requireSession`, `requireRole(…)`) share their endpoint's
 *   (method, path) and are folded into it by the deduplication.
 * `ALL` endpoints (the `/api` and `/api/*` unknown-path answers) are kept and fuzzed as GET and
 * POST. HEAD (answered by the GET handlers) and OPTIONS are not sent.
 */
export function enumerateRoutes(app: Pick<Hono, 'routes'>): { routes: FuzzRoute[]; skipped: SkippedRoute[] } {
  const routes = new Map<string, FuzzRoute>();
  const skipped: SkippedRoute[] = [];
  const add = (method: FuzzMethod, routePath: string, registeredAs: string) => {
    const key = `${method} ${routePath}`;
    if (!routes.has(key)) routes.set(key, { method, path: routePath, registeredAs });
  };
  for (const entry of app.routes) {
    const method = entry.method.toUpperCase();
    // Middleware is `(c, next) => …`; an endpoint handler is `(c) => …`.
    const isMiddleware = entry.handler.length >= 2;
    if (method === 'ALL') {
      if (isMiddleware) {
        skipped.push({ method, path: entry.path, reason: 'middleware (use/guard), not an endpoint' });
        continue;
      }
      add('GET', entry.path, 'ALL');
      add('POST', entry.path, 'ALL');
      continue;
    }
    if (method === 'HEAD' || method === 'OPTIONS') continue;
    add(method as FuzzMethod, entry.path, method);
  }
  const sorted = [...routes.values()].sort((a, b) =>
    a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path),
  );
  // Guards registered per method were folded into their endpoint: list only distinct skipped entries.
  const distinctSkipped = [...new Map(skipped.map((s) => [`${s.method} ${s.path}`, s])).values()];
  return { routes: sorted, skipped: distinctSkipped };
}

/** A concrete path for a registered one: `:param` and `*` segments get the given text. */
export function pathFor(routePath: string, fill: string): string {
  return routePath.replace(/:[A-Za-z0-9_]+(\{[^}]*\})?/g, fill).replace(/\*/g, fill);
}

// ---------------------------------------------------------------------------------------------
// Schemas

interface ZodLike {
  _zod: { def: Record<string, unknown> & { type: string } };
}

function isZod(value: unknown): value is ZodLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as ZodLike)._zod?.def?.type === 'string'
  );
}

export interface SchemaInfo {
  /** The export's name, e.g. `loginBody`. */
  name: string;
  schema: ZodLike;
  /** Field names anywhere in the schema (top level first). */
  fields: string[];
  /** The top-level field names (the object's keys under optional/default/pipe/preprocess). */
  top: string[];
  /** Whether it takes a File somewhere (an upload). */
  takesFile: boolean;
}

export interface SchemaCatalogue {
  schemas: Map<string, SchemaInfo>;
  /** Every field name of every schema. */
  names: Set<string>;
  /** Enum members, literals and defaults seen under a field name (plausible values). */
  values: Map<string, Set<string>>;
  /** Column names of the tables (exported `…Columns` lists), for `antTable` parts. */
  columns: Set<string>;
}

const schemaDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/lib/schemas');

/** Walks every schema exported by src/lib/schemas/*.ts (zod 4 definitions). */
export async function loadSchemaCatalogue(): Promise<SchemaCatalogue> {
  const catalogue: SchemaCatalogue = { schemas: new Map(), names: new Set(), values: new Map(), columns: new Set() };
  const files = readdirSync(schemaDir)
    .filter((file) => file.endsWith('.ts'))
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(schemaDir, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (isZod(value)) {
        const fields: string[] = [];
        const state = { takesFile: false };
        walk(value, undefined, catalogue, fields, state, new Set());
        catalogue.schemas.set(name, {
          name,
          schema: value,
          fields: [...new Set(fields)],
          top: topFields(value, new Set()),
          takesFile: state.takesFile,
        });
      } else if (Array.isArray(value) && /Columns$/.test(name)) {
        for (const item of value as unknown[]) {
          if (typeof item === 'string') catalogue.columns.add(item);
          else if (typeof item === 'object' && item !== null && typeof (item as { key?: unknown }).key === 'string') {
            catalogue.columns.add((item as { key: string }).key);
          }
        }
      }
    }
  }
  return catalogue;
}

/** The keys of the outermost object of a schema, through wrappers, pipes (preprocess, transform) and unions. */
function topFields(schema: ZodLike, seen: Set<ZodLike>): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def;
  const inner = (value: unknown): string[] => (isZod(value) ? topFields(value, seen) : []);
  switch (def.type) {
    case 'object':
      return Object.keys((def['shape'] ?? {}) as Record<string, unknown>);
    case 'pipe': {
      const first = inner(def['in']);
      return first.length > 0 ? first : inner(def['out']);
    }
    case 'union':
      return [...new Set(((def['options'] ?? []) as unknown[]).flatMap(inner))];
    case 'intersection':
      return [...new Set([...inner(def['left']), ...inner(def['right'])])];
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'default':
    case 'prefault':
      return inner(def['innerType']);
    default:
      return [];
  }
}

function addValue(catalogue: SchemaCatalogue, field: string | undefined, value: unknown): void {
  if (field === undefined) return;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return;
  let set = catalogue.values.get(field);
  if (!set) catalogue.values.set(field, (set = new Set()));
  set.add(String(value));
}

function walk(
  schema: ZodLike,
  field: string | undefined,
  catalogue: SchemaCatalogue,
  fields: string[],
  state: { takesFile: boolean },
  seen: Set<ZodLike>,
): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def;
  const next = (inner: unknown, name = field) => {
    if (isZod(inner)) walk(inner, name, catalogue, fields, state, seen);
  };
  switch (def.type) {
    case 'object': {
      const shape = (def['shape'] ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(shape)) {
        catalogue.names.add(key);
        fields.push(key);
      }
      for (const [key, inner] of Object.entries(shape)) next(inner, key);
      next(def['catchall']);
      break;
    }
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      next(def['innerType']);
      break;
    case 'default':
    case 'prefault': {
      const fallback = def['defaultValue'];
      try {
        addValue(catalogue, field, typeof fallback === 'function' ? (fallback as () => unknown)() : fallback);
      } catch {
        // A default that cannot be computed here is not a plausible value.
      }
      next(def['innerType']);
      break;
    }
    case 'pipe':
      next(def['in']);
      next(def['out']);
      break;
    case 'union':
      for (const option of (def['options'] ?? []) as unknown[]) next(option);
      break;
    case 'intersection':
      next(def['left']);
      next(def['right']);
      break;
    case 'array':
    case 'set':
      next(def['element'] ?? def['valueType']);
      break;
    case 'tuple':
      for (const item of (def['items'] ?? []) as unknown[]) next(item);
      next(def['rest']);
      break;
    case 'record':
    case 'map':
      next(def['valueType']);
      break;
    case 'lazy':
      try {
        next((def['getter'] as () => unknown)());
      } catch {
        // A lazy schema that cannot be built here adds nothing.
      }
      break;
    case 'enum':
      for (const value of Object.values((def['entries'] ?? {}) as Record<string, unknown>))
        addValue(catalogue, field, value);
      break;
    case 'literal':
      for (const value of (def['values'] ?? []) as unknown[]) addValue(catalogue, field, value);
      break;
    case 'custom':
      // z.instanceof(File) is a custom check: the field is an upload.
      if (field !== undefined && /file/i.test(field)) state.takesFile = true;
      break;
    default:
      break;
  }
}

export interface RouteInput {
  /** Schemas the endpoint validates (export names). */
  schemas: string[];
  /** Its field names, from those schemas (nested ones included). */
  fields: string[];
  /** Its top-level field names. */
  top: string[];
  /** It reads a table request (`antTable`). */
  table: boolean;
  /** It takes a file (multipart upload). */
  takesFile: boolean;
  /** Where its fields are read from (a GET reads the query). */
  source: 'query' | 'body';
}

const registration = /\.(get|post|put|patch|delete|all|on)\(\s*(?:\[([^\]]*)\]\s*,\s*)?(['"`])([^'"`]*)\3/g;

/**
 * Which schemas each endpoint validates, keyed `METHOD /full/path`: the text of each module's
 * `create…Routes` function is cut at its route registrations, and every exported schema named in
 * a piece (a `validate(c, loginBody, 'body')` call) belongs to that piece's route.
 */
export function routeInputs(modules: readonly ApiModule[], catalogue: SchemaCatalogue): Map<string, RouteInput> {
  const inputs = new Map<string, RouteInput>();
  for (const module of modules) {
    const text = module.create.toString();
    const matches = [...text.matchAll(registration)];
    matches.forEach((match, index) => {
      const start = match.index ?? 0;
      const end = matches[index + 1]?.index ?? text.length;
      const piece = text.slice(start, end);
      const verb = match[1] ?? 'get';
      const methods =
        verb === 'on'
          ? [...(match[2] ?? '').matchAll(/['"`](\w+)['"`]/g)].map((m) => (m[1] ?? '').toUpperCase())
          : verb === 'all'
            ? ['GET', 'POST']
            : [verb.toUpperCase()];
      const sub = match[4] ?? '';
      const full = joinPath(module.base, sub);
      const schemas = [
        ...new Set(
          [...piece.matchAll(/\b[A-Za-z_$][\w$]*\b/g)].map((m) => m[0]).filter((word) => catalogue.schemas.has(word)),
        ),
      ];
      const infos = schemas.map((name) => catalogue.schemas.get(name)!);
      const input: RouteInput = {
        schemas,
        fields: [...new Set(infos.flatMap((info) => info.fields))],
        top: [...new Set(infos.flatMap((info) => info.top))],
        table: /TableRequest|antTable/i.test(piece) || /AntTable/.test(sub),
        takesFile: infos.some((info) => info.takesFile),
        source: /'query'/.test(piece) && !/'body'/.test(piece) ? 'query' : 'body',
      };
      for (const method of methods) {
        const key = `${method} ${full}`;
        const known = inputs.get(key);
        if (!known) inputs.set(key, input);
        else
          inputs.set(key, {
            schemas: [...new Set([...known.schemas, ...input.schemas])],
            fields: [...new Set([...known.fields, ...input.fields])],
            top: [...new Set([...known.top, ...input.top])],
            table: known.table || input.table,
            takesFile: known.takesFile || input.takesFile,
            source: known.source,
          });
      }
    });
  }
  return inputs;
}

function joinPath(base: string, sub: string): string {
  if (sub === '' || sub === '/') return base;
  return `${base.replace(/\/$/, '')}/${sub.replace(/^\//, '')}`;
}

// ---------------------------------------------------------------------------------------------
// The request model

/** A value as the fuzzer means it; each encoding renders it as that encoding can. */
export type Val =
  | { t: 's'; v: string }
  /** A number token (in JSON written as is: `9223372036854775808`, `-0`, `1e308`). */
  | { t: 'n'; raw: string }
  | { t: 'b'; v: boolean }
  | { t: 'null' }
  /** Already percent-encoded bytes for query/form (`%FF`, `%C0%80`); in JSON/multipart the decoded-as-latin1 text. */
  | { t: 'raw'; v: string }
  | { t: 'a'; items: Val[] }
  | { t: 'o'; entries: [string, Val][] }
  | { t: 'file'; name: string; type: string; bytes: Uint8Array };

export const str = (v: string): Val => ({ t: 's', v });
export const num = (raw: string): Val => ({ t: 'n', raw });
export const arr = (...items: Val[]): Val => ({ t: 'a', items });
export const obj = (entries: [string, Val][]): Val => ({ t: 'o', entries });

export type Encoding = 'query' | 'form' | 'json' | 'multipart';

/** One call's input: ordered (key, value) pairs; a key may carry brackets (`a[]`, `a[b]`). */
export type Fields = [string, Val][];

/** Percent-encodes a string as UTF-8; a lone surrogate becomes its WTF-8 bytes (invalid UTF-8). */
export function percentEncode(text: string): string {
  if (!/[\ud800-\udfff]/.test(text)) return encodeURIComponent(text);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        out += encodeURIComponent(text.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
      continue;
    }
    out += encodeURIComponent(text[i]!);
  }
  return out;
}

function scalarText(value: Val): string | undefined {
  switch (value.t) {
    case 's':
      return value.v;
    case 'n':
      return value.raw;
    case 'b':
      return String(value.v);
    case 'null':
      return '';
    case 'raw':
      return value.v;
    default:
      return undefined;
  }
}

/** Flattens to qs-style pairs (`k[]=…`, `k[sub]=…`), each already percent-encoded. */
export function flattenPairs(
  fields: Fields,
  arrayStyle: 'brackets' | 'indices' | 'repeat' = 'brackets',
): [string, string][] {
  const pairs: [string, string][] = [];
  const visit = (key: string, value: Val, encodedKey: string) => {
    if (value.t === 'a') {
      value.items.forEach((item, index) => {
        const suffix = arrayStyle === 'brackets' ? '%5B%5D' : arrayStyle === 'indices' ? `%5B${index}%5D` : '';
        visit(key, item, encodedKey + suffix);
      });
      return;
    }
    if (value.t === 'o') {
      for (const [sub, inner] of value.entries)
        visit(`${key}[${sub}]`, inner, `${encodedKey}%5B${percentEncode(sub)}%5D`);
      return;
    }
    if (value.t === 'file') {
      pairs.push([encodedKey, percentEncode(value.name)]);
      return;
    }
    if (value.t === 'raw') {
      pairs.push([encodedKey, value.v]);
      return;
    }
    pairs.push([encodedKey, percentEncode(scalarText(value) ?? '')]);
  };
  for (const [key, value] of fields) visit(key, value, encodeKey(key));
  return pairs;
}

/** Keeps the brackets of a key (`a[]`, `a[b]`) literal so the server's qs parser sees them. */
function encodeKey(key: string): string {
  return percentEncode(key).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

export function toQueryString(fields: Fields, arrayStyle?: 'brackets' | 'indices' | 'repeat'): string {
  return flattenPairs(fields, arrayStyle)
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

/** JSON text written by hand: `__proto__` keys, duplicate keys, number tokens and lone surrogates kept. */
export function toJsonText(fields: Fields): string {
  return renderJson({ t: 'o', entries: fields });
}

function jsonString(text: string): string {
  // JSON.stringify escapes lone surrogates as \udXXX (well-formed JSON.stringify) and controls as \u00XX.
  return JSON.stringify(text);
}

function renderJson(value: Val): string {
  switch (value.t) {
    case 's':
      return jsonString(value.v);
    case 'n':
      // Tokens JSON cannot carry (NaN, Infinity, 0x10) go as strings.
      return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value.raw) ? value.raw : jsonString(value.raw);
    case 'b':
      return String(value.v);
    case 'null':
      return 'null';
    case 'raw':
      return jsonString(safeDecode(value.v));
    case 'a':
      return `[${value.items.map(renderJson).join(',')}]`;
    case 'o':
      return `{${value.entries.map(([key, inner]) => `${jsonString(key)}:${renderJson(inner)}`).join(',')}}`;
    case 'file':
      return jsonString(value.name);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Multipart entries (built into FormData where the app runs): files as files, scalars as text, containers flattened qs-style. */
export function toFormEntries(fields: Fields): [string, string | { name: string; type: string; bytes: Uint8Array }][] {
  const entries: [string, string | { name: string; type: string; bytes: Uint8Array }][] = [];
  const visit = (key: string, value: Val) => {
    if (value.t === 'file') {
      entries.push([key, { name: value.name, type: value.type, bytes: value.bytes }]);
      return;
    }
    if (value.t === 'a') {
      for (const item of value.items) visit(`${key}[]`, item);
      return;
    }
    if (value.t === 'o') {
      for (const [sub, inner] of value.entries) visit(`${key}[${sub}]`, inner);
      return;
    }
    // FormData turns lone surrogates into U+FFFD, as a browser does.
    entries.push([key, value.t === 'raw' ? safeDecode(value.v) : (scalarText(value) ?? '')]);
  };
  for (const [key, value] of fields) visit(key, value);
  return entries;
}

/** A short readable form of a value for failure messages (long strings summarised, controls escaped). */
export function showVal(value: Val, limit = 120): string {
  const text = (() => {
    switch (value.t) {
      case 's':
        return showText(value.v);
      case 'n':
        return value.raw;
      case 'b':
        return String(value.v);
      case 'null':
        return 'null';
      case 'raw':
        return `raw(${value.v})`;
      case 'a':
        return `[${value.items.map((item) => showVal(item, 60)).join(', ')}]`;
      case 'o':
        return `{${value.entries.map(([key, inner]) => `${showText(key)}: ${showVal(inner, 60)}`).join(', ')}}`;
      case 'file':
        return `file(${showText(value.name)}, ${value.type}, ${value.bytes.byteLength} bytes: ${showText(new TextDecoder().decode(value.bytes.slice(0, 40)))})`;
    }
  })();
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length} chars)` : text;
}

/** A string quoted with non-printing characters escaped; a long run of one character summarised. */
export function showText(text: string): string {
  const summarised = text.replace(/(.)\1{40,}/gsu, (run, ch: string) => `${ch}×${[...run].length}`);
  return JSON.stringify(summarised).replace(
    /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function showFields(fields: Fields): string {
  return `{ ${fields.map(([key, value]) => `${showText(key)}: ${showVal(value)}`).join(', ')} }`;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

export interface HostileClass {
  name: string;
  /** For the summary: control, surrogate, long, number, period, yearType, shape, empty, injection, unicode, raw. */
  group: string;
  /** The value, given the field's plausible text (`base`). */
  make(base: string): Val;
  /** Part of the deterministic sweep (the others only feed the random search). */
  sweep: boolean;
}

const insideText = (base: string, inject: string): string => {
  const text = base === '' ? 'abc测试' : base;
  const middle = Math.max(1, Math.floor(text.length / 2));
  return text.slice(0, middle) + inject + text.slice(middle);
};
const toFullWidthDigits = (text: string): string =>
  /\d/.test(text) ? text.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d))) : '１２３';
const repeatTo = (text: string, length: number): string =>
  (text === '' ? 'a' : text).repeat(Math.ceil(length / Math.max(1, text.length))).slice(0, length);

const scalar = (group: string, name: string, value: string, sweep = true): HostileClass => ({
  name,
  group,
  make: () => str(value),
  sweep,
});
const token = (group: string, name: string, raw: string, sweep = true): HostileClass => ({
  name,
  group,
  make: () => num(raw),
  sweep,
});
const cls = (name: string, group: string, make: (base: string) => Val, sweep = true): HostileClass => ({
  name,
  group,
  make,
  sweep,
});

/** The classes of the issue, each one value (or one shape); `make(base)` keeps the field's own text where the class is "inside valid text". */
export const hostileClasses: readonly HostileClass[] = [
  // C0 controls and DEL inside otherwise valid text.
  cls('NUL inside text', 'control', (base) => str(insideText(base, '\u0000'))),
  cls('U+0001 inside text', 'control', (base) => str(insideText(base, '\u0001'))),
  cls('ESC inside text', 'control', (base) => str(insideText(base, '\u001b'))),
  cls('DEL inside text', 'control', (base) => str(insideText(base, '\u007f'))),
  cls('NUL alone', 'control', () => str('\u0000')),
  // Lone surrogates.
  cls('lone high surrogate inside text', 'surrogate', (base) => str(insideText(base, '\ud800'))),
  cls('lone low surrogate at end', 'surrogate', (base) => str(`${base}\udfff`)),
  // Very long strings.
  cls('10000 × a', 'long', () => str('a'.repeat(10_000)), false),
  cls('10000 chars of the field text', 'long', (base) => str(repeatTo(base, 10_000))),
  cls('10000 × 中', 'long', () => str('中'.repeat(10_000))),
  cls('10000 digits', 'long', () => str('9'.repeat(10_000))),
  // Numbers at and beyond int4/int8 bounds, and number spellings.
  token('number', 'int4 max 2147483647', '2147483647'),
  token('number', 'int4 max + 1 2147483648', '2147483648'),
  token('number', 'int4 min - 1 -2147483649', '-2147483649'),
  token('number', 'uint4 4294967296', '4294967296', false),
  token('number', 'int8 max + 1 9223372036854775808', '9223372036854775808'),
  token('number', 'int8 min - 1 -9223372036854775809', '-9223372036854775809', false),
  token('number', '1e308', '1e308'),
  token('number', '1e309 (Infinity)', '1e309'),
  token('number', '-1e308', '-1e308', false),
  token('number', '1e-400', '1e-400', false),
  token('number', 'NaN', 'NaN'),
  token('number', 'Infinity', 'Infinity'),
  token('number', '-Infinity', '-Infinity', false),
  token('number', '-0', '-0'),
  token('number', '0', '0', false),
  token('number', '-1', '-1', false),
  token('number', '1.5', '1.5', false),
  token('number', '0x10', '0x10'),
  token('number', '1e3', '1e3'),
  token('number', '0.1 + huge scale', '0.1000000000000000000000000000000000000001', false),
  token('number', '99999999999999999999.99999', '99999999999999999999.99999'),
  scalar('number', 'padded number " 1 "', ' 1 ', false),
  scalar('number', 'full-width digits', '１２３', false),
  // Periods and dates.
  scalar('period', '0000', '0000'),
  scalar('period', '0000-01', '0000-01'),
  scalar('period', '0000-01-01', '0000-01-01', false),
  scalar('period', '9999', '9999'),
  scalar('period', '9999-12', '9999-12', false),
  scalar('period', '10000', '10000'),
  scalar('period', '9999-12-31', '9999-12-31'),
  scalar('period', '2026-02-30', '2026-02-30'),
  scalar('period', '2026-13', '2026-13'),
  scalar('period', '2026-00-00', '2026-00-00', false),
  scalar('period', '-001', '-001'),
  scalar('period', '1999', '1999', false),
  scalar('period', '2100-01', '2100-01', false),
  scalar('period', '2026-1-1', '2026-1-1', false),
  scalar('period', 'full-width period ２０２６', '２０２６', false),
  // yearType-like values (also sent in every field).
  scalar('yearType', 'yearType 0', '0'),
  scalar('yearType', 'yearType 4', '4'),
  scalar('yearType', 'yearType -1', '-1'),
  scalar('yearType', 'yearType 1.5', '1.5'),
  scalar('yearType', 'yearType abc', 'abc'),
  // Shapes: arrays where scalars are expected and vice versa, objects, nesting, prototype keys.
  cls('array [1, 2] (a[]=1&a[]=2)', 'shape', () => arr(str('1'), str('2'))),
  cls('array of the field text', 'shape', (base) => arr(str(base), str(base)), false),
  cls('object {b: c} (a[b]=c)', 'shape', () => obj([['b', str('c')]])),
  cls('nested objects 6 deep', 'shape', () =>
    obj([['a', obj([['b', obj([['c', obj([['d', obj([['e', obj([['f', str('1')]])]])]])]])]])]]),
  ),
  cls('array of objects', 'shape', () => arr(obj([['x', str('1')]]), obj([['y', arr(str('2'))]]))),
  cls('25 array items', 'shape', (base) => arr(...Array.from({ length: 25 }, () => str(base))), false),
  cls('__proto__ key', 'shape', () => obj([['__proto__', obj([['polluted', str('1')]])]])),
  cls(
    'constructor.prototype key',
    'shape',
    () => obj([['constructor', obj([['prototype', obj([['polluted', str('1')]])]])]]),
    false,
  ),
  cls('true', 'shape', () => ({ t: 'b', v: true }), false),
  cls('null', 'shape', () => ({ t: 'null' }), false),
  cls('empty array', 'shape', () => arr(), false),
  // Empty and blank.
  scalar('empty', 'empty string', ''),
  scalar('empty', 'space', ' '),
  scalar('empty', 'tab newline', '\t\n'),
  scalar('empty', 'ideographic space', '\u3000'),
  scalar('empty', 'no-break space', '\u00a0', false),
  cls('field text padded with spaces', 'empty', (base) => str(`  ${base}  `), false),
  // SQL / JSON / HTML / template fragments.
  scalar('injection', "SQL ' OR '1'='1", "' OR '1'='1"),
  scalar('injection', 'SQL drop table', "'; DROP TABLE users; --"),
  scalar('injection', 'LIKE wildcards %_\\', '%_\\'),
  scalar('injection', 'placeholder $1', '$1', false),
  scalar('injection', 'cast ::int', '1::int', false),
  scalar('injection', 'JSON object text', '{"$ne":null,"__proto__":{"x":1}}'),
  scalar('injection', 'broken JSON', '{"a":'),
  scalar('injection', 'JSON null text', 'null', false),
  scalar('injection', 'HTML script', '<script>alert(1)</script>'),
  scalar('injection', 'HTML attribute', '"><img src=x onerror=alert(1)>', false),
  scalar('injection', 'template {0} ${x} {{x}}', '{0}${x}{{x}}'),
  scalar('injection', 'path traversal', '../../../../etc/passwd', false),
  scalar('injection', 'percent-encoded NUL text %00', '%00', false),
  scalar('injection', 'CRLF header', 'a\r\nSet-Cookie: x=1'),
  scalar('injection', 'CSV formula', '=HYPERLINK("http://x","y")', false),
  // Unicode.
  cls('emoji inside text', 'unicode', (base) => str(insideText(base, '😀👨‍👩‍👧'))),
  cls('RTL override and marks inside text', 'unicode', (base) => str(insideText(base, '\u202e\u200f\u061c'))),
  cls('zero-width and BOM inside text', 'unicode', (base) => str(insideText(base, '\u200b\ufeff'))),
  cls('full-width digits for the field text', 'unicode', (base) => str(toFullWidthDigits(base))),
  cls('combining marks', 'unicode', (base) => str(`${base}${'\u0301'.repeat(50)}`), false),
  cls('U+FFFF and U+FFFE', 'unicode', (base) => str(insideText(base, '\uffff\ufffe')), false),
  cls('astral plane only', 'unicode', () => str('𠀀𠀁𝕏'), false),
  // Bytes that are not UTF-8 (query and form only; JSON/multipart get their decoded text).
  cls('raw byte %FF', 'raw', () => ({ t: 'raw', v: '%FF' })),
  cls('overlong NUL %C0%80', 'raw', () => ({ t: 'raw', v: '%C0%80' })),
  cls('raw %00', 'raw', () => ({ t: 'raw', v: 'a%00b' }), false),
  cls('lone percent', 'raw', () => ({ t: 'raw', v: '%' })),
  cls('truncated UTF-8 %E4%B8', 'raw', () => ({ t: 'raw', v: '%E4%B8' }), false),
  cls('WTF-8 surrogate %ED%A0%80', 'raw', () => ({ t: 'raw', v: '%ED%A0%80' })),
];

/** Keys that are themselves hostile (the value is plausible). */
export const hostileKeys: readonly string[] = [
  '__proto__',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'prototype',
  '',
  ' ',
  'a\u0000b',
  '\ud800',
  'k'.repeat(2_000),
  'a[b][c][d][e][f][g][h]',
  'a.b.c',
  'a[',
  ']',
  '[]',
  'a[99999]',
  '😀',
];

/** How a key is written: plain, `k[]`, `k[0]`, `k[21]` (over qs's array limit), `k[x]`, `k.x`, `k[__proto__]`. */
export const keyDecorations: readonly ((key: string) => string)[] = [
  (key) => key,
  (key) => `${key}[]`,
  (key) => `${key}[0]`,
  (key) => `${key}[21]`,
  (key) => `${key}[x]`,
  (key) => `${key}.x`,
  (key) => `${key}[__proto__]`,
];

/** antTable values (JSON text as the client sends it) that test the table engine's limits. */
export function tableClasses(columns: readonly string[]): { name: string; text: string }[] {
  const cols = columns.length > 0 ? columns : ['id'];
  const each = (part: (col: string) => string) => cols.map((col) => `${JSON.stringify(col)}:${part(col)}`).join(',');
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return [
    { name: 'pageSize 1e9', text: '{"pager":{"current":1,"pageSize":1000000000}}' },
    { name: 'pageSize "1e9"', text: '{"pager":{"current":"1","pageSize":"1e9"}}' },
    { name: 'current -1', text: '{"pager":{"current":-1,"pageSize":10}}' },
    { name: 'current 0, pageSize 0', text: '{"pager":{"current":0,"pageSize":0}}' },
    { name: 'current/pageSize 2147483648', text: '{"pager":{"current":2147483648,"pageSize":2147483648}}' },
    { name: 'current 9223372036854775808', text: '{"pager":{"current":9223372036854775808,"pageSize":10}}' },
    { name: 'current 1e308', text: '{"pager":{"current":1e308,"pageSize":1e308}}' },
    { name: 'current max, pageSize max', text: '{"pager":{"current":100000,"pageSize":100}}' },
    { name: 'current "999999999"', text: '{"pager":{"current":"999999999","pageSize":"100"}}' },
    { name: 'pager NaN text', text: '{"pager":{"current":"NaN","pageSize":"Infinity"}}' },
    { name: 'pager as array', text: '{"pager":[1,10]}' },
    { name: 'deep nesting 1000 in search', text: `{"search":${deep(1000)}}` },
    { name: 'deep nesting 100000 (JSON)', text: deep(100_000) },
    { name: 'deep arrays', text: `{"select":${'['.repeat(5000)}${']'.repeat(5000)}}` },
    { name: '__proto__ at top', text: '{"__proto__":{"pager":{"pageSize":1000000}}}' },
    { name: '__proto__ in filter', text: '{"filter":{"__proto__":["x"]},"liker":{"constructor":"x"}}' },
    { name: 'select every column twice', text: `{"select":${JSON.stringify([...cols, ...cols])}}` },
    {
      name: 'select 1000 fields',
      text: `{"select":${JSON.stringify(Array.from({ length: 1000 }, (_, i) => `f${i}`))}}`,
    },
    {
      name: 'sort every column',
      text: `{"sorter":${JSON.stringify(cols.slice(0, 5).map((key) => ({ key, sort: 'descend' })))}}`,
    },
    {
      name: 'sorter hostile key/direction',
      text: '{"sorter":[{"key":"id;drop table users","sort":"ascend"},{"key":"id","sort":"sideways"}]}',
    },
    {
      name: 'sorter 1000 entries',
      text: `{"sorter":${JSON.stringify(Array.from({ length: 1000 }, () => ({ key: cols[0], sort: 'asc' })))}}`,
    },
    { name: 'filter NUL text on every column', text: `{"filter":{${each(() => '["a\\u0000b"]')}}}` },
    { name: 'filter lone surrogate on every column', text: `{"filter":{${each(() => '["\\ud800"]')}}}` },
    { name: 'filter 2147483648 on every column', text: `{"filter":{${each(() => '[2147483648]')}}}` },
    {
      name: 'filter 9223372036854775808 on every column',
      text: `{"filter":{${each(() => '[9223372036854775808, -9223372036854775809]')}}}`,
    },
    { name: 'filter 1e308 on every column', text: `{"filter":{${each(() => '[1e308, -1e308, 1.5]')}}}` },
    {
      name: 'filter "1e308" text on every column',
      text: `{"filter":{${each(() => '["1e308", "NaN", "Infinity", "-0", "0x10"]')}}}`,
    },
    {
      name: 'filter dates on every column',
      text: `{"filter":{${each(() => '["9999-12-31", "2026-02-30", "0000-01"]')}}}`,
    },
    { name: 'filter true/false on every column', text: `{"filter":{${each(() => '[true, false]')}}}` },
    {
      name: 'filter 100 values on every column',
      text: `{"filter":{${each(() => JSON.stringify(Array.from({ length: 100 }, (_, i) => String(i))))}}}`,
    },
    { name: 'filter nested arrays', text: `{"filter":{${each(() => '[[1],[2]]')}}}` },
    {
      name: 'range periods on every column',
      text: `{"range":{${each(() => '{"start":"0000-01","end":"9999-12-31"}')}}}`,
    },
    {
      name: 'range bad dates on every column',
      text: `{"range":{${each(() => '{"start":"2026-02-30","end":"10000"}')}}}`,
    },
    {
      name: 'range numbers beyond int8 on every column',
      text: `{"range":{${each(() => '{"start":-9223372036854775809,"end":9223372036854775808}')}}}`,
    },
    {
      name: 'range 1e308 on every column',
      text: `{"range":{${each(() => '{"start":-1e308,"end":1e308,"self":true}')}}}`,
    },
    {
      name: 'range NUL text on every column',
      text: `{"range":{${each(() => '{"start":"a\\u0000","end":"\\ud800"}')}}}`,
    },
    { name: 'range empty bounds', text: `{"range":{${each(() => '{"start":"","end":null}')}}}` },
    { name: 'liker NUL on every column', text: `{"liker":{${each(() => '"a\\u0000b"')}}}` },
    { name: 'liker wildcards on every column', text: `{"liker":{${each(() => '"%_\\\\"')}}}` },
    { name: 'liker lone surrogate on every column', text: `{"liker":{${each(() => '"\\udfff"')}}}` },
    { name: 'liker 100 chars on every column', text: `{"liker":{${each(() => JSON.stringify('中'.repeat(100)))}}}` },
    { name: 'keyword NUL', text: '{"search":{"keyword":"a\\u0000b"}}' },
    { name: 'keyword wildcards', text: '{"search":{"keyword":"%_\\\\\'\\""}}' },
    { name: 'keyword lone surrogate', text: '{"search":{"keyword":"\\ud800x"}}' },
    { name: 'keyword 100 emoji', text: `{"search":{"keyword":${JSON.stringify('😀'.repeat(50))}}}` },
    {
      name: 'keyword with select of every column',
      text: `{"search":{"keyword":"1","select":${JSON.stringify(cols)}}}`,
    },
    { name: 'keyword full-width digits', text: '{"search":{"keyword":"２０２６"}}' },
    {
      name: 'every part at once',
      text: `{"select":${JSON.stringify(cols)},"pager":{"current":2,"pageSize":100},"search":{"keyword":"a"},"liker":{${each(() => '"a"')}},"sorter":[{"key":${JSON.stringify(cols[0])},"sort":"desc"}]}`,
    },
    { name: 'not JSON', text: '{' },
    { name: 'JSON array', text: '[]' },
    { name: 'JSON string', text: '"x"' },
    { name: 'JSON 1e999', text: '1e999' },
    { name: 'JSON null', text: 'null' },
    { name: 'whitespace', text: ' \t ' },
  ];
}

/** Characters a random string is made of: mostly ordinary, often hostile. */
export function hostileChar(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'Z', '0', '9', '-', '_', ' ', '中', '测', '.', ',', '/', ':') },
    { weight: 2, arbitrary: fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\t', '\n', '\r', '\u0085') },
    { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff') },
    {
      weight: 2,
      arbitrary: fc.constantFrom("'", '"', '\\', '%', '&', '=', '[', ']', '{', '}', '<', '>', '$', '#', '+', ';'),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '😀',
        '\u202e',
        '\u200f',
        '\u200b',
        '\ufeff',
        '１',
        '２',
        '\u3000',
        '\uffff',
        'é',
        '\u0301',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
  );
}
