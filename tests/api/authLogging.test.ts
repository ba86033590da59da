/**
 * No password, SMS code, captcha or session id in any log line, across every account flow, with
 * the log captured at trace level — the outbox SMS provider's line included: it says a message
 * was stored, to a masked phone; the text (the code) goes only to a terminal, never to a log.
 */
import { describe, expect, it } from 'vitest';
import { serverSecrets } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import {
  consentVersions,
  get,
  knownCaptcha,
  lastSmsCode,
  post,
  postForm,
  sessionCookie,
  skipResendPause,
} from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';
import { enableSecondFactor, forgetUsedStep, loginByPassword, secondStep } from './secondFactorCalls.ts';

const lines: string[] = [];
const t = openPerFile(() => {
  const logger = createLogger({ logLevel: 'trace' }, { write: (line: string) => void lines.push(line) });
  return createTestApp({ logger, env: { TRUST_PROXY: '1' } });
});

describe('account flows and the log', () => {
  it('log neither passwords, codes, captchas, session tokens nor phone numbers', async () => {
    const secrets: string[] = [];
    const phone = '13912380001';
    const ip = '198.51.100.77';
    const token = (cookie: string | undefined) => cookie?.split('=')[1] ?? '';

    const sms = async (number: string, type: string) => {
      await skipResendPause(t);
      expect((await post(t, '/api/front/system/sendSMS', { phone: number, type }, { ip })).code).toBe(200);
      const code = (await lastSmsCode(t, number)) ?? '';
      secrets.push(code);
      return code;
    };

    // Register, then every way in and every change.
    const register = await postForm(
      t,
      '/api/front/system/register',
      { phone, code: await sms(phone, 'register'), name: '日志测试', password: 'LogSecret2026', ...consentVersions() },
      { ip },
    );
    const registered = sessionCookie(register);
    secrets.push('LogSecret2026', token(registered));

    await post(t, '/api/front/system/login', { userName: phone, password: 'WrongSecret2026' }, { ip });
    await post(t, '/api/front/system/login', { userName: phone, password: 'WrongSecret2027' }, { ip });
    secrets.push('WrongSecret2026', 'WrongSecret2027');
    const captcha = await knownCaptcha(t, 'Zx9p', { ip });
    secrets.push(token(captcha), 'Zx9p');
    const account = await postForm(
      t,
      '/api/front/system/login',
      { userName: phone, password: 'LogSecret2026', captcha: 'Zx9p' },
      { ip, cookie: captcha },
    );
    const accountCookie = sessionCookie(account) ?? '';
    secrets.push(token(accountCookie));

    const mobile = await postForm(
      t,
      '/api/front/system/loginMobile',
      { phone, code: await sms(phone, 'login') },
      { ip },
    );
    const mobileCookie = sessionCookie(mobile) ?? '';
    secrets.push(token(mobileCookie));

    const changed = await postForm(
      t,
      '/api/front/user/changePwd',
      { oldPassword: 'LogSecret2026', newPassword: 'LogSecret2027' },
      { ip, cookie: mobileCookie },
    );
    const changedCookie = sessionCookie(changed) ?? '';
    secrets.push('LogSecret2027', token(changedCookie));

    await get(t, `/api/front/system/checkphonenum?phone=${phone}`, { ip });
    await post(
      t,
      '/api/front/system/resetpassword',
      { phone, code: await sms(phone, 'modify'), newPassword: 'LogSecret2028' },
      { ip },
    );
    secrets.push('LogSecret2028');

    const again = await postForm(t, '/api/front/system/login', { userName: phone, password: 'LogSecret2028' }, { ip });
    const cookie = sessionCookie(again) ?? '';
    secrets.push(token(cookie));
    await skipResendPause(t);
    await post(t, '/api/front/user/sendSMSByDefaultPhone', { type: 'binding' }, { ip, cookie });
    const bindCode = (await lastSmsCode(t, phone)) ?? '';
    secrets.push(bindCode);
    const me = await get<{ userId: number }>(t, '/api/front/user/getUserInfo', { cookie });
    expect(
      (
        await post(
          t,
          '/api/front/user/bind',
          {
            userId: me.data.userId,
            mobile: phone,
            code: bindCode,
            userName: phone,
            clearanceAccount: '0300077770001',
            enterpriseName: '日志测试企业',
          },
          { ip, cookie },
        )
      ).code,
    ).toBe(200);
    await post(t, '/api/front/system/logout', {}, { ip, cookie });

    expect(secrets.every((s) => s.length >= 4)).toBe(true);
    const requestLines = lines.filter((line) => line.includes('"msg":"request"'));
    expect(requestLines.length).toBeGreaterThan(10);
    const outboxLines = lines.filter((line) => line.includes('SMS outbox:'));
    expect(outboxLines.length).toBe(4);
    for (const line of lines) {
      expect(line).not.toContain(phone);
      for (const secret of secrets) expect(line, `a log line carries a secret: ${line}`).not.toContain(secret);
    }
    // The outbox line shows the phone masked.
    expect(outboxLines[0]).toContain('139****0001');
  });

  it('log neither second-factor secrets, codes, recovery codes, pending-login tokens nor the server keys', async () => {
    const from = lines.length;
    const ip = '198.51.100.78';
    const cookie = await t.login('demo_company');
    const { app, recoveryCodes } = await enableSecondFactor(t, cookie, 'Company2025');
    const secrets = [
      app.manualKey.replace(/ /g, ''),
      ...recoveryCodes,
      ...recoveryCodes.map((code) => code.replace('-', '')),
    ];
    await forgetUsedStep(t, 'demo_company');
    const first = await loginByPassword(t, 'demo_company', 'Company2025', { ip });
    const code = app.code();
    const done = await secondStep(t, first.challenge, code, { ip });
    expect(done.answer.code).toBe(200);
    const again = await loginByPassword(t, 'demo_company', 'Company2025', { ip });
    expect((await secondStep(t, again.challenge, recoveryCodes[1]!, { ip })).answer.code).toBe(200);
    secrets.push(code, first.challenge!.split('=')[1]!, again.challenge!.split('=')[1]!, done.session!.split('=')[1]!);
    const keys = await t.keys();
    for (const key of Object.values(keys))
      secrets.push(key.toString('hex'), key.toString('base64'), key.toString('base64url'));
    for (const row of await t.db.select().from(serverSecrets)) secrets.push(row.value);

    const written = lines.slice(from);
    expect(written.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThan(5);
    for (const line of written)
      for (const secret of secrets) expect(line, `a log line carries a secret: ${line}`).not.toContain(secret);
  });
});
