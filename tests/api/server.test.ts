import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import {
  closeDevApp,
  createDevApp,
  demoAccountTable,
  displayUrl,
  startServer,
  type RunningServer,
} from '../../src/server/main.ts';
import { openRuntime } from '../../src/server/runtime.ts';

// One real server on a fresh file-backed PGlite (the embedded default), over real HTTP.
let root: string;
let running: RunningServer;
let base: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-server-'));
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, 'welcome/home'), { recursive: true });
  await writeFile(path.join(dist, 'welcome/home/index.html'), '<!doctype html><title>首页</title>');
  await writeFile(path.join(dist, 'welcome/home/index.html.gz'), gzipSync('<!doctype html><title>首页</title>'));
  await writeFile(path.join(dist, '404.html'), '<!doctype html><title>页面不存在</title>');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(root, 'data'),
    STATIC_DIR: dist,
    LOG_LEVEL: 'silent',
  });
  running = await startServer(config);
  const address = running.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await running?.close();
  await rm(root, { recursive: true, force: true });
});

describe('startServer (PGlite under DATA_DIR)', () => {
  it('migrates and seeds a new database, then serves /api and the site over HTTP', async () => {
    expect(running.runtime.kind).toBe('pglite');
    expect(running.runtime.seeded).toBe(true);
    const health = (await (await fetch(`${base}/api/health`)).json()) as { data: { db: string } };
    expect(health.data.db).toBe('pglite');

    const page = await fetch(`${base}/welcome/home`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(await page.text()).toContain('首页'); // fetch decodes it

    const redirect = await fetch(`${base}/?from=test`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/welcome/home?from=test');

    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('页面不存在');
  });

  it('writes whole answers at once, with the headers the middleware adds (never re-streamed)', async () => {
    // An answer rebuilt as a stream (a header set the wrong way after the handler, or its body
    // read) is written piece by piece with ServerResponse.write; a whole one goes out with end().
    const writes = vi.spyOn(ServerResponse.prototype, 'write');
    try {
      for (const url of [
        `${base}/api/health`,
        `${base}/welcome/home/`,
        `${base}/api/front/help/document/client/getHelpCenter`,
      ]) {
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
        expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        await response.arrayBuffer();
      }
      expect(writes).not.toHaveBeenCalled();
    } finally {
      writes.mockRestore();
    }
    expect((await fetch(`${base}/api/health`)).headers.get('cache-control')).toBe('no-store');
    // A cached page body is handed out, not copied: it stays whole however often it is sent.
    const pages = await Promise.all([1, 2, 3].map(async () => (await fetch(`${base}/welcome/home/`)).text()));
    expect(pages).toEqual([
      '<!doctype html><title>首页</title>',
      '<!doctype html><title>首页</title>',
      '<!doctype html><title>首页</title>',
    ]);
  });

  it('checks CSRF against the Host the client used', async () => {
    const res = await fetch(`${base}/api/front/hgdsys/hgdClient/setProvince`, {
      method: 'POST',
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        Origin: base,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'areaCode=440000',
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
  });

  it('reopens an existing data directory without seeding again', async () => {
    await running.close();
    const config = loadConfig({ DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'silent' });
    const again = await openRuntime(config);
    try {
      expect(again.seeded).toBe(false);
    } finally {
      await again.close();
    }
  });
});

describe('createDevApp', () => {
  it('builds the app and opens the runtime once, and serves no static files', async () => {
    const config = loadConfig({ DATA_DIR: path.join(root, 'dev-data'), LOG_LEVEL: 'silent' });
    try {
      const [first, second] = await Promise.all([createDevApp(config), createDevApp(config)]);
      expect(first).toBe(second);
      expect((await first.request('/api/health')).status).toBe(200);
      expect((await second.request('/welcome/home')).status).toBe(404);
    } finally {
      await closeDevApp();
    }
    // A start on an empty directory (migrations and the demo data), as the file's beforeAll does, with its budget:
    // 20 s ran out in CI beside the other lane.
  }, 60_000);
});

describe('banner helpers', () => {
  it('prints localhost for local hosts and lists the demo accounts', () => {
    expect(displayUrl('0.0.0.0', 4321)).toBe('http://localhost:4321');
    expect(displayUrl('portal.example.com', 80)).toBe('http://portal.example.com:80');
    const table = demoAccountTable();
    expect(table).toContain('demo_person');
    expect(table).toContain('Operator2025');
  });
});
