/**
 * Staff passwords (services/staffPasswords.ts; docs/accounts.md "Staff passwords"): at least 12
 * characters and not guessable, none of the last five, replaced after STAFF_PASSWORD_MAX_AGE_DAYS
 * (the sign-in refused by either factor until a reset by SMS), and a new staff member's old
 * password counted as expired — through every call that sets a password, each refusal at its
 * field with nothing written. Accounts without a staff role keep the shared rule.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import { users } from '../../src/server/db/schema/index.ts';
import { verifyPassword } from '../../src/server/password.ts';
import { createStaffAccount, grantRole, type StaffActor } from '../../src/server/services/staffAccounts.ts';
import { post, skipResendPause, smsCodeFor, type Envelope } from './accountCalls.ts';
import { createTestApp, openPerFile, type TestApp } from './harness.ts';
import { insertUser } from './partnerFixtures.ts';

const t = openPerFile(() => createTestApp());
const never = openPerFile(() => createTestApp({ env: { STAFF_PASSWORD_MAX_AGE_DAYS: '0' } }));
const cli: StaffActor = { userId: null, ip: null, locale: 'zh-CN', via: 'cli' };
const device = { deviceId: 'hgdweb' };

const strong = [
  'Lime-Kettle-2046',
  'Tide-Lantern-31',
  'Maple-Orbit-58',
  'Cobalt-Fern-64',
  'Quartz-Willow-72',
  'Ember-Sable-85',
];

async function userRow(app: TestApp, userName: string) {
  const [row] = await app.db.select().from(users).where(eq(users.userName, userName));
  if (!row) throw new Error(`no user ${userName}`);
  return row;
}

function login(app: TestApp, userName: string, password: string): Promise<Envelope> {
  return post(app, '/api/front/system/login', { userName, password, ...device });
}

async function changePassword(app: TestApp, userName: string, oldPassword: string, newPassword: string) {
  return post(
    app,
    '/api/front/user/changePwd',
    { oldPassword, newPassword, ...device },
    {
      cookie: await app.login(userName),
    },
  );
}

function fieldRefusal(message: string, field = 'newPassword') {
  return { code: ApiCode.BAD_REQUEST, message, data: { errors: [{ field, message }] } };
}

describe('setting a staff password', () => {
  it('refuses one shorter than 12 characters, a guessable one and one of the last five; nothing changes', async () => {
    const before = await userRow(t, 'demo_admin');
    expect(await changePassword(t, 'demo_admin', 'Admin2025', 'Admin2025ab')).toEqual(
      fieldRefusal('员工账户的密码至少需要 12 个字符'),
    );
    for (const guessable of ['qwertyuiop12', 'Password2025!', 'demo_admin2025', '13800138009ab']) {
      expect(await changePassword(t, 'demo_admin', 'Admin2025', guessable), guessable).toEqual(
        fieldRefusal('密码过于常见或容易被猜到（例如常用词、键盘顺序、用户名或手机号加数字），请换一个更难猜的密码'),
      );
    }
    const after = await userRow(t, 'demo_admin');
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.passwordChangedAt).toEqual(before.passwordChangedAt);
  });

  it('keeps the last five: each is refused until five newer ones followed it', async () => {
    let current = 'Admin2025';
    for (const next of strong.slice(0, 5)) {
      expect((await changePassword(t, 'demo_admin', current, next)).code, next).toBe(200);
      current = next;
    }
    // strong[0]…strong[4] are the last five (the current one included).
    for (const used of strong.slice(0, 4)) {
      expect(await changePassword(t, 'demo_admin', current, used), used).toEqual(
        fieldRefusal('不能使用最近 5 次用过的密码，请换一个新密码'),
      );
    }
    const row = await userRow(t, 'demo_admin');
    expect(row.previousPasswordHashes).toHaveLength(4);
    expect(await verifyPassword(row.passwordHash, current)).toBe(true);
    // One more, and the oldest of them is free again.
    expect((await changePassword(t, 'demo_admin', current, strong[5]!)).code).toBe(200);
    expect((await changePassword(t, 'demo_admin', strong[5]!, strong[0]!)).code).toBe(200);
  }, 60_000);

  it('applies to the reset by SMS before the code is used up', async () => {
    const phone = (await userRow(t, 'demo_editor')).mobile;
    await skipResendPause(t);
    const code = await smsCodeFor(t, phone, 'modify');
    const reset = (newPassword: string) =>
      post(t, '/api/front/system/resetpassword', { phone, code, newPassword, ...device });
    expect(await reset('Editor2025a')).toEqual(fieldRefusal('员工账户的密码至少需要 12 个字符'));
    expect((await reset('Quartz-Willow-72')).code).toBe(200);
    expect(await verifyPassword((await userRow(t, 'demo_editor')).passwordHash, 'Quartz-Willow-72')).toBe(true);
  });

  it('applies to a staff account created from the command line, at its password', async () => {
    const input = { userName: 'ops_new', mobile: '13912340001', name: '新同事', role: 'operator' as const };
    await expect(createStaffAccount(t.db, cli, { ...input, password: 'ops_new12345' })).rejects.toMatchObject({
      key: 'auth.passwordTooCommon',
      field: 'password',
    });
    expect(await t.db.$count(users, eq(users.userName, 'ops_new'))).toBe(0);
    await createStaffAccount(t.db, cli, { ...input, password: 'Nimbus-Pearl-93' });
    expect((await login(t, 'ops_new', 'Nimbus-Pearl-93')).code).toBe(200);
  });

  it('leaves accounts without a staff role the shared rule, and keeps no old hashes of theirs', async () => {
    expect((await changePassword(t, 'demo_person', 'Person2025', 'Person2026')).code).toBe(200);
    expect((await userRow(t, 'demo_person')).previousPasswordHashes).toEqual([]);
  });
});

describe('a staff password past STAFF_PASSWORD_MAX_AGE_DAYS (90 by default)', () => {
  it('refuses the sign-in by password and by SMS until it is reset by SMS; then both sign in', async () => {
    const operator = await userRow(t, 'demo_operator');
    await t.db
      .update(users)
      .set({ passwordChangedAt: new Date(Date.now() - 91 * 86_400_000) })
      .where(eq(users.id, operator.id));
    const expired = '员工账户的密码已超过 90 天未更换，请点击“忘记密码”，用短信验证码设置新密码后再登录';
    expect(await login(t, 'demo_operator', 'Operator2025')).toMatchObject({ code: 400, message: expired });
    await skipResendPause(t);
    const loginCode = await smsCodeFor(t, operator.mobile, 'login');
    expect(
      await post(t, '/api/front/system/loginMobile', { phone: operator.mobile, code: loginCode, ...device }),
    ).toMatchObject({ code: 400, message: expired });

    await skipResendPause(t);
    const code = await smsCodeFor(t, operator.mobile, 'modify');
    expect(
      (
        await post(t, '/api/front/system/resetpassword', {
          phone: operator.mobile,
          code,
          newPassword: 'Ember-Sable-85',
          ...device,
        })
      ).code,
    ).toBe(200);
    expect((await login(t, 'demo_operator', 'Ember-Sable-85')).code).toBe(200);
  });

  it('does not touch accounts without a staff role', async () => {
    await t.db
      .update(users)
      .set({ passwordChangedAt: new Date(Date.now() - 400 * 86_400_000) })
      .where(eq(users.userName, 'demo_company'));
    expect((await login(t, 'demo_company', 'Company2025')).code).toBe(200);
  });

  it('never expires with STAFF_PASSWORD_MAX_AGE_DAYS=0', async () => {
    await never.db
      .update(users)
      .set({ passwordChangedAt: new Date(0) })
      .where(eq(users.userName, 'demo_operator'));
    expect((await login(never, 'demo_operator', 'Operator2025')).code).toBe(200);
  });

  it('counts the password of someone made staff as expired: they set a staff password first', async () => {
    const { userId, userName } = await insertUser(t, ['individual'], 'made_staff');
    const hash = (await userRow(t, 'demo_person')).passwordHash;
    await t.db.update(users).set({ passwordHash: hash }).where(eq(users.id, userId));
    expect((await login(t, userName, 'Person2026')).code).toBe(200);
    await grantRole(t.db, cli, userId, 'editor');
    expect((await login(t, userName, 'Person2026')).code).toBe(400);
    expect((await userRow(t, userName)).passwordChangedAt).toEqual(new Date(0));
  });
});
