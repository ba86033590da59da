/**
 * MFA_REQUIRED_ROLES (docs/accounts.md, "Required for privileged roles"): an account holding a
 * listed role gets no role-guarded call on a session that has not proved a second factor — code
 * 403, a message saying what to do, `data.secondFactorRequired` (`enrol` or `verify`), never the
 * data — until it enrols in that session, verifies it, or logs in with a code. Unlisted roles and
 * a local run's default are unaffected.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SecondFactorStatusData } from '../../src/lib/schemas/secondFactor.ts';
import { loadConfig } from '../../src/server/config.ts';
import { enterprises, sessions, users } from '../../src/server/db/schema/index.ts';
import { get, post } from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';
import { enableSecondFactor, forgetUsedStep, loginByPassword, secondStep } from './secondFactorCalls.ts';

const t = openPerFile(() => createTestApp({ env: { MFA_REQUIRED_ROLES: 'operator,partner' } }));
const open = openPerFile(createTestApp);
const own = openPerFile(() => createTestApp({ env: { MFA_REQUIRED_ROLES: 'operator' } }));

const orderTable = { antTable: JSON.stringify({ pager: { current: 1, pageSize: 5 } }) };
const opsCall = (app: typeof t, cookie: string) => post(app, '/api/ops/order/getAntTable', orderTable, { cookie });
const partnerCall = (app: typeof t, cookie: string) =>
  get(app, '/api/front/hgdarc/partner/getPartnersByEmpId', { cookie });

describe('a privileged account without a second factor', () => {
  it('is refused every role-guarded call with "enrol first", and told so by currentUser', async () => {
    const cookie = await t.login('demo_operator');
    const refused = await opsCall(t, cookie);
    expect(refused).toEqual({
      code: 403,
      message: '你的账户须先启用两步验证才能使用此功能，请在账户设置中启用。',
      data: { secondFactorRequired: 'enrol' },
    });
    const partner = await partnerCall(t, await t.login('demo_partner'));
    expect(partner).toMatchObject({ code: 403, data: { secondFactorRequired: 'enrol' } });

    const me = await get(t, '/api/front/user/currentUser', { cookie });
    expect(me).toMatchObject({ code: 200, data: { userName: 'demo_operator', secondFactorRequired: 'enrol' } });
    // Account settings stay open, so the factor can be enrolled.
    const status = await get<SecondFactorStatusData>(t, '/api/front/user/secondFactor', { cookie });
    expect(status.data).toMatchObject({ enabled: false, required: true, sessionVerified: false });
  });

  it('may use them once it enrolled in this session; other sessions must verify', async () => {
    const older = await t.login('demo_operator');
    const cookie = await t.login('demo_operator');
    const { app } = await enableSecondFactor(t, cookie, 'Operator2025');
    expect((await opsCall(t, cookie)).code).toBe(200);
    const me = await get(t, '/api/front/user/currentUser', { cookie });
    expect(me.data).not.toHaveProperty('secondFactorRequired');

    expect(await opsCall(t, older)).toEqual({
      code: 403,
      message: '请先在账户设置中输入动态验证码，确认本次登录。',
      data: { secondFactorRequired: 'verify' },
    });
    expect((await get(t, '/api/front/user/currentUser', { cookie: older })).data).toMatchObject({
      secondFactorRequired: 'verify',
    });
    await forgetUsedStep(t, 'demo_operator');
    expect(
      (await post(t, '/api/front/user/verifySecondFactor', { secondFactorCode: app.code() }, { cookie: older })).code,
    ).toBe(200);
    expect((await opsCall(t, older)).code).toBe(200);

    // Required: it cannot be turned off.
    const off = await post(t, '/api/front/user/disableSecondFactor', { password: 'Operator2025' }, { cookie });
    expect(off).toEqual({ code: 403, message: '你的账户身份要求启用两步验证，不能关闭', data: {} });

    // A login with the code is proved from the start; a password change keeps the proof.
    await forgetUsedStep(t, 'demo_operator');
    const first = await loginByPassword(t, 'demo_operator', 'Operator2025');
    const signedIn = await secondStep(t, first.challenge, app.code());
    expect((await opsCall(t, signedIn.session!)).code).toBe(200);
    const changed = await post(
      t,
      '/api/front/user/changePwd',
      { oldPassword: 'Operator2025', newPassword: 'Maple-Orbit-58' },
      { cookie: signedIn.session! },
    );
    expect(changed.code).toBe(200);
    const [operator] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_operator'));
    const live = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, operator!.id), isNull(sessions.revokedAt)));
    expect(live).toHaveLength(1);
    expect(live[0]?.secondFactorAt).toBeInstanceOf(Date);
  });

  it('leaves roles that are not listed alone', async () => {
    const editor = await t.login('demo_editor');
    expect((await get(t, '/api/studio/overview', { cookie: editor })).code).not.toBe(403);
    expect((await get(t, '/api/front/user/currentUser', { cookie: editor })).data).not.toHaveProperty(
      'secondFactorRequired',
    );
  });
});

describe('a role withheld until the second factor', () => {
  it("has the role withheld from every check, not only the guarded calls: an operator's wider reads see its own records only", async () => {
    const cookie = await own.login('demo_operator');
    const table = { antTable: JSON.stringify({ pager: { current: 1, pageSize: 50 } }) };
    const refused = await post<{ result: unknown[]; totalCount: number }>(
      own,
      '/api/front/hgdarc/enterpriseuser/getAntTable',
      table,
      { cookie },
    );
    expect(refused).toMatchObject({ code: 200, data: { result: [], totalCount: 0 } });
    const [anyEnterprise] = await own.db.select({ id: enterprises.id }).from(enterprises).limit(1);
    const one = await get(own, `/api/front/hgdarc/enterpriseuser/get?id=${anyEnterprise!.id}`, { cookie });
    expect(one.code).toBe(404);
    const preview = await own.app.request('/studio-preview/1/welcome/home', { headers: { cookie } });
    expect(preview.status).toBe(403);
    // Its account still says who it is, with the role and what it owes.
    expect((await get<{ roles: string[] }>(own, '/api/front/user/currentUser', { cookie })).data).toMatchObject({
      roles: ['operator'],
      secondFactorRequired: 'enrol',
    });

    await enableSecondFactor(own, cookie, 'Operator2025');
    const proved = await post<{ totalCount: number }>(own, '/api/front/hgdarc/enterpriseuser/getAntTable', table, {
      cookie,
    });
    expect(proved.data.totalCount).toBeGreaterThan(0);
    expect((await get(own, `/api/front/hgdarc/enterpriseuser/get?id=${anyEnterprise!.id}`, { cookie })).code).toBe(200);

    // A session that has not proved the factor cannot turn it off with the password alone: the
    // account's role still requires it.
    const unproved = await own.login('demo_operator');
    const off = await post(
      own,
      '/api/front/user/disableSecondFactor',
      { password: 'Operator2025' },
      { cookie: unproved },
    );
    expect(off).toMatchObject({ code: 403, data: {} });
    expect(
      (await get<SecondFactorStatusData>(own, '/api/front/user/secondFactor', { cookie: unproved })).data,
    ).toMatchObject({ enabled: true, required: true, sessionVerified: false });
  });
});

describe('the default of a local run', () => {
  it('requires it of nobody, so the demo accounts work with their password; a deployment requires it of every staff role', async () => {
    expect((await opsCall(open, await open.login('demo_operator'))).code).toBe(200);
    expect((await partnerCall(open, await open.login('demo_partner'))).code).toBe(200);
    expect(loadConfig({}).mfaRequiredRoles).toEqual([]);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://portal.example.com' }).mfaRequiredRoles).toEqual([
      'admin',
      'operator',
      'editor',
      'auditor',
      'partner',
    ]);
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://portal.example.com', MFA_REQUIRED_ROLES: 'none' }).mfaRequiredRoles,
    ).toEqual([]);
    expect(() => loadConfig({ MFA_REQUIRED_ROLES: 'operator,root' })).toThrow(/MFA_REQUIRED_ROLES/);
  });
});
