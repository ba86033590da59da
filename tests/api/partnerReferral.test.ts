/**
 * The enterprise's referral code (docs/partner.md, Referral): `partnerCode` on the enterprise form
 * names the referring institution (enterprises.partner_id); an order copies the enterprise's
 * institution when it is created, which is what puts it in that institution's scope.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import type { EnterpriseData } from '../../src/lib/schemas/enterprise.ts';
import type { OrderDetailData } from '../../src/lib/schemas/order.ts';
import { auditLog, enterprises, orders, partnerInstitutions } from '../../src/server/db/schema/index.ts';
import { post } from './accountCalls.ts';
import { base, fullRecord, newUser, postJson } from './enterpriseCalls.ts';
import { openPerFile } from './harness.ts';
import { addEnterpriseUser, createOrderTestApp, goodOrder } from './orderFixtures.ts';
import { insertPartnerTree, type PartnerTree } from './partnerFixtures.ts';

const t = openPerFile(createOrderTestApp);
let tree: PartnerTree;
const codeOf = async (id: number) =>
  (
    await t.db
      .select({ code: partnerInstitutions.code })
      .from(partnerInstitutions)
      .where(eq(partnerInstitutions.id, id))
  )[0]!.code;
const partnerIdOf = async (enterpriseId: number) =>
  (await t.db.select({ partnerId: enterprises.partnerId }).from(enterprises).where(eq(enterprises.id, enterpriseId)))[0]
    ?.partnerId;

beforeAll(async () => {
  tree = await insertPartnerTree(t);
});

describe('enterprise form: partnerCode', () => {
  it('add with a known code stores the institution and answers its code and name; an audit names it', async () => {
    const user = await newUser(t);
    const code = await codeOf(tree.subA1);
    const answer = await postJson<EnterpriseData>(
      t,
      `${base}/add`,
      fullRecord({ partnerCode: ` ${code} ` }),
      user.cookie,
    );
    expect(answer.code, answer.message).toBe(200);
    expect(answer.data).toMatchObject({ partnerCode: code, partnerName: expect.stringContaining('广州天河支行') });
    expect(await partnerIdOf(answer.data.id)).toBe(tree.subA1);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'enterprise.add'), eq(auditLog.target, `enterprise:${answer.data.id}`)));
    expect(audit?.detail).toMatchObject({ partnerId: tree.subA1 });
  });

  it('without a code the enterprise has none (null), as before', async () => {
    const user = await newUser(t);
    const answer = await postJson<EnterpriseData>(t, `${base}/add`, fullRecord({ partnerCode: '' }), user.cookie);
    expect(answer.code, answer.message).toBe(200);
    expect(answer.data).toMatchObject({ partnerCode: null, partnerName: null });
  });

  it('an unknown or malformed code → 400 at partnerCode, nothing created', async () => {
    const user = await newUser(t);
    for (const partnerCode of ['ZZ99999999', "1' or '1'='1", 'ab', 'x'.repeat(40)]) {
      const answer = await postJson<{ errors: { field: string; message: string }[] }>(
        t,
        `${base}/add`,
        fullRecord({ partnerCode }),
        user.cookie,
      );
      expect(answer.code).toBe(ApiCode.BAD_REQUEST);
      expect(answer.data.errors[0]?.field).toBe('partnerCode');
    }
    expect(await t.db.$count(enterprises, eq(enterprises.ownerUserId, user.id))).toBe(0);
  });

  it('a draft and an edit set or change it; absent leaves it', async () => {
    const user = await newUser(t);
    const draft = await postJson<EnterpriseData>(
      t,
      `${base}/temporarySave`,
      { enterpriseName: '推荐测试有限公司', clearanceAccount: '0300077770001', partnerCode: await codeOf(tree.subB1) },
      user.cookie,
    );
    expect(draft.code, draft.message).toBe(200);
    expect(await partnerIdOf(draft.data.id)).toBe(tree.subB1);
    const edited = await postJson<EnterpriseData>(
      t,
      `${base}/edit`,
      {
        id: draft.data.id,
        ...fullRecord({ clearanceAccount: '0300077770001', partnerCode: await codeOf(tree.subA2) }),
      },
      user.cookie,
    );
    expect(edited.code, edited.message).toBe(200);
    expect(await partnerIdOf(draft.data.id)).toBe(tree.subA2);
    const kept = await postJson<EnterpriseData>(
      t,
      `${base}/temporarySave`,
      { id: draft.data.id, address: '广州市越秀区中山五路 1 号' },
      user.cookie,
    );
    expect(kept.code, kept.message).toBe(200);
    expect(kept.data.partnerCode).toBe(await codeOf(tree.subA2));
  });
});

describe('createCustomerOrder copies the institution', () => {
  it('an order of a referred enterprise carries its institution; a later change does not move it', async () => {
    const owner = await addEnterpriseUser(t, { userName: 'referred_co', mobile: '13900000731' });
    await t.db.update(enterprises).set({ partnerId: tree.subA1 }).where(eq(enterprises.id, owner.enterpriseId));
    const answer = await post<OrderDetailData>(
      t,
      '/api/front/hgdsel/order/createCustomerOrder',
      { ...goodOrder },
      { cookie: owner.cookie },
    );
    expect(answer.code, answer.message).toBe(200);
    await t.db.update(enterprises).set({ partnerId: tree.subB1 }).where(eq(enterprises.id, owner.enterpriseId));
    const [row] = await t.db
      .select({ partnerId: orders.partnerId })
      .from(orders)
      .where(eq(orders.orderNo, answer.data.orderNo));
    expect(row?.partnerId).toBe(tree.subA1);
  });

  it('an order of an enterprise without a referral has none', async () => {
    const owner = await addEnterpriseUser(t, { userName: 'unreferred_co', mobile: '13900000732' });
    const answer = await post<OrderDetailData>(
      t,
      '/api/front/hgdsel/order/createCustomerOrder',
      { ...goodOrder },
      { cookie: owner.cookie },
    );
    expect(answer.code, answer.message).toBe(200);
    const [row] = await t.db
      .select({ partnerId: orders.partnerId })
      .from(orders)
      .where(eq(orders.orderNo, answer.data.orderNo));
    expect(row?.partnerId).toBeNull();
  });
});
