/**
 * Serves the Astro build (`build.format: 'directory'`: `/a/b` is `a/b/index.html`).
 *
 * - Redirects of src/lib/routes.ts answered with 301, unprefixed and locale-prefixed, query kept;
 *   the spec's query forms (`/products?id=id3`) answered with 301 to their path form.
 * - Precompressed files written beside each file at build (`x.js.br`, `x.js.gz`) chosen by
 *   Accept-Encoding (br, then gzip), with `Vary: Accept-Encoding`.
 * - `/_astro/*` (hashed names) cached for a year, immutable; HTML `no-cache` with ETag and
 *   Last-Modified, answered 304 when unchanged; other files an hour (src/lib/site/fileHeaders.ts,
 *   the rules the CDN upload follows too).
 * - The root may be a function: the directory published now (site/servedSite.ts). The editors'
 *   rebuild publishes a new directory at once; the first request after that sees the new root and
 *   forgets every cached lookup. Published directories are never written to afterwards.
 * - File metadata is looked up once per path and kept in memory (small bodies too), and with it
 *   the file's Content-Security-Policy: a page's own, read from its `<meta>` when the page is
 *   first looked up under the published directory (middleware/secureHeaders.ts), so a page and its
 *   policy always come from the same build and no request parses HTML.
 * - Unknown path: the not-found page of the path's locale (prefix, else locale cookie or
 *   Accept-Language, else zh-CN) with status 404. Traversal attempts: 400.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import { defaultLocale, type Locale } from '../lib/i18n/index.ts';
import { localePath, queryFormTarget, splitLocale } from '../lib/paths.ts';
import { parseQualityList } from '../lib/qualityValues.ts';
import { redirects, serverOnlyRedirects } from '../lib/routes.ts';
import { cacheControl, cacheControlOf, contentTypeOf, contentTypes } from '../lib/site/fileHeaders.ts';
import { requestLocale } from './middleware/locale.ts';
import { filePolicy, pagePolicy } from './middleware/secureHeaders.ts';
import type { AnyContext } from './envelope.ts';
import type { AppEnv } from './types.ts';

type Encoding = 'br' | 'gzip';

interface Representation {
  file: string;
  size: number;
  encoding: Encoding | null;
  etag: string;
}

interface FileEntry {
  contentType: string;
  cacheControl: string;
  /** Its Content-Security-Policy header (also on 304 answers: a browser updates its stored headers from them). */
  policy: string;
  lastModified: string;
  mtimeSeconds: number;
  identity: Representation;
  /** Precompressed siblings, best first. */
  variants: Representation[];
}

/** Bodies up to this size are kept in memory after the first read. */
const maxCachedBody = 64 * 1024;
const maxCachedBytes = 32 * 1024 * 1024;
const maxMissEntries = 5000;

const caches = new Set<() => void>();

/** Forgets every cached lookup and body (call after the build output was replaced). */
export function resetStaticCache(): void {
  for (const reset of caches) reset();
}

/** A safe relative path from a URL pathname, or null for traversal and other tricks. */
export function safeRelativePath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return null;
  const segments = decoded.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  return decoded;
}

/** The redirect target of a path (either table, any locale prefix), query not included. */
export function redirectTarget(pathname: string): string | undefined {
  const { locale, path: route } = splitLocale(pathname);
  const target = redirects[route] ?? serverOnlyRedirects[route];
  return target === undefined ? undefined : localePath(locale, target);
}

function preferredEncodings(header: string | undefined): Encoding[] {
  const accepted = new Map(parseQualityList(header?.toLowerCase()).map((entry) => [entry.token, entry.q]));
  const wildcard = accepted.get('*') ?? 0;
  return (['br', 'gzip'] as const).filter((encoding) => (accepted.get(encoding) ?? wildcard) > 0);
}

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

export interface StaticHandler extends MiddlewareHandler<AppEnv> {
  reset(): void;
}

/** Every handler made here, so that metrics and the access log label its requests `static` (middleware/requestLog.ts). */
const siteHandlers = new WeakSet<object>();

/** Whether a registered handler is the published site's. */
export const isSiteHandler = (handler: object): boolean => siteHandlers.has(handler);

export function createStaticHandler(options: { root: string | (() => string) }): StaticHandler {
  const rootOf = typeof options.root === 'function' ? options.root : () => options.root as string;
  let root = path.resolve(rootOf());
  const entries = new Map<string, FileEntry>();
  const misses = new Set<string>();
  const bodies = new Map<string, Uint8Array<ArrayBuffer>>();
  let cachedBytes = 0;
  /**
   * Bumped by every reset: a lookup that started before a reset (e.g. under the previous root)
   * must not store its result after it, or an old file would be served from the cache.
   */
  let generation = 0;

  const reset = () => {
    generation += 1;
    entries.clear();
    misses.clear();
    bodies.clear();
    cachedBytes = 0;
  };
  caches.add(reset);

  /** Follows a change of the published directory. */
  function syncRoot(): void {
    const next = path.resolve(rootOf());
    if (next !== root) {
      root = next;
      reset();
    }
  }

  async function statFile(file: string) {
    try {
      const info = await stat(file);
      return info.isFile() ? info : null;
    } catch {
      return null;
    }
  }

  /** Looks a relative file up once: entry, or undefined when it is not a file. */
  async function lookup(relative: string): Promise<FileEntry | undefined> {
    const known = entries.get(relative);
    if (known) return known;
    if (misses.has(relative)) return undefined;
    const started = generation;
    const base = root;
    const file = path.join(base, relative);
    const info = file.startsWith(base + path.sep) ? await statFile(file) : null;
    if (!info) {
      if (started === generation) {
        if (misses.size >= maxMissEntries) misses.clear();
        misses.add(relative);
      }
      return undefined;
    }
    const tag = `${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}`;
    const variants: Representation[] = [];
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const variant = await statFile(file + suffix);
      if (variant) variants.push({ file: file + suffix, size: variant.size, encoding, etag: `W/"${tag}-${encoding}"` });
    }
    const contentType = contentTypeOf(file);
    const entry: FileEntry = {
      contentType,
      cacheControl: cacheControlOf(relative),
      policy: contentType === contentTypes['.html'] ? pagePolicy(await readFile(file, 'utf8')) : filePolicy,
      lastModified: info.mtime.toUTCString(),
      mtimeSeconds: Math.floor(info.mtimeMs / 1000),
      identity: { file, size: info.size, encoding: null, etag: `W/"${tag}"` },
      variants,
    };
    if (started === generation) entries.set(relative, entry);
    return entry;
  }

  /** The file behind a URL path: the file itself, its directory's index.html, or `<path>.html`. */
  async function resolve(relative: string): Promise<FileEntry | undefined> {
    if (relative.endsWith('/')) return lookup(`${relative}index.html`);
    return (await lookup(relative)) ?? (await lookup(`${relative}/index.html`)) ?? (await lookup(`${relative}.html`));
  }

  async function notFoundEntry(locale: Locale): Promise<FileEntry | undefined> {
    const candidates =
      locale === defaultLocale
        ? ['/404.html', '/404/index.html']
        : [`/${locale}/404.html`, `/${locale}/404/index.html`, '/404.html', '/404/index.html'];
    for (const candidate of candidates) {
      const entry = await lookup(candidate);
      if (entry) return entry;
    }
    return undefined;
  }

  /**
   * A cached body is handed out as it is, not copied: the adapter writes it to the socket and
   * nothing writes to it (a Web Response built from it copies it first).
   */
  async function body(representation: Representation): Promise<BodyInit> {
    const cached = bodies.get(representation.file);
    if (cached) return cached;
    if (representation.size <= maxCachedBody && cachedBytes + representation.size <= maxCachedBytes) {
      const started = generation;
      const data = new Uint8Array(await readFile(representation.file));
      if (started === generation) {
        bodies.set(representation.file, data);
        cachedBytes += data.byteLength;
      }
      return data;
    }
    return Readable.toWeb(createReadStream(representation.file)) as ReadableStream<Uint8Array>;
  }

  async function respond(c: AnyContext, entry: FileEntry, status: 200 | 404): Promise<Response> {
    const wanted = entry.variants.length ? preferredEncodings(c.req.header('accept-encoding')) : [];
    const chosen =
      entry.variants.find((variant) => variant.encoding && wanted.includes(variant.encoding)) ?? entry.identity;
    const headers = new Headers({
      'Content-Type': entry.contentType,
      'Cache-Control': status === 404 ? cacheControl.html : entry.cacheControl,
      'Last-Modified': entry.lastModified,
      ETag: chosen.etag,
      'Content-Security-Policy': entry.policy,
    });
    if (entry.variants.length) headers.set('Vary', 'Accept-Encoding');
    if (chosen.encoding) headers.set('Content-Encoding', chosen.encoding);

    if (status === 200 && isNotModified(c, chosen.etag, entry.mtimeSeconds)) {
      headers.delete('Content-Type');
      headers.delete('Content-Encoding');
      return new Response(null, { status: 304, headers });
    }
    headers.set('Content-Length', String(chosen.size));
    if (c.req.method === 'HEAD') return new Response(null, { status, headers });
    return new Response(await body(chosen), { status, headers });
  }

  function isNotModified(c: AnyContext, etag: string, mtimeSeconds: number): boolean {
    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, etag);
    const ifModifiedSince = c.req.header('if-modified-since');
    if (ifModifiedSince === undefined) return false;
    const since = Date.parse(ifModifiedSince);
    return Number.isFinite(since) && mtimeSeconds <= Math.floor(since / 1000);
  }

  const handler: MiddlewareHandler<AppEnv> = async (c) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      return c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' });
    }
    syncRoot();
    const pathname = c.req.path;
    const relative = safeRelativePath(pathname);
    if (relative === null) return c.text('Bad Request', 400);

    const target = redirectTarget(relative);
    if (target !== undefined) {
      const url = c.req.url;
      const query = url.includes('?') ? url.slice(url.indexOf('?')).split('#')[0] : '';
      return new Response(null, {
        status: 301,
        headers: { Location: `${target}${query}`, 'Cache-Control': cacheControl.redirect },
      });
    }

    // The spec's query forms (`/products?id=id3`) live at path forms now (`/products/id3`).
    const queryIndex = c.req.url.indexOf('?');
    if (queryIndex !== -1) {
      const search = c.req.url.slice(queryIndex).split('#')[0] ?? '';
      const pathForm = queryFormTarget(relative, search);
      if (pathForm !== undefined) {
        return new Response(null, {
          status: 301,
          headers: { Location: pathForm, 'Cache-Control': cacheControl.redirect },
        });
      }
    }

    const hidden = relative.split('/').some((segment) => segment.startsWith('.') && segment !== '.well-known');
    const entry = hidden ? undefined : await resolve(relative);
    if (entry) return respond(c, entry, 200);

    const prefixed = splitLocale(relative).locale;
    const locale = prefixed !== defaultLocale ? prefixed : requestLocale(c);
    const page = await notFoundEntry(locale);
    if (page) return respond(c, page, 404);
    return c.text('Not Found', 404, { 'Cache-Control': cacheControl.html });
  };

  siteHandlers.add(handler);
  return Object.assign(handler, { reset });
}
