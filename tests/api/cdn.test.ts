/**
 * The CDN upload (src/server/site/cdn.ts) against a real S3-compatible server (s3rver, started
 * here on 127.0.0.1): every file of a small build with the headers static.ts serves it with,
 * precompressed siblings with their Content-Encoding, pages after every asset, unchanged files
 * skipped, a failure naming its file. Then the settings (CDN_S3_BUCKET, CDN_S3_PREFIX), and the
 * rebuild and rollback with a CDN configured through the environment: uploaded before publishing,
 * a failed upload failing the rebuild (or the rollback) with the published site unchanged.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { siteBuilds } from '../../src/server/db/schema/index.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import { CdnUploadError, cdnMarkerKey, cdnStoreFromConfig, uploadToCdn } from '../../src/server/site/cdn.ts';
import { siteLayout } from '../../src/server/site/servedSite.ts';
import type { ObjectStore } from '../../src/server/storage/objectStore.ts';
import { createS3Store } from '../../src/server/storage/s3Store.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';
import { startS3Server, type TestS3Server } from './s3Server.ts';

let s3: TestS3Server;
let root: string;
let dist: string;

const immutable = 'public, max-age=31536000, immutable';
const hour = 'public, max-age=3600';

/** A page worth compressing (over the build's 256-byte threshold). */
const pageHtml = `<!doctype html><html lang="zh-CN"><head><title>首页</title><script type="module" src="/_astro/app.Bx3_k9Qa.js"></script></head><body>${'<p>汇购电 售电平台</p>'.repeat(40)}</body></html>`;
const script = `export function start(){${'console.log("汇购电");'.repeat(30)}}`;
const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>';
const robots = 'User-agent: *\nDisallow: /api/\n';
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

function write(dir: string, relative: string, bytes: string | Uint8Array): void {
  const file = path.join(dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

/** A build as `astro build` and compress.ts leave it: siblings beside the larger text files. */
function writeDist(dir: string): void {
  write(dir, 'index.html', pageHtml);
  write(dir, 'index.html.br', brotliCompressSync(pageHtml));
  write(dir, 'index.html.gz', gzipSync(pageHtml));
  write(dir, 'welcome/home/index.html', pageHtml.replace('首页', '欢迎'));
  write(dir, '_astro/app.Bx3_k9Qa.js', script);
  write(dir, '_astro/app.Bx3_k9Qa.js.br', brotliCompressSync(script));
  write(dir, '_astro/app.Bx3_k9Qa.js.gz', gzipSync(script));
  write(dir, 'favicon.svg', svg);
  write(dir, 'robots.txt', robots);
  write(dir, 'images/logo.png', png);
  write(dir, '.build-stamp', '12345');
}

interface Expected {
  contentType: string;
  cacheControl: string;
  encoding?: 'br' | 'gzip';
  /** The identity bytes (a sibling is checked by decompressing it). */
  bytes: string | Uint8Array;
  /** Put byte for byte from dist/ (false: made at upload). */
  fromDist: boolean;
}

const html = 'text/html; charset=utf-8';
const js = 'text/javascript; charset=utf-8';
const expected: Record<string, Expected> = {
  'index.html': { contentType: html, cacheControl: 'no-cache', bytes: pageHtml, fromDist: true },
  'index.html.br': { contentType: html, cacheControl: 'no-cache', encoding: 'br', bytes: pageHtml, fromDist: true },
  'index.html.gz': { contentType: html, cacheControl: 'no-cache', encoding: 'gzip', bytes: pageHtml, fromDist: true },
  'welcome/home/index.html': {
    contentType: html,
    cacheControl: 'no-cache',
    bytes: pageHtml.replace('首页', '欢迎'),
    fromDist: true,
  },
  'welcome/home/index.html.br': {
    contentType: html,
    cacheControl: 'no-cache',
    encoding: 'br',
    bytes: pageHtml.replace('首页', '欢迎'),
    fromDist: false,
  },
  'welcome/home/index.html.gz': {
    contentType: html,
    cacheControl: 'no-cache',
    encoding: 'gzip',
    bytes: pageHtml.replace('首页', '欢迎'),
    fromDist: false,
  },
  '_astro/app.Bx3_k9Qa.js': { contentType: js, cacheControl: immutable, bytes: script, fromDist: true },
  '_astro/app.Bx3_k9Qa.js.br': {
    contentType: js,
    cacheControl: immutable,
    encoding: 'br',
    bytes: script,
    fromDist: true,
  },
  '_astro/app.Bx3_k9Qa.js.gz': {
    contentType: js,
    cacheControl: immutable,
    encoding: 'gzip',
    bytes: script,
    fromDist: true,
  },
  'favicon.svg': { contentType: 'image/svg+xml', cacheControl: hour, bytes: svg, fromDist: true },
  'favicon.svg.br': { contentType: 'image/svg+xml', cacheControl: hour, encoding: 'br', bytes: svg, fromDist: false },
  'favicon.svg.gz': { contentType: 'image/svg+xml', cacheControl: hour, encoding: 'gzip', bytes: svg, fromDist: false },
  'robots.txt': { contentType: 'text/plain; charset=utf-8', cacheControl: hour, bytes: robots, fromDist: true },
  'robots.txt.br': {
    contentType: 'text/plain; charset=utf-8',
    cacheControl: hour,
    encoding: 'br',
    bytes: robots,
    fromDist: false,
  },
  'robots.txt.gz': {
    contentType: 'text/plain; charset=utf-8',
    cacheControl: hour,
    encoding: 'gzip',
    bytes: robots,
    fromDist: false,
  },
  'images/logo.png': { contentType: 'image/png', cacheControl: hour, bytes: png, fromDist: true },
};

/** A store that records the order of puts and can be told to fail one key. */
function recording(store: ObjectStore, failOn?: string): ObjectStore & { puts: string[] } {
  const puts: string[] = [];
  return {
    ...store,
    puts,
    async put(key, body, options) {
      puts.push(key);
      if (key === failOn) {
        if (body instanceof ReadableStream) await body.cancel();
        throw new Error('SlowDown: please reduce your request rate');
      }
      return store.put(key, body, options);
    },
  };
}

async function object(client: S3Client, bucket: string, key: string) {
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
  return { head, bytes };
}

function decoded(bytes: Buffer, encoding: 'br' | 'gzip' | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(bytes);
  if (encoding === 'gzip') return gunzipSync(bytes);
  return bytes;
}

function isPage(key: string): boolean {
  return /\.html(\.br|\.gz)?$/.test(key);
}

beforeAll(async () => {
  s3 = await startS3Server('hgd-cdn');
  root = await mkdtemp(path.join(tmpdir(), 'hgd-cdn-'));
  dist = path.join(root, 'dist');
  writeDist(dist);
}, 30_000);

afterAll(async () => {
  await s3?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('uploadToCdn', () => {
  it('puts every file with the headers static.ts serves, siblings with their Content-Encoding, and the bytes as they are', async () => {
    const store = createS3Store({ ...s3.options, prefix: 'site' });
    const result = await uploadToCdn(store, dist, { buildId: 7 });
    console.info(`CDN upload of the test build: ${result.objects} objects, ${result.bytes} bytes in ${result.ms} ms`);
    expect(result).toMatchObject({ objects: 16, uploaded: 16, skipped: 0, generated: 6 });

    const keys = await store.list('');
    expect(keys).toEqual([...Object.keys(expected), cdnMarkerKey].sort());
    expect(keys).not.toContain('.build-stamp');

    for (const [key, want] of Object.entries(expected)) {
      const { head, bytes } = await object(store.client, s3.bucket, `site/${key}`);
      expect({ key, type: head.ContentType, cache: head.CacheControl, encoding: head.ContentEncoding }).toEqual({
        key,
        type: want.contentType,
        cache: want.cacheControl,
        encoding: want.encoding,
      });
      expect(Number(head.ContentLength)).toBe(bytes.byteLength);
      if (want.fromDist) expect(bytes.equals(readFileSync(path.join(dist, key)))).toBe(true);
      expect(decoded(bytes, want.encoding).equals(Buffer.from(want.bytes))).toBe(true);
    }
    const marker = JSON.parse(
      (await object(store.client, s3.bucket, `site/${cdnMarkerKey}`)).bytes.toString('utf8'),
    ) as Record<string, unknown>;
    expect(marker).toMatchObject({ buildId: 7, objects: 16 });
  });

  it('puts hashed assets first, then the other files, pages last', async () => {
    const store = recording(createS3Store({ ...s3.options, prefix: 'order' }));
    await uploadToCdn(store, dist, { concurrency: 3 });
    const puts = store.puts.filter((key) => key !== cdnMarkerKey);
    expect(new Set(puts)).toEqual(new Set(Object.keys(expected)));
    const firstPage = puts.findIndex(isPage);
    const lastOther = puts.findLastIndex((key) => !isPage(key));
    expect(lastOther).toBeLessThan(firstPage);
    expect(puts.slice(0, 3).every((key) => key.startsWith('_astro/'))).toBe(true);
    expect(store.puts.at(-1)).toBe(cdnMarkerKey);
  });

  it('skips what the bucket holds already, and puts everything again when the header rules changed', async () => {
    const store = createS3Store({ ...s3.options, prefix: 'skip' });
    await uploadToCdn(store, dist);
    const again = await uploadToCdn(store, dist);
    expect(again).toMatchObject({ objects: 16, uploaded: 0, skipped: 16, bytes: 0 });

    const changed = path.join(root, 'changed');
    cpSync(dist, changed, { recursive: true });
    writeFileSync(path.join(changed, 'robots.txt'), `${robots}Sitemap: https://example.com/sitemap.xml\n`);
    const third = await uploadToCdn(store, changed);
    // robots.txt and the two siblings made from it.
    expect(third).toMatchObject({ uploaded: 3, skipped: 13 });
    const robotsNow = (await object(store.client, s3.bucket, 'skip/robots.txt')).bytes.toString('utf8');
    expect(robotsNow).toContain('Sitemap:');

    // A marker from other header rules (an older release): nothing is trusted, everything is put.
    await store.put(cdnMarkerKey, new TextEncoder().encode(JSON.stringify({ policy: 'older rules' })));
    expect(await uploadToCdn(store, changed)).toMatchObject({ uploaded: 16, skipped: 0 });
    expect(await uploadToCdn(store, changed, { skipUnchanged: false })).toMatchObject({ uploaded: 16, skipped: 0 });
  });

  it('a failed put stops the upload with an error naming the file; no page is put', async () => {
    const failing = '_astro/app.Bx3_k9Qa.js.gz';
    const store = recording(createS3Store({ ...s3.options, prefix: 'failing' }), failing);
    const attempt = uploadToCdn(store, dist, { concurrency: 2 });
    await expect(attempt).rejects.toThrow(CdnUploadError);
    await expect(attempt).rejects.toThrow(
      `CDN upload stopped at ${failing}: SlowDown: please reduce your request rate`,
    );
    await attempt.catch((error: unknown) => expect((error as CdnUploadError).file).toBe(failing));
    expect(store.puts.some(isPage)).toBe(false);
    expect(await store.list('')).not.toContain(cdnMarkerKey);
  });

  it('a file no object key can name fails the upload, naming it', async () => {
    const odd = path.join(root, 'odd');
    cpSync(dist, odd, { recursive: true });
    write(odd, 'images/photo (1).png', png);
    const store = createS3Store({ ...s3.options, prefix: 'odd' });
    await expect(uploadToCdn(store, odd)).rejects.toThrow(
      'CDN upload stopped at images/photo (1).png: not a valid object key',
    );
  });
});

describe('settings', () => {
  const connection = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' };

  it('CDN_S3_BUCKET with the S3_* connection, with files kept locally or in their own bucket', () => {
    expect(loadConfig({}).cdn).toBeUndefined();
    const local = loadConfig({ ...connection, CDN_S3_BUCKET: 'portal-cdn', CDN_S3_PREFIX: 'www' });
    expect(local).toMatchObject({ storage: 'local', s3: undefined });
    expect(local.cdn).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'portal-cdn',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'www/',
      timeoutMs: 5_000,
    });
    // AWS: the region says where; the SDK's own credentials.
    expect(loadConfig({ CDN_S3_BUCKET: 'portal-cdn', S3_REGION: 'ap-east-1' }).cdn).toMatchObject({
      endpoint: undefined,
      region: 'ap-east-1',
      forcePathStyle: false,
      prefix: '',
    });
    const both = loadConfig({ ...connection, STORAGE: 's3', S3_BUCKET: 'portal-files', CDN_S3_BUCKET: 'portal-cdn' });
    expect([both.s3?.bucket, both.cdn?.bucket, both.cdn?.endpoint]).toEqual([
      'portal-files',
      'portal-cdn',
      'http://127.0.0.1:9000',
    ]);
    expect(cdnStoreFromConfig(local)?.kind).toBe('s3');
    expect(cdnStoreFromConfig(loadConfig({}))).toBeUndefined();
  });

  it('a CDN bucket without connection settings, or with half a key pair, or the files bucket, stops the start naming the variables', () => {
    expect(() => loadConfig({ CDN_S3_BUCKET: 'portal-cdn' })).toThrow(ConfigError);
    expect(() => loadConfig({ CDN_S3_BUCKET: 'portal-cdn' })).toThrow(
      /CDN_S3_BUCKET needs the object store connection settings: S3_ENDPOINT .* or S3_REGION/,
    );
    expect(() =>
      loadConfig({ CDN_S3_BUCKET: 'portal-cdn', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'key' }),
    ).toThrow(/S3_SECRET_ACCESS_KEY is required with S3_ACCESS_KEY_ID for CDN_S3_BUCKET/);
    expect(() =>
      loadConfig({ ...connection, STORAGE: 's3', S3_BUCKET: 'portal-files', CDN_S3_BUCKET: 'portal-files' }),
    ).toThrow(/CDN_S3_BUCKET="portal-files" is S3_BUCKET/);
    expect(() => loadConfig({ CDN_S3_PREFIX: 'www' })).toThrow(/CDN_S3_PREFIX is set without CDN_S3_BUCKET/);
    expect(() => loadConfig({ CDN_S3_BUCKET: 'Not_A_Bucket', S3_REGION: 'ap-east-1' })).toThrow(
      /CDN_S3_BUCKET="Not_A_Bucket": must be a bucket name/,
    );
    // Without a CDN bucket the connection settings still need STORAGE=s3, and S3_BUCKET always does.
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/STORAGE="local" with S3_ENDPOINT set/);
    expect(() => loadConfig({ ...connection, CDN_S3_BUCKET: 'portal-cdn', S3_BUCKET: 'portal-files' })).toThrow(
      /STORAGE="local" with S3_BUCKET set/,
    );
  });
});

describe('the rebuild and the rollback with a CDN bucket', () => {
  const token = 'rebuild-token-cdn-0123456789abcdef012345';
  const auth = { Authorization: `Bearer ${token}` };
  let t: TestApp;
  let dataDir: string;
  let cdnStore: ReturnType<typeof createS3Store>;
  let title = 'first';
  let extra: ((outDir: string) => void) | undefined;
  /** When set, the build waits for it. */
  let gate: Promise<void> | undefined;

  async function build({ outDir }: BuildRequest): Promise<void> {
    await gate;
    write(outDir, 'index.html', `<!doctype html><title>${title}</title>`);
    write(outDir, 'welcome/home/index.html', `<!doctype html><title>${title} home</title>`);
    write(outDir, `_astro/page.${title}.js`, `console.log(${JSON.stringify(title)})`);
    extra?.(outDir);
  }

  interface View {
    buildId: number;
    status: string;
    error: string | null;
  }

  async function startRebuild(): Promise<View> {
    const started = (await (
      await t.app.request('/api/admin/site/rebuild', { method: 'POST', headers: apiHeaders(auth) })
    ).json()) as { data: View };
    expect(started.data.status).toBe('running');
    return started.data;
  }

  async function rollback(buildId: number): Promise<{ code: number; message: string }> {
    const answer = await t.app.request('/api/admin/site/rollback', {
      method: 'POST',
      headers: apiHeaders({ ...auth, 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en-US' }),
      body: `buildId=${buildId}`,
    });
    return (await answer.json()) as { code: number; message: string };
  }

  async function rebuild(): Promise<View> {
    await startRebuild();
    return finished();
  }

  async function finished(): Promise<View> {
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const latest = (await (await t.app.request('/api/admin/site/rebuild', { headers: auth })).json()) as {
        data: View;
      };
      if (latest.data.status !== 'running') return latest.data;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the rebuild did not finish');
  }

  const page = async (url: string) => (await t.app.request(url)).text();
  const onCdn = async (key: string) => (await object(cdnStore.client, s3.bucket, `www/${key}`)).bytes.toString('utf8');

  beforeAll(async () => {
    dataDir = path.join(root, 'rebuild-data');
    const oldDist = path.join(root, 'rebuild-old-dist');
    write(oldDist, 'welcome/home/index.html', '<!doctype html><title>old site home</title>');
    t = await createTestApp({
      staticDir: oldDist,
      env: {
        DATA_DIR: dataDir,
        REBUILD_TOKEN: token,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.env['S3_ACCESS_KEY_ID'] ?? '',
        S3_SECRET_ACCESS_KEY: s3.env['S3_SECRET_ACCESS_KEY'] ?? '',
        CDN_S3_BUCKET: s3.bucket,
        CDN_S3_PREFIX: 'www',
      },
      deps: { siteBuild: { command: build } },
    });
    cdnStore = createS3Store({ ...s3.options, prefix: 'www' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a rebuild uploads its pages to the CDN bucket, then publishes', async () => {
    title = 'first';
    const result = await rebuild();
    expect(result).toMatchObject({ status: 'succeeded', error: null });
    expect(await page('/welcome/home')).toBe('<!doctype html><title>first home</title>');
    expect(await onCdn('welcome/home/index.html')).toBe('<!doctype html><title>first home</title>');
    const head = await cdnStore.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: 'www/_astro/page.first.js' }),
    );
    expect([head.CacheControl, head.ContentType]).toEqual([immutable, js]);
    expect(JSON.parse(await onCdn(cdnMarkerKey))).toMatchObject({ buildId: result.buildId });
  });

  it('a failed upload fails the rebuild, naming the file; the published site stays', async () => {
    title = 'second';
    extra = (outDir) => write(outDir, 'images/bad name.png', png);
    try {
      const result = await rebuild();
      expect(result.status).toBe('failed');
      expect(result.error).toContain('CDN upload stopped at images/bad name.png: not a valid object key');
    } finally {
      extra = undefined;
    }
    expect(await page('/welcome/home')).toBe('<!doctype html><title>first home</title>');
    // Assets went first and no page followed: the bucket's pages are still the published build's.
    expect(await onCdn('welcome/home/index.html')).toBe('<!doctype html><title>first home</title>');
    expect(await onCdn('_astro/page.second.js')).toBe('console.log("second")');
  });

  it('a rollback uploads the earlier build again before publishing it; a failed upload rolls nothing back', async () => {
    const first = (await t.db.select().from(siteBuilds)).find((row) => row.status === 'succeeded');
    title = 'third';
    expect((await rebuild()).status).toBe('succeeded');
    expect(await onCdn('welcome/home/index.html')).toBe('<!doctype html><title>third home</title>');

    // A file no key can name, put into the kept build behind its back: the upload fails at it.
    const firstDist = path.join(siteLayout(dataDir).buildsDir, String(first?.id).padStart(6, '0'), 'dist');
    write(firstDist, 'images/bad name.png', png);
    const refused = await rollback(first?.id ?? 0);
    expect(refused).toMatchObject({
      code: 503,
      message: 'The upload to the CDN bucket failed, so the site was not rolled back; the reason is in the server log.',
    });
    expect(await page('/welcome/home')).toBe('<!doctype html><title>third home</title>');
    expect(await onCdn('welcome/home/index.html')).toBe('<!doctype html><title>third home</title>');

    await rm(path.join(firstDist, 'images'), { recursive: true });
    expect((await rollback(first?.id ?? 0)).code).toBe(200);
    expect(await page('/welcome/home')).toBe('<!doctype html><title>first home</title>');
    expect(await onCdn('welcome/home/index.html')).toBe('<!doctype html><title>first home</title>');
    expect(JSON.parse(await onCdn(cdnMarkerKey))).toMatchObject({ buildId: first?.id });
  });

  it('no rollback while a rebuild runs: their two uploads would mix pages in the bucket', async () => {
    const kept = (await t.db.select().from(siteBuilds)).filter((row) => row.status === 'succeeded');
    let release!: () => void;
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    title = 'fourth';
    try {
      await startRebuild();
      expect(await rollback(kept[0]?.id ?? 0)).toMatchObject({
        code: 409,
        message: 'A site rebuild is already running. Please try again when it has finished.',
      });
    } finally {
      gate = undefined;
      release();
    }
    expect((await finished()).status).toBe('succeeded');
    expect(await onCdn('welcome/home/index.html')).toBe('<!doctype html><title>fourth home</title>');
  });

  it('a CDN bucket that does not exist fails the rebuild, saying so', async () => {
    const other = await createTestApp({
      staticDir: path.join(root, 'rebuild-old-dist'),
      env: {
        DATA_DIR: path.join(root, 'rebuild-data-2'),
        REBUILD_TOKEN: token,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.env['S3_ACCESS_KEY_ID'] ?? '',
        S3_SECRET_ACCESS_KEY: s3.env['S3_SECRET_ACCESS_KEY'] ?? '',
        CDN_S3_BUCKET: 'no-such-bucket',
      },
      deps: { siteBuild: { command: build } },
    });
    const saved = t;
    t = other;
    try {
      const result = await rebuild();
      expect(result.status).toBe('failed');
      expect(result.error).toMatch(
        /^CDN upload stopped at _astro\/page\.\w+\.js(?:\.(?:gz|br) \(made from [^)]+\))?: .*bucket does not exist/,
      );
      expect(await page('/welcome/home')).toBe('<!doctype html><title>old site home</title>');
    } finally {
      t = saved;
      await other.close();
    }
  });
});
