/**
 * The one set of header rules for files of the build (src/lib/site/fileHeaders.ts): it has no
 * Node module, so its extension reading is checked against node's `path.extname`, which the
 * static server and the CDN upload used before.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cacheControl,
  cacheControlOf,
  compressible,
  contentTypeOf,
  extensionOf,
} from '../../src/lib/site/fileHeaders.ts';

describe('fileHeaders', () => {
  it('reads an extension as path.extname does, in lower case', () => {
    for (const file of [
      '/a/b/index.html',
      'welcome/home/INDEX.HTML',
      '_astro/app.Bx3_k9Qa.js',
      'robots.txt',
      '.build-stamp',
      'dir.with.dots/file',
      'favicon.svg.br',
      'noext',
      '/srv/dist/.well-known/security.txt',
    ]) {
      expect(extensionOf(file)).toBe(path.extname(file).toLowerCase());
    }
  });

  it('caches hashed assets for a year, pages not at all without revalidation, the rest an hour', () => {
    expect(cacheControlOf('/_astro/app.Bx3_k9Qa.js')).toBe(cacheControl.immutable);
    expect(cacheControlOf('/_astro/page.html')).toBe(cacheControl.immutable);
    expect(cacheControlOf('/welcome/home/index.html')).toBe(cacheControl.html);
    expect(cacheControlOf('/robots.txt')).toBe(cacheControl.other);
  });

  it('types files by extension and names the compressible ones', () => {
    expect(contentTypeOf('/a/index.HTML')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('/a/blob')).toBe('application/octet-stream');
    expect(compressible.test('x.webmanifest')).toBe(true);
    expect(compressible.test('x.png')).toBe(false);
  });
});
