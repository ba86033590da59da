/**
 * The shared defences against hostile input, each proven where it lives: control characters refused in every
 * field before the schema (400 with the field's message, nothing written), int4-bounded ids, the
 * database's data exceptions answered 400 and its timeouts 503, the time budget of a call, and
 * errors — a failing query above all — logged without a single request value.
 */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import { rowsOf } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema/index.ts';
import { handleError } from '../../src/server/envelope.ts';
import { createLogger } from '../../src/server/logger.ts';
import { localeMiddleware } from '../../src/server/middleware/locale.ts';
import { requestBudget } from '../../src/server/middleware/requestBudget.ts';
import { requestLog } from '../../src/server/middleware/requestLog.ts';
import { streamGuard } from '../../src/server/middleware/streamGuard.ts';
import type { AppEnv } from '../../src/server/types.ts';
import { post, type Envelope } from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';

const lines: string[] = [];
const logger = createLogger({ logLevel: 'debug' }, { write: (line: string) => void lines.push(line) });
const t = openPerFile(() => createTestApp({ logger }));

const nul = '\u0000';

describe('control characters', () => {
  const count = async (table: string) =>
    Number(rowsOf(await t.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0]?.['n'] ?? 0);

  it.each([
    ['/api/front/system/login', { userName: `demo${nul}person`, password: 'Person2025' }, undefined, 'userName'],
    [
      '/api/front/requirement/submitRequirement',
      {
        contactName: `张${nul}三`,
        phone: '13800138000',
        areaCode: '440000',
        content: '我们想了解固定价格套餐的报价和签约流程。',
      },
      undefined,
      'contactName',
    ],
    [
      '/api/front/user/changeUserInfo',
      { name: `王${nul}五`, deviceId: 'hgdweb', appCode: 'HGD' },
      'demo_person',
      'name',
    ],
    [
      '/api/front/hgdarc/enterpriseuser/temporarySave',
      { enterpriseName: `广州${nul}公司`, clearanceAccount: '0300099999999' },
      'demo_person',
      'enterpriseName',
    ],
    [
      '/api/front/hgdarc/enterpriseuser/editfield',
      { id: 1, field: 'address', value: `天河路${nul}1号` },
      'demo_company',
      'value',
    ],
    ['/api/front/system/login', { userName: 'demo_person', password: 'Person2025\u001b' }, undefined, 'password'],
  ] as const)(
    '%s with a control character in %j → 400 at the field, nothing written',
    async (path, body, user, field) => {
      const before = {
        requirements: await count('requirements'),
        enterprises: await count('enterprises'),
        sessions: await count('sessions'),
      };
      const cookie = user ? await t.login(user) : undefined;
      const answer = await post(t, path, body as Record<string, string | number>, cookie ? { cookie } : {});
      expect(answer.code).toBe(ApiCode.BAD_REQUEST);
      const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
      expect(errors[0]?.field).toBe(field);
      expect(answer.message).toContain('不能包含控制字符或无效字符');
      expect({
        requirements: await count('requirements'),
        enterprises: await count('enterprises'),
        sessions: await count('sessions'),
      }).toEqual({
        ...before,
        sessions: before.sessions + (user ? 1 : 0),
      });
    },
  );

  it("the message is in the caller's locale, keys of nested objects are checked too, and tab and newlines stay allowed", async () => {
    const en = await post(
      t,
      '/api/front/system/login',
      { userName: `a${nul}bcd`, password: 'x' },
      { headers: { 'Accept-Language': 'en-US' } },
    );
    expect(en.message).toMatch(/must not contain control or invalid characters/);
    const key = await t.app.request('/api/front/system/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', Origin: 'http://localhost' },
      body: JSON.stringify({ userName: 'demo_person', password: 'Person2025', extra: { [`k${nul}`]: 1 } }),
    });
    expect(((await key.json()) as Envelope).code).toBe(ApiCode.BAD_REQUEST);
    // A lone surrogate can only arrive as a JSON escape (UTF-8 forms cannot carry one).
    const surrogate = await t.app.request('/api/front/system/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', Origin: 'http://localhost' },
      body: '{"userName":"demo\\ud800","password":"Person2025"}',
    });
    expect(((await surrogate.json()) as Envelope).message).toBe('用户名不能包含控制字符或无效字符');
    const multiline = await post(t, '/api/front/requirement/submitRequirement', {
      contactName: '张三',
      phone: '13800138000',
      areaCode: '440000',
      content: '第一行：想了解报价。\r\n第二行：\t以及签约流程。',
    });
    expect(multiline.code).toBe(ApiCode.OK);
  });
});

describe('numbers beyond their column', () => {
  it('notices/read with id 2147483648 (one past int4) → 400 at id', async () => {
    const cookie = await t.login('demo_person');
    for (const id of ['2147483648', '9223372036854775808', '-1', '1.5']) {
      const answer = await post(t, '/api/notices/read', { id }, { cookie });
      expect(answer.code).toBe(ApiCode.BAD_REQUEST);
      expect((answer.data as { errors: { field: string }[] }).errors[0]?.field).toBe('id');
    }
  });
});

/** A small app on the real database, logger and error handler, with routes that make the database fail. */
function faultApp() {
  const app = new Hono<AppEnv>();
  app.use('*', requestLog(logger));
  app.use('*', localeMiddleware);
  app.use('/api/*', streamGuard);
  app.get('/api/cast', async () => {
    // What a schema that forgot a bound would let through: the typed phone reaches a cast.
    await t.db.execute(sql`select ${'13912345678 广州明珠精密制造有限公司'}::int4`);
    return new Response('unreachable');
  });
  app.get('/api/duplicate', async () => {
    // A real fault (not the caller's): a unique violation whose detail quotes the value.
    await t.db
      .insert(users)
      .values({ userName: 'demo_person', mobile: '13987654321', name: '李秘密', passwordHash: 'x' });
    return new Response('unreachable');
  });
  app.get('/api/timeout', async () => {
    const error = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    throw error;
  });
  app.get('/api/stream', () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode('first row\n'));
          return;
        }
        // The next page of an export fails: drizzle's error carries the statement and its parameters.
        await t.db.execute(sql`select ${'13912345678 广州明珠精密制造有限公司'}::int4`);
      },
    });
    return new Response(body, { headers: { 'Content-Type': 'application/octet-stream' } });
  });
  app.onError(handleError);
  return app;
}

describe('database faults', () => {
  afterEach(() => vi.restoreAllMocks());
  const secrets = ['13912345678', '广州明珠精密制造有限公司', '13987654321', '李秘密'];

  it('a value the database refuses → 400 api.badValue, logged with its SQLSTATE and without the value', async () => {
    lines.length = 0;
    const response = await faultApp().request('/api/cast');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ code: 400, message: '请求中有无法处理的值，请检查后重试', data: {} });
    const text = lines.join('\n');
    expect(text).toMatch(/"sqlState":"22/);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('a failing query is logged with its statement and SQLSTATE, never its parameters or the detail that quotes them', async () => {
    lines.length = 0;
    const response = await faultApp().request('/api/duplicate');
    expect(response.status).toBe(500);
    const text = lines.join('\n');
    expect(text).toContain('23505');
    expect(text).toMatch(/"query":"insert into \\"users\\"/);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('a statement timeout → HTTP 503 api.busy', async () => {
    const response = await faultApp().request('/api/timeout');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ code: 503, message: '服务器繁忙，请稍后再试', data: {} });
  });

  it('a streamed answer that fails midway reaches neither the console nor the client with its message', async () => {
    lines.length = 0;
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await faultApp().request('/api/stream');
    await expect(response.text()).rejects.toThrow('response stream aborted');
    const text = lines.join('\n') + consoleError.mock.calls.flat().map(String).join('\n');
    expect(text).toContain('response stream failed');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

describe('time budget', () => {
  it('a call over its budget answers HTTP 503 at the budget, and other calls go on meanwhile', async () => {
    const app = new Hono<AppEnv>();
    app.use('*', requestLog(logger));
    app.use('*', localeMiddleware);
    app.use('/api/*', requestBudget({ requestTimeoutMs: 200, uploadTimeoutMs: 5_000 }));
    app.get('/api/slow', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return c.text('late');
    });
    app.get('/api/fast', (c) => c.text('fast'));
    const started = performance.now();
    const slow = app.request('/api/slow');
    expect(await (await app.request('/api/fast')).text()).toBe('fast');
    const answer = await slow;
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(503);
    expect(((await answer.json()) as Envelope).message).toBe('服务器处理超时，请稍后再试');
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2_000);
  });
});
