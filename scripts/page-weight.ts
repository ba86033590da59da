/**
 * Measures what a built page costs a visitor: its HTML, the stylesheets it links, and the
 * JavaScript that runs before any interaction (inline scripts, module scripts and their static
 * imports). Islands hydrated on interaction are not counted: they load only when touched.
 * Used by the budget check (CI) and the benchmark.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

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

/** A module and everything it imports statically (not `import()`), each file once. */
function moduleGraph(distDir: string, entry: string, seen: Set<string>): Weight {
  if (seen.has(entry)) return zero;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  let total = weigh(code);
  const staticImports = code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g);
  for (const [, specifier] of staticImports) {
    if (!specifier) continue;
    const href = specifier.startsWith('/') ? specifier : new URL(specifier, `file://${entry}`).pathname.slice(distDir.length);
    const file = assetFile(distDir, href);
    if (file) total = add(total, moduleGraph(distDir, file, seen));
  }
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
