/**
 * A stopping server drains (main.ts close(), shutdown.ts): from its first moment /api/health/ready
 * answers 503 while the process goes on serving for SHUTDOWN_DRAIN_SECONDS, and a request that was
 * open when it began still gets its answer. One real server on PGlite, over real HTTP.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/main.ts';

let root: string;
let running: RunningServer;
let base: string;
const drainSeconds = 1;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-drain-'));
  const dist = path.join(root, 'dist');
  await mkdir(dist, { recursive: true });
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>首页</title>');
  running = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(root, 'data'),
      STATIC_DIR: dist,
      LOG_LEVEL: 'silent',
      SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
    }),
  );
  const address = running.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);

afterAll(async () => {
  await running?.close();
  await rm(root, { recursive: true, force: true });
});

/** A form post whose body arrives in two halves, `pauseMs` apart: a request still open when the drain begins. */
function slowPost(url: string, pauseMs: number): Promise<Response> {
  const body = new TextEncoder().encode('areaCode=440000');
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(body.slice(0, 5));
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      controller.enqueue(body.slice(5));
      controller.close();
    },
  });
  return fetch(url, {
    method: 'POST',
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      Origin: base,
      'Content-Type': 'application/x-www-form-urlencoded',
      'Content-Length': String(body.byteLength),
    },
    body: stream,
    duplex: 'half',
  } as RequestInit);
}

describe('shutdown drain', () => {
  it('ready answers 503 at once, live and open requests go on, then the process stops accepting', async () => {
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
    const open = slowPost(`${base}/api/front/hgdsys/hgdClient/setProvince`, drainSeconds * 1000 + 500);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the request has started

    const began = performance.now();
    const closed = running.close();
    const during = await fetch(`${base}/api/health/ready`);
    const answeredMs = performance.now() - began;
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ code: 503, data: { status: 'draining', failed: ['draining'] } });
    expect(answeredMs).toBeLessThan(500);
    // Still serving while draining: liveness and any other call.
    expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/api/front/help/document/client/getHelpCenter`)).status).toBe(200);

    const answer = await open;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { code: number }).code).toBe(200);
    await closed;
    expect(performance.now() - began).toBeGreaterThanOrEqual(drainSeconds * 1000);
    await expect(fetch(`${base}/api/health/live`)).rejects.toThrow();
  });
});
