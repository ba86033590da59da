/** The visitor-side account calls (/api/front/system), each with good and bad input. */
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, captchas, sessions, users } from '../../src/server/db/schema/index.ts';
import { hashCaptchaToken } from '../../src/server/services/captcha.ts';
import {
  cookies,
  get,
  knownCaptcha,
  lastSmsCode,
  outboxCount,
  post,
  postForm,
  sessionCookie,
  skipResendPause,
  smsCodeFor,
  consentVersions,
  type Envelope,
} from './accountCalls.ts';
import { apiHeaders, createTestApp, openPerFile, sessionCookieFrom, sessionIdOf } from './harness.ts';

const t = openPerFile(createTestApp);

const login = (body: Record<string, string>, cookie?: string) =>
  postForm(t, '/api/front/system/login', body, cookie ? { cookie } : {});
const currentUserCode = async (cookie: string) => (await get(t, '/api/front/user/currentUser', { cookie })).code;
const sessionCount = async () => (await t.db.select().from(sessions)).length;

describe('POST /api/front/system/login', () => {
  it('logs in by account: 登录成功！, the current user, a fresh HttpOnly session cookie, an audit line', async () => {
    const res = await login({ userName: 'demo_person', password: 'Person2025', deviceId: 'hgdweb', appCode: 'hgd' });
    const body = (await res.json()) as Envelope;
    expect(body.code).toBe(200);
    expect(body.message).toBe('登录成功！');
    expect(body.data).toMatchObject({
      userName: 'demo_person',
      orgName: '张明',
      telephone: '13800138001',
      roles: ['individual'],
    });
    const cookie = sessionCookieFrom(res);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toMatch(/HttpOnly/i);
    expect(cookie?.attributes).toMatch(/SameSite=Lax/i);
    expect(await currentUserCode(`hgd_sid=${cookie?.value}`)).toBe(200);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'session.login'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit?.detail).toEqual({ method: 'account', deviceId: 'hgdweb', secondFactor: false });
  });

  it("answers in the caller's locale and takes the name in any case, and JSON bodies", async () => {
    const res = await t.app.request('/api/front/system/login', {
      method: 'POST',
      headers: apiHeaders({ 'Content-Type': 'application/json', 'Accept-Language': 'en-US' }),
      body: JSON.stringify({ userName: 'DEMO_Partner', password: 'Partner2025' }),
    });
    expect(await res.json()).toMatchObject({
      code: 200,
      message: 'Logged in successfully!',
      data: { userName: 'demo_partner' },
    });
  });

  it('refuses a wrong password and an unknown name with the same answer, and no session', async () => {
    const before = await sessionCount();
    const wrong = await (await login({ userName: 'demo_operator', password: 'Wrong2025' })).json();
    const unknown = await (await login({ userName: 'nobody_here', password: 'Wrong2025' })).json();
    expect(wrong).toEqual({ code: 400, message: '用户名或密码错误', data: { captchaRequired: false } });
    expect(unknown).toEqual(wrong);
    expect(await sessionCount()).toBe(before);
  });

  it('rejects bad input with a localized 400 and changes nothing', async () => {
    const before = await sessionCount();
    expect(await post(t, '/api/front/system/login', { password: 'Person2025' })).toMatchObject({
      code: 400,
      message: '请输入用户名',
    });
    expect(await post(t, '/api/front/system/login', { userName: 'demo_person', password: '' })).toMatchObject({
      code: 400,
      message: '请输入密码',
    });
    const appCode = await post(t, '/api/front/system/login', {
      userName: 'demo_person',
      password: 'Person2025',
      appCode: 'HGD',
    });
    expect(appCode.code).toBe(400);
    expect(appCode.message).toContain('hgd');
    const captcha = await post(t, '/api/front/system/login', {
      userName: 'demo_person',
      password: 'Person2025',
      captcha: '12',
    });
    expect(captcha).toMatchObject({ code: 400, message: '图形验证码格式不正确' });
    expect(await sessionCount()).toBe(before);
  });

  it('requires the captcha after two failures, checks it, and uses each image once', async () => {
    const name = 'demo_partner';
    for (let i = 0; i < 2; i++) await login({ userName: name, password: 'Wrong2025' });
    expect(await (await login({ userName: name, password: 'Partner2025' })).json()).toEqual({
      code: 400,
      message: '请输入图形验证码',
      data: { captchaRequired: true },
    });
    const wrongCaptcha = await knownCaptcha(t, 'Ab3d');
    expect(
      await (await login({ userName: name, password: 'Partner2025', captcha: 'zzzz' }, wrongCaptcha)).json(),
    ).toMatchObject({
      code: 400,
      message: '图形验证码错误或已失效，请点击图片刷新',
    });
    // That image is used up: its right answer no longer works either.
    expect(
      (
        (await (
          await login({ userName: name, password: 'Partner2025', captcha: 'Ab3d' }, wrongCaptcha)
        ).json()) as Envelope
      ).message,
    ).toBe('图形验证码错误或已失效，请点击图片刷新');
    const good = await knownCaptcha(t, 'Ab3d');
    const res = await login({ userName: name, password: 'Partner2025', captcha: 'aB3D' }, good);
    expect(((await res.json()) as Envelope).code).toBe(200);
    // The captcha cookie is dropped with the try, and the failures are forgotten.
    expect(res.headers.getSetCookie().some((line) => /^hgd_captcha=;/.test(line))).toBe(true);
    expect(((await (await login({ userName: name, password: 'Partner2025' })).json()) as Envelope).code).toBe(200);
  });

  it('refuses an expired captcha', async () => {
    const cookie = await knownCaptcha(t, 'Xy7k');
    const token = cookie.split('=')[1] ?? '';
    await t.db
      .update(captchas)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(captchas.id, hashCaptchaToken(token)));
    expect(
      (
        (await (
          await login({ userName: 'demo_person', password: 'Person2025', captcha: 'Xy7k' }, cookie)
        ).json()) as Envelope
      ).message,
    ).toBe('图形验证码错误或已失效，请点击图片刷新');
  });

  it('refuses a disabled account only once the password is right', async () => {
    await t.db.update(users).set({ status: 'locked' }).where(eq(users.userName, 'demo_operator'));
    try {
      expect(
        await post(t, '/api/front/system/login', { userName: 'demo_operator', password: 'Operator2025' }),
      ).toMatchObject({
        code: 400,
        message: '该账户已停用，请联系客服',
      });
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.userName, 'demo_operator'));
    }
  });
});

describe('GET /api/front/system/captcha-image', () => {
  it('answers a PNG image, sets an HttpOnly captcha cookie and stores only hashes', async () => {
    const res = await t.app.request('/api/front/system/captcha-image?t=1700000000000');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const png = Buffer.from(await res.arrayBuffer());
    // The PNG signature, then the IHDR chunk: 240 × 80 pixels (shown at 120 × 40).
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([240, 80]);
    const line = res.headers.getSetCookie().find((value) => value.startsWith('hgd_captcha=')) ?? '';
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\/api\/front\/system/i);
    expect(line).toMatch(/Max-Age=120/i);
    const token = line.split(';')[0]?.split('=')[1] ?? '';
    const [row] = await t.db
      .select()
      .from(captchas)
      .where(eq(captchas.id, hashCaptchaToken(token)));
    expect(row?.answerHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await t.db.select().from(captchas))).not.toContain(token);
  });

  it('draws a different image each time', async () => {
    const a = Buffer.from(await (await t.app.request('/api/front/system/captcha-image')).arrayBuffer());
    const b = Buffer.from(await (await t.app.request('/api/front/system/captcha-image')).arrayBuffer());
    expect(a.equals(b)).toBe(false);
  });

  it('rejects an over-long cache buster', async () => {
    const res = await t.app.request(`/api/front/system/captcha-image?t=${'9'.repeat(40)}`);
    expect(((await res.json()) as Envelope).code).toBe(400);
  });
});

describe('POST /api/front/system/sendSMS', () => {
  it('sends a code to a registered phone for login: 验证码已发出，请稍后查收短信', async () => {
    const answer = await post(t, '/api/front/system/sendSMS', {
      phone: '13800138004',
      type: 'login',
      deviceId: 'hgdweb',
      appCode: 'HGD',
    });
    expect(answer).toEqual({
      code: 200,
      message: '验证码已发出，请稍后查收短信',
      data: { resendSeconds: 60, expiresSeconds: 300 },
    });
    expect(await lastSmsCode(t, '13800138004')).toMatch(/^\d{6}$/);
  });

  it('refuses register for a registered phone, and sends for a new one', async () => {
    expect(await post(t, '/api/front/system/sendSMS', { phone: '13800138001', type: 'register' })).toMatchObject({
      code: 409,
      message: '该手机号已注册',
    });
    expect(await outboxCount(t, '13800138001')).toBe(0);
    expect((await post(t, '/api/front/system/sendSMS', { phone: '13912340001', type: 'register' })).code).toBe(200);
    expect(await outboxCount(t, '13912340001')).toBe(1);
  });

  it('rejects a bad phone, a bad type and a wrong app code', async () => {
    expect(await post(t, '/api/front/system/sendSMS', { phone: '1380013800', type: 'login' })).toMatchObject({
      code: 400,
      message: '手机号格式不正确',
    });
    expect((await post(t, '/api/front/system/sendSMS', { phone: '13800138001', type: 'verify' })).code).toBe(400);
    expect((await post(t, '/api/front/system/sendSMS', { phone: '13800138001' })).message).toBe('请输入该字段');
    expect(
      (await post(t, '/api/front/system/sendSMS', { phone: '13800138001', type: 'login', appCode: 'hgd' })).code,
    ).toBe(400);
  });
});

describe('POST /api/front/system/loginMobile', () => {
  it('logs in with an SMS code, once', async () => {
    await skipResendPause(t);
    const code = await smsCodeFor(t, '13800138003', 'login');
    const res = await postForm(t, '/api/front/system/loginMobile', {
      phone: '13800138003',
      code,
      deviceId: 'hgdweb',
      appCode: 'HGD',
    });
    const body = (await res.json()) as Envelope;
    expect(body).toMatchObject({ code: 200, message: '登录成功！', data: { userName: 'demo_partner' } });
    const cookie = sessionCookie(res);
    expect(cookie).toBeDefined();
    expect(await currentUserCode(cookie ?? '')).toBe(200);
    expect(await post(t, '/api/front/system/loginMobile', { phone: '13800138003', code })).toMatchObject({
      code: 400,
      message: '验证码错误或已失效，请重新获取',
    });
  });

  it('rejects bad input', async () => {
    expect(await post(t, '/api/front/system/loginMobile', { phone: '13800138003' })).toMatchObject({
      code: 400,
      message: '请输入短信验证码',
    });
    expect(await post(t, '/api/front/system/loginMobile', { phone: '23800138003', code: '123456' })).toMatchObject({
      code: 400,
      message: '手机号格式不正确',
    });
    expect(await post(t, '/api/front/system/loginMobile', { phone: '13800138003', code: '12345a' })).toMatchObject({
      code: 400,
      message: '短信验证码格式不正确',
    });
  });
});

describe('POST /api/front/system/register', () => {
  const phone = '13912340002';

  it('registers with phone, code, name and password: 注册成功, logged in, phone as user name', async () => {
    const code = await smsCodeFor(t, phone, 'register');
    const res = await postForm(t, '/api/front/system/register', {
      phone,
      code,
      name: '周晓',
      password: 'Register2026',
      deviceId: 'hgdweb',
      appCode: 'HGD',
      ...consentVersions(),
    });
    const body = (await res.json()) as Envelope;
    expect(body).toMatchObject({
      code: 200,
      message: '注册成功',
      data: { userName: phone, orgName: '周晓', telephone: phone, roles: ['individual'], enterpriseName: '' },
    });
    expect(await currentUserCode(sessionCookie(res) ?? '')).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.mobile, phone));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(
      ((await (await login({ userName: phone, password: 'Register2026', ...consentVersions() })).json()) as Envelope)
        .code,
    ).toBe(200);
  });

  it('rejects a registered phone, a wrong code, a weak password and a missing name; creates nothing', async () => {
    const other = '13912340003';
    const code = await smsCodeFor(t, other, 'register');
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      await post(t, '/api/front/system/register', {
        phone: other,
        code: wrong,
        name: '吴',
        password: 'Register2026',
        ...consentVersions(),
      }),
    ).toMatchObject({
      code: 400,
      message: '验证码错误或已失效，请重新获取',
    });
    expect(
      await post(t, '/api/front/system/register', {
        phone: other,
        code,
        name: '吴',
        password: 'onlyletters',
        ...consentVersions(),
      }),
    ).toMatchObject({
      code: 400,
      message: '密码须同时包含字母和数字',
    });
    expect(
      await post(t, '/api/front/system/register', {
        phone: other,
        code,
        password: 'Register2026',
        ...consentVersions(),
      }),
    ).toMatchObject({ code: 400, message: '请输入姓名' });
    expect(
      await post(t, '/api/front/system/register', {
        phone: other,
        code,
        name: '吴',
        password: 'Ab1',
        ...consentVersions(),
      }),
    ).toMatchObject({
      code: 400,
      message: '密码须在8到64个字符之间',
    });
    expect(await t.db.select().from(users).where(eq(users.mobile, other))).toHaveLength(0);
    // The right code still works after those refusals (none of them used it).
    expect(
      (
        await post(t, '/api/front/system/register', {
          phone: other,
          code,
          name: '吴',
          password: 'Register2026',
          ...consentVersions(),
        })
      ).code,
    ).toBe(200);
    expect(
      await post(t, '/api/front/system/register', {
        phone: other,
        code,
        name: '吴',
        password: 'Register2026',
        ...consentVersions(),
      }),
    ).toMatchObject({ code: 400 });
  });
});

describe('POST /api/front/system/resetpassword', () => {
  it('sets a new password with an SMS code: 重置密码成功, and every session of the account ends', async () => {
    const phone = '13800138004';
    const before = await t.login('demo_operator');
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'modify');
    const res = await postForm(
      t,
      '/api/front/system/resetpassword',
      { phone, code, newPassword: 'Maple-Orbit-58', deviceId: 'hgdweb', appCode: 'HGD' },
      { cookie: before },
    );
    expect(await res.json()).toEqual({ code: 200, message: '重置密码成功', data: {} });
    expect(sessionCookieFrom(res)?.value).toBe('');
    expect(await currentUserCode(before)).toBe(901);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(before)));
    expect(row?.revokedAt).toBeInstanceOf(Date);
    expect(
      ((await (await login({ userName: 'demo_operator', password: 'Operator2025' })).json()) as Envelope).code,
    ).toBe(400);
    expect(
      ((await (await login({ userName: 'demo_operator', password: 'Maple-Orbit-58' })).json()) as Envelope).code,
    ).toBe(200);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.passwordReset'), eq(auditLog.userId, row?.userId ?? 0)));
    expect(audit).toBeDefined();
  });

  it('rejects a wrong code and a weak password; the password stays', async () => {
    const phone = '13800138001';
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'modify');
    const wrong = code === '000000' ? '111111' : '000000';
    expect(
      await post(t, '/api/front/system/resetpassword', { phone, code: wrong, newPassword: 'Person2026' }),
    ).toMatchObject({ code: 400, message: '验证码错误或已失效，请重新获取' });
    expect(await post(t, '/api/front/system/resetpassword', { phone, code, newPassword: '12345678' })).toMatchObject({
      code: 400,
      message: '新密码须同时包含字母和数字',
    });
    expect(await post(t, '/api/front/system/resetpassword', { phone, code })).toMatchObject({
      code: 400,
      message: '请输入新密码',
    });
    expect(((await (await login({ userName: 'demo_person', password: 'Person2025' })).json()) as Envelope).code).toBe(
      200,
    );
  });
});

describe('GET /api/front/system/checkphonenum', () => {
  it('says whether a phone is registered', async () => {
    expect((await get(t, '/api/front/system/checkphonenum?phone=13800138002')).data).toEqual({ registered: true });
    expect((await get(t, '/api/front/system/checkphonenum?phone=13912349999')).data).toEqual({ registered: false });
    expect((await get(t, '/api/front/system/checkphonenum?phone=abc')).code).toBe(400);
  });
});

describe('login replaces the session the browser came with', () => {
  it('revokes the old session on login as someone else', async () => {
    const old = await t.login('demo_person');
    const res = await login({ userName: 'demo_company', password: 'Company2025' }, old);
    expect(((await res.json()) as Envelope).code).toBe(200);
    expect(await currentUserCode(old)).toBe(901);
    expect(await currentUserCode(cookies(sessionCookie(res)))).toBe(200);
  });
});
