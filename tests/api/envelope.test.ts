import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import { ApiError } from '../../src/server/apiError.ts';
import { handleError, ok } from '../../src/server/envelope.ts';
import { localeMiddleware } from '../../src/server/middleware/locale.ts';
import { requestLog } from '../../src/server/middleware/requestLog.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { AppEnv } from '../../src/server/types.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

describe('envelope', () => {
  it('answers { code, message, data } with HTTP 200 and no-store', async () => {
    const res = await t.app.request('/api/front/hgdsys/hgdClient/getProvinceList');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message']);
    expect(body['code']).toBe(200);
    expect(body['message']).toBe('操作成功');
  });

  it('answers an unknown /api path with HTTP 404 and a localized envelope', async () => {
    const res = await t.app.request('/api/front/nope/nothing');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ code: 404, message: '接口不存在', data: {} });
    const en = await t.app.request('/api/nope', { headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
    expect(await en.json()).toEqual({ code: 404, message: 'No such API call', data: {} });
  });

  it('answers a wrong method on a known path as an unknown path', async () => {
    const res = await t.app.request('/api/front/system/logout');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: number }).code).toBe(404);
  });

  it('takes the message locale from the locale cookie before Accept-Language', async () => {
    const res = await t.app.request('/api/nope', {
      headers: { Cookie: 'locale=pt-BR', 'Accept-Language': 'en-US' },
    });
    expect(((await res.json()) as { message: string }).message).toBe(
      (await import('../../src/lib/i18n/messages/core/pt-BR.json', { with: { type: 'json' } })).default[
        'api.unknownPath'
      ],
    );
  });

  it('answers a body over the limit with HTTP 413 and an envelope', async () => {
    const big = `areaCode=440000&pad=${'x'.repeat(1024 * 1024 + 10)}`;
    const res = await t.app.request('/api/front/hgdsys/hgdClient/setProvince', {
      method: 'POST',
      headers: apiHeaders({ 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: big,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 413, message: '请求内容过大', data: {} });
  });

  it('counts a body without Content-Length too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(256 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i += 1) controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await t.app.request('/api/front/hgdsys/hgdClient/setProvince', {
      method: 'POST',
      headers: apiHeaders({ 'Content-Type': 'application/json' }),
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('keeps a well-formed X-Request-Id and makes one otherwise', async () => {
    const kept = await t.app.request('/api/health', { headers: { 'X-Request-Id': 'trace-12345678' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-12345678');
    const made = await t.app.request('/api/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends the security headers', async () => {
    const res = await t.app.request('/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // A JSON answer loads nothing and is framed nowhere (pages carry their own policy: contentSecurityPolicy.test.ts).
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('errors', () => {
  // A small app with the real error handler and a route that fails in each way.
  const lines: string[] = [];
  const logger = createLogger({ logLevel: 'error' }, { write: (line: string) => void lines.push(line) });
  const app = new Hono<AppEnv>();
  app.use('*', requestLog(logger));
  app.use('*', localeMiddleware);
  app.onError(handleError);
  app.get('/api/crash', () => {
    throw new Error('database password is hunter2');
  });
  app.get('/api/conflict', () => {
    throw ApiError.conflict();
  });
  app.get('/api/empty', (c) => ok(c, null));
  app.get('/api/schema', (c) => ok(c, z.object({ a: z.string() }).parse({ a: 'x' }), 'api.logoutOk'));
  app.get('/page', () => {
    throw new Error('page crash');
  });

  it('answers an unexpected error with HTTP 500, a localized envelope and no stack', async () => {
    const res = await app.request('/api/crash', { headers: { 'Accept-Language': 'en-US' } });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      code: 500,
      message: 'Something went wrong on our side. Please try again later.',
      data: {},
    });
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('at ');
    // …but the server log has the error with its stack.
    const logged = lines.join('\n');
    expect(logged).toContain('hunter2');
    expect(logged).toContain('"stack"');
  });

  it('answers an ApiError with HTTP 200 and its code', async () => {
    const res = await app.request('/api/conflict');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: ApiCode.CONFLICT, message: '当前状态不允许此操作', data: {} });
  });

  it('turns null data into {} and localizes a given message key', async () => {
    expect(await (await app.request('/api/empty')).json()).toEqual({ code: 200, message: '操作成功', data: {} });
    expect(await (await app.request('/api/schema')).json()).toEqual({
      code: 200,
      message: '安全退出！',
      data: { a: 'x' },
    });
  });

  it('answers a crash outside /api with plain text', async () => {
    const res = await app.request('/page');
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('Internal Server Error');
  });
});
