/**
 * The HTTP SMS provider against a fake gateway on 127.0.0.1: accepted, refused (HTTP error and
 * business code), timeout; and end to end through sendSMS with the app configured from the
 * environment (SMS_HTTP_URL / _KEY / _TIMEOUT_MS).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { smsCodes, smsOutbox } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createHttpProvider, SmsGatewayError } from '../../src/server/sms/http.ts';
import { post } from './accountCalls.ts';
import { createTestApp, type TestApp } from './harness.ts';

interface Received {
  headers: IncomingMessage['headers'];
  body: { phone: string; content: string; purpose: string };
}

type Behaviour = (res: ServerResponse) => void;

let server: Server;
let url: string;
let behaviour: Behaviour;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) as Received['body'] });
      behaviour(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms/send`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  received.length = 0;
  behaviour = (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"code":0,"message":"OK"}');
});

const message = {
  phone: '13800138000',
  purpose: 'login' as const,
  text: '【汇购电】您的登录验证码为 123456，5 分钟内有效。',
};

describe('HTTP SMS provider', () => {
  it('posts the message as JSON with the key and resolves when the gateway accepts', async () => {
    const provider = createHttpProvider({ url, key: 'test-gateway-key', timeoutMs: 2000 });
    await provider.send(message);
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toEqual({ phone: '13800138000', content: message.text, purpose: 'login' });
    expect(received[0]?.headers['authorization']).toBe('Bearer test-gateway-key');
    expect(received[0]?.headers['content-type']).toBe('application/json');
    expect(received[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts a 2xx without a JSON body', async () => {
    behaviour = (res) => res.writeHead(204).end();
    await expect(createHttpProvider({ url, timeoutMs: 2000 }).send(message)).resolves.toBeUndefined();
    expect(received[0]?.headers['authorization']).toBeUndefined();
  });

  it('rejects a gateway error status and a refusing business code, logging neither phone, text nor key', async () => {
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) });
    behaviour = (res) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('Bad Gateway');
    const provider = createHttpProvider({ url, key: 'test-gateway-key', timeoutMs: 2000, logger });
    await expect(provider.send(message)).rejects.toThrow(new SmsGatewayError('SMS gateway answered HTTP 502', 502));
    behaviour = (res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('{"code":"isv.BUSINESS_LIMIT_CONTROL","message":"触发流控"}');
    await expect(provider.send(message)).rejects.toThrow(
      'SMS gateway refused the message: code isv.BUSINESS_LIMIT_CONTROL 触发流控',
    );
    expect(lines).toHaveLength(2);
    for (const secret of ['13800138000', '123456', 'test-gateway-key']) expect(lines.join('\n')).not.toContain(secret);
  });

  it('gives up after the timeout', async () => {
    behaviour = (res) => setTimeout(() => res.writeHead(200).end('{"code":0}'), 1500);
    const started = performance.now();
    await expect(createHttpProvider({ url, timeoutMs: 200 }).send(message)).rejects.toThrow(
      'SMS gateway gave no answer within 200 ms',
    );
    expect(performance.now() - started).toBeLessThan(1200);
  });

  it('rejects when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(createHttpProvider({ url: deadUrl, timeoutMs: 1000 }).send(message)).rejects.toThrow(
      'SMS gateway unreachable',
    );
  });
});

describe('sendSMS through the HTTP provider configured from the environment', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { SMS_HTTP_URL: url, SMS_HTTP_KEY: 'env-gateway-key', SMS_HTTP_TIMEOUT_MS: '300' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('delivers through the gateway (not the outbox)', async () => {
    expect(await post(t, '/api/front/system/sendSMS', { phone: '13800138001', type: 'login' })).toMatchObject({
      code: 200,
      message: '验证码已发出，请稍后查收短信',
    });
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['authorization']).toBe('Bearer env-gateway-key');
    expect(received[0]?.body.content).toMatch(/登录验证码为 \d{6}/);
    expect(await t.db.select().from(smsOutbox)).toHaveLength(0);
  });

  it('answers 503 and keeps no code when the gateway fails or times out', async () => {
    await t.db.execute(sql`delete from rate_limits`);
    await t.db.delete(smsCodes);
    behaviour = (res) => res.writeHead(500).end();
    expect(await post(t, '/api/front/system/sendSMS', { phone: '13800138002', type: 'login' })).toEqual({
      code: 503,
      message: '短信发送失败，请稍后重试',
      data: {},
    });
    behaviour = (res) => setTimeout(() => res.writeHead(200).end('{"code":0}'), 1000);
    await t.db.execute(sql`delete from rate_limits`);
    expect((await post(t, '/api/front/system/sendSMS', { phone: '13800138002', type: 'login' })).code).toBe(503);
    expect(await t.db.select().from(smsCodes)).toHaveLength(0);
  });
});
