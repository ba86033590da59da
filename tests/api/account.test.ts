/** The logged-in user's calls (/api/front/user), each with good and bad input. */
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SessionData, UserInfoData } from '../../src/lib/schemas/account.ts';
import { auditLog, enterprises, smsOutbox, users } from '../../src/server/db/schema/index.ts';
import {
  get,
  lastSmsCode,
  post,
  postForm,
  sessionCookie,
  skipResendPause,
  smsCodeFor,
  consentVersions,
  type Envelope,
} from './accountCalls.ts';
import { createTestApp, openPerFile, sessionIdOf } from './harness.ts';

const t = openPerFile(createTestApp);

const currentUserCode = async (cookie: string) => (await get(t, '/api/front/user/currentUser', { cookie })).code;
const loginAnswer = (userName: string, password: string) => post(t, '/api/front/system/login', { userName, password });

/** Registers a fresh individual user through the API; answers their cookie, id and phone. */
async function newUser(phone: string, name = '测试用户'): Promise<{ cookie: string; id: number; phone: string }> {
  const code = await smsCodeFor(t, phone, 'register');
  const res = await postForm(t, '/api/front/system/register', {
    phone,
    code,
    name,
    password: 'Start2026',
    ...consentVersions(),
  });
  const body = (await res.json()) as Envelope<{ orgId: string }>;
  return { cookie: sessionCookie(res) ?? '', id: Number(body.data.orgId), phone };
}

async function defaultPhoneCode(cookie: string, phone: string, type: 'verify' | 'binding'): Promise<string> {
  await skipResendPause(t);
  const answer = await post(t, '/api/front/user/sendSMSByDefaultPhone', { type }, { cookie });
  expect(answer.code).toBe(200);
  return (await lastSmsCode(t, phone)) ?? '';
}

describe('every call needs a session', () => {
  it.each([
    ['GET', '/api/front/user/getUserInfo'],
    ['POST', '/api/front/user/getUserInfo'],
    ['POST', '/api/front/user/changePwd'],
    ['POST', '/api/front/user/changeUserInfo'],
    ['POST', '/api/front/user/sendSMSByDefaultPhone'],
    ['POST', '/api/front/user/bind'],
    ['GET', '/api/front/user/sessions'],
    ['POST', '/api/front/user/endSession'],
  ])('%s %s answers 901 without one', async (method, path) => {
    const answer = method === 'GET' ? await get(t, path) : await post(t, path, {});
    expect(answer).toEqual({ code: 901, message: '登录已失效，请重新登录', data: {} });
  });
});

describe('getUserInfo', () => {
  it('answers the user with mobile and the bound enterprise', async () => {
    const cookie = await t.login('demo_company');
    const answer = await post<UserInfoData>(t, '/api/front/user/getUserInfo', {}, { cookie });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      userName: 'demo_company',
      name: '李华',
      mobile: '13800138002',
      telephone: '13800138002',
      enterpriseName: '广州明珠精密制造有限公司',
      enterprise: { enterpriseName: '广州明珠精密制造有限公司', clearanceAccount: '0300012345678', authStatus: 2 },
      roles: ['enterprise'],
    });
    expect(answer.data.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(JSON.stringify(answer)).not.toMatch(/argon2|passwordHash/);
    const viaGet = await get<UserInfoData>(t, '/api/front/user/getUserInfo', { cookie });
    expect(viaGet.data).toEqual(answer.data);
  });

  it('answers enterprise null for an individual', async () => {
    const answer = await get<UserInfoData>(t, '/api/front/user/getUserInfo', { cookie: await t.login('demo_person') });
    expect(answer.data).toMatchObject({ enterprise: null, enterpriseName: '', mobile: '13800138001' });
  });
});

describe('changePwd', () => {
  it('needs the current password, ends every other session and renews this one', async () => {
    const user = await newUser('13912370001');
    const other = await t.login('13912370001');
    const res = await postForm(
      t,
      '/api/front/user/changePwd',
      { oldPassword: 'Start2026', newPassword: 'Changed2026' },
      { cookie: user.cookie },
    );
    expect(await res.json()).toEqual({ code: 200, message: '密码修改成功，其他设备已退出登录', data: {} });
    const renewed = sessionCookie(res) ?? '';
    expect(renewed).not.toBe(user.cookie);
    expect(await currentUserCode(renewed)).toBe(200);
    expect(await currentUserCode(user.cookie)).toBe(901);
    expect(await currentUserCode(other)).toBe(901);
    expect((await loginAnswer('13912370001', 'Start2026')).code).toBe(400);
    expect((await loginAnswer('13912370001', 'Changed2026')).code).toBe(200);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.passwordChange'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit?.userId).toBe(user.id);
  });

  it('refuses a wrong current password, the same password and a weak one; nothing changes', async () => {
    const user = await newUser('13912370002');
    const call = (body: Record<string, string>) => post(t, '/api/front/user/changePwd', body, { cookie: user.cookie });
    expect(await call({ oldPassword: 'Wrong2026', newPassword: 'Changed2026' })).toEqual({
      code: 400,
      message: '原密码错误',
      data: {},
    });
    expect(await call({ oldPassword: 'Start2026', newPassword: 'Start2026' })).toMatchObject({
      code: 400,
      message: '新密码不能与原密码相同',
    });
    expect(await call({ oldPassword: 'Start2026', newPassword: 'short1' })).toMatchObject({
      code: 400,
      message: '新密码须在8到64个字符之间',
    });
    expect(await call({ newPassword: 'Changed2026' })).toMatchObject({ code: 400, message: '请输入原密码' });
    expect(await currentUserCode(user.cookie)).toBe(200);
    expect((await loginAnswer('13912370002', 'Start2026')).code).toBe(200);
  });

  it('pauses after 5 wrong current passwords', async () => {
    const user = await newUser('13912370003');
    for (let i = 0; i < 5; i++)
      await post(
        t,
        '/api/front/user/changePwd',
        { oldPassword: `Wrong${i}2026`, newPassword: 'Changed2026' },
        { cookie: user.cookie },
      );
    expect(
      await post(
        t,
        '/api/front/user/changePwd',
        { oldPassword: 'Start2026', newPassword: 'Changed2026' },
        { cookie: user.cookie },
      ),
    ).toMatchObject({
      code: 429,
      message: '尝试过于频繁，请 15 分钟后再试',
    });
  });
});

describe('sendSMSByDefaultPhone', () => {
  it("sends a code to the account's own phone and shows it masked", async () => {
    const cookie = await t.login('demo_partner');
    await skipResendPause(t);
    const answer = await post(
      t,
      '/api/front/user/sendSMSByDefaultPhone',
      { type: 'verify', deviceId: 'hgdweb', appCode: 'HGD' },
      { cookie },
    );
    expect(answer).toEqual({
      code: 200,
      message: '验证码已发出，请稍后查收短信',
      data: { resendSeconds: 60, expiresSeconds: 300, phone: '138****8003' },
    });
    const [sent] = await t.db
      .select()
      .from(smsOutbox)
      .where(eq(smsOutbox.phone, '13800138003'))
      .orderBy(desc(smsOutbox.id))
      .limit(1);
    expect(sent?.purpose).toBe('verify');
  });

  it('rejects an unknown type', async () => {
    const cookie = await t.login('demo_partner');
    expect((await post(t, '/api/front/user/sendSMSByDefaultPhone', { type: 'register' }, { cookie })).code).toBe(400);
  });
});

describe('changeUserInfo', () => {
  it('changes name and email', async () => {
    const user = await newUser('13912370010');
    const answer = await post<UserInfoData>(
      t,
      '/api/front/user/changeUserInfo',
      { name: '新名字', email: 'new@example.cn' },
      { cookie: user.cookie },
    );
    expect(answer).toMatchObject({
      code: 200,
      message: '个人信息已保存',
      data: { name: '新名字', orgName: '新名字', email: 'new@example.cn' },
    });
    expect(
      (await post<UserInfoData>(t, '/api/front/user/changeUserInfo', { email: '' }, { cookie: user.cookie })).data
        .email,
    ).toBe('');
  });

  it('changes the mobile with a code to the new number and one to the current number', async () => {
    const user = await newUser('13912370011');
    const verifyCode = await defaultPhoneCode(user.cookie, user.phone, 'verify');
    const code = await smsCodeFor(t, '13912370012', 'mobile');
    const answer = await post<UserInfoData>(
      t,
      '/api/front/user/changeUserInfo',
      { mobile: '13912370012', code, verifyCode },
      { cookie: user.cookie },
    );
    expect(answer).toMatchObject({
      code: 200,
      data: { mobile: '13912370012', telephone: '13912370012', userName: '13912370011' },
    });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.mobile).toBe('13912370012');
  });

  it('refuses a phone change without both codes, with a wrong one, or to a registered number; nothing changes', async () => {
    const user = await newUser('13912370013');
    const call = (body: Record<string, string>) =>
      post(t, '/api/front/user/changeUserInfo', body, { cookie: user.cookie });
    expect(await call({ mobile: '13912370014', code: '123456' })).toMatchObject({
      code: 400,
      message: '请输入短信验证码',
    });
    const verifyCode = await defaultPhoneCode(user.cookie, user.phone, 'verify');
    expect(await call({ mobile: '13912370014', code: '123456', verifyCode })).toMatchObject({
      code: 400,
      message: '验证码错误或已失效，请重新获取',
    });
    expect(await post(t, '/api/front/system/sendSMS', { phone: '13800138001', type: 'mobile' })).toMatchObject({
      code: 409,
      message: '该手机号已注册',
    });
    expect(await call({})).toMatchObject({ code: 400, message: '请至少修改一项信息' });
    expect(await call({ email: 'not-an-email' })).toMatchObject({ code: 400, message: '邮箱不是有效的邮箱地址' });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.mobile).toBe('13912370013');
  });
});

describe('bind', () => {
  it('links the user to a new enterprise and gives the enterprise role', async () => {
    const user = await newUser('13912370020', '孙丽');
    const code = await defaultPhoneCode(user.cookie, user.phone, 'binding');
    const answer = await post<UserInfoData>(
      t,
      '/api/front/user/bind',
      {
        userId: user.id,
        mobile: user.phone,
        code,
        userName: user.phone,
        clearanceAccount: '0300099990001',
        enterpriseName: '佛山南海陶瓷有限公司',
        deviceId: 'hgdweb',
        appCode: 'HGD',
      },
      { cookie: user.cookie },
    );
    expect(answer).toMatchObject({
      code: 200,
      message: '企业绑定成功',
      data: {
        roles: ['enterprise'],
        enterpriseName: '佛山南海陶瓷有限公司',
        enterprise: { clearanceAccount: '0300099990001', authStatus: 0 },
      },
    });
    const [row] = await t.db.select().from(enterprises).where(eq(enterprises.ownerUserId, user.id));
    expect(row).toMatchObject({
      enterpriseName: '佛山南海陶瓷有限公司',
      contactName: '孙丽',
      contactPhone: user.phone,
      authStatus: 0,
    });
    expect((await get(t, '/api/front/user/currentUser', { cookie: user.cookie })).data).toMatchObject({
      enterpriseName: '佛山南海陶瓷有限公司',
    });
  });

  it("refuses another account's id, name or phone, a taken clearance account, a second binding and bad input", async () => {
    const user = await newUser('13912370021');
    const base = {
      userId: user.id,
      mobile: user.phone,
      userName: user.phone,
      clearanceAccount: '0300099990002',
      enterpriseName: '东莞长安电子厂',
    };
    const call = (body: Record<string, string | number>) =>
      post(t, '/api/front/user/bind', body, { cookie: user.cookie });
    const notYours = { code: 403, message: '只能绑定当前登录的账户', data: {} };
    expect(await call({ ...base, code: '123456', userId: user.id + 1000 })).toEqual(notYours);
    expect(await call({ ...base, code: '123456', userName: 'demo_person' })).toEqual(notYours);
    expect(await call({ ...base, code: '123456', mobile: '13800138001' })).toEqual(notYours);
    expect(await call({ ...base, code: '123456', clearanceAccount: '12' })).toMatchObject({
      code: 400,
      message: '结算户号格式不正确',
    });
    expect(await call({ ...base, code: '123456', enterpriseName: '' })).toMatchObject({
      code: 400,
      message: '请输入企业名称',
    });
    let code = await defaultPhoneCode(user.cookie, user.phone, 'binding');
    expect(await call({ ...base, code, clearanceAccount: '0300012345678' })).toEqual({
      code: 409,
      message: '该结算户号已被其他账户绑定',
      data: {},
    });
    // The refused bind rolled back, so its code is still good.
    expect((await call({ ...base, code })).code).toBe(200);
    code = await defaultPhoneCode(user.cookie, user.phone, 'binding');
    expect(await call({ ...base, code, clearanceAccount: '0300099990003' })).toEqual({
      code: 409,
      message: '当前账户已绑定企业',
      data: {},
    });
    expect(await t.db.select().from(enterprises).where(eq(enterprises.ownerUserId, user.id))).toHaveLength(1);
  });
});

describe('sessions', () => {
  it("lists the user's live sessions with the current one marked, and ends one", async () => {
    const user = await newUser('13912370030');
    const phoneRes = await t.app.request('/api/front/system/login', {
      method: 'POST',
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        Origin: 'http://localhost',
        'Content-Type': 'application/x-www-form-urlencoded',
        'User-Agent':
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      },
      body: 'userName=13912370030&password=Start2026',
    });
    const phone = sessionCookie(phoneRes) ?? '';
    const list = await get<SessionData[]>(t, '/api/front/user/sessions', { cookie: user.cookie });
    expect(list.code).toBe(200);
    expect(list.data).toHaveLength(2);
    const mine = list.data.find((s) => s.current);
    const theirs = list.data.find((s) => !s.current);
    expect(mine?.id).toMatch(/^[0-9a-f]{16}$/);
    expect(theirs?.device).toBe('Mobile Chrome 126 · Android 14');
    expect(JSON.stringify(list)).not.toContain(sessionIdOf(user.cookie));
    expect(JSON.stringify(list)).not.toContain(user.cookie.split('=')[1]);

    const ended = await post<SessionData[]>(
      t,
      '/api/front/user/endSession',
      { id: theirs?.id ?? '' },
      { cookie: user.cookie },
    );
    expect(ended).toMatchObject({ code: 200, message: '已结束该登录会话' });
    expect(ended.data).toHaveLength(1);
    expect(await currentUserCode(phone)).toBe(901);
    expect(await currentUserCode(user.cookie)).toBe(200);
  });

  it('ends the current session and clears its cookie', async () => {
    const cookie = await t.login('demo_person');
    const list = await get<SessionData[]>(t, '/api/front/user/sessions', { cookie });
    const current = list.data.find((s) => s.current);
    const res = await postForm(t, '/api/front/user/endSession', { id: current?.id ?? '' }, { cookie });
    expect(await res.json()).toEqual({ code: 200, message: '已结束该登录会话', data: [] });
    expect(sessionCookie(res)).toBeUndefined();
    expect(await currentUserCode(cookie)).toBe(901);
  });

  it("answers 404 for another user's or an unknown session and 400 for a malformed id", async () => {
    const mine = await t.login('demo_person');
    const theirs = await t.login('demo_partner');
    const theirList = await get<SessionData[]>(t, '/api/front/user/sessions', { cookie: theirs });
    const id = theirList.data.find((s) => s.current)?.id ?? '';
    expect(await post(t, '/api/front/user/endSession', { id }, { cookie: mine })).toEqual({
      code: 404,
      message: '记录不存在',
      data: {},
    });
    expect(await currentUserCode(theirs)).toBe(200);
    expect((await post(t, '/api/front/user/endSession', { id: 'xyz' }, { cookie: mine })).code).toBe(400);
  });
});
