/**
 * Measures what a built page costs a visitor: its HTML, the stylesheets it links, and the
 * JavaScript that runs before any interaction (inline scripts, module scripts and their static
 * imports). Islands hydrated on interaction are not counted: they load only when touched.
 * `signedInScripts` adds what a signed-in visitor's browser fetches at load: the islands that
 * hydrate without interaction, each file as the server sends it (its brotli copy).
 * Used by the budget check (CI) and the benchmarks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface Weight {
  raw: number;
  gzip: number;
}
export interface PageWeight {
  page: string;
  html: Weight;
  css: Weight;
  js: Weight;
}

const weigh = (content: string | Buffer): Weight => ({
  raw: Buffer.byteLength(content),
  gzip: gzipSync(content, { level: 9 }).length,
});
const add = (a: Weight, b: Weight): Weight => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip });
const zero: Weight = { raw: 0, gzip: 0 };

/** `/a/b` → dist/a/b/index.html (build.format 'directory'). */
export function htmlFileFor(distDir: string, path: string): string {
  return path === '/' ? join(distDir, 'index.html') : join(distDir, path, 'index.html');
}

function assetFile(distDir: string, href: string): string | undefined {
  if (!href.startsWith('/')) return undefined;
  const file = join(distDir, href.split(/[?#]/)[0] ?? '');
  return existsSync(file) ? file : undefined;
}

/** A module and everything it imports statically (not `import()`), each file once, in `seen`. */
function collectModuleGraph(distDir: string, entry: string, seen: Set<string>): void {
  if (seen.has(entry)) return;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  const staticImports = code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g);
  for (const [, specifier] of staticImports) {
    if (!specifier) continue;
    const href = specifier.startsWith('/')
      ? specifier
      : new URL(specifier, `file://${entry}`).pathname.slice(distDir.length);
    const file = assetFile(distDir, href);
    if (file) collectModuleGraph(distDir, file, seen);
  }
}

/** The weight of a module's static import graph, counting only the files not yet in `seen`. */
function moduleGraph(distDir: string, entry: string, seen: Set<string>): Weight {
  const before = new Set(seen);
  collectModuleGraph(distDir, entry, seen);
  let total = zero;
  for (const file of seen) if (!before.has(file)) total = add(total, weigh(readFileSync(file)));
  return total;
}

export function measurePage(distDir: string, path: string): PageWeight {
  const html = readFileSync(htmlFileFor(distDir, path), 'utf8');
  let css = zero;
  for (const [, href] of html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)) {
    const file = href && assetFile(distDir, href);
    if (file) css = add(css, weigh(readFileSync(file)));
  }
  let js = zero;
  const seen = new Set<string>();
  for (const [, attrs = '', body = ''] of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/type="(application\/(ld\+)?json)"/.test(attrs)) continue;
    const src = /src="([^"]+)"/.exec(attrs)?.[1];
    const file = src && assetFile(distDir, src);
    js = add(js, file ? moduleGraph(distDir, file, seen) : weigh(body));
  }
  return { page: path, html: weigh(html), css, js };
}

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/**
 * The directives that hydrate an island with no interaction from a signed-in visitor: at load,
 * when idle, when scrolled into view (counted too: a first page may show it), and `client:intent`
 * given `signed-in` (src/integrations/intent-directive.ts: hydrates when idle once signed in).
 */
function hydratesWhenSignedIn(attributes: string): boolean {
  const client = /\sclient="([^"]+)"/.exec(attributes)?.[1];
  if (client === 'load' || client === 'idle' || client === 'visible' || client === 'only') return true;
  return (
    client === 'intent' &&
    /&quot;value&quot;:&quot;signed-in&quot;/.test(/\sopts="([^"]*)"/.exec(attributes)?.[1] ?? '')
  );
}

/**
 * The bytes a file takes on the wire: its brotli copy beside it, as the server sends it to a
 * browser that accepts br (src/server/static.ts); files too small to have one go as they are.
 */
function servedBytes(file: string): number {
  if (existsSync(`${file}.br`)) return readFileSync(`${file}.br`).length;
  const content = readFileSync(file);
  // A build without precompressed copies (astro build alone): what the precompress step would write.
  if (content.length < 256) return content.length;
  return brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })
    .length;
}

/**
 * At most this much JavaScript on any signed-in first page (scripts/check-budgets.ts): the bytes
 * received for its scripts with an empty cache — compressed bodies as sent plus each response's
 * headers, as Chromium's DevTools count a transfer (`encodedDataLength`).
 */
export const signedInScriptBudget = 100 * 1024;

/**
 * The response headers of one script as our server sends them over HTTP/1.1 (caching, ETag,
 * nosniff, CORP, HSTS, request id…): 581 bytes measured in Chromium (`npm run bench -- js` prints
 * the average), rounded up. With some thirty files a page, they once weighed as much as all its
 * code; the headers that govern only a document are not sent with a bundle (990 bytes before).
 */
export const scriptHeaderBytes = 640;

export interface PageScripts {
  page: string;
  /** Every script file fetched before any interaction, as a site path, with its served bytes. */
  files: { href: string; bytes: number }[];
  /** The files' bodies as sent. */
  bytes: number;
  /** What the browser receives for them: bodies plus `scriptHeaderBytes` each. */
  transferBytes: number;
}

/**
 * What a signed-in visitor's browser downloads as JavaScript on opening `path` with an empty
 * cache, before touching anything: the page's module scripts and the islands that hydrate
 * without interaction (component and renderer), each with its static imports, each file once,
 * counted as served (brotli) with `scriptHeaderBytes` of headers each. Code a module loads later
 * with `import()` is not counted; the browser benchmark (`npm run bench -- js`) measures the same
 * pages in Chromium to check that nothing at load escapes this reading.
 */
export function signedInScripts(distDir: string, path: string): PageScripts {
  const html = readFileSync(htmlFileFor(distDir, path), 'utf8');
  const entries: string[] = [];
  for (const [, attrs = ''] of html.matchAll(/<script([^>]*)>/g)) {
    const src = /\ssrc="([^"]+)"/.exec(attrs)?.[1];
    if (src) entries.push(src);
  }
  for (const [, attrs = ''] of html.matchAll(/<astro-island([^>]*)>/g)) {
    if (!hydratesWhenSignedIn(attrs)) continue;
    for (const name of ['component-url', 'renderer-url']) {
      const href = new RegExp(`\\s${name}="([^"]+)"`).exec(attrs)?.[1];
      if (href) entries.push(href);
    }
  }
  const seen = new Set<string>();
  for (const href of entries) {
    const file = assetFile(distDir, href);
    if (file) collectModuleGraph(distDir, file, seen);
  }
  const files = [...seen].map((file) => ({
    href: file.slice(distDir.length).replaceAll('\\', '/'),
    bytes: servedBytes(file),
  }));
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  return { page: path, files, bytes, transferBytes: bytes + files.length * scriptHeaderBytes };
}
