/**
 * Abuse resistance of the account calls: CSRF, session fixation, login limits
 * and locks, SMS limits, code expiry / single use / 5 tries, and answers that do not tell whether
 * a phone or a name is registered. The app trusts X-Forwarded-For here, so each test can speak
 * from its own address.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, rateLimits, sessions, smsCodes, users } from '../../src/server/db/schema/index.ts';
import { checkPhoneRule } from '../../src/server/routes/system.ts';
import { loginRules } from '../../src/server/services/login.ts';
import { smsRules } from '../../src/server/sms/codes.ts';
import {
  get,
  knownCaptcha,
  lastSmsCode,
  outboxCount,
  post,
  postForm,
  sessionCookie,
  skipResendPause,
  smsCodeFor,
  type Envelope,
} from './accountCalls.ts';
import { createTestApp, openPerFile, sessionIdOf, testOrigin } from './harness.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));

const currentUserCode = async (cookie: string) => (await get(t, '/api/front/user/currentUser', { cookie })).code;
const other = (code: string) => (code === '000000' ? '111111' : '000000');

describe('CSRF', () => {
  const body = 'userName=demo_person&password=Person2025';
  const attempt = (headers: Record<string, string>) =>
    t.app.request('/api/front/system/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': '198.51.100.1', ...headers },
      body,
    });

  it('refuses a login, a registration and a password change without the header or from another origin', async () => {
    const before = (await t.db.select().from(sessions)).length;
    for (const headers of [
      { Origin: testOrigin },
      { 'X-Requested-With': 'XMLHttpRequest', Origin: 'https://evil.example' },
      { 'X-Requested-With': 'XMLHttpRequest' },
      { 'X-Requested-With': 'XMLHttpRequest', Referer: 'https://evil.example/page' },
    ]) {
      const res = await attempt(headers);
      expect(await res.json()).toEqual({ code: 403, message: '请求来源校验失败，请刷新页面后重试', data: {} });
      expect(sessionCookie(res)).toBeUndefined();
    }
    const cookie = await t.login('demo_person');
    for (const path of [
      '/api/front/system/register',
      '/api/front/user/changePwd',
      '/api/front/user/bind',
      '/api/notices/clear',
    ]) {
      const res = await t.app.request(path, {
        method: 'POST',
        headers: {
          Cookie: cookie,
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: 'https://evil.example',
          'X-Requested-With': 'XMLHttpRequest',
        },
        body: 'oldPassword=Person2025&newPassword=Hacked2025&type=message',
      });
      expect(((await res.json()) as Envelope).code).toBe(403);
    }
    expect((await t.db.select().from(sessions)).length).toBe(before + 1);
    expect(await currentUserCode(cookie)).toBe(200);
  });
});

describe('session fixation', () => {
  it('never turns a planted or earlier id into the logged-in session', async () => {
    // An attacker plants a well-formed id they know…
    const planted = `hgd_sid=${'P'.repeat(43)}`;
    const res = await postForm(
      t,
      '/api/front/system/login',
      { userName: 'demo_person', password: 'Person2025' },
      { cookie: planted, ip: '198.51.100.2' },
    );
    const issued = sessionCookie(res);
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted);
    expect(await currentUserCode(planted)).toBe(901);
    // …or a session of their own that the victim's browser carries: it is revoked, not upgraded.
    const attackers = await t.login('demo_partner');
    const victim = await postForm(
      t,
      '/api/front/system/login',
      { userName: 'demo_person', password: 'Person2025' },
      { cookie: attackers, ip: '198.51.100.2' },
    );
    expect(sessionCookie(victim)).not.toBe(attackers);
    expect(await currentUserCode(attackers)).toBe(901);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(attackers)));
    expect(row?.revokedAt).toBeInstanceOf(Date);
    // Mobile login renews the id too.
    const before = await t.login('demo_person');
    await skipResendPause(t);
    const code = await smsCodeFor(t, '13800138001', 'login', { ip: '198.51.100.2' });
    const mobile = await postForm(
      t,
      '/api/front/system/loginMobile',
      { phone: '13800138001', code },
      { cookie: before, ip: '198.51.100.2' },
    );
    expect(sessionCookie(mobile)).not.toBe(before);
    expect(await currentUserCode(before)).toBe(901);
  });
});

describe('login limits', () => {
  const login = (userName: string, password: string, ip: string) =>
    post(t, '/api/front/system/login', { userName, password }, { ip });

  it('locks an account name for 15 minutes after 5 failures, even for the right password, then lets it in again', async () => {
    const ip = '203.0.113.10';
    const answers: Envelope[] = [];
    // From the 3rd try on the captcha is required; use a fresh address per try to reach the lock.
    for (let i = 0; i < loginRules.failuresPerName.limit; i++) {
      answers.push(await loginWithCaptchaBypass('demo_company', 'Wrong2025', `${ip}${i}`));
    }
    expect(answers.slice(0, 4).every((a) => a.message === '用户名或密码错误')).toBe(true);
    expect(answers[4]).toEqual({
      code: 429,
      message: '登录失败次数过多，账户已临时锁定，请 15 分钟后再试',
      data: { captchaRequired: true },
    });
    expect(await login('demo_company', 'Company2025', '203.0.113.99')).toMatchObject({
      code: 429,
      message: '登录失败次数过多，账户已临时锁定，请 15 分钟后再试',
    });
    const [row] = await t.db.select().from(users).where(eq(users.userName, 'demo_company'));
    expect(row?.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    // A proven phone still logs the owner in while the name is locked.
    await skipResendPause(t);
    const code = await smsCodeFor(t, '13800138002', 'login', { ip: '203.0.113.98' });
    expect(
      (await post(t, '/api/front/system/loginMobile', { phone: '13800138002', code }, { ip: '203.0.113.98' })).code,
    ).toBe(200);
    // The lock ends after its time.
    // The lock and the failure count (whose window started before the lock's) run out.
    await t.db.execute(
      sql`update rate_limits set expires_at = now() - interval '1 second' where key like 'login.lock:%' or key like 'login.fail.name:%'`,
    );
    await t.db
      .update(users)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(users.userName, 'demo_company'));
    expect((await login('demo_company', 'Company2025', '203.0.113.97')).code).toBe(200);
  });

  it('locks an unknown name the same way', async () => {
    const answers: Envelope[] = [];
    for (let i = 0; i < loginRules.failuresPerName.limit; i++)
      answers.push(await loginWithCaptchaBypass('ghost_user', 'Wrong2025', `203.0.114.${i}`));
    expect(answers[4]).toEqual({
      code: 429,
      message: '登录失败次数过多，账户已临时锁定，请 15 分钟后再试',
      data: { captchaRequired: true },
    });
  });

  it('limits tries per address, and other addresses go on', async () => {
    const ip = '203.0.113.50';
    let last: Envelope | undefined;
    for (let i = 0; i <= loginRules.perIp.limit; i++) last = await login(`nobody_${i % 3}`, 'Wrong2025', ip);
    expect(last).toEqual({ code: 429, message: '尝试过于频繁，请 15 分钟后再试', data: { captchaRequired: true } });
    expect((await login('demo_person', 'Person2025', ip)).code).toBe(429);
    expect((await login('demo_person', 'Person2025', '203.0.113.51')).code).toBe(200);
  });

  // Simultaneous wrong passwords for one name once raced past the limit (counted after the check).
  // Every password check that fails is audited: the count of those rows is the count of checks.
  const failedChecks = async () =>
    (await t.db.select().from(auditLog).where(eq(auditLog.action, 'session.loginFailed'))).length;

  it('30 simultaneous wrong passwords for one name, from 30 addresses, get 2 password checks; the rest are asked for the captcha', async () => {
    const before = await failedChecks();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(
          t,
          '/api/front/system/login',
          { userName: 'demo_person', password: 'Wrong2025' },
          { ip: `198.18.0.${i + 1}` },
        ),
      ),
    );
    expect((await failedChecks()) - before).toBe(loginRules.captchaAfterNameFailures);
    expect(answers.filter((answer) => answer.message === '用户名或密码错误')).toHaveLength(
      loginRules.captchaAfterNameFailures,
    );
    expect(answers.filter((answer) => answer.message === '请输入图形验证码')).toHaveLength(
      30 - loginRules.captchaAfterNameFailures,
    );
    // The refused tries gave their claims back: the name has exactly its two failures.
    const [row] = await t.db.select().from(rateLimits).where(eq(rateLimits.key, 'login.fail.name:demo_person'));
    expect(row?.hits).toBe(loginRules.captchaAfterNameFailures);
  });

  it('30 simultaneous wrong passwords, each with a solved captcha, get at most 5 checks and lock the name (an unknown one too)', async () => {
    const before = await failedChecks();
    const tries = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const ip = `198.18.1.${i + 1}`;
        const captcha = await knownCaptcha(t, 'Qw34', { ip });
        return () =>
          post(
            t,
            '/api/front/system/login',
            { userName: 'race_victim', password: 'Wrong2025', captcha: 'Qw34' },
            { ip, cookie: captcha },
          );
      }),
    );
    const answers = await Promise.all(tries.map((attempt) => attempt()));
    expect((await failedChecks()) - before).toBeLessThanOrEqual(loginRules.failuresPerName.limit);
    expect(answers.filter((answer) => answer.code === 429).length).toBeGreaterThanOrEqual(
      30 - loginRules.failuresPerName.limit,
    );
    expect(await login('race_victim', 'Whatever2025', '198.18.1.200')).toMatchObject({
      code: 429,
      message: '登录失败次数过多，账户已临时锁定，请 15 分钟后再试',
    });
  });

  /** A wrong-password try that gets past the captcha rule by supplying a known captcha. */
  async function loginWithCaptchaBypass(userName: string, password: string, ip: string): Promise<Envelope> {
    const captcha = await knownCaptcha(t, 'Qw34', { ip });
    return post(t, '/api/front/system/login', { userName, password, captcha: 'Qw34' }, { ip, cookie: captcha });
  }
});

describe('SMS limits', () => {
  it('refuses a second code to one phone within 60 s', async () => {
    const phone = '13912350001';
    expect((await post(t, '/api/front/system/sendSMS', { phone, type: 'register' }, { ip: '192.0.2.1' })).code).toBe(
      200,
    );
    const again = await post(t, '/api/front/system/sendSMS', { phone, type: 'register' }, { ip: '192.0.2.2' });
    expect(again.code).toBe(429);
    expect(again.message).toMatch(/^发送过于频繁，请 \d+ 秒后再试$/);
    const { retryAfterSeconds } = again.data as { retryAfterSeconds: number };
    expect(retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(again.message).toContain(` ${retryAfterSeconds} 秒`);
    expect(await outboxCount(t, phone)).toBe(1);
  });

  it('caps codes per phone per day', async () => {
    const phone = '13912350002';
    for (let i = 0; i < smsRules.dailyPerPhone.limit; i++) {
      await skipResendPause(t);
      expect(
        (await post(t, '/api/front/system/sendSMS', { phone, type: 'register' }, { ip: `192.0.2.${10 + i}` })).code,
      ).toBe(200);
    }
    await skipResendPause(t);
    expect(await post(t, '/api/front/system/sendSMS', { phone, type: 'register' }, { ip: '192.0.2.99' })).toMatchObject(
      {
        code: 429,
        message: '今日发送次数已达上限，请明天再试',
      },
    );
  });

  it('caps codes per address per day', async () => {
    const ip = '192.0.2.200';
    for (let i = 0; i < smsRules.dailyPerIp.limit; i++) {
      expect(
        (
          await post(
            t,
            '/api/front/system/sendSMS',
            { phone: `139124${String(i).padStart(5, '0')}`, type: 'register' },
            { ip },
          )
        ).code,
      ).toBe(200);
    }
    expect((await post(t, '/api/front/system/sendSMS', { phone: '13912499999', type: 'register' }, { ip })).code).toBe(
      429,
    );
    expect(await outboxCount(t, '13912499999')).toBe(0);
  });
});

describe('SMS codes', () => {
  const phone = '13800138003';
  const loginMobile = (code: string) => post(t, '/api/front/system/loginMobile', { phone, code }, { ip: '192.0.2.50' });

  it('expire after 5 minutes', async () => {
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'login', { ip: '192.0.2.50' });
    await t.db
      .update(smsCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(smsCodes.phone, phone));
    expect(await loginMobile(code)).toMatchObject({ code: 400, message: '验证码错误或已失效，请重新获取' });
  });

  it('work once', async () => {
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'login', { ip: '192.0.2.50' });
    expect((await loginMobile(code)).code).toBe(200);
    expect((await loginMobile(code)).code).toBe(400);
  });

  it('give 30 simultaneous guesses no more than 5 tries between them', async () => {
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'login', { ip: '192.0.2.51' });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post(t, '/api/front/system/loginMobile', { phone, code: other(code) }, { ip: `198.18.2.${i + 1}` }),
      ),
    );
    expect(answers.every((answer) => answer.code === 400)).toBe(true);
    const [row] = await t.db
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.phone, phone))
      .orderBy(desc(smsCodes.id))
      .limit(1);
    expect(row?.attempts).toBe(smsRules.maxAttempts);
    expect((await loginMobile(code)).code).toBe(400);
  });

  it('die after 5 wrong tries', async () => {
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'login', { ip: '192.0.2.50' });
    for (let i = 0; i < smsRules.maxAttempts; i++) expect((await loginMobile(other(code))).code).toBe(400);
    expect(await loginMobile(code)).toMatchObject({ code: 400, message: '验证码错误或已失效，请重新获取' });
  });

  it('only prove the phone for their own purpose', async () => {
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'modify', { ip: '192.0.2.50' });
    expect((await loginMobile(code)).code).toBe(400);
  });
});

describe('answers that do not tell whether a phone or a name is registered', () => {
  it('sendSMS answers login, modify and binding alike for registered and unregistered phones', async () => {
    for (const type of ['login', 'modify', 'binding']) {
      await skipResendPause(t);
      const registered = await post(
        t,
        '/api/front/system/sendSMS',
        { phone: '13800138004', type },
        { ip: '192.0.2.60' },
      );
      const unknown = await post(t, '/api/front/system/sendSMS', { phone: '13912360001', type }, { ip: '192.0.2.61' });
      expect(unknown).toEqual(registered);
      expect(registered.code).toBe(200);
    }
    // Only the registered phone got messages.
    expect(await outboxCount(t, '13912360001')).toBe(0);
    expect(await lastSmsCode(t, '13800138004')).toMatch(/^\d{6}$/);
  });

  it('limits how fast one address may ask whether phones are registered', async () => {
    const ip = '192.0.2.90';
    for (let i = 0; i < checkPhoneRule.limit; i++) {
      expect(
        (await get(t, `/api/front/system/checkphonenum?phone=139126${String(i).padStart(5, '0')}`, { ip })).code,
      ).toBe(200);
    }
    expect(await get(t, '/api/front/system/checkphonenum?phone=13800138001', { ip })).toMatchObject({ code: 429 });
    // sendSMS register answers "registered" too, so it shares the budget.
    expect((await post(t, '/api/front/system/sendSMS', { phone: '13800138001', type: 'register' }, { ip })).code).toBe(
      429,
    );
    expect((await get(t, '/api/front/system/checkphonenum?phone=13800138001', { ip: '192.0.2.91' })).code).toBe(200);
  });

  it('the limits count for unregistered phones too', async () => {
    await skipResendPause(t);
    expect(
      (await post(t, '/api/front/system/sendSMS', { phone: '13912360002', type: 'login' }, { ip: '192.0.2.62' })).code,
    ).toBe(200);
    expect(
      (await post(t, '/api/front/system/sendSMS', { phone: '13912360002', type: 'login' }, { ip: '192.0.2.62' })).code,
    ).toBe(429);
  });

  it('loginMobile and resetpassword answer a wrong code alike for registered and unregistered phones', async () => {
    const registered = await post(
      t,
      '/api/front/system/loginMobile',
      { phone: '13800138004', code: '123456' },
      { ip: '192.0.2.63' },
    );
    const unknown = await post(
      t,
      '/api/front/system/loginMobile',
      { phone: '13912360003', code: '123456' },
      { ip: '192.0.2.63' },
    );
    expect(unknown).toEqual(registered);
    const resetKnown = await post(t, '/api/front/system/resetpassword', {
      phone: '13800138004',
      code: '123456',
      newPassword: 'Whatever2026',
    });
    const resetUnknown = await post(t, '/api/front/system/resetpassword', {
      phone: '13912360003',
      code: '123456',
      newPassword: 'Whatever2026',
    });
    expect(resetUnknown).toEqual(resetKnown);
    expect(resetKnown.code).toBe(400);
  });

  it('login answers an unknown name like a wrong password, in time too (argon2 either way)', async () => {
    const time = async (userName: string) => {
      const started = performance.now();
      const answer = await post(
        t,
        '/api/front/system/login',
        { userName, password: 'Wrong2025' },
        { ip: `192.0.2.7${userName.length % 10}` },
      );
      return { answer, ms: performance.now() - started };
    };
    const known = await time('demo_operator');
    const unknown = await time('no_such_user');
    expect(unknown.answer).toEqual(known.answer);
    // Both verified an argon2id hash (~60 ms here); an early return would be a few ms.
    expect(unknown.ms).toBeGreaterThan(known.ms / 4);
  });
});
