/**
 * The object store's contract (src/server/storage/objectStore.ts), once, for both engines: the
 * local directory and an S3 bucket on a real S3-compatible server (s3rver, started here on
 * 127.0.0.1; no mock of the client). Then what is S3's alone (key prefix, bucket check), the
 * settings, and the runtime that checks the store and seeds the demo files into the bucket.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { enterpriseAuthFiles } from '../../src/server/db/schema/index.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { objectStoreFromConfig } from '../../src/server/storage/fromConfig.ts';
import { createLocalStore } from '../../src/server/storage/localStore.ts';
import {
  InvalidKeyError,
  ObjectStoreUnavailableError,
  type ObjectStore,
} from '../../src/server/storage/objectStore.ts';
import { createS3Store } from '../../src/server/storage/s3Store.ts';
import { uploadKey } from '../../src/server/uploads/storage.ts';
import { startS3Server, type TestS3Server } from './s3Server.ts';

let s3: TestS3Server;
let localRoot: string;

beforeAll(async () => {
  s3 = await startS3Server();
  localRoot = await mkdtemp(path.join(tmpdir(), 'hgd-objects-'));
}, 30_000);

afterAll(async () => {
  await s3?.stop();
  if (localRoot) await rm(localRoot, { recursive: true, force: true });
});

const MiB = 1024 * 1024;
const text = (value: string) => new TextEncoder().encode(value);

async function readAll(store: ObjectStore, key: string): Promise<string | null> {
  const object = await store.get(key);
  return object ? new Response(object.body).text() : null;
}

/** A stream of `chunks` fresh chunks of `chunkSize` bytes, made one by one as they are read; no size known up front. */
function generated(chunks: number, chunkSize: number, onPull?: () => void): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        onPull?.();
        if (index === chunks) {
          controller.close();
          return;
        }
        const chunk = new Uint8Array(chunkSize);
        chunk.fill(index % 251);
        chunk[0] = index & 0xff;
        chunk[1] = (index >> 8) & 0xff;
        controller.enqueue(chunk);
        index += 1;
      },
    },
    { highWaterMark: 1 },
  );
}

/** sha256 of what `generated` makes, computed the same way without keeping it. */
function generatedSha256(chunks: number, chunkSize: number): string {
  const hash = createHash('sha256');
  const bytes = new Uint8Array(chunkSize);
  for (let index = 0; index < chunks; index += 1) {
    bytes.fill(index % 251);
    bytes[0] = index & 0xff;
    bytes[1] = (index >> 8) & 0xff;
    hash.update(bytes);
  }
  return hash.digest('hex');
}

// A full garbage collection on demand, so that what is measured is what is still held, not garbage.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** What this process still holds after a full collection: the JS heap plus the memory behind ArrayBuffers. */
function heldBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

interface Engine {
  name: 'local' | 's3';
  store: () => ObjectStore;
}

const engines: Engine[] = [
  { name: 'local', store: () => createLocalStore(path.join(localRoot, 'contract')) },
  // Pages of 7 keys, so listing below goes through many pages.
  { name: 's3', store: () => createS3Store({ ...s3.options, prefix: 'contract', listPageSize: 7 }) },
];

describe.each(engines)('the $name engine', ({ name, store: make }) => {
  let store: ObjectStore;
  beforeAll(() => {
    store = make();
  });

  it('puts and gets bytes, replaces an object, answers null for a missing one', async () => {
    await store.put('a/one.txt', text('first'), { contentType: 'text/plain' });
    expect(await readAll(store, 'a/one.txt')).toBe('first');
    const object = await store.get('a/one.txt');
    expect(object?.size).toBe(5);
    await object?.body.cancel();

    await store.put('a/one.txt', new Blob(['second, longer']).stream(), { size: 14 });
    expect(await readAll(store, 'a/one.txt')).toBe('second, longer');
    expect(await store.list('a/')).toEqual(['a/one.txt']);

    expect(await store.get('a/missing')).toBeNull();
    expect(await store.get('nowhere/at/all')).toBeNull();
    // A "directory" (a prefix of other keys) is not an object.
    await store.put('d/e/f', text('x'));
    expect(await store.get('d/e')).toBeNull();
    expect(await store.get('d')).toBeNull();
  });

  it('refuses a body whose length is not the announced size, and stores nothing', async () => {
    await expect(store.put('sized/short', new Blob(['ab']).stream(), { size: 3 })).rejects.toThrow(
      /2 bytes received, 3 announced/,
    );
    await expect(store.put('sized/long', new Blob(['abcd']).stream(), { size: 3 })).rejects.toThrow(/announced/);
    await expect(store.put('sized/bytes', text('abcd'), { size: 3 })).rejects.toThrow(/announced/);
    expect(await store.list('sized/')).toEqual([]);
    // A failed replacement keeps the object it would have replaced.
    await store.put('sized/kept', text('old'));
    await expect(store.put('sized/kept', new Blob(['new!']).stream(), { size: 3 })).rejects.toThrow();
    expect(await readAll(store, 'sized/kept')).toBe('old');
    expect(await store.list('sized/')).toEqual(['sized/kept']);
  });

  it('streams a 64 MiB object of unknown size in and out without holding it', async () => {
    const chunks = 1024;
    const chunkSize = 64 * 1024;
    const size = chunks * chunkSize;
    let base = heldBytes();
    let peak = 0;
    let calls = 0;
    // What is held, measured at every 16th chunk made or read (each measure is a full collection).
    const watch = () => {
      calls += 1;
      if (calls % 16 === 0) peak = Math.max(peak, heldBytes() - base);
    };
    try {
      await store.put('big/stream.bin', generated(chunks, chunkSize, watch));
      const putPeak = peak;
      // The read is measured from here (the SDK may hold the last part a little after the put).
      base = heldBytes();
      peak = 0;
      const object = await store.get('big/stream.bin');
      expect(object?.size).toBe(size);
      const hash = createHash('sha256');
      let read = 0;
      for await (const chunk of object!.body) {
        hash.update(chunk);
        read += chunk.byteLength;
        watch();
      }
      const getPeak = peak;
      expect(read).toBe(size);
      expect(hash.digest('hex')).toBe(generatedSha256(chunks, chunkSize));
      console.info(
        `${name}: ${size / MiB} MiB streamed; growth of heap + buffers at most ${(putPeak / MiB).toFixed(1)} MiB in, ${(getPeak / MiB).toFixed(1)} MiB out`,
      );
      // Streaming, not buffering: what is held stays far below the object's size, whatever that is.
      // Locally about one read buffer; on S3 one 5 MiB part in flight while lib-storage gathers the
      // next (its chunker keeps the previous part's buffer alive until then): 10–16 MiB measured.
      expect(putPeak).toBeLessThan(24 * MiB);
      expect(getPeak).toBeLessThan(24 * MiB);
    } finally {
      await store.remove(['big/stream.bin']);
    }
  }, 60_000);

  it('lists by prefix, in byte order, over many pages', async () => {
    const keys = ['list/a.txt', 'list/b/one', 'list/b/two', 'list/bc', 'listing/z', 'other/x'];
    await Promise.all(keys.map((key) => store.put(key, text(key))));
    expect(await store.list('list/')).toEqual(['list/a.txt', 'list/b/one', 'list/b/two', 'list/bc']);
    expect(await store.list('list/b')).toEqual(['list/b/one', 'list/b/two', 'list/bc']);
    expect(await store.list('list/b/')).toEqual(['list/b/one', 'list/b/two']);
    expect(await store.list('list')).toEqual(['list/a.txt', 'list/b/one', 'list/b/two', 'list/bc', 'listing/z']);
    expect(await store.list('nothing/')).toEqual([]);
    expect(await store.list('')).toEqual(expect.arrayContaining(keys));

    // 30 keys: five pages of 7 on S3. Names that sort differently as numbers and as bytes.
    const paged = [...Array(30).keys()].map((i) => `page/${i}-${i % 2 ? 'B' : 'a'}`);
    await Promise.all(paged.map((key) => store.put(key, text('p'))));
    expect(await store.list('page/')).toEqual([...paged].sort((x, y) => (x < y ? -1 : 1)));
  });

  it('removes objects, more than one DeleteObjects batch at once, missing keys included', async () => {
    const keys = [...Array(1010).keys()].map((i) => `many/${String(i).padStart(4, '0')}`);
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(keys.slice(start, start + 50).map((key) => store.put(key, text('m'))));
    }
    await store.put('many-kept', text('k'));
    expect((await store.list('many/')).length).toBe(1010);
    await store.remove([...keys, 'many/never-there', 'missing/too']);
    expect(await store.list('many/')).toEqual([]);
    expect(await store.list('many')).toEqual(['many-kept']);
    await store.remove([]);
    await store.remove(['many-kept', 'many-kept']);
    expect(await store.get('many-kept')).toBeNull();
  }, 60_000);

  it('refuses keys and prefixes outside the pattern, before touching anything', async () => {
    const bad = [
      '../x',
      '/abs',
      'a//b',
      'a/../b',
      'a/./b',
      '',
      'a/',
      'back\\slash',
      'sp ace',
      'ümlaut',
      'a/..',
      'x'.repeat(513),
    ];
    for (const key of bad) {
      await expect(store.put(key, text('x')), key).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.get(key), key).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(store.remove(['fine', key]), key).rejects.toBeInstanceOf(InvalidKeyError);
    }
    for (const prefix of ['../', '/', '/abs', 'a//', '../x', 'a/../']) {
      await expect(store.list(prefix), prefix).rejects.toBeInstanceOf(InvalidKeyError);
    }
    await store.put('ok.key/with-all_chars.09', text('fine'));
    expect(await readAll(store, 'ok.key/with-all_chars.09')).toBe('fine');
  });
});

describe('the local engine on disk', () => {
  it('keeps a key as a path under its root: files 0600, new directories 0700, no temporary file left', async () => {
    const root = path.join(localRoot, 'disk');
    const store = createLocalStore(root);
    await store.put('uploads/0123456789abcdef0123456789abcdef', new Blob(['pdf bytes']).stream(), { size: 9 });
    const file = path.join(root, 'uploads', '0123456789abcdef0123456789abcdef');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(root, 'uploads'))).mode & 0o777).toBe(0o700);
    await expect(store.put('uploads/broken', new Blob(['ab']).stream(), { size: 5 })).rejects.toThrow();
    expect(await readdir(path.join(root, 'uploads'))).toEqual(['0123456789abcdef0123456789abcdef']);
    // A file that an older version wrote there is an object under the same key (no migration).
    expect(await store.list('uploads/')).toEqual(['uploads/0123456789abcdef0123456789abcdef']);
  });
});

describe('the S3 engine', () => {
  it('puts every key under S3_PREFIX, and sees only its own keys', async () => {
    const whole = createS3Store({ ...s3.options });
    const portal = createS3Store({ ...s3.options, prefix: 'portal-a/' });
    await portal.put('uploads/aa', text('a'));
    await whole.put('portal-b/uploads/bb', text('b'));
    expect(await whole.list('portal-a/')).toEqual(['portal-a/uploads/aa']);
    expect(await portal.list('')).toEqual(['uploads/aa']);
    expect(await readAll(whole, 'portal-a/uploads/aa')).toBe('a');
    await portal.remove(['uploads/aa']);
    expect(await whole.list('portal-a/')).toEqual([]);
  });

  it('sends a stream of known size above the single-PUT limit as a multipart upload, length checked', async () => {
    const store = createS3Store({ ...s3.options, prefix: 'multipart', singlePutMaxBytes: 1024 });
    const size = 96 * 64 * 1024; // 6 MiB: two parts
    await store.put('known/big.bin', generated(96, 64 * 1024), { size });
    const object = await store.get('known/big.bin');
    expect(object?.size).toBe(size);
    const hash = createHash('sha256');
    for await (const chunk of object!.body) hash.update(chunk);
    expect(hash.digest('hex')).toBe(generatedSha256(96, 64 * 1024));
    await expect(store.put('known/short.bin', generated(96, 64 * 1024), { size: size + 1 })).rejects.toThrow(
      /bytes received, \d+ announced/,
    );
    await expect(store.put('known/long.bin', generated(96, 64 * 1024), { size: size - 1 })).rejects.toThrow(
      /more than the \d+ bytes announced/,
    );
    expect(await store.list('known/')).toEqual(['known/big.bin']);
  }, 30_000);

  it('gives up on a frozen service within its deadline, every call, and serves again once it wakes', async () => {
    const store = createS3Store({ ...s3.options, timeoutMs: 1_000 });
    await store.put('frozen/a.txt', text('a'));
    s3.freeze();
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ['get', () => store.get('frozen/a.txt')],
        ['put', () => store.put('frozen/b.txt', text('b'))],
        ['streamed put', () => store.put('frozen/c.txt', new Blob(['c']).stream(), { size: 1 })],
        ['multipart put', () => store.put('frozen/d.bin', generated(2, 64 * 1024))],
        ['list', () => store.list('frozen/')],
        ['remove', () => store.remove(['frozen/a.txt'])],
        ['check', () => store.check!()],
      ];
      for (const [name, call] of calls) {
        const started = performance.now();
        const failure = await call().then(
          () => undefined,
          (error: unknown) => error,
        );
        const ms = performance.now() - started;
        expect(failure, name).toBeInstanceOf(ObjectStoreUnavailableError);
        expect((failure as Error).message, name).toMatch(/S3_TIMEOUT_MS/);
        // The deadline (1 s, plus a second per MiB sent; the multipart's per part of 5 MiB) and a margin for a busy machine.
        expect(ms, name).toBeLessThan(name === 'multipart put' ? 9_000 : 3_500);
      }
    } finally {
      s3.thaw();
    }
    expect(await readAll(store, 'frozen/a.txt')).toBe('a');
  }, 60_000);

  it('checks the bucket at start: a missing bucket or an unknown key id is said plainly', async () => {
    await createS3Store({ ...s3.options }).check?.();
    await expect(createS3Store({ ...s3.options, bucket: 'no-such-bucket' }).check?.()).rejects.toThrow(
      /bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist \(S3_BUCKET, S3_ENDPOINT, S3_REGION\)/,
    );
    await expect(createS3Store({ ...s3.options, accessKeyId: 'NOT-KNOWN' }).check?.()).rejects.toThrow(
      /access to bucket .* refused \(HTTP 403\)/,
    );
    await expect(createS3Store({ ...s3.options, endpoint: 'http://127.0.0.1:1' }).check?.()).rejects.toThrow(
      /cannot reach bucket/,
    );
  }, 30_000);
});

describe('configuration', () => {
  const s3Env = {
    STORAGE: 's3',
    S3_BUCKET: 'portal-files',
    S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'very-secret-value',
  };

  it('is local by default, DATA_DIR its root', async () => {
    const config = loadConfig({ DATA_DIR: '/srv/hgd' });
    expect(config).toMatchObject({ storage: 'local', s3: undefined });
    expect(objectStoreFromConfig(config).kind).toBe('local');
  });

  it('reads STORAGE=s3 and its settings; path style follows S3_ENDPOINT unless set', () => {
    expect(loadConfig(s3Env).s3).toEqual({
      endpoint: undefined,
      region: 'us-east-1',
      bucket: 'portal-files',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-value',
      forcePathStyle: false,
      prefix: '',
      timeoutMs: 5_000,
    });
    expect(loadConfig({ ...s3Env, S3_TIMEOUT_MS: '1500' }).s3?.timeoutMs).toBe(1_500);
    const minio = loadConfig({ ...s3Env, S3_ENDPOINT: 'http://minio:9000', S3_PREFIX: 'hgd' });
    expect(minio.s3).toMatchObject({ endpoint: 'http://minio:9000', forcePathStyle: true, prefix: 'hgd/' });
    const oss = loadConfig({
      ...s3Env,
      S3_ENDPOINT: 'https://oss-cn-hangzhou.aliyuncs.com',
      S3_REGION: 'oss-cn-hangzhou',
      S3_FORCE_PATH_STYLE: 'false',
    });
    expect(oss.s3).toMatchObject({ region: 'oss-cn-hangzhou', forcePathStyle: false });
    expect(objectStoreFromConfig(oss).kind).toBe('s3');
    // No keys: the AWS SDK's own chain (instance role, AWS_* variables).
    expect(loadConfig({ STORAGE: 's3', S3_BUCKET: 'portal-files' }).s3).toMatchObject({
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
  });

  it('stops at a bad combination, naming the variable, never echoing the secret', () => {
    const failure = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(failure({ STORAGE: 's3' })).toMatch(/S3_BUCKET is required when STORAGE=s3/);
    expect(failure({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'AKID' })).toMatch(
      /S3_SECRET_ACCESS_KEY is required with S3_ACCESS_KEY_ID/,
    );
    expect(failure({ STORAGE: 's3', S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 'very-secret-value' })).toMatch(
      /S3_ACCESS_KEY_ID is required/,
    );
    expect(failure({ S3_BUCKET: 'portal-files' })).toMatch(/STORAGE="local" with S3_BUCKET set/);
    expect(failure({ STORAGE: 'minio' })).toMatch(/STORAGE="minio"/);
    expect(failure({ ...s3Env, S3_BUCKET: 'Bad_Bucket' })).toMatch(/S3_BUCKET="Bad_Bucket": must be a bucket name/);
    expect(failure({ ...s3Env, S3_ENDPOINT: 'minio:9000' })).toMatch(/S3_ENDPOINT/);
    expect(failure({ ...s3Env, S3_PREFIX: '../up' })).toMatch(/S3_PREFIX/);
    expect(failure({ ...s3Env, S3_PREFIX: '/abs' })).toMatch(/S3_PREFIX/);
    expect(failure({ ...s3Env, S3_FORCE_PATH_STYLE: 'maybe' })).toMatch(/S3_FORCE_PATH_STYLE="maybe"/);
    const message = failure({ ...s3Env, S3_REGION: 'Not A Region' });
    expect(message).toMatch(/S3_REGION="Not A Region"/);
    expect(message).not.toContain('very-secret-value');
  });
});

describe('the runtime on S3', () => {
  it('checks the bucket before opening the database, and seeds the demo files into it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hgd-objects-runtime-'));
    try {
      const missing = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...s3.env, S3_BUCKET: 'not-made' });
      await expect(openRuntime(missing)).rejects.toThrow(/Object storage: bucket "not-made" .* does not exist/);
      expect(await readdir(dataDir)).toEqual([]);

      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...s3.env, S3_PREFIX: 'runtime' });
      const runtime = await openRuntime(config);
      try {
        expect(runtime.seeded).toBe(true);
        expect(runtime.objects.kind).toBe('s3');
        const rows = await runtime.db
          .select()
          .from(enterpriseAuthFiles)
          .where(eq(enterpriseAuthFiles.kind, 'businessLicence'));
        expect(rows.length).toBeGreaterThan(0);
        const keys = await runtime.objects.list('uploads/');
        expect(keys).toEqual(expect.arrayContaining(rows.map((row) => uploadKey(row.storedName))));
        const object = await runtime.objects.get(uploadKey(rows[0]!.storedName));
        const bytes = new Uint8Array(await new Response(object!.body).arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(rows[0]!.sha256);
        // Nothing of the files on the local disk.
        expect(await readdir(dataDir)).not.toContain('uploads');
      } finally {
        await runtime.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
