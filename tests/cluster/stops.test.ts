/**
 * A stop sent to the PID of a documented command reaches the process that serves: what a
 * supervisor, `docker stop` or a `kill` of the started PID sends is SIGTERM to npm, which hands it
 * to its child. `npm start` and `npm run worker` exec node in the shell npm starts (package.json),
 * so that child is node itself, not a `sh -c` that would die and leave node running.
 *
 * - `npm start` (embedded PGlite, SHUTDOWN_DRAIN_SECONDS=2): readiness answers 503 through the
 *   drain while the server still serves, then the port closes and npm exits 0.
 * - `npm run worker` (METRICS_PORT): logs that it is stopping, its metrics listener closes, npm exits 0.
 *
 * `npm start` builds the site when it is stale (`npm test` has built it already), then serves a
 * one-page STATIC_DIR.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/postgres.ts';
import { projectRoot } from './cluster.ts';

let root: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-stops-'));
});

afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(root, { recursive: true, force: true });
});

/** `npm run <script>` with its output in a log file; the ChildProcess is npm's. */
function npmRun(script: string, name: string, env: Record<string, string>): { npm: ChildProcess; log: () => string } {
  const dataDir = path.join(root, name);
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(root, `${name}.log`);
  const fd = openSync(logFile, 'a');
  const npm = spawn('npm', ['run', script], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  started.push(npm);
  return { npm, log: () => readFileSync(logFile, 'utf8') };
}

async function statusOf(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status;
  } catch {
    return 0;
  }
}

async function until(what: string, check: () => Promise<boolean>, limitMs: number, log: () => string): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${limitMs} ms:\n${log().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe('SIGTERM to npm', () => {
  it('npm start: the server drains (ready 503 while it serves), then closes, and npm exits 0', async () => {
    const port = await freePort();
    // A site of one page: its first publication is archived at start, and the whole dist/ takes a minute.
    const site = path.join(root, 'site');
    mkdirSync(site, { recursive: true });
    writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>首页</title>');
    writeFileSync(path.join(site, '404.html'), '<!doctype html><title>页面不存在</title>');
    const { npm, log } = npmRun('start', 'server', {
      PORT: String(port),
      SHUTDOWN_DRAIN_SECONDS: '2',
      STATIC_DIR: site,
    });
    const origin = `http://127.0.0.1:${port}`;
    await until('ready', async () => (await statusOf(`${origin}/api/health/ready`)) === 200, 300_000, log);

    npm.kill('SIGTERM');
    const exited = exitOf(npm);
    await until('draining', async () => (await statusOf(`${origin}/api/health/ready`)) === 503, 1_500, log);
    // Still serving in the drain.
    expect(await statusOf(`${origin}/api/health/live`)).toBe(200);
    expect(await exited).toBe(0);
    expect(await statusOf(`${origin}/api/health/live`)).toBe(0);
    expect(log()).toContain('draining: /api/health/ready answers 503 before the listener closes');
  });

  it('npm run worker: the worker stops taking jobs, closes its metrics listener, and npm exits 0', async () => {
    const metricsPort = await freePort();
    const { npm, log } = npmRun('worker', 'worker', { METRICS_PORT: String(metricsPort), WORKER_STOP_SECONDS: '5' });
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    await until('the worker', async () => (await statusOf(metrics)) === 200, 120_000, log);

    npm.kill('SIGTERM');
    expect(await exitOf(npm)).toBe(0);
    expect(log()).toContain('worker stopping: no new jobs, the running one may finish');
    expect(await statusOf(metrics)).toBe(0);
  });
});
