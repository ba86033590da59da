import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { requestLog } from '../../src/server/middleware/requestLog.ts';
import type { AppEnv } from '../../src/server/types.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const lines: string[] = [];
const t = openPerFile(() => {
  const logger = createLogger({ logLevel: 'debug' }, { write: (line: string) => void lines.push(line) });
  return createTestApp({ logger });
});

const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request log', () => {
  it('writes one line per request with method, path, status, duration, request id and user id', async () => {
    lines.length = 0;
    const cookie = await t.login('demo_person');
    const res = await t.app.request('/api/front/user/currentUser', { headers: { Cookie: cookie } });
    const requestLines = entries().filter((e) => e['msg'] === 'request');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      method: 'GET',
      path: '/api/front/user/currentUser',
      status: 200,
      reqId: res.headers.get('x-request-id'),
      userId: expect.any(Number),
    });
    expect(requestLines[0]?.['ms']).toEqual(expect.any(Number));
  });

  it('never logs cookies, session tokens, phones or codes', async () => {
    lines.length = 0;
    const cookie = await t.login('demo_person');
    const token = cookie.split('=')[1] ?? '';
    await t.app.request('/api/front/system/checkphonenum?phone=13800138001&code=654321', {
      headers: { Cookie: cookie, Authorization: 'Bearer secret-token-value' },
    });
    await t.app.request('/api/front/system/logout', {
      method: 'POST',
      headers: apiHeaders({ Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: 'password=Secret123&code=654321',
    });
    const text = lines.join('\n');
    expect(text).toContain('/api/front/system/checkphonenum');
    // Not even the parameter names under /api/front/system.
    const line = entries().find((e) => e['path'] === '/api/front/system/checkphonenum');
    expect(line).toBeDefined();
    expect(line?.['query']).toBeUndefined();
    for (const secret of [token, '13800138001', '654321', 'Secret123', 'secret-token-value']) {
      expect(text).not.toContain(secret);
    }
  });

  it('logs health polls at debug, so a load balancer polling every second does not fill the log', async () => {
    lines.length = 0;
    await t.app.request('/api/health/live');
    await t.app.request('/api/health');
    await t.app.request('/api/front/hgdsys/hgdClient/getProvinceList');
    const requestLines = entries().filter((e) => e['msg'] === 'request');
    // pino's levels: 20 debug, 30 info
    expect(requestLines.map((e) => [e['route'], e['level']])).toEqual([
      ['/api/health/live', 20],
      ['/api/health', 20],
      ['/api/front/hgdsys/hgdClient/getProvinceList', 30],
    ]);
  });

  it('logs query parameter names (not values) outside /api/front/system', async () => {
    lines.length = 0;
    await t.app.request('/api/front/hgdsys/hgdClient/getProvinceList?areaCode=440000&t=1');
    const [line] = entries().filter((e) => e['msg'] === 'request');
    expect(line?.['query']).toEqual(['areaCode', 't']);
    expect(lines.join('\n')).not.toContain('440000');
  });

  it('redacts secret keys in anything else that is logged', () => {
    lines.length = 0;
    const logger = createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) });
    logger.info({ password: 'p4ssword', user: { mobile: '13800138001', code: '123456' }, ok: 'visible' }, 'x');
    const text = lines.join('\n');
    expect(text).toContain('visible');
    for (const secret of ['p4ssword', '13800138001', '123456']) expect(text).not.toContain(secret);
  });
});

describe('the request logger', () => {
  it('carries the request id on what a handler logs, and is made only when the request logs (its cost is measured in docs/performance.md)', async () => {
    const written: string[] = [];
    const logger = createLogger({ logLevel: 'info' }, { write: (line: string) => void written.push(line) });
    const child = vi.spyOn(logger, 'child');
    const app = new Hono<AppEnv>();
    app.use('*', requestLog(logger));
    app.get('/quiet', (c) => c.text('ok'));
    app.get('/noisy', (c) => {
      c.get('log').warn({ path: c.req.path }, 'handler line');
      c.get('log').info('second line');
      return c.text('ok');
    });

    await app.request('/quiet');
    expect(child).not.toHaveBeenCalled();

    const response = await app.request('/noisy');
    expect(child).toHaveBeenCalledTimes(1);
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    const reqId = response.headers.get('x-request-id');
    expect(lines.find((line) => line['msg'] === 'handler line')).toMatchObject({ reqId, path: '/noisy', level: 40 });
    expect(lines.find((line) => line['msg'] === 'second line')).toMatchObject({ reqId, level: 30 });
  });
});
