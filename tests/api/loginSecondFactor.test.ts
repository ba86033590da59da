/**
 * The login's second step (docs/accounts.md, "Two-step verification"): a user with a second factor
 * gets no session from the password or the SMS code alone — a pending login (5 minutes, one use,
 * 5 tries) that a code from the app or a recovery code completes — and the limits of passwords:
 * the per-address budget, a per-user failure count and lock that concurrency cannot beat.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  loginChallenges,
  rateLimits,
  secondFactors,
  sessions,
  users,
} from '../../src/server/db/schema/index.ts';
import { secondFactorRules } from '../../src/server/services/secondFactor.ts';
import {
  get,
  post,
  postForm,
  sessionCookie,
  skipResendPause,
  smsCodeFor,
  cookies,
  type Envelope,
} from './accountCalls.ts';
import { createTestApp, openPerFile, sessionIdOf } from './harness.ts';
import {
  challengeCookie,
  enableSecondFactor,
  forgetUsedStep,
  loginByPassword,
  secondStep,
  wrongCode,
  type Authenticator,
  type FirstStep,
} from './secondFactorCalls.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));

const currentUser = (cookie: string | undefined) =>
  get(t, '/api/front/user/currentUser', cookie === undefined ? {} : { cookie });

async function enabled(userName: string, password: string): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  const factor = await enableSecondFactor(t, await t.login(userName), password);
  await forgetUsedStep(t, userName);
  return factor;
}

async function userIdOf(userName: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return row!.id;
}

describe('login by account', () => {
  it('asks for the code instead of signing in, then signs in with it: 登录成功！ and a session that proved it', async () => {
    const { app } = await enabled('demo_person', 'Person2025');
    const sessionsBefore = (await t.db.select().from(sessions)).length;

    const first = await loginByPassword(t, 'demo_person', 'Person2025', { ip: '198.51.100.10' });
    expect(first.answer).toEqual({
      code: 200,
      message: '请输入身份验证器中的动态验证码',
      data: { secondFactor: 'totp' },
    });
    expect(sessionCookie(first.response)).toBeUndefined();
    expect((await t.db.select().from(sessions)).length).toBe(sessionsBefore);
    const line = first.response.headers.getSetCookie().find((value) => value.startsWith('hgd_login_challenge='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\/api\/front\/system/);
    expect(line).toMatch(/Max-Age=300/);
    // The pending login is no session.
    expect((await currentUser(first.challenge)).code).toBe(901);

    const wrong = await secondStep(t, first.challenge, wrongCode(app), { ip: '198.51.100.10' });
    expect(wrong.answer).toEqual({
      code: 400,
      message: '动态验证码或恢复码错误',
      data: { errors: [{ field: 'secondFactorCode', message: '动态验证码或恢复码错误' }] },
    });
    expect(wrong.session).toBeUndefined();

    const done = await secondStep(t, first.challenge, app.code(), { ip: '198.51.100.10' });
    expect(done.answer.code).toBe(200);
    expect(done.answer.message).toBe('登录成功！');
    expect(done.answer.data).toMatchObject({ userName: 'demo_person', roles: ['individual'] });
    expect(done.session).toBeDefined();
    expect(done.response.headers.getSetCookie().some((value) => /^hgd_login_challenge=;/.test(value))).toBe(true);
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(done.session!)));
    expect(session?.secondFactorAt).toBeInstanceOf(Date);
    expect((await currentUser(done.session)).code).toBe(200);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session.login'), eq(auditLog.userId, await userIdOf('demo_person'))))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(audit?.detail).toEqual({ method: 'account', deviceId: 'hgdweb', secondFactor: true });

    // The pending login was used up with it.
    await forgetUsedStep(t, 'demo_person');
    expect((await secondStep(t, first.challenge, app.code(), { ip: '198.51.100.10' })).answer.message).toBe(
      '登录验证已失效，请重新登录',
    );
  });

  it('refuses a replayed code on a new pending login', async () => {
    const { app } = await enabled('demo_company', 'Company2025');
    const code = app.code();
    const one = await loginByPassword(t, 'demo_company', 'Company2025', { ip: '198.51.100.11' });
    expect((await secondStep(t, one.challenge, code, { ip: '198.51.100.11' })).answer.code).toBe(200);
    const two = await loginByPassword(t, 'demo_company', 'Company2025', { ip: '198.51.100.11' });
    expect((await secondStep(t, two.challenge, code, { ip: '198.51.100.11' })).answer.code).toBe(400);
  });

  it('keeps the answers of a wrong password and of a user without a factor as they were', async () => {
    const wrong = await loginByPassword(t, 'demo_person', 'Wrong2025', { ip: '198.51.100.12' });
    expect(wrong.answer).toEqual({ code: 400, message: '用户名或密码错误', data: { captchaRequired: false } });
    expect(wrong.challenge).toBeUndefined();
    const plain = await loginByPassword(t, 'demo_operator', 'Operator2025', { ip: '198.51.100.12' });
    expect(plain.answer.message).toBe('登录成功！');
    expect(plain.challenge).toBeUndefined();
    expect(sessionCookie(plain.response)).toBeDefined();
  });
});

describe('login by mobile', () => {
  it('uses the SMS code up and asks for the second factor; the session is a mobile one', async () => {
    const { app } = await enabled('demo_bank', 'Bank2025');
    await skipResendPause(t);
    const code = await smsCodeFor(t, '13800138007', 'login', { ip: '198.51.100.13' });
    const first = await postForm(
      t,
      '/api/front/system/loginMobile',
      { phone: '13800138007', code },
      { ip: '198.51.100.13' },
    );
    expect(await first.clone().json()).toEqual({
      code: 200,
      message: '请输入身份验证器中的动态验证码',
      data: { secondFactor: 'totp' },
    });
    expect(sessionCookie(first)).toBeUndefined();
    // The SMS code is spent: it cannot start another login.
    const reused = await post(
      t,
      '/api/front/system/loginMobile',
      { phone: '13800138007', code },
      { ip: '198.51.100.13' },
    );
    expect(reused.code).toBe(400);

    const done = await secondStep(t, challengeCookie(first), app.code(), { ip: '198.51.100.13' });
    expect(done.answer.message).toBe('登录成功！');
    expect(done.response.headers.getSetCookie().some((value) => value.startsWith('hgd_signed_in=mobile'))).toBe(true);
  });
});

describe('the pending login', () => {
  it('refuses unknown, expired and used-up pending logins alike, and clears the cookie', async () => {
    const { app } = await enabled('demo_foshan', 'Foshan2025');
    const unknown = await secondStep(t, `hgd_login_challenge=${'x'.repeat(43)}`, app.code(), { ip: '198.51.100.14' });
    const none = await secondStep(t, undefined, app.code(), { ip: '198.51.100.14' });
    const first = await loginByPassword(t, 'demo_foshan', 'Foshan2025', { ip: '198.51.100.14' });
    await t.db
      .update(loginChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(loginChallenges.userId, await userIdOf('demo_foshan')));
    const expired = await secondStep(t, first.challenge, app.code(), { ip: '198.51.100.14' });
    for (const refused of [unknown, none, expired]) {
      expect(refused.answer).toEqual({ code: 400, message: '登录验证已失效，请重新登录', data: {} });
      expect(refused.session).toBeUndefined();
      expect(refused.response.headers.getSetCookie().some((value) => /^hgd_login_challenge=;/.test(value))).toBe(true);
    }
  });

  it('takes 5 codes, then not even the right one', async () => {
    const { app } = await enabled('demo_shenzhen', 'Shenzhen2025');
    const first = await loginByPassword(t, 'demo_shenzhen', 'Shenzhen2025', { ip: '198.51.100.15' });
    for (let i = 0; i < 4; i++)
      expect((await secondStep(t, first.challenge, wrongCode(app), { ip: '198.51.100.15' })).answer.code).toBe(400);
    // The user's failures are forgotten, so the lock is not what refuses here.
    await t.db.execute(sql`delete from rate_limits where key like ${`${secondFactorRules.failures.name}:%`}`);
    expect((await secondStep(t, first.challenge, wrongCode(app), { ip: '198.51.100.15' })).answer.code).toBe(400);
    expect((await secondStep(t, first.challenge, app.code(), { ip: '198.51.100.15' })).answer.message).toBe(
      '登录验证已失效，请重新登录',
    );
  });
});

describe('an account disabled between the steps', () => {
  it('is refused at the second step, and its right code is not counted as a wrong one', async () => {
    const userId = await userIdOf('demo_bank');
    // A factor of its own (an operator's reset first: the mobile test enabled one).
    await t.db.delete(secondFactors).where(eq(secondFactors.userId, userId));
    const { app } = await enabled('demo_bank', 'Bank2025');
    const first = await loginByPassword(t, 'demo_bank', 'Bank2025', { ip: '198.51.100.19' });
    await t.db.update(users).set({ status: 'locked' }).where(eq(users.id, userId));
    const refused = await secondStep(t, first.challenge, app.code(), { ip: '198.51.100.19' });
    await t.db.update(users).set({ status: 'active' }).where(eq(users.id, userId));
    expect(refused.answer).toMatchObject({ code: 400, message: '该账户已停用，请联系客服' });
    expect(refused.session).toBeUndefined();
    const [failures] = await t.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `${secondFactorRules.failures.name}:${userId}`));
    expect(failures?.hits ?? 0).toBe(0);
  });
});

describe('limits', () => {
  it('locks code checks for the user after 5 failures in 15 minutes, across pending logins', async () => {
    const { app } = await enabled('demo_editor', 'Editor2025');
    const ip = '198.51.100.16';
    const answers: Envelope[] = [];
    for (let i = 0; i < 5; i++) {
      const first = await loginByPassword(t, 'demo_editor', 'Editor2025', { ip });
      answers.push((await secondStep(t, first.challenge, wrongCode(app), { ip })).answer);
    }
    expect(answers.slice(0, 4).every((answer) => answer.code === 400)).toBe(true);
    expect(answers[4]).toMatchObject({ code: 429, message: '验证码错误次数过多，请 15 分钟后再试' });
    const first = await loginByPassword(t, 'demo_editor', 'Editor2025', { ip });
    const locked = await secondStep(t, first.challenge, app.code(), { ip });
    expect(locked.answer.code).toBe(429);
    expect(locked.session).toBeUndefined();
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'secondFactor.locked'), eq(auditLog.userId, await userIdOf('demo_editor'))));
    expect(audit?.detail).toEqual({ purpose: 'login' });
  });

  it('lets 30 simultaneous wrong codes check at most 5', async () => {
    const { app } = await enabled('demo_partner', 'Partner2025');
    const userId = await userIdOf('demo_partner');
    // Six pending logins (one after the other: simultaneous passwords would meet the captcha rule).
    const pending: FirstStep[] = [];
    for (let i = 0; i < 6; i++)
      pending.push(await loginByPassword(t, 'demo_partner', 'Partner2025', { ip: `198.51.100.${40 + i}` }));
    expect(pending.every((first) => first.challenge !== undefined)).toBe(true);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        secondStep(t, pending[i % 6]!.challenge, wrongCode(app), { ip: `198.51.100.${40 + (i % 6)}` }),
      ),
    );
    expect(answers.every((step) => step.session === undefined)).toBe(true);
    const checked = await t.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.userId, userId), inArray(auditLog.action, ['secondFactor.failed', 'secondFactor.locked'])),
      );
    expect(checked.length).toBeLessThanOrEqual(secondFactorRules.failures.limit);
    expect(answers.filter((step) => step.answer.code === 429).length).toBeGreaterThanOrEqual(25);
  });

  it('counts the second step against the address budget of login', async () => {
    const { app } = await enabled('demo_operator', 'Operator2025');
    const ip = '198.51.100.17';
    const first = await loginByPassword(t, 'demo_operator', 'Operator2025', { ip });
    await t.db.execute(sql`update rate_limits set hits = 30 where key = ${`login.ip:${ip}`}`);
    const refused = await secondStep(t, first.challenge, app.code(), { ip });
    expect(refused.answer).toMatchObject({ code: 429, message: '尝试过于频繁，请 15 分钟后再试' });
    const fromElsewhere = await secondStep(t, first.challenge, app.code(), { ip: '198.51.100.18' });
    expect(fromElsewhere.answer.message).toBe('登录成功！');
    expect(cookies(fromElsewhere.session)).toMatch(/^hgd_sid=/);
  });
});
