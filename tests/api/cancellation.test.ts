/**
 * Account cancellation (services/cancellation.ts): the proof (password or an SMS code to the
 * account's phone), the conditions each refused with its reason and nothing changed, the
 * cooling-off (every session ends; a sign-in withdraws it), and the erasure after it: personal data
 * deleted or replaced, the enterprise and the evidence kept de-identified, the audit chain intact,
 * the mobile number free to register again; a notice at each step.
 */
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, consents, enterprises, notices, sessions, users } from '../../src/server/db/schema/index.ts';
import { verifyChain } from '../../src/server/services/auditChain.ts';
import { completeCancellations, coolingOffDays, erasureDay } from '../../src/server/services/cancellation.ts';
import { demoReviewEnterprises } from '../../src/server/seed/seed.ts';
import {
  consentVersions,
  get,
  lastSmsCode,
  post,
  postForm,
  sessionCookie,
  skipResendPause,
  smsCodeFor,
  type Envelope,
} from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));
const password = 'Closing2026';

async function newUser(phone: string): Promise<{ cookie: string; id: number }> {
  const res = await postForm(t, '/api/front/system/register', {
    phone,
    code: await smsCodeFor(t, phone, 'register'),
    name: '注销测试',
    password,
    ...consentVersions(),
  });
  const body = (await res.json()) as Envelope<{ orgId: string }>;
  return { cookie: sessionCookie(res) ?? '', id: Number(body.data.orgId) };
}

const cancel = (cookie: string, body: Record<string, string>) =>
  post<{ erasureDay: string }>(t, '/api/front/user/cancelAccount', body, { cookie });
const row = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const signInAgain = (userName: string) =>
  postForm(t, '/api/front/system/login', { userName, password }, { ip: '198.51.100.40' });

describe('asking to close the account', () => {
  it('is refused, with the reason, for staff, an order in progress and a certification under review', async () => {
    expect(await cancel(await t.login('demo_operator'), { password: 'Operator2025' })).toMatchObject({
      code: 409,
      message: '工作人员账号不能自行注销，请联系管理员',
    });
    expect(await cancel(await t.login('demo_company'), { password: 'Company2025' })).toMatchObject({
      code: 409,
      message: expect.stringMatching(/^您有 \d+ 个订单尚未完成，完成或取消后才能注销$/),
    });
    // demo_foshan's enterprise is under review (the seed's queue).
    const reviewer = demoReviewEnterprises[0]!.owner;
    expect(await cancel(await t.login(reviewer.userName), { password: reviewer.password })).toMatchObject({
      code: 409,
      message: '您的企业认证正在审核中，审核结束后才能注销',
    });
    expect(
      await t.db
        .select()
        .from(users)
        .where(sql`${users.cancellationRequestedAt} is not null`),
    ).toHaveLength(0);
  });

  it('needs the password or an SMS code: a wrong or missing one changes nothing', async () => {
    const { cookie, id } = await newUser('13912360001');
    expect(await cancel(cookie, {})).toMatchObject({ code: 400, message: '请输入密码' });
    expect(await cancel(cookie, { password: 'Wrong2026' })).toMatchObject({ code: 400, message: '原密码错误' });
    expect(await cancel(cookie, { code: '000000' })).toMatchObject({ code: 400 });
    expect((await row(id)).cancellationRequestedAt).toBeNull();
    expect((await get(t, '/api/front/user/currentUser', { cookie })).code).toBe(200);
  });

  it('starts the cooling-off: every session ends, a notice says the day; signing in again withdraws it', async () => {
    const phone = '13912360002';
    const { cookie, id } = await newUser(phone);
    const answer = await cancel(cookie, { password });
    expect(answer).toMatchObject({
      code: 200,
      message: `注销申请已提交，将于 ${erasureDay(new Date())} 完成；在此之前重新登录即可撤销。`,
      data: { erasureDay: erasureDay(new Date()) },
    });
    expect((await row(id)).cancellationRequestedAt).not.toBeNull();
    expect((await get(t, '/api/front/user/currentUser', { cookie })).code).toBe(901);
    const live = await t.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, id), sql`revoked_at is null`));
    expect(live).toHaveLength(0);
    const [requested] = await t.db.select().from(notices).where(eq(notices.userId, id));
    expect(requested?.messageKey).toBe('account.cancel.notice.requested');
    expect(requested?.messageVars).toEqual({ date: erasureDay(new Date()), days: coolingOffDays });

    const back = await signInAgain(phone);
    expect(((await back.json()) as Envelope).code).toBe(200);
    expect((await row(id)).cancellationRequestedAt).toBeNull();
    const keys = (await t.db.select().from(notices).where(eq(notices.userId, id))).map((n) => n.messageKey);
    expect(keys).toContain('account.cancel.notice.withdrawn');
    const actions = (await t.db.select().from(auditLog).where(eq(auditLog.userId, id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['user.cancelRequest', 'user.cancelWithdrawn']));
  });
});

describe('after the cooling-off', () => {
  it('erases the personal data, keeps the enterprise and the evidence de-identified, frees the number', async () => {
    const phone = '13912360003';
    const { cookie, id } = await newUser(phone);
    await t.db.insert(enterprises).values({
      ownerUserId: id,
      enterpriseName: '注销测试企业有限公司',
      clearanceAccount: 'CANCEL-TEST-0003',
      contactName: '注销测试',
      contactPhone: phone,
    });
    // By an SMS code to the account's own phone this time.
    await skipResendPause(t);
    expect((await post(t, '/api/front/user/sendSMSByDefaultPhone', { type: 'verify' }, { cookie })).code).toBe(200);
    expect((await cancel(cookie, { code: (await lastSmsCode(t, phone)) ?? '' })).code).toBe(200);

    // Not yet: the cooling-off has not ended.
    expect(await completeCancellations(t.db)).toBe(0);
    await t.db
      .update(users)
      .set({ cancellationRequestedAt: new Date(Date.now() - (coolingOffDays + 1) * 86_400_000) })
      .where(eq(users.id, id));
    expect(await completeCancellations(t.db)).toBe(1);
    // Once only.
    expect(await completeCancellations(t.db)).toBe(0);

    const erased = await row(id);
    expect(erased).toMatchObject({
      userName: `cancelled-${id}`,
      name: '',
      email: '',
      passwordHash: '',
      status: 'cancelled',
      agreedVersions: {},
    });
    expect(erased.mobile).not.toBe(phone);
    expect(erased.cancelledAt).not.toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, id))).toHaveLength(0);
    expect(await t.db.select().from(notices).where(eq(notices.userId, id))).toHaveLength(0);
    const [enterprise] = await t.db.select().from(enterprises).where(eq(enterprises.ownerUserId, id));
    expect(enterprise).toMatchObject({ enterpriseName: '注销测试企业有限公司', contactName: '', contactPhone: '' });
    const evidence = await t.db.select().from(consents).where(eq(consents.userId, id));
    expect(evidence.length).toBe(2);
    for (const consent of evidence) expect(consent).toMatchObject({ ip: null, userAgent: null, deviceId: null });
    expect((await verifyChain(t.db, (await t.keys()).auditChain)).findings).toEqual([]);

    // The number registers again, as a new account; the old name does not sign in.
    await skipResendPause(t);
    const again = await newUser(phone);
    expect(again.id).not.toBe(id);
    expect(((await (await signInAgain(`cancelled-${id}`)).json()) as Envelope).code).toBe(400);
  });
});
