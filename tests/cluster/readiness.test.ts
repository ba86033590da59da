/**
 * Readiness against a real outage: one API process (`node src/server/main.ts`) on a PostgreSQL
 * server of its own (scripts/postgres.ts; not TEST_DATABASE_URL's, which a test may not stop) and
 * the S3 test server. PostgreSQL is stopped under the running process: /api/health/ready must go
 * 503 naming the database within seconds while /api/health/live stays 200; started again, ready
 * must come back and a login must work in the same process (postgres.js reconnects), no restart.
 *
 * The process is spawned here rather than by cluster.ts's startNode: it serves a one-page
 * STATIC_DIR, where startNode's is the whole dist/, which the first publication archives and
 * uploads at start (tens of seconds this test does not need).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, type TestPostgres } from '../../scripts/postgres.ts';
import { startS3Server, type TestS3Server } from '../api/s3Server.ts';
import { getJson, postForm, projectRoot, sessionCookie, stopNode, type ClusterNode } from './cluster.ts';

/** The bound this test holds readiness to, each way (a load balancer polling every second sees it within a few polls). */
const boundMs = 5_000;

let root: string;
let pg: TestPostgres | undefined;
let s3: TestS3Server | undefined;
let node: ClusterNode;

const logTail = () =>
  readFileSync(node.logFile, 'utf8')
    .split('\n')
    .filter((line) => !line.includes('"msg":"request"'))
    .slice(-30)
    .join('\n');

async function status(pathName: string): Promise<{ status: number; failed?: string[] }> {
  try {
    const response = await fetch(`${node.origin}${pathName}`, { signal: AbortSignal.timeout(3_000) });
    const body = (await response.json()) as { data: { failed?: string[] } };
    return { status: response.status, ...(body.data.failed ? { failed: body.data.failed } : {}) };
  } catch {
    return { status: 0 };
  }
}

/** Polls ready (and live beside it) every 100 ms until ready answers `wanted`; the ms it took and every live status seen. */
async function untilReady(
  wanted: number,
  since: number,
  limitMs: number,
): Promise<{ ms: number; live: number[]; failed?: string[] }> {
  const live: number[] = [];
  for (;;) {
    const [ready, alive] = await Promise.all([status('/api/health/ready'), status('/api/health/live')]);
    live.push(alive.status);
    if (ready.status === wanted)
      return { ms: Math.round(performance.now() - since), live, ...(ready.failed ? { failed: ready.failed } : {}) };
    if (performance.now() - since > limitMs)
      throw new Error(`ready did not answer ${wanted} within ${limitMs} ms (last ${ready.status}):\n${logTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function login(): Promise<{ code: number; cookie: string | undefined }> {
  const response = await postForm(
    node,
    '/api/front/system/login',
    { userName: 'demo_person', password: 'Person2025', deviceId: 'hgdweb', appCode: 'hgd' },
    { ip: '198.51.100.20' },
  );
  const body = (await response.json()) as { code: number };
  return { code: body.code, cookie: sessionCookie(response) };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-readiness-'));
  pg = await startPostgres();
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database hgd_readiness');
  await admin.end({ timeout: 5 });
  const databaseUrl = new URL(pg.url);
  databaseUrl.pathname = '/hgd_readiness';
  s3 = await startS3Server('hgd-readiness');

  // A site of one page: what is served does not matter here, only that a publication is loaded.
  const dist = path.join(root, 'dist');
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>首页</title>');
  writeFileSync(path.join(dist, '404.html'), '<!doctype html><title>页面不存在</title>');
  const port = await freePort();
  const dataDir = path.join(root, 'node');
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(root, 'node.log');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? root,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl.toString(),
    STATIC_DIR: dist,
    TRUST_PROXY: '1',
    LOG_LEVEL: 'info',
    // The client's deadlines, short so that a frozen server's 503 comes quickly here.
    DB_STATEMENT_TIMEOUT_MS: '2000',
    DB_CONNECT_TIMEOUT_MS: '2000',
    ...s3.env,
  };
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['src/server/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  node = { name: 'A', origin: `http://127.0.0.1:${port}`, dataDir, logFile, child };
  const deadline = Date.now() + 120_000;
  while ((await status('/api/health/ready')).status !== 200) {
    if (child.exitCode !== null) throw new Error(`the API process exited (${child.exitCode}):\n${logTail()}`);
    if (Date.now() > deadline) throw new Error(`the API process was not ready within 120 s:\n${logTail()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

afterAll(async () => {
  if (node) await stopNode(node);
  await s3?.stop();
  await pg?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('readiness through a PostgreSQL outage', () => {
  it('goes 503 within seconds while live stays 200, and comes back with the same process serving logins', async () => {
    expect((await login()).code).toBe(200);

    await pg!.halt();
    const stopped = performance.now();
    const down = await untilReady(503, stopped, 15_000);
    expect(down.failed).toEqual(['database']);
    // A few more polls in the outage: the process lives on and says so.
    const during = await untilReady(200, performance.now(), 1_000).catch(() => undefined);
    expect(during).toBeUndefined();
    expect((await status('/api/health/live')).status).toBe(200);
    expect(down.live.every((code) => code === 200)).toBe(true);

    await pg!.resume();
    const started = performance.now();
    const up = await untilReady(200, started, 30_000);
    expect(up.live.every((code) => code === 200)).toBe(true);

    const again = await login();
    expect(again.code).toBe(200);
    const me = await getJson<{ userName: string }>(node, '/api/front/user/currentUser', { cookie: again.cookie });
    expect(me).toMatchObject({ code: 200, data: { userName: 'demo_person' } });
    expect(node.child.exitCode).toBeNull();

    console.log(
      `readiness: 503 ${down.ms} ms after PostgreSQL stopped, 200 ${up.ms} ms after it started again (bound ${boundMs} ms each)`,
    );
    expect(down.ms).toBeLessThanOrEqual(boundMs);
    expect(up.ms).toBeLessThanOrEqual(boundMs);
  });
});

/** A call's HTTP status, envelope code and how long it took. */
async function timedCall(
  pathName: string,
  cookie: string | undefined,
): Promise<{ status: number; code: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${node.origin}${pathName}`, {
    headers: cookie ? { Cookie: cookie } : {},
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await response.json()) as { code: number };
  return { status: response.status, code: body.code, ms: Math.round(performance.now() - started) };
}

/** The node's log lines from `since` (a line count) on, requests left out. */
const logSince = (since: number) => readFileSync(node.logFile, 'utf8').split('\n').slice(since).filter(Boolean);

describe('calls through a PostgreSQL outage', () => {
  it('answer 503 api.busy, not 500, with one line each and no stack, whether the server is stopped or frozen; then work again', async () => {
    const { cookie } = await login();
    const since = logSince(0).length;

    await pg!.halt();
    try {
      expect(await timedCall('/api/front/user/currentUser', cookie)).toMatchObject({ status: 503, code: 503 });
      expect((await login()).code).toBe(503);
    } finally {
      await pg!.resume();
    }
    await untilReady(200, performance.now(), 30_000);
    expect(await timedCall('/api/front/user/currentUser', cookie)).toMatchObject({ status: 200, code: 200 });

    // Frozen: connections taken and never answered, statements never ending.
    pg!.freeze();
    let frozen: { status: number; code: number; ms: number };
    try {
      frozen = await timedCall('/api/front/user/currentUser', cookie);
    } finally {
      pg!.thaw();
    }
    expect(frozen).toMatchObject({ status: 503, code: 503 });
    // The statement deadline (DB_STATEMENT_TIMEOUT_MS 2 s + 1 s), far inside the request budget (30 s).
    expect(frozen.ms).toBeLessThan(6_000);
    await untilReady(200, performance.now(), 30_000);
    expect(await timedCall('/api/front/user/currentUser', cookie)).toMatchObject({ status: 200, code: 200 });

    const lines = logSince(since);
    expect(lines.filter((line) => line.includes('"msg":"database unavailable"')).length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((line) => line.includes('unhandled error') || line.includes('"stack"'))).toEqual([]);
    console.log(`a frozen PostgreSQL: currentUser answered 503 api.busy in ${frozen.ms} ms`);
  });
});
