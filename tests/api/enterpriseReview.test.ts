/**
 * The operator's side of certificate certification: the review queue (enterpriseuser/getAntTable)
 * and /api/ops/certification/approve and return — roles, ownership of the table, every state rule.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { maskAccountNo, maskMobile } from '../../src/lib/masking.ts';
import type { EnterpriseData, EnterpriseTableData } from '../../src/lib/schemas/enterprise.ts';
import { enterprises } from '../../src/server/db/schema/index.ts';
import { demoReviewEnterprises } from '../../src/server/seed/seed.ts';
import { listNotices } from '../../src/server/services/notices.ts';
import { postForm } from './accountCalls.ts';
import {
  addEnterprise,
  auditActions,
  base,
  createEnterpriseTestApp,
  enterpriseRow,
  getJson,
  newUser,
  pdfBytes,
  pngBytes,
  postJson,
  upload,
} from './enterpriseCalls.ts';
import { openPerFile } from './harness.ts';

const ops = '/api/ops/certification';

const t = openPerFile(createEnterpriseTestApp);
let operator: string;
beforeAll(async () => {
  operator = await t.login('demo_operator');
});

/** An enterprise submitted for review by a new user. */
async function submitted(): Promise<{ owner: { id: number; cookie: string }; enterprise: EnterpriseData }> {
  const owner = await newUser(t);
  const enterprise = await addEnterprise(t, owner.cookie);
  await upload(t, owner.cookie, { kind: 'businessLicence', bytes: pngBytes(), name: 'l.png', type: 'image/png' });
  await upload(t, owner.cookie, { kind: 'authLetter', bytes: pdfBytes() });
  const answer = await postJson<EnterpriseData>(t, `${base}/editAuthInfo`, { id: enterprise.id }, owner.cookie);
  expect(answer.data.authStatus).toBe(1);
  return { owner, enterprise: answer.data };
}

describe('getAntTable', () => {
  it("the operator's queue: status 1 only, oldest submission first, the seeded ones included", async () => {
    const mine = await submitted();
    const answer = await postJson<EnterpriseTableData>(
      t,
      `${base}/getAntTable`,
      { antTable: JSON.stringify({ filter: { authStatus: [1] }, pager: { current: 1, pageSize: 50 } }) },
      operator,
    );
    expect(answer.code).toBe(200);
    const names = answer.data.result.map((row) => row.enterpriseName);
    // The seed's two, the older first, then the one just submitted.
    expect(names.slice(0, 2)).toEqual(demoReviewEnterprises.map((e) => e.enterpriseName));
    expect(names).toContain(mine.enterprise.enterpriseName);
    expect(answer.data.result.every((row) => row.authStatus === 1)).toBe(true);
    expect(answer.data.totalCount).toBe(answer.data.result.length);
    expect(Object.keys(answer.data.result[0] ?? {}).sort()).toEqual(
      [
        'areaCode',
        'authStatus',
        'authType',
        'clearanceAccount',
        'contactName',
        'createdAt',
        'creditCode',
        'enterpriseName',
        'id',
        'industry',
        'reviewedAt',
        'submittedAt',
      ].sort(),
    );
  });

  it('form-encoded antTable with a keyword search and paging', async () => {
    const response = await postForm(
      t,
      `${base}/getAntTable`,
      { antTable: JSON.stringify({ search: { keyword: '蓝海' }, pager: { pageSize: 1 } }) },
      { cookie: operator },
    );
    const answer = (await response.json()) as { code: number; data: EnterpriseTableData };
    expect(answer.data.result.map((row) => row.enterpriseName)).toEqual(['深圳蓝海国际物流有限公司']);
    expect(answer.data.totalCount).toBe(1);
  });

  it('an enterprise user sees their own enterprise only, whatever the filter says', async () => {
    const owner = await newUser(t);
    const own = await addEnterprise(t, owner.cookie);
    const all = await postJson<EnterpriseTableData>(t, `${base}/getAntTable`, {}, owner.cookie);
    expect(all.data).toEqual({ result: [expect.objectContaining({ id: own.id })], totalCount: 1 });
    const others = await postJson<EnterpriseTableData>(
      t,
      `${base}/getAntTable`,
      { antTable: JSON.stringify({ filter: { authStatus: [1, 2] } }) },
      owner.cookie,
    );
    expect(others.data).toEqual({ result: [], totalCount: 0 });
    const loner = await newUser(t);
    expect((await postJson<EnterpriseTableData>(t, `${base}/getAntTable`, {}, loner.cookie)).data).toEqual({
      result: [],
      totalCount: 0,
    });
  });

  it('bad and hostile requests are 400, never 500, and the table is still there', async () => {
    const hostile = [
      '{"filter":',
      JSON.stringify({ filter: { ownerUserId: [1] } }),
      JSON.stringify({ sorter: [{ key: 'enterprise_name; drop table enterprises', sort: 'ascend' }] }),
      JSON.stringify({ filter: { authStatus: ['1 or 1=1'] } }),
      JSON.stringify({ pager: { pageSize: 1000 } }),
      JSON.stringify({ liker: { industry: 'C' } }),
      JSON.stringify({ range: { enterpriseName: { start: 'a' } } }),
      JSON.stringify({ __proto__: { filter: {} }, select: ['passwordHash'] }),
      '[]',
    ];
    for (const antTable of hostile) {
      const answer = await postJson(t, `${base}/getAntTable`, { antTable }, operator);
      expect(answer.code, antTable).toBe(400);
    }
    expect(await t.db.$count(enterprises)).toBeGreaterThan(2);
    expect((await postJson(t, `${base}/getAntTable`, {})).code).toBe(901);
  });
});

describe('approve and return', () => {
  it('approve: 1 → 2 with audit and a notice to the owner; then it is not reviewable again (409)', async () => {
    const { owner, enterprise } = await submitted();
    const answer = await postJson<EnterpriseData>(t, `${ops}/approve`, { id: enterprise.id }, operator);
    expect(answer).toMatchObject({
      code: 200,
      message: '已通过认证',
      data: { authStatus: 2, authType: 'certificate', reviewComment: '' },
    });
    expect(answer.data.reviewedAt).not.toBeNull();
    expect((await auditActions(t, `enterprise:${enterprise.id}`)).at(-1)).toBe('certification.approve');
    const notices = await listNotices(t.db, owner.id, { ref: `enterprise:${enterprise.id}`, locale: 'en-US' });
    expect(notices.map((n) => n.title)).toEqual(['Enterprise certified', 'Enterprise certification submitted']);
    expect(await postJson(t, `${ops}/approve`, { id: enterprise.id }, operator)).toMatchObject({
      code: 409,
      message: '企业当前状态为“已认证”，只有审核中的企业可以审核',
    });
    expect((await postJson(t, `${ops}/return`, { id: enterprise.id, comment: '晚了' }, operator)).code).toBe(409);
  });

  it('return: 1 → 3 with the comment, which the owner reads in the notice; resubmitting works', async () => {
    const { owner, enterprise } = await submitted();
    const answer = await postJson<EnterpriseData>(
      t,
      `${ops}/return`,
      { id: enterprise.id, comment: '  营业执照照片不清晰  ' },
      operator,
    );
    expect(answer.data).toMatchObject({ authStatus: 3, reviewComment: '营业执照照片不清晰' });
    const [notice] = await listNotices(t.db, owner.id, { ref: `enterprise:${enterprise.id}` });
    expect(notice?.description).toContain('营业执照照片不清晰');
    expect((await auditActions(t, `enterprise:${enterprise.id}`)).at(-1)).toBe('certification.return');
    // The owner may now change the files and submit again.
    expect((await upload(t, owner.cookie, { kind: 'businessLicence', bytes: pdfBytes() })).answer.code).toBe(200);
    expect(
      (await postJson<EnterpriseData>(t, `${base}/editAuthInfo`, { id: enterprise.id }, owner.cookie)).data.authStatus,
    ).toBe(1);
  });

  it('a return needs a comment of 1–500 characters; bad ids are 400; unknown 404; nothing changes', async () => {
    const { enterprise } = await submitted();
    for (const body of [
      { id: enterprise.id },
      { id: enterprise.id, comment: '   ' },
      { id: enterprise.id, comment: 'x'.repeat(501) },
      { id: 'x', comment: 'a' },
    ]) {
      expect((await postJson(t, `${ops}/return`, body, operator)).code, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect((await postJson(t, `${ops}/approve`, { id: 99999999 }, operator)).code).toBe(404);
    expect((await enterpriseRow(t, enterprise.id))?.authStatus).toBe(1);
  });

  it('not-certified and returned enterprises cannot be approved or returned (409)', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    expect(await postJson(t, `${ops}/approve`, { id: created.id }, operator)).toMatchObject({
      code: 409,
      message: '企业当前状态为“未认证”，只有审核中的企业可以审核',
    });
    await t.db.update(enterprises).set({ authStatus: 3 }).where(eq(enterprises.id, created.id));
    expect((await postJson(t, `${ops}/return`, { id: created.id, comment: '再退' }, operator)).code).toBe(409);
  });

  it('only operators: 403 for others (even the owner), 901 without a session', async () => {
    const { owner, enterprise } = await submitted();
    expect((await postJson(t, `${ops}/approve`, { id: enterprise.id }, owner.cookie)).code).toBe(403);
    expect(
      (await postJson(t, `${ops}/return`, { id: enterprise.id, comment: 'x' }, await t.login('demo_company'))).code,
    ).toBe(403);
    expect((await postJson(t, `${ops}/approve`, { id: enterprise.id })).code).toBe(901);
    expect((await enterpriseRow(t, enterprise.id))?.authStatus).toBe(1);
  });

  it('approving the seeded queue works on the demo data', async () => {
    const [row] = await t.db
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(eq(enterprises.enterpriseName, demoReviewEnterprises[1]!.enterpriseName));
    expect((await postJson<EnterpriseData>(t, `${ops}/approve`, { id: row!.id }, operator)).data.authStatus).toBe(2);
  });
});

describe('masked numbers and the audited reveal', () => {
  it("staff read an enterprise's contact mobile and clearance account masked; its owner reads them whole", async () => {
    const { owner, enterprise } = await submitted();
    const own = await getJson<EnterpriseData>(t, `${base}/get`, owner.cookie);
    expect(own.data).toMatchObject({ masked: false, contactPhone: enterprise.contactPhone });
    expect(own.data.clearanceAccount).toBe(enterprise.clearanceAccount);

    const staff = await getJson<EnterpriseData>(t, `${base}/get?id=${enterprise.id}`, operator);
    expect(staff.data.masked).toBe(true);
    expect(staff.data.contactPhone).toBe(maskMobile(enterprise.contactPhone));
    expect(staff.data.clearanceAccount).toBe(maskAccountNo(enterprise.clearanceAccount));
    expect(JSON.stringify(staff.data)).not.toContain(enterprise.contactPhone);

    const table = await postJson<EnterpriseTableData>(
      t,
      `${base}/getAntTable`,
      {
        antTable: JSON.stringify({
          search: { keyword: enterprise.clearanceAccount },
          pager: { current: 1, pageSize: 10 },
        }),
      },
      operator,
    );
    // Found by the whole number, answered masked.
    expect(table.data.result.map((row) => row.clearanceAccount)).toEqual([maskAccountNo(enterprise.clearanceAccount)]);
    // The answer of a review is masked too.
    const approved = await postJson<EnterpriseData>(t, `${ops}/approve`, { id: enterprise.id }, operator);
    expect(approved.data).toMatchObject({ masked: true, contactPhone: maskMobile(enterprise.contactPhone) });
  });

  it('reveal answers one whole number to an operator and records it in the audit trail; nobody else may', async () => {
    const { owner, enterprise } = await submitted();
    const phone = await postJson(t, `${ops}/reveal`, { id: enterprise.id, field: 'contactPhone' }, operator);
    expect(phone).toMatchObject({ code: 200, data: { field: 'contactPhone', value: enterprise.contactPhone } });
    const account = await postJson(t, `${ops}/reveal`, { id: enterprise.id, field: 'clearanceAccount' }, operator);
    expect(account.data).toEqual({ field: 'clearanceAccount', value: enterprise.clearanceAccount });
    const actions = await auditActions(t, `enterprise:${enterprise.id}`);
    expect(actions.filter((action) => action === 'enterprise.reveal')).toHaveLength(2);

    const before = (await auditActions(t, `enterprise:${enterprise.id}`)).length;
    expect((await postJson(t, `${ops}/reveal`, { id: enterprise.id, field: 'contactPhone' }, owner.cookie)).code).toBe(
      403,
    );
    expect((await postJson(t, `${ops}/reveal`, { id: enterprise.id, field: 'contactPhone' })).code).toBe(901);
    const auditor = await t.login('demo_auditor');
    expect((await postJson(t, `${ops}/reveal`, { id: enterprise.id, field: 'contactPhone' }, auditor)).code).toBe(403);
    for (const bad of [{ id: enterprise.id, field: 'creditCode' }, { id: 'x', field: 'contactPhone' }, {}]) {
      expect((await postJson(t, `${ops}/reveal`, bad, operator)).code, JSON.stringify(bad)).toBe(400);
    }
    expect((await postJson(t, `${ops}/reveal`, { id: 99_999_999, field: 'contactPhone' }, operator)).code).toBe(404);
    expect(await auditActions(t, `enterprise:${enterprise.id}`)).toHaveLength(before);
  });
});
