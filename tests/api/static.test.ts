import { mkdtemp, mkdir, rm, writeFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetStaticCache } from '../../src/server/static.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let dist: string;

const files: Record<string, string> = {
  'index.html': '<!doctype html><title>redirect</title>',
  '404.html': '<!doctype html><title>页面不存在</title>',
  'en-US/404.html': '<!doctype html><title>Page not found</title>',
  'welcome/home/index.html': '<!doctype html><title>首页</title>',
  'en-US/welcome/home/index.html': '<!doctype html><title>Home</title>',
  '_astro/x.js': `console.log(${JSON.stringify('x'.repeat(2000))});`,
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  '.hidden/secret.txt': 'secret',
};

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'hgd-static-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dist, name)), { recursive: true });
    await writeFile(path.join(dist, name), content);
  }
  await writeFile(path.join(dist, '_astro/x.js.br'), brotliCompressSync(files['_astro/x.js'] ?? ''));
  await writeFile(path.join(dist, '_astro/x.js.gz'), gzipSync(files['_astro/x.js'] ?? ''));
  await writeFile(path.join(dist, '..', `${path.basename(dist)}-outside.txt`), 'outside');
  t = await createTestApp({ staticDir: dist });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
  await rm(`${dist}-outside.txt`, { force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  t.app.request(url, { method, headers });

describe('static files', () => {
  it('serves a directory page as HTML with no-cache, ETag and Last-Modified', async () => {
    const res = await get('/welcome/home');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toMatch(/^W\/".+"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('首页');
    expect((await get('/welcome/home/')).status).toBe(200);
  });

  it('answers 304 to a matching If-None-Match or If-Modified-Since', async () => {
    const first = await get('/welcome/home');
    const etag = first.headers.get('etag') ?? '';
    const revalidated = await get('/welcome/home', { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect((await get('/welcome/home', { 'If-None-Match': 'W/"other"' })).status).toBe(200);
    const since = first.headers.get('last-modified') ?? '';
    expect((await get('/welcome/home', { 'If-Modified-Since': since })).status).toBe(304);
    expect((await get('/welcome/home', { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status).toBe(200);
  });

  it('serves hashed assets as immutable, precompressed by preference', async () => {
    const br = await get('/_astro/x.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const brBytes = new Uint8Array(await br.arrayBuffer());
    expect(brBytes.length).toBe(Number(br.headers.get('content-length')));
    expect(brBytes.length).toBeLessThan((files['_astro/x.js'] ?? '').length);

    const gz = await get('/_astro/x.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('etag')).not.toBe(br.headers.get('etag'));

    const brRefused = await get('/_astro/x.js', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(brRefused.headers.get('content-encoding')).toBe('gzip');

    const plain = await get('/_astro/x.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(files['_astro/x.js']);
  });

  it('caches other files for an hour, with their type', async () => {
    const res = await get('/favicon.svg');
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('answers HEAD with headers and no body', async () => {
    const res = await get('/welcome/home', {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(files['welcome/home/index.html'] ?? '')));
    expect(await res.text()).toBe('');
  });

  it('refuses other methods', async () => {
    expect((await get('/welcome/home', {}, 'POST')).status).toBe(405);
  });
});

describe('not found', () => {
  it('answers 404 with the zh-CN page by default', async () => {
    const res = await get('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('页面不存在');
  });

  it('uses the locale prefix of the path', async () => {
    const res = await get('/en-US/no/such/page');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page not found');
  });

  it('uses the locale cookie, then Accept-Language, for unprefixed paths', async () => {
    expect(await (await get('/nope', { Cookie: 'locale=en-US' })).text()).toContain('Page not found');
    expect(await (await get('/nope', { 'Accept-Language': 'en-GB,en;q=0.9' })).text()).toContain('Page not found');
    // A locale without its own page falls back to the zh-CN one.
    expect(await (await get('/id-ID/nope')).text()).toContain('页面不存在');
  });

  it('answers HEAD on a missing page with 404 and no body', async () => {
    const res = await get('/nope', {}, 'HEAD');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('does not serve hidden files', async () => {
    expect((await get('/.hidden/secret.txt')).status).toBe(404);
  });
});

describe('redirects', () => {
  it('answers the route table redirects with 301, keeping the query string', async () => {
    const cases: [string, string][] = [
      ['/', '/welcome/home'],
      ['/index.html', '/welcome/home'],
      ['/welcome', '/welcome/home'],
      ['/person?tab=1&x=%E4%B8%AD', '/person/overview?tab=1&x=%E4%B8%AD'],
      ['/person/', '/person/overview'],
      ['/partner', '/partner/query/settlement'],
      ['/en-US', '/en-US/welcome/home'],
      ['/en-US/', '/en-US/welcome/home'],
      ['/en-US/index.html', '/en-US/welcome/home'],
      ['/en-US/person?redirect=%2Fa', '/en-US/person/overview?redirect=%2Fa'],
      ['/zh-TW/infomation', '/zh-TW/infomation/list'],
    ];
    for (const [from, to] of cases) {
      const res = await get(from);
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
  });
});

describe('query forms of the spec', () => {
  it('answers 301 to the path form, keeping locale, region and the rest of the query', async () => {
    const cases: [string, string][] = [
      ['/products?id=id3', '/products/id3'],
      ['/en-US/gx/products?id=id2&from=menu', '/en-US/gx/products/id2?from=menu'],
      ['/infomation/detail?newsId=n1', '/infomation/detail/n1'],
      ['/zh-TW/welcome/detail?noticeId=c2', '/zh-TW/welcome/detail/c2'],
      ['/assistance?documentId=d4', '/assistance/d4'],
    ];
    for (const [from, to] of cases) {
      const res = await get(from);
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
  });

  it('leaves unsafe ids and other pages alone', async () => {
    for (const url of ['/products?id=%2F%2Fevil.example', '/welcome/home?id=id3', '/products?id=']) {
      expect((await get(url)).status, url).not.toBe(301);
    }
  });
});

describe('path traversal', () => {
  it('never serves a file outside the root', async () => {
    const name = `${path.basename(dist)}-outside.txt`;
    // URL parsing already folds `%2e%2e` segments; what survives it must not escape the root.
    for (const attempt of [`/%2e%2e/${name}`, `/_astro/%2e%2e/%2e%2e/${name}`, `/..%2f${name}`, `/%2e%2e%5c${name}`]) {
      const res = await get(attempt);
      expect([400, 404], attempt).toContain(res.status);
      expect(await res.text(), attempt).not.toBe('outside');
    }
  });

  it('rejects encoded separators, backslashes, NUL and bad escapes with 400', async () => {
    const name = `${path.basename(dist)}-outside.txt`;
    for (const attempt of [
      `/..%2f${name}`,
      `/_astro/..%2F..%2F${name}`,
      `/%2e%2e%5c${name}`,
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      expect((await get(attempt)).status, attempt).toBe(400);
    }
  });

  it('keeps plain dot segments inside the root', async () => {
    const res = await get(`/../../${path.basename(dist)}-outside.txt`);
    expect([400, 404]).toContain(res.status);
    expect(await res.text()).not.toBe('outside');
  });
});

describe('cache', () => {
  it('keeps file metadata until reset', async () => {
    const file = path.join(dist, 'welcome/home/index.html');
    const before = await get('/welcome/home');
    const etag = before.headers.get('etag');
    await writeFile(file, '<!doctype html><title>新首页 — rebuilt</title>');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    // Not stat'ed again: same ETag as before.
    expect((await get('/welcome/home', {}, 'HEAD')).headers.get('etag')).toBe(etag);
    resetStaticCache();
    const after = await get('/welcome/home');
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await after.text()).toContain('rebuilt');
  });

  it('finds a file added after a miss once reset', async () => {
    expect((await get('/later.txt')).status).toBe(404);
    await writeFile(path.join(dist, 'later.txt'), 'later');
    resetStaticCache();
    const res = await get('/later.txt');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('later');
  });
});

describe('API next to static files', () => {
  it('still answers unknown /api paths with the JSON 404', async () => {
    const res = await get('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
