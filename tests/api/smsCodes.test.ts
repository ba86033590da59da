import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { smsCodes, smsOutbox } from '../../src/server/db/schema/index.ts';
import { ApiError } from '../../src/server/apiError.ts';
import { checkSmsCode, consumeSmsCode, sendSmsCode, smsRules } from '../../src/server/sms/codes.ts';
import { createOutboxProvider, terminalScreen, type SmsProvider } from '../../src/server/sms/provider.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createTestApp, type TestApp } from './harness.ts';

const phone = '13900139000';

async function lastCode(app: TestApp): Promise<string> {
  const [row] = await app.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, phone))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  const code = row?.text.match(/\d{6}/)?.[0];
  if (!code) throw new Error('no code in the outbox');
  return code;
}

async function apiCode(promise: Promise<unknown>): Promise<{ code: number; key: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, key: error.key };
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('SMS codes', () => {
  let app: TestApp;
  let provider: SmsProvider;
  beforeEach(async () => {
    app = await createTestApp();
    provider = createOutboxProvider(app.db, createLogger({ logLevel: 'silent' }));
  });
  afterEach(async () => {
    await app.close();
  });

  it('the outbox logs that a message was stored, to a masked phone; its text goes to a terminal only', async () => {
    const lines: string[] = [];
    const shown: string[] = [];
    const outbox = createOutboxProvider(
      app.db,
      createLogger({ logLevel: 'trace' }, { write: (line: string) => void lines.push(line) }),
      (text) => shown.push(text),
    );
    await sendSmsCode(app.db, outbox, { phone, purpose: 'register', ip: null });
    const code = await lastCode(app);
    expect(lines.join('\n')).not.toContain(code);
    expect(lines.join('\n')).not.toContain(phone);
    expect(lines.join('\n')).toContain('139****9000');
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain(code);
    expect(shown[0]).not.toContain(phone);
    // stderr piped to a file or a journal is a log: nothing is shown there.
    expect(terminalScreen({ isTTY: false } as NodeJS.WriteStream)).toBeNull();
    expect(terminalScreen({ isTTY: true, write: () => true } as unknown as NodeJS.WriteStream)).toBeTypeOf('function');
  });

  it('sends a 6-digit code that works once, for its purpose only', async () => {
    await sendSmsCode(app.db, provider, { phone, purpose: 'register', ip: '203.0.113.1' });
    const code = await lastCode(app);
    expect(code).toMatch(/^\d{6}$/);
    expect(await apiCode(checkSmsCode(app.db, { phone, purpose: 'login', code }))).toEqual({
      code: 400,
      key: 'sms.codeInvalid',
    });
    const id = await checkSmsCode(app.db, { phone, purpose: 'register', code });
    await app.db.transaction((tx) => consumeSmsCode(tx, id));
    expect(await apiCode(checkSmsCode(app.db, { phone, purpose: 'register', code }))).toEqual({
      code: 400,
      key: 'sms.codeInvalid',
    });
    // Only a hash is stored.
    const stored = await app.db.select().from(smsCodes);
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('keeps a right code when the flow that consumed it rolls back', async () => {
    await sendSmsCode(app.db, provider, { phone, purpose: 'modify', ip: null });
    const code = await lastCode(app);
    const id = await checkSmsCode(app.db, { phone, purpose: 'modify', code });
    await expect(
      app.db.transaction(async (tx) => {
        await consumeSmsCode(tx, id);
        throw new Error('the flow failed');
      }),
    ).rejects.toThrow('the flow failed');
    expect(await checkSmsCode(app.db, { phone, purpose: 'modify', code })).toBe(id);
  });

  it('burns the code after 5 wrong tries', async () => {
    await sendSmsCode(app.db, provider, { phone, purpose: 'login', ip: null });
    const code = await lastCode(app);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < smsRules.maxAttempts; i++) {
      expect((await apiCode(checkSmsCode(app.db, { phone, purpose: 'login', code: wrong }))).key).toBe(
        'sms.codeInvalid',
      );
    }
    expect((await apiCode(checkSmsCode(app.db, { phone, purpose: 'login', code }))).key).toBe('sms.codeInvalid');
  });

  it('expires after five minutes', async () => {
    await sendSmsCode(app.db, provider, { phone, purpose: 'login', ip: null });
    const code = await lastCode(app);
    await app.db.execute(sql`update sms_codes set expires_at = now() - interval '1 second'`);
    expect((await apiCode(checkSmsCode(app.db, { phone, purpose: 'login', code }))).key).toBe('sms.codeInvalid');
  });

  it('refuses a second send within 60 s, and replaces the old code with a newer one', async () => {
    await sendSmsCode(app.db, provider, { phone, purpose: 'login', ip: null });
    const first = await lastCode(app);
    expect(await apiCode(sendSmsCode(app.db, provider, { phone, purpose: 'login', ip: null }))).toEqual({
      code: 429,
      key: 'sms.tooSoon',
    });
    await app.db.execute(
      sql`update rate_limits set expires_at = now() - interval '1 second' where key like 'sms.interval:%'`,
    );
    await sendSmsCode(app.db, provider, { phone, purpose: 'login', ip: null });
    const second = await lastCode(app);
    if (first !== second)
      expect((await apiCode(checkSmsCode(app.db, { phone, purpose: 'login', code: first }))).key).toBe(
        'sms.codeInvalid',
      );
    expect(await checkSmsCode(app.db, { phone, purpose: 'login', code: second })).toBeGreaterThan(0);
  });

  it('caps sends per IP per day', async () => {
    for (let i = 0; i < smsRules.dailyPerIp.limit; i++) {
      await sendSmsCode(app.db, provider, {
        phone: `1370000${String(i).padStart(4, '0')}`,
        purpose: 'register',
        ip: '198.51.100.9',
      });
    }
    expect(
      await apiCode(sendSmsCode(app.db, provider, { phone: '13799999999', purpose: 'register', ip: '198.51.100.9' })),
    ).toEqual({ code: 429, key: 'sms.dailyLimit' });
  });

  it('withdraws the code when the gateway fails', async () => {
    const failing: SmsProvider = { name: 'failing', send: () => Promise.reject(new Error('gateway down')) };
    expect(await apiCode(sendSmsCode(app.db, failing, { phone, purpose: 'login', ip: null }))).toEqual({
      code: 503,
      key: 'sms.sendFailed',
    });
    expect(await app.db.select().from(smsCodes)).toHaveLength(0);
  });
});
