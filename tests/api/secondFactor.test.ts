/**
 * Two-step verification in account settings (docs/accounts.md): enrolling (password, secret
 * stored encrypted, QR code), confirming with a first code, recovery codes (shown once, stored
 * keyed), a code's time step used once, verifying a session, turning it off and new recovery codes.
 */
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type {
  RecoveryCodesData,
  SecondFactorEnrolmentData,
  SecondFactorStatusData,
} from '../../src/lib/schemas/secondFactor.ts';
import { auditLog, notices, recoveryCodes, secondFactors, sessions, users } from '../../src/server/db/schema/index.ts';
import { decryptSecret } from '../../src/server/services/secondFactor.ts';
import { get, post, type Envelope } from './accountCalls.ts';
import { createTestApp, openPerFile, sessionIdOf } from './harness.ts';
import {
  authenticatorOf,
  enableSecondFactor,
  forgetUsedStep,
  loginByPassword,
  secondStep,
  wrongCode,
} from './secondFactorCalls.ts';

const t = openPerFile(createTestApp);

async function userIdOf(userName: string): Promise<number> {
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return row!.id;
}

const status = async (cookie: string) =>
  (await get<SecondFactorStatusData>(t, '/api/front/user/secondFactor', { cookie })).data;

describe('enrolling', () => {
  it('needs the password, stores the secret encrypted and answers the URI, the manual key and a QR code', async () => {
    const cookie = await t.login('demo_person');
    const userId = await userIdOf('demo_person');
    expect(await status(cookie)).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
      required: false,
      sessionVerified: false,
    });

    const wrong = await post(t, '/api/front/user/enrolSecondFactor', { password: 'NotMine2025' }, { cookie });
    expect(wrong).toEqual({
      code: 400,
      message: '密码错误',
      data: { errors: [{ field: 'password', message: '密码错误' }] },
    });
    expect(await t.db.select().from(secondFactors).where(eq(secondFactors.userId, userId))).toHaveLength(0);
    const missing = await post(t, '/api/front/user/enrolSecondFactor', {}, { cookie });
    expect(missing.code).toBe(400);

    const enrolled = await post<SecondFactorEnrolmentData>(
      t,
      '/api/front/user/enrolSecondFactor',
      { password: 'Person2025' },
      { cookie },
    );
    expect(enrolled.code).toBe(200);
    const { otpauthUri, manualKey, qrCode } = enrolled.data;
    expect(manualKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/);
    const secret = manualKey.replace(/ /g, '');
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('汇购电');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(',')[1]!, 'base64').toString()).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);

    const [row] = await t.db.select().from(secondFactors).where(eq(secondFactors.userId, userId));
    expect(row?.confirmedAt).toBeNull();
    expect(row?.secretEncrypted).not.toContain(secret);
    const keys = await t.keys();
    expect(decryptSecret(keys.secondFactorSecrets, userId, row!.secretEncrypted)).toBe(secret);
    // Sealed to this user: the same value under another user's id does not open.
    expect(() => decryptSecret(keys.secondFactorSecrets, userId + 1, row!.secretEncrypted)).toThrow();
    // Nothing is asked at login until the factor is confirmed.
    expect((await loginByPassword(t, 'demo_person', 'Person2025')).answer.message).toBe('登录成功！');
  });

  it('confirms with the first code only: 10 recovery codes once, the session proved, audited and noticed', async () => {
    const cookie = await t.login('demo_company');
    const userId = await userIdOf('demo_company');
    expect((await post(t, '/api/front/user/confirmSecondFactor', { totpCode: '123456' }, { cookie })).code).toBe(409);

    const enrolled = await post<SecondFactorEnrolmentData>(
      t,
      '/api/front/user/enrolSecondFactor',
      { password: 'Company2025' },
      { cookie },
    );
    const app = authenticatorOf(enrolled.data.manualKey);
    const wrong = await post(t, '/api/front/user/confirmSecondFactor', { totpCode: wrongCode(app) }, { cookie });
    expect(wrong.code).toBe(400);
    expect(wrong.data).toEqual({ errors: [{ field: 'totpCode', message: wrong.message }] });
    const malformed = await post(t, '/api/front/user/confirmSecondFactor', { totpCode: '12a456' }, { cookie });
    expect(malformed).toMatchObject({ code: 400, message: '动态验证码格式不正确' });
    expect((await status(cookie)).enabled).toBe(false);

    const confirmed = await post<RecoveryCodesData>(
      t,
      '/api/front/user/confirmSecondFactor',
      { totpCode: app.code() },
      { cookie },
    );
    expect(confirmed.code).toBe(200);
    expect(confirmed.message).toBe('两步验证已启用');
    const codes = confirmed.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    const stored = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.some((code) => row.codeHash.includes(code.replace('-', '')))).toBe(false);
    }
    expect(await status(cookie)).toMatchObject({ enabled: true, recoveryCodesLeft: 10, sessionVerified: true });
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(cookie)));
    expect(session?.secondFactorAt).toBeInstanceOf(Date);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, userId), eq(auditLog.action, 'secondFactor.enable')));
    expect(audit).toBeDefined();
    const [notice] = await t.db
      .select()
      .from(notices)
      .where(eq(notices.userId, userId))
      .orderBy(desc(notices.id))
      .limit(1);
    expect(notice?.title).toBe('两步验证已启用');

    // Enabled: neither a second enrolment nor a second confirmation.
    expect((await post(t, '/api/front/user/enrolSecondFactor', { password: 'Company2025' }, { cookie })).code).toBe(
      409,
    );
    await forgetUsedStep(t, 'demo_company');
    expect((await post(t, '/api/front/user/confirmSecondFactor', { totpCode: app.code() }, { cookie })).code).toBe(409);
  });
});

describe('codes', () => {
  it('accepts a time step once: the same code, or an earlier one, is refused after it', async () => {
    const cookie = await t.login('demo_foshan');
    const { app } = await enableSecondFactor(t, cookie, 'Foshan2025');
    await forgetUsedStep(t, 'demo_foshan');
    const verify = (code: string) =>
      post(t, '/api/front/user/verifySecondFactor', { secondFactorCode: code }, { cookie });

    expect((await verify(app.code())).code).toBe(200);
    const replay = await verify(app.code());
    expect(replay).toMatchObject({ code: 400, message: '动态验证码或恢复码错误' });
    expect(replay.data).toEqual({ errors: [{ field: 'secondFactorCode', message: '动态验证码或恢复码错误' }] });
    expect((await verify(app.code(-1))).code).toBe(400);
    // The next step's code is new.
    expect((await verify(app.code(1))).code).toBe(200);
    // Two steps away is outside the window.
    await forgetUsedStep(t, 'demo_foshan');
    expect((await verify(app.code(3))).code).toBe(400);
  });

  it('lets two requests with one code use it once', async () => {
    const cookie = await t.login('demo_shenzhen');
    const { app } = await enableSecondFactor(t, cookie, 'Shenzhen2025');
    await forgetUsedStep(t, 'demo_shenzhen');
    const code = app.code();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(t, '/api/front/user/verifySecondFactor', { secondFactorCode: code }, { cookie }),
      ),
    );
    expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
  });
});

describe('verifying a session', () => {
  it('proves the factor in a session begun before it was enabled', async () => {
    const older = await t.login('demo_editor');
    const cookie = await t.login('demo_editor');
    const { app } = await enableSecondFactor(t, cookie, 'Editor2025');
    expect((await status(older)).sessionVerified).toBe(false);
    await forgetUsedStep(t, 'demo_editor');
    const verified = await post(
      t,
      '/api/front/user/verifySecondFactor',
      { secondFactorCode: app.code() },
      { cookie: older },
    );
    expect(verified).toEqual({ code: 200, message: '已确认本次登录', data: {} });
    expect((await status(older)).sessionVerified).toBe(true);
    // Without a factor there is nothing to verify.
    const person = await t.login('demo_bank');
    expect(
      (await post(t, '/api/front/user/verifySecondFactor', { secondFactorCode: '123456' }, { cookie: person })).code,
    ).toBe(409);
  });
});

describe('recovery codes', () => {
  it('signs in with one once; new ones replace the old after a proof', async () => {
    const cookie = await t.login('demo_partner');
    const userId = await userIdOf('demo_partner');
    const { app, recoveryCodes: codes } = await enableSecondFactor(t, cookie, 'Partner2025');

    const first = await loginByPassword(t, 'demo_partner', 'Partner2025');
    // Typed as people type them: upper case, no hyphen.
    const signedIn = await secondStep(t, first.challenge, codes[0]!.replace('-', '').toUpperCase());
    expect(signedIn.answer.message).toBe('登录成功！');
    const [notice] = await t.db
      .select()
      .from(notices)
      .where(eq(notices.userId, userId))
      .orderBy(desc(notices.id))
      .limit(1);
    expect(notice?.description).toContain('还剩 9 个');
    const again = await loginByPassword(t, 'demo_partner', 'Partner2025');
    expect((await secondStep(t, again.challenge, codes[0]!)).answer.code).toBe(400);
    expect((await status(cookie)).recoveryCodesLeft).toBe(9);

    const regenerate = (body: Record<string, string>) =>
      post<RecoveryCodesData>(t, '/api/front/user/regenerateRecoveryCodes', body, { cookie });
    expect((await regenerate({})).code).toBe(400);
    expect((await regenerate({ password: 'Wrong2025' })).data).toEqual({
      errors: [{ field: 'password', message: '密码错误' }],
    });
    await forgetUsedStep(t, 'demo_partner');
    const fresh = await regenerate({ secondFactorCode: app.code() });
    expect(fresh.code).toBe(200);
    expect(fresh.message).toBe('已生成新的恢复码，原有恢复码已失效');
    expect(fresh.data.recoveryCodes).toHaveLength(10);
    expect((await status(cookie)).recoveryCodesLeft).toBe(10);
    const old = await loginByPassword(t, 'demo_partner', 'Partner2025');
    expect((await secondStep(t, old.challenge, codes[1]!)).answer.code).toBe(400);
    expect((await secondStep(t, old.challenge, fresh.data.recoveryCodes[0]!)).answer.message).toBe('登录成功！');
  });
});

describe('a session that has not proved the factor', () => {
  it('cannot change it with the password alone: new recovery codes or turning it off need a code', async () => {
    const enrolled = await t.login('demo_operator');
    const { app } = await enableSecondFactor(t, enrolled, 'Operator2025');
    // A session begun before the factor was enabled (or one whose password was stolen).
    const unproved = await t.login('demo_operator');
    const needed = {
      errors: [
        { field: 'secondFactorCode', message: '本次登录尚未验证两步验证：请输入动态验证码或恢复码，密码不能代替' },
      ],
    };
    const regenerate = await post<RecoveryCodesData>(
      t,
      '/api/front/user/regenerateRecoveryCodes',
      { password: 'Operator2025' },
      { cookie: unproved },
    );
    expect(regenerate).toMatchObject({ code: 400, data: needed });
    expect(
      (await post(t, '/api/front/user/disableSecondFactor', { password: 'Operator2025' }, { cookie: unproved })).data,
    ).toEqual(needed);
    expect((await status(unproved)).enabled).toBe(true);
    await forgetUsedStep(t, 'demo_operator');
    expect(
      (await post(t, '/api/front/user/regenerateRecoveryCodes', { secondFactorCode: app.code() }, { cookie: unproved }))
        .code,
    ).toBe(200);
    // The session that enrolled has proved it: its password still counts.
    expect(
      (await post(t, '/api/front/user/disableSecondFactor', { password: 'Operator2025' }, { cookie: enrolled })).code,
    ).toBe(200);
  });
});

describe('turning it off', () => {
  it('needs a code or the password, drops the recovery codes, and logins ask for no code again', async () => {
    const cookie = await t.login('demo_bank');
    const userId = await userIdOf('demo_bank');
    expect((await post(t, '/api/front/user/disableSecondFactor', { password: 'Bank2025' }, { cookie })).code).toBe(409);
    const { app } = await enableSecondFactor(t, cookie, 'Bank2025');
    const disable = (body: Record<string, string>) => post(t, '/api/front/user/disableSecondFactor', body, { cookie });

    expect((await disable({ secondFactorCode: '' })).code).toBe(400);
    expect((await disable({ password: 'Wrong2025' })).code).toBe(400);
    expect((await disable({ secondFactorCode: wrongCode(app) })).code).toBe(400);
    expect((await status(cookie)).enabled).toBe(true);
    expect(await disable({ password: 'Bank2025' })).toEqual({ code: 200, message: '两步验证已关闭', data: {} });
    expect(await t.db.select().from(secondFactors).where(eq(secondFactors.userId, userId))).toHaveLength(0);
    expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId))).toHaveLength(0);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, userId), eq(auditLog.action, 'secondFactor.disable')));
    expect(audit).toBeDefined();
    const [notice] = await t.db
      .select()
      .from(notices)
      .where(eq(notices.userId, userId))
      .orderBy(desc(notices.id))
      .limit(1);
    expect(notice?.title).toBe('两步验证已关闭');
    expect((await loginByPassword(t, 'demo_bank', 'Bank2025')).answer.message).toBe('登录成功！');

    // And with a code instead of the password.
    const again = await enableSecondFactor(t, cookie, 'Bank2025');
    await forgetUsedStep(t, 'demo_bank');
    expect((await disable({ secondFactorCode: again.app.code() })).code).toBe(200);
  });
});

describe('answers', () => {
  it('every call needs a session', async () => {
    for (const path of [
      '/api/front/user/enrolSecondFactor',
      '/api/front/user/confirmSecondFactor',
      '/api/front/user/disableSecondFactor',
    ]) {
      expect(((await post(t, path, {})) as Envelope).code).toBe(901);
    }
    expect((await get(t, '/api/front/user/secondFactor')).code).toBe(901);
  });
});
