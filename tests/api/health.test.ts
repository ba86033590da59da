/**
 * GET /api/health/live and /api/health/ready (routes/health.ts): what a load balancer polls. Each
 * failing dependency is a real one — a closed database, a bucket the S3 server does not have, no
 * publication — and the answer must name it, and nothing more. Every answer names the release.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { currentRelease } from '../../src/server/release.ts';
import { storeProbeTtlMs } from '../../src/server/routes/health.ts';
import { createS3Store } from '../../src/server/storage/s3Store.ts';
import type { ObjectStore } from '../../src/server/storage/objectStore.ts';
import { createTestApp, openPerFile } from './harness.ts';
import { startS3Server, type TestS3Server } from './s3Server.ts';

interface Ready {
  code: number;
  message: string;
  data: { status: string; failed?: string[]; checks?: Record<string, string>; version?: string; commit?: string };
}

const projectRoot = new URL('../../', import.meta.url);
const packageVersion = (JSON.parse(readFileSync(new URL('package.json', projectRoot), 'utf8')) as { version: string })
  .version;

const root = mkdtempSync(path.join(tmpdir(), 'hgd-health-'));
const staticDir = path.join(root, 'dist');
mkdirSync(staticDir, { recursive: true });
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>首页</title>');
const env = { DATA_DIR: path.join(root, 'data') };

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function ready(app: {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}): Promise<{ status: number; body: Ready }> {
  const response = await app.request('/api/health/ready');
  return { status: response.status, body: (await response.json()) as Ready };
}

/** The store, counting how often readiness probes it. */
function counted(store: ObjectStore): ObjectStore & { probes: () => number } {
  let probes = 0;
  return {
    ...store,
    check: async () => {
      probes += 1;
      await store.check?.();
    },
    probes: () => probes,
  };
}

describe('a process with everything in place', () => {
  const t = openPerFile(() => createTestApp({ staticDir, env }));

  it('live answers 200 with the envelope, without a session or CSRF headers', async () => {
    const response = await t.app.request('/api/health/live');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Ready;
    expect(body).toMatchObject({ code: 200, data: { status: 'live' } });
  });

  it('ready answers 200 naming each check ok, to GET and to HEAD', async () => {
    const { status, body } = await ready(t.app);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      code: 200,
      data: { status: 'ready', checks: { database: 'ok', objectStore: 'ok', site: 'ok' } },
    });
    expect((await t.app.request('/api/health/ready', { method: 'HEAD' })).status).toBe(200);
  });

  it.runIf(process.env['TEST_DATABASE_URL'] === undefined)(
    'PGlite held by this process (a long statement) is busy, and still ready',
    async () => {
      const busy = t.db.execute(sql`select pg_sleep(2.5)`).then(() => {}); // started now (drizzle's queries run when awaited)
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      const { status, body } = await ready(t.app);
      expect(performance.now() - started).toBeLessThan(2_400);
      expect(status).toBe(200);
      expect(body.data.checks).toEqual({ database: 'busy', objectStore: 'ok', site: 'ok' });
      await busy;
      expect((await ready(t.app)).body.data.checks?.['database']).toBe('ok');
    },
  );

  it('keeps /api/health as it was', async () => {
    const body = (await (await t.app.request('/api/health')).json()) as { code: number; data: Record<string, unknown> };
    expect(body).toMatchObject({ code: 200, data: { status: 'ok', database: 'ok', db: t.kind } });
  });

  it("every answer names the release: package.json's version and the commit", async () => {
    const { commit } = currentRelease();
    // A checkout answers git's commit; a tree without .git, its build's record or unknown.
    expect(commit).toMatch(existsSync(new URL('.git', projectRoot)) ? /^[0-9a-f]{40}$/ : /^([0-9a-f]{40}|unknown)$/);
    for (const path of ['/api/health', '/api/health/live', '/api/health/ready']) {
      const body = (await (await t.app.request(path)).json()) as Ready;
      expect(body.data, path).toMatchObject({ version: packageVersion, commit });
    }
  });
});

describe('a database that fails', () => {
  const lines: string[] = [];
  const t = openPerFile(() =>
    createTestApp({
      staticDir,
      env,
      logger: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }),
    }),
  );

  it('ready answers 503 naming the database while live stays 200; the change is logged once', async () => {
    expect((await ready(t.app)).status).toBe(200);
    await t.handle.close();
    for (let poll = 0; poll < 3; poll += 1) {
      const { status, body } = await ready(t.app);
      expect(status).toBe(503);
      expect(body).toMatchObject({
        code: 503,
        data: {
          status: 'not ready',
          failed: ['database'],
          checks: { database: 'failed', objectStore: 'ok', site: 'ok' },
          version: packageVersion,
        },
      });
      expect(body.message.length).toBeGreaterThan(0);
    }
    expect((await t.app.request('/api/health/live')).status).toBe(200);
    const notReady = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'not ready');
    expect(notReady).toHaveLength(1);
    expect(notReady[0]).toMatchObject({ failed: ['database'] });
    // The driver's words, not drizzle's wrapper that only quotes the statement.
    expect((notReady[0]?.['reasons'] as { database: string }).database).not.toMatch(/^Failed query/);
  });
});

describe('an object store that fails', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });
  let store: ReturnType<typeof counted>;
  const t = openPerFile(() => {
    store = counted(createS3Store({ ...s3.options, bucket: 'no-such-bucket' }));
    return createTestApp({ staticDir, env, deps: { objects: store } });
  });

  it('ready answers 503 naming the object store, without its address, and probes it once per few seconds', async () => {
    for (let poll = 0; poll < 5; poll += 1) {
      const { status, body } = await ready(t.app);
      expect(status).toBe(503);
      expect(body.data).toMatchObject({
        failed: ['objectStore'],
        checks: { database: 'ok', objectStore: 'failed', site: 'ok' },
      });
      expect(JSON.stringify(body)).not.toContain('127.0.0.1');
      expect(JSON.stringify(body)).not.toContain('no-such-bucket');
    }
    expect(store.probes()).toBe(1);
    expect(storeProbeTtlMs).toBeLessThanOrEqual(10_000);
  });

  it('a bucket that exists makes it ready', async () => {
    const good = createTestApp({ staticDir, env, deps: { objects: createS3Store(s3.options) } });
    const app = await good;
    try {
      expect((await ready(app.app)).body.data.checks).toEqual({ database: 'ok', objectStore: 'ok', site: 'ok' });
    } finally {
      await app.close();
    }
  });
});

describe('a process with no publication loaded', () => {
  const t = openPerFile(() => createTestApp({ env }));

  it('ready answers 503 naming the site', async () => {
    const { status, body } = await ready(t.app);
    expect(status).toBe(503);
    expect(body.data).toMatchObject({ failed: ['site'], checks: { site: 'none' } });
  });
});
