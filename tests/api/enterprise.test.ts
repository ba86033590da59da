/**
 * /api/front/hgdarc/enterpriseuser/* and /api/front/hgdsel/set/getEnterpriseUserByOrgId: the
 * enterprise record — good, bad and hostile input, ownership of every call, and the state rules.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { EnterpriseData } from '../../src/lib/schemas/enterprise.ts';
import { enterpriseAuthFiles, enterprises, orders, users } from '../../src/server/db/schema/index.ts';
import { demoEnterprise } from '../../src/server/seed/seed.ts';
import { postForm } from './accountCalls.ts';
import {
  addEnterprise,
  auditActions,
  base,
  createEnterpriseTestApp,
  enterpriseRow,
  fullRecord,
  getJson,
  newUser,
  noticeKeys,
  pdfBytes,
  pngBytes,
  postJson,
  upload,
} from './enterpriseCalls.ts';
import { openPerFile } from './harness.ts';

const t = openPerFile(createEnterpriseTestApp);

async function setStatus(id: number, authStatus: number): Promise<void> {
  await t.db
    .update(enterprises)
    .set({ authStatus, authType: authStatus === 2 ? 'certificate' : null })
    .where(eq(enterprises.id, id));
}

async function withBothFiles(cookie: string): Promise<void> {
  expect(
    (await upload(t, cookie, { kind: 'businessLicence', bytes: pngBytes(), name: 'licence.png', type: 'image/png' }))
      .answer.code,
  ).toBe(200);
  expect((await upload(t, cookie, { kind: 'authLetter', bytes: pdfBytes(), name: 'letter.pdf' })).answer.code).toBe(
    200,
  );
}

async function insertOrder(enterpriseId: number, userId: number, status: number): Promise<void> {
  await t.db.insert(orders).values({
    orderNo: `HGD20261122${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`,
    enterpriseId,
    userId,
    areaCode: '440000',
    productId: 'id1',
    setId: 'set-test',
    setName: '测试套餐',
    sellingSetId: 'ss-test',
    orgComId: 'org-test',
    orgComName: '测试售电公司',
    schemeParamId: 'sp-test',
    schemeParam: {},
    contractStart: '2027-01-01',
    contractMonths: 12,
    estimatedConsumption: '1000.000',
    status,
  });
}

describe('without a session', () => {
  it('every call answers 901', async () => {
    for (const call of ['add', 'edit', 'temporarySave', 'editfield', 'editAuthInfo', 'del']) {
      expect((await postJson(t, `${base}/${call}`, { id: 1 })).code, call).toBe(901);
    }
    expect((await getJson(t, `${base}/get`)).code).toBe(901);
    expect((await getJson(t, '/api/front/hgdsel/set/getEnterpriseUserByOrgId?orgId=1')).code).toBe(901);
  });
});

describe('add', () => {
  it('creates the enterprise (status 0) with the whole record and gives the enterprise role', async () => {
    const user = await newUser(t);
    const record = fullRecord({ creditCode: ` ${String(fullRecord().creditCode).toLowerCase()} ` });
    const answer = await postJson<EnterpriseData>(t, `${base}/add`, record, user.cookie);
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      enterpriseName: record['enterpriseName'],
      creditCode: String(record['creditCode']).trim().toUpperCase(),
      industry: 'C',
      industryName: '制造业',
      areaName: '广东省',
      annualConsumption: 1200.5,
      authStatus: 0,
      authType: null,
      draft: false,
      files: [],
      bankBinding: null,
      canDelete: true,
    });
    const [row] = await t.db.select({ roles: users.roles }).from(users).where(eq(users.id, user.id));
    expect(row?.roles).toEqual(['enterprise']);
    expect(await auditActions(t, `enterprise:${answer.data.id}`)).toEqual(['enterprise.add']);
    // A second one is refused and nothing is added.
    const again = await postJson(t, `${base}/add`, fullRecord(), user.cookie);
    expect(again).toMatchObject({ code: 409, message: '您已有企业，不能再添加' });
    expect(await t.db.$count(enterprises, eq(enterprises.ownerUserId, user.id))).toBe(1);
  });

  it('takes a form-encoded body with the accounts comma-separated', async () => {
    const user = await newUser(t);
    const record = fullRecord();
    const form = { ...record, electricityAccounts: 'A1234567, B1234567，C1234567', annualConsumption: '' } as Record<
      string,
      string
    >;
    const answer = (await (await postForm(t, `${base}/add`, form, { cookie: user.cookie })).json()) as {
      code: number;
      data: EnterpriseData;
    };
    expect(answer.code).toBe(200);
    expect(answer.data.electricityAccounts).toEqual(['A1234567', 'B1234567', 'C1234567']);
    expect(answer.data.annualConsumption).toBeNull();
  });

  it("refuses bad fields with the field's message and adds nothing", async () => {
    const user = await newUser(t);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ creditCode: '91350100M000100Y44' }, 'creditCode', /统一社会信用代码校验位不正确/],
      [{ creditCode: '91350100M000100' }, 'creditCode', /统一社会信用代码/],
      [{ contactPhone: '12345' }, 'contactPhone', /联系电话/],
      [{ industry: 'Z' }, 'industry', /行业/],
      [{ areaCode: '999999' }, 'areaCode', /地区编码不是本平台服务的省份/],
      [{ voltageLevel: 'kv999' }, 'voltageLevel', /电压等级不在电压等级列表中/],
      [{ electricityAccounts: [] }, 'electricityAccounts', /用电户号/],
      [{ electricityAccounts: ['A1234567', 'A1234567'] }, 'electricityAccounts', /重复/],
      [{ annualConsumption: -5 }, 'annualConsumption', /年用电量/],
      [{ enterpriseName: ' ' }, 'enterpriseName', /企业名称/],
      [{ authStatus: 2 }, '', /./],
      [{ legalPerson: 'x'.repeat(65) }, 'legalPerson', /法定代表人/],
    ];
    for (const [override, field, message] of cases) {
      const answer = await postJson<{ errors?: { field: string }[] }>(
        t,
        `${base}/add`,
        fullRecord(override),
        user.cookie,
      );
      expect(answer.code, JSON.stringify(override)).toBe(400);
      expect(answer.message).toMatch(message);
      if (field) expect(answer.data.errors?.[0]?.field).toBe(field);
    }
    expect(await t.db.$count(enterprises, eq(enterprises.ownerUserId, user.id))).toBe(0);
  });

  it('answers 400 for a body that is not an object, malformed JSON or hostile keys, never 500', async () => {
    const user = await newUser(t);
    for (const body of [[], 'text', 42, null, { __proto__: { authStatus: 2 } }, { constructor: { prototype: {} } }]) {
      expect((await postJson(t, `${base}/add`, body, user.cookie)).code).toBe(400);
    }
    const broken = await t.app.request(`${base}/add`, {
      method: 'POST',
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        Origin: 'http://localhost',
        'Content-Type': 'application/json',
        Cookie: user.cookie,
      },
      body: '{"enterpriseName":',
    });
    expect(((await broken.json()) as { code: number }).code).toBe(400);
  });

  it('keeps SQL-looking and markup text as plain text', async () => {
    const user = await newUser(t);
    const name = `'); drop table enterprises; -- <script>alert(1)</script>`;
    const answer = await postJson<EnterpriseData>(t, `${base}/add`, fullRecord({ enterpriseName: name }), user.cookie);
    expect(answer.code).toBe(200);
    expect(answer.data.enterpriseName).toBe(name);
    expect(await t.db.$count(enterprises)).toBeGreaterThan(1);
  });

  it('refuses a clearance account or credit code another enterprise has (409)', async () => {
    const user = await newUser(t);
    expect(
      await postJson(t, `${base}/add`, fullRecord({ clearanceAccount: demoEnterprise.clearanceAccount }), user.cookie),
    ).toMatchObject({
      code: 409,
    });
    expect(
      await postJson(t, `${base}/add`, fullRecord({ creditCode: demoEnterprise.creditCode }), user.cookie),
    ).toMatchObject({
      code: 409,
      message: '该统一社会信用代码已被其他企业使用',
    });
  });

  it('CSRF: refused without the client header', async () => {
    const user = await newUser(t);
    const response = await t.app.request(`${base}/add`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: user.cookie },
      body: JSON.stringify(fullRecord()),
    });
    expect(((await response.json()) as { code: number }).code).toBe(403);
    expect(await t.db.$count(enterprises, eq(enterprises.ownerUserId, user.id))).toBe(0);
  });
});

describe('get and getEnterpriseUserByOrgId', () => {
  it('the owner reads their own; another user gets 404 for it; an operator reads any', async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const operator = await newUser(t, ['operator']);
    const created = await addEnterprise(t, owner.cookie);
    expect((await getJson<EnterpriseData>(t, `${base}/get`, owner.cookie)).data.id).toBe(created.id);
    expect((await getJson<EnterpriseData>(t, `${base}/get?id=${created.id}`, owner.cookie)).data.id).toBe(created.id);
    expect(await getJson(t, `${base}/get?id=${created.id}`, other.cookie)).toEqual({
      code: 404,
      message: '记录不存在',
      data: {},
    });
    expect(await getJson(t, `${base}/get`, other.cookie)).toMatchObject({
      code: 404,
      message: '您还没有企业，请先添加或绑定企业',
    });
    expect(
      (await getJson<EnterpriseData>(t, `${base}/get?id=${created.id}`, operator.cookie)).data.enterpriseName,
    ).toBe(created.enterpriseName);
    expect((await getJson(t, `${base}/get?id=99999999`, operator.cookie)).code).toBe(404);
    for (const id of ['abc', '-1', '0', '1.5', '99999999999', "1' or '1'='1"]) {
      expect((await getJson(t, `${base}/get?id=${encodeURIComponent(id)}`, owner.cookie)).code, id).toBe(400);
    }
  });

  it("getEnterpriseUserByOrgId answers only the caller's own", async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    const path = '/api/front/hgdsel/set/getEnterpriseUserByOrgId';
    expect((await getJson<EnterpriseData>(t, `${path}?orgId=${owner.id}`, owner.cookie)).data.id).toBe(created.id);
    expect((await getJson(t, `${path}?orgId=${owner.id}`, other.cookie)).code).toBe(404);
    expect((await getJson(t, `${path}?orgId=${other.id}`, other.cookie)).code).toBe(404);
    expect((await getJson(t, `${path}?orgId=x`, other.cookie)).code).toBe(400);
    expect((await getJson(t, path, other.cookie)).code).toBe(400);
  });

  it('the seeded demo enterprise reads as certified with its names', async () => {
    const answer = await getJson<EnterpriseData>(t, `${base}/get`, await t.login('demo_company'));
    expect(answer.data).toMatchObject({
      enterpriseName: demoEnterprise.enterpriseName,
      authStatus: 2,
      industryName: '制造业',
      voltageLevel: 'kv10',
    });
  });
});

describe('edit', () => {
  it('saves the whole record and clears the draft flag', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await t.db.update(enterprises).set({ draft: true }).where(eq(enterprises.id, created.id));
    const record = fullRecord({
      enterpriseName: created.enterpriseName,
      creditCode: created.creditCode,
      clearanceAccount: created.clearanceAccount,
      address: '广州市越秀区新地址 9 号',
    });
    const answer = await postJson<EnterpriseData>(t, `${base}/edit`, { id: created.id, ...record }, owner.cookie);
    expect(answer).toMatchObject({
      code: 200,
      data: { address: '广州市越秀区新地址 9 号', draft: false, authStatus: 0 },
    });
  });

  it("another user's enterprise is 404 and unchanged; an incomplete record is 400", async () => {
    const owner = await newUser(t);
    const other = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    const before = await enterpriseRow(t, created.id);
    expect((await postJson(t, `${base}/edit`, { id: created.id, ...fullRecord() }, other.cookie)).code).toBe(404);
    const partial = fullRecord();
    delete partial['address'];
    expect((await postJson(t, `${base}/edit`, { id: created.id, ...partial }, owner.cookie)).code).toBe(400);
    expect(await enterpriseRow(t, created.id)).toEqual(before);
  });

  it('under review nothing is edited (409)', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await setStatus(created.id, 1);
    const answer = await postJson(t, `${base}/edit`, { id: created.id, ...fullRecord() }, owner.cookie);
    expect(answer).toMatchObject({ code: 409, message: '企业认证审核中，审核结束前不能修改' });
    expect(
      (await postJson(t, `${base}/editfield`, { id: created.id, field: 'address', value: '新地址 1 号' }, owner.cookie))
        .code,
    ).toBe(409);
    expect(
      (await postJson(t, `${base}/temporarySave`, { id: created.id, address: '新地址 1 号' }, owner.cookie)).code,
    ).toBe(409);
    expect((await enterpriseRow(t, created.id))?.address).toBe(created.address);
  });

  it('certified: a new name sends it back to review with a notice; other fields keep it certified', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await setStatus(created.id, 2);
    const same = {
      id: created.id,
      ...fullRecord({
        enterpriseName: created.enterpriseName,
        creditCode: created.creditCode,
        clearanceAccount: created.clearanceAccount,
      }),
    };
    const kept = await postJson<EnterpriseData>(t, `${base}/edit`, { ...same, contactName: '赵六' }, owner.cookie);
    expect(kept.data).toMatchObject({ authStatus: 2, contactName: '赵六' });
    const renamed = await postJson<EnterpriseData>(
      t,
      `${base}/edit`,
      { ...same, enterpriseName: `${created.enterpriseName}新` },
      owner.cookie,
    );
    expect(renamed.data).toMatchObject({ authStatus: 1, draft: false });
    expect(renamed.data.submittedAt).not.toBeNull();
    expect(await noticeKeys(t, owner.id)).toEqual(['enterprise.notice.backToReview']);
    expect(await auditActions(t, `enterprise:${created.id}`)).toEqual([
      'enterprise.add',
      'enterprise.edit',
      'enterprise.edit',
      'certification.backToReview',
    ]);
  });

  it('certified: a new credit code by editfield sends it back to review too', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await setStatus(created.id, 2);
    const answer = await postJson<EnterpriseData>(
      t,
      `${base}/editfield`,
      { id: created.id, field: 'creditCode', value: fullRecord()['creditCode'] },
      owner.cookie,
    );
    expect(answer.data.authStatus).toBe(1);
  });
});

describe('temporarySave', () => {
  it('creates a draft with a name and a clearance account only, and the enterprise role', async () => {
    const owner = await newUser(t);
    const record = fullRecord();
    const answer = await postJson<EnterpriseData>(
      t,
      `${base}/temporarySave`,
      { enterpriseName: record['enterpriseName'], clearanceAccount: record['clearanceAccount'], address: '' },
      owner.cookie,
    );
    expect(answer.data).toMatchObject({
      draft: true,
      authStatus: 0,
      creditCode: null,
      address: '',
      electricityAccounts: [],
    });
    const [row] = await t.db.select({ roles: users.roles }).from(users).where(eq(users.id, owner.id));
    expect(row?.roles).toEqual(['enterprise']);
  });

  it('creating needs both; each present field is checked; with id only the given fields change', async () => {
    const owner = await newUser(t);
    const missing = await postJson<{ errors: { field: string }[] }>(
      t,
      `${base}/temporarySave`,
      { legalPerson: '王五' },
      owner.cookie,
    );
    expect(missing.code).toBe(400);
    expect(missing.data.errors.map((e) => e.field)).toEqual(['enterpriseName', 'clearanceAccount']);
    const created = await addEnterprise(t, owner.cookie);
    const bad = await postJson(
      t,
      `${base}/temporarySave`,
      { id: created.id, creditCode: '123', legalPerson: '新法人' },
      owner.cookie,
    );
    expect(bad.code).toBe(400);
    expect((await enterpriseRow(t, created.id))?.legalPerson).toBe('王五');
    const good = await postJson<EnterpriseData>(
      t,
      `${base}/temporarySave`,
      { id: created.id, legalPerson: '新法人' },
      owner.cookie,
    );
    expect(good.data).toMatchObject({ legalPerson: '新法人', address: created.address, draft: true });
    const other = await newUser(t);
    expect(
      (await postJson(t, `${base}/temporarySave`, { id: created.id, legalPerson: '入侵者' }, other.cookie)).code,
    ).toBe(404);
    // A user who has one cannot create a second by draft.
    const second = fullRecord();
    expect(
      (
        await postJson(
          t,
          `${base}/temporarySave`,
          { enterpriseName: second['enterpriseName'], clearanceAccount: second['clearanceAccount'] },
          owner.cookie,
        )
      ).code,
    ).toBe(409);
  });
});

describe('editfield', () => {
  it("changes one allowed field; the value meets that field's rule, named in the message", async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    const phone = await postJson<EnterpriseData>(
      t,
      `${base}/editfield`,
      { id: created.id, field: 'contactPhone', value: '13912345678' },
      owner.cookie,
    );
    expect(phone.data.contactPhone).toBe('13912345678');
    const accounts = await postJson<EnterpriseData>(
      t,
      `${base}/editfield`,
      { id: created.id, field: 'electricityAccounts', value: 'X1234567,Y1234567' },
      owner.cookie,
    );
    expect(accounts.data.electricityAccounts).toEqual(['X1234567', 'Y1234567']);
    const bad = await postJson<{ errors: { field: string }[] }>(
      t,
      `${base}/editfield`,
      { id: created.id, field: 'contactPhone', value: '110' },
      owner.cookie,
    );
    expect(bad.code).toBe(400);
    expect(bad.message).toMatch(/联系电话/);
    expect(bad.data.errors[0]?.field).toBe('contactPhone');
    for (const field of ['authStatus', 'ownerUserId', 'reviewComment', '__proto__', 'id']) {
      expect(
        (await postJson(t, `${base}/editfield`, { id: created.id, field, value: '2' }, owner.cookie)).code,
        field,
      ).toBe(400);
    }
    expect(
      (await postJson(t, `${base}/editfield`, { id: created.id, field: 'areaCode', value: '123456' }, owner.cookie))
        .code,
    ).toBe(400);
    expect((await enterpriseRow(t, created.id))?.authStatus).toBe(0);
    const other = await newUser(t);
    expect(
      (
        await postJson(
          t,
          `${base}/editfield`,
          { id: created.id, field: 'address', value: '别人的地址 1 号' },
          other.cookie,
        )
      ).code,
    ).toBe(404);
  });
});

describe('editAuthInfo (submit for review)', () => {
  it('needs a complete record and both files; then goes to review with a notice and an audit row', async () => {
    const owner = await newUser(t);
    const record = fullRecord();
    const draft = await postJson<EnterpriseData>(
      t,
      `${base}/temporarySave`,
      { enterpriseName: record['enterpriseName'], clearanceAccount: record['clearanceAccount'] },
      owner.cookie,
    );
    const incomplete = await postJson(t, `${base}/editAuthInfo`, { id: draft.data.id }, owner.cookie);
    expect(incomplete.code).toBe(400);
    expect(incomplete.message).toMatch(/^企业信息不完整，请先填写：统一社会信用代码、法定代表人、联系人/);
    await postJson(t, `${base}/edit`, { id: draft.data.id, ...record }, owner.cookie);
    const noFiles = await postJson(t, `${base}/editAuthInfo`, { id: draft.data.id }, owner.cookie);
    expect(noFiles).toMatchObject({ code: 400, message: '请先上传：营业执照、授权委托书' });
    await withBothFiles(owner.cookie);
    const other = await newUser(t);
    expect((await postJson(t, `${base}/editAuthInfo`, { id: draft.data.id }, other.cookie)).code).toBe(404);
    const submitted = await postJson<EnterpriseData>(t, `${base}/editAuthInfo`, { id: draft.data.id }, owner.cookie);
    expect(submitted.data).toMatchObject({ authStatus: 1, authType: 'certificate', draft: false });
    expect(submitted.data.files.map((f) => f.kind)).toEqual(['authLetter', 'businessLicence']);
    expect(await noticeKeys(t, owner.id)).toEqual(['enterprise.notice.submitted']);
    expect((await auditActions(t, `enterprise:${draft.data.id}`)).at(-1)).toBe('certification.submit');
    const again = await postJson(t, `${base}/editAuthInfo`, { id: draft.data.id }, owner.cookie);
    expect(again).toMatchObject({ code: 409, message: '企业当前状态为“审核中”，不能提交认证' });
  });

  it('a returned enterprise may submit again, keeping the comment until the next review', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await withBothFiles(owner.cookie);
    await t.db
      .update(enterprises)
      .set({ authStatus: 3, reviewComment: '营业执照不清晰' })
      .where(eq(enterprises.id, created.id));
    const answer = await postJson<EnterpriseData>(t, `${base}/editAuthInfo`, { id: created.id }, owner.cookie);
    expect(answer.data).toMatchObject({ authStatus: 1, reviewComment: '营业执照不清晰' });
  });

  it('a certified enterprise cannot be submitted (409)', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await setStatus(created.id, 2);
    expect(await postJson(t, `${base}/editAuthInfo`, { id: created.id }, owner.cookie)).toMatchObject({
      code: 409,
      message: '企业当前状态为“已认证”，不能提交认证',
    });
  });
});

describe('del', () => {
  it('deletes a not-certified enterprise with its files (rows and bytes) and the enterprise role', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await withBothFiles(owner.cookie);
    const stored = await t.db
      .select({ storedName: enterpriseAuthFiles.storedName })
      .from(enterpriseAuthFiles)
      .where(eq(enterpriseAuthFiles.enterpriseId, created.id));
    expect(stored.every((file) => existsSync(path.join(t.dataDir, 'uploads', file.storedName)))).toBe(true);
    const other = await newUser(t);
    expect((await postJson(t, `${base}/del`, { id: created.id }, other.cookie)).code).toBe(404);
    expect(await postJson(t, `${base}/del`, { id: created.id }, owner.cookie)).toMatchObject({ code: 200, data: {} });
    expect(await enterpriseRow(t, created.id)).toBeUndefined();
    expect(await t.db.$count(enterpriseAuthFiles, eq(enterpriseAuthFiles.enterpriseId, created.id))).toBe(0);
    expect(stored.some((file) => existsSync(path.join(t.dataDir, 'uploads', file.storedName)))).toBe(false);
    const [row] = await t.db.select({ roles: users.roles }).from(users).where(eq(users.id, owner.id));
    expect(row?.roles).toEqual(['individual']);
    expect(await auditActions(t, `enterprise:${created.id}`)).toContain('enterprise.delete');
    // And the user may add a new one.
    await addEnterprise(t, owner.cookie);
  });

  it('refuses under review and certified (409), and with any order at all; nothing removed', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie);
    await setStatus(created.id, 1);
    expect(await postJson(t, `${base}/del`, { id: created.id }, owner.cookie)).toMatchObject({
      code: 409,
      message: '企业当前状态为“审核中”，不能删除',
    });
    await setStatus(created.id, 2);
    expect((await postJson(t, `${base}/del`, { id: created.id }, owner.cookie)).code).toBe(409);
    await setStatus(created.id, 3);
    await insertOrder(created.id, owner.id, 90);
    expect((await getJson<EnterpriseData>(t, `${base}/get`, owner.cookie)).data.canDelete).toBe(false);
    expect(await postJson(t, `${base}/del`, { id: created.id }, owner.cookie)).toMatchObject({
      code: 409,
      message: '企业已有订单，不能删除（订单需保留备查）',
    });
    expect(await enterpriseRow(t, created.id)).toMatchObject({ id: created.id, authStatus: 3 });
  });

  it('bad ids are 400', async () => {
    const owner = await newUser(t);
    for (const id of ['', 'x', -3, 0, 2 ** 40]) {
      expect((await postJson(t, `${base}/del`, { id }, owner.cookie)).code, String(id)).toBe(400);
    }
  });
});
