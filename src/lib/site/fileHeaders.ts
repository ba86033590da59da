/**
 * The headers a file of the build is sent with, read by every place that sends one: our own static
 * server (src/server/static.ts), the CDN upload (src/server/site/cdn.ts, whose fingerprint of these
 * rules makes the next upload put every file again when they change) and the build's
 * precompression (src/integrations/compress.ts). One set of rules, so a file has the same
 * Content-Type, Cache-Control and compressed siblings wherever it is fetched from.
 * Plain string work, no Node module: src/lib is shared with the browser.
 */

/** Hashed asset names live under this prefix (from the site root): they never change, so they are cached for a year. */
export const hashedAssetPrefix = '/_astro/';

export const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};

export const cacheControl = {
  immutable: 'public, max-age=31536000, immutable',
  html: 'no-cache',
  other: 'public, max-age=3600',
  redirect: 'public, max-age=3600',
} as const;

/** Text formats worth compressing; images and fonts are compressed already. */
export const compressible = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest)$/;

/** A path's extension in lower case with its dot (`.html`), or '' — as node's `path.extname` on `/`-separated paths. */
export function extensionOf(relative: string): string {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** The Content-Type of a file of the build, by its extension. */
export function contentTypeOf(relative: string): string {
  return contentTypes[extensionOf(relative)] ?? 'application/octet-stream';
}

/** The Cache-Control of a file of the build by its path from the root (`/_astro/x.js`). */
export function cacheControlOf(relative: string): string {
  if (relative.startsWith(hashedAssetPrefix)) return cacheControl.immutable;
  return extensionOf(relative) === '.html' ? cacheControl.html : cacheControl.other;
}
