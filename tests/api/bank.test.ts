/**
 * Bank USB-key certification against the sandbox bank: getIcbcAccountInfo, the sandbox signer,
 * saveEmp and removeIcbcAuth — the whole flow, every refusal, and the bank's failures and
 * timeouts, which must leave nothing changed. Also: key certification needs the same complete
 * record as the document route, with the same refusal; and with BANK_PROVIDER=none (the default
 * once PUBLIC_ORIGIN is set) there is no sandbox signer and every bank call is 409 U盾认证未开通.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { EnterpriseData, IcbcAccountInfoData, UsbKeySignatureData } from '../../src/lib/schemas/enterprise.ts';
import {
  sandboxAccounts,
  sandboxPin,
  sandboxTrialEnterpriseName,
  type SandboxBehaviour,
} from '../../src/server/bank/sandbox.ts';
import { bankLookupRule } from '../../src/server/services/bankCertification.ts';
import { pruneExpired } from '../../src/server/housekeeping.ts';
import { bankBindings, bankChallenges, enterprises, orders } from '../../src/server/db/schema/index.ts';
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
  postJson,
} from './enterpriseCalls.ts';
import { apiHeaders, openPerFile, type TestApp } from './harness.ts';

const info = '/api/front/thirdparty/getIcbcAccountInfo';
const sign = '/api/sandbox/icbc/usbkey/sign';
const saveEmp = '/api/front/thirdparty/saveEmp';
const remove = '/api/front/user/removeIcbcAuth';

const t = openPerFile(createEnterpriseTestApp);

function account(behaviour: SandboxBehaviour): string {
  return sandboxAccounts.find((a) => a.accountName === sandboxTrialEnterpriseName && a.behaviour === behaviour)!
    .accountNo;
}

/** A new user with a not-certified enterprise held under the sandbox's trial name. */
async function trialOwner(): Promise<{ id: number; cookie: string; enterprise: EnterpriseData }> {
  const user = await newUser(t);
  return { ...user, enterprise: await addEnterprise(t, user.cookie, { enterpriseName: sandboxTrialEnterpriseName }) };
}

async function challengeFor(cookie: string, accountNo: string): Promise<IcbcAccountInfoData> {
  const answer = await getJson<IcbcAccountInfoData>(t, `${info}?accountNo=${accountNo}`, cookie);
  expect(answer.code, answer.message).toBe(200);
  return answer.data;
}

async function signed(cookie: string, accountNo: string, challenge: string): Promise<UsbKeySignatureData> {
  const answer = await postJson<UsbKeySignatureData>(t, sign, { accountNo, pin: sandboxPin, challenge }, cookie);
  expect(answer.code, answer.message).toBe(200);
  return answer.data;
}

/** What "nothing changed" compares: the enterprise row, its binding, its unused challenges. */
async function snapshot(enterpriseId: number) {
  return {
    enterprise: await enterpriseRow(t, enterpriseId),
    bindings: await t.db.select().from(bankBindings).where(eq(bankBindings.enterpriseId, enterpriseId)),
    challenges: await t.db.select().from(bankChallenges).where(eq(bankChallenges.enterpriseId, enterpriseId)),
  };
}

describe('the whole flow', () => {
  it('lookup → sign → saveEmp certifies (2, usbkey) with a masked binding, audit and notice; removal makes it 0 again', async () => {
    const owner = await trialOwner();
    const accountNo = account('normal');
    const lookup = await challengeFor(owner.cookie, accountNo);
    expect(lookup).toEqual({
      accountNo,
      accountName: sandboxTrialEnterpriseName,
      bankName: '中国工商银行',
      branchName: expect.stringContaining('支行'),
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      expiresAt: expect.any(String),
    });
    const lifetime = new Date(lookup.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(290_000);
    expect(lifetime).toBeLessThanOrEqual(300_000);
    // Only the challenge's hash is kept.
    const [stored] = await t.db
      .select()
      .from(bankChallenges)
      .where(eq(bankChallenges.enterpriseId, owner.enterprise.id));
    expect(stored?.id).toBe(createHash('sha256').update(lookup.challenge).digest('hex'));

    const key = await signed(owner.cookie, accountNo, lookup.challenge);
    const answer = await postJson<EnterpriseData>(
      t,
      saveEmp,
      { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge, ...key },
      owner.cookie,
    );
    expect(answer).toMatchObject({ code: 200, message: 'U盾认证成功', data: { authStatus: 2, authType: 'usbkey' } });
    expect(answer.data.bankBinding).toEqual({
      bank: 'icbc',
      accountNoMasked: `${accountNo.slice(0, 4)} **** **** ${accountNo.slice(-4)}`,
      accountName: sandboxTrialEnterpriseName,
      empName: '王五',
      boundAt: expect.any(String),
    });
    expect(JSON.stringify(answer.data)).not.toContain(accountNo);
    // Kept encrypted: neither the binding nor the challenge holds the number.
    const kept = [
      ...(await t.db.select().from(bankBindings).where(eq(bankBindings.enterpriseId, owner.enterprise.id))),
      ...(await t.db.select().from(bankChallenges).where(eq(bankChallenges.enterpriseId, owner.enterprise.id))),
    ];
    expect(kept).toHaveLength(2);
    for (const row of kept) {
      expect(row.accountNoKey).toEqual(expect.any(Number));
      expect(JSON.stringify(row)).not.toContain(accountNo.slice(-8));
    }
    expect(await auditActions(t, `enterprise:${owner.enterprise.id}`)).toEqual([
      'enterprise.add',
      'certification.usbkey',
    ]);
    expect(await noticeKeys(t, owner.id)).toEqual(['enterprise.notice.bankCertified']);

    // Once certified, no second lookup or save.
    expect((await getJson(t, `${info}?accountNo=${accountNo}`, owner.cookie)).code).toBe(409);

    const removed = await postJson<EnterpriseData>(t, remove, {}, owner.cookie);
    expect(removed).toMatchObject({ code: 200, data: { authStatus: 0, authType: null, bankBinding: null } });
    expect(await noticeKeys(t, owner.id)).toEqual(['enterprise.notice.bankCertified', 'enterprise.notice.bankRemoved']);
    expect((await auditActions(t, `enterprise:${owner.enterprise.id}`)).at(-1)).toBe('certification.usbkeyRemove');

    // The challenge was single use: after the removal the same one is refused.
    const reused = await postJson(
      t,
      saveEmp,
      { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge, ...key },
      owner.cookie,
    );
    expect(reused).toMatchObject({ code: 400, message: '签名挑战码无效或已过期，请重新查询账户' });
  });

  it('the seeded enterprises under review hold sandbox accounts in their names (refused while under review)', async () => {
    const cookie = await t.login('demo_foshan');
    const foshan = sandboxAccounts.find((a) => a.accountName === '佛山华瑞新材料有限公司')!;
    expect(await getJson(t, `${info}?accountNo=${foshan.accountNo}`, cookie)).toMatchObject({
      code: 409,
      message: '企业认证审核中，不能进行U盾认证',
    });
  });
});

describe('getIcbcAccountInfo refusals', () => {
  it('no session 901, no enterprise 404, bad number 400, unknown account 400, frozen 409, another name 409', async () => {
    expect((await getJson(t, `${info}?accountNo=${account('normal')}`)).code).toBe(901);
    const loner = await newUser(t);
    expect((await getJson(t, `${info}?accountNo=${account('normal')}`, loner.cookie)).code).toBe(404);
    const owner = await trialOwner();
    const before = await snapshot(owner.enterprise.id);
    for (const bad of ['', 'abc', '123', '1'.repeat(33), "6222' or '1'='1", '../../etc']) {
      expect((await getJson(t, `${info}?accountNo=${encodeURIComponent(bad)}`, owner.cookie)).code, bad).toBe(400);
    }
    expect(await getJson(t, `${info}?accountNo=6222021001999999999`, owner.cookie)).toMatchObject({
      code: 400,
      message: '银行未找到该账号，请核对后重新输入',
    });
    expect(await getJson(t, `${info}?accountNo=${account('frozen')}`, owner.cookie)).toMatchObject({
      code: 409,
      message: '该银行账户已冻结，不能用于认证',
    });
    const demoAccount = sandboxAccounts.find((a) => a.accountName === '广州明珠精密制造有限公司')!.accountNo;
    const mismatch = await getJson(t, `${info}?accountNo=${demoAccount}`, owner.cookie);
    expect(mismatch.code).toBe(409);
    // The other holder's name is not given away.
    expect(mismatch.message).not.toContain('广州明珠');
    expect(await snapshot(owner.enterprise.id)).toEqual(before);
  });

  it('the bank failing (503) or not answering in time (503) leaves nothing behind', async () => {
    const owner = await trialOwner();
    const before = await snapshot(owner.enterprise.id);
    expect(await getJson(t, `${info}?accountNo=${account('lookupFails')}`, owner.cookie)).toMatchObject({
      code: 503,
      message: '银行服务暂时不可用，请稍后再试，本次操作未做任何更改',
    });
    const started = Date.now();
    expect(await getJson(t, `${info}?accountNo=${account('lookupTimesOut')}`, owner.cookie)).toMatchObject({
      code: 503,
      message: '银行响应超时，请稍后再试，本次操作未做任何更改',
    });
    // BANK_TIMEOUT_MS is 400 in these tests: the caller waits that long, not for ever.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await snapshot(owner.enterprise.id)).toEqual(before);
  });

  it('an enterprise under review or certified cannot start (409)', async () => {
    const owner = await trialOwner();
    await t.db.update(enterprises).set({ authStatus: 1 }).where(eq(enterprises.id, owner.enterprise.id));
    expect((await getJson(t, `${info}?accountNo=${account('normal')}`, owner.cookie)).code).toBe(409);
    expect((await getJson(t, `${info}?accountNo=${account('normal')}`, await t.login('demo_company'))).message).toBe(
      '企业已认证，无需再次认证',
    );
  });
});

describe('the sandbox signer', () => {
  it('needs a session, the demo PIN and an account it has a key for', async () => {
    const owner = await trialOwner();
    const challenge = 'a'.repeat(64);
    expect((await postJson(t, sign, { accountNo: account('normal'), pin: sandboxPin, challenge })).code).toBe(901);
    expect(
      await postJson(t, sign, { accountNo: account('normal'), pin: '000000', challenge }, owner.cookie),
    ).toMatchObject({ code: 400, message: 'U盾密码错误' });
    expect(
      (await postJson(t, sign, { accountNo: '6222021001999999999', pin: sandboxPin, challenge }, owner.cookie)).code,
    ).toBe(400);
    expect(
      (await postJson(t, sign, { accountNo: account('normal'), pin: '12345', challenge }, owner.cookie)).code,
    ).toBe(400);
    expect(
      (await postJson(t, sign, { accountNo: account('normal'), pin: sandboxPin, challenge: 'not-hex' }, owner.cookie))
        .code,
    ).toBe(400);
    const one = await signed(owner.cookie, account('normal'), challenge);
    const two = await signed(owner.cookie, account('normal'), challenge);
    // Ed25519 is deterministic: the same key signs the same text the same way.
    expect(one).toEqual(two);
    expect(one.certSerial).toMatch(/^SBX-[0-9A-F]{16}$/);
  });
});

describe('saveEmp refusals', () => {
  it("a signature over another challenge, by another account's key or with another serial is refused; nothing changes", async () => {
    const owner = await trialOwner();
    const accountNo = account('normal');
    const lookup = await challengeFor(owner.cookie, accountNo);
    const before = await snapshot(owner.enterprise.id);
    const body = { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge };
    const otherChallenge = await signed(owner.cookie, accountNo, 'b'.repeat(64));
    const otherAccount = await signed(owner.cookie, account('frozen'), lookup.challenge);
    const good = await signed(owner.cookie, accountNo, lookup.challenge);
    for (const key of [
      otherChallenge,
      { ...good, signature: otherAccount.signature },
      { ...good, certSerial: otherAccount.certSerial },
      { ...good, signature: `${good.signature.slice(0, -4)}AAA=` },
    ]) {
      expect(await postJson(t, saveEmp, { ...body, ...key }, owner.cookie)).toMatchObject({
        code: 400,
        message: 'U盾签名校验未通过',
      });
    }
    expect(await snapshot(owner.enterprise.id)).toEqual(before);
    // The challenge is still good for the right signature.
    expect((await postJson<EnterpriseData>(t, saveEmp, { ...body, ...good }, owner.cookie)).data.authStatus).toBe(2);
  });

  it("an expired challenge, another enterprise's challenge, or one for another account is refused", async () => {
    const owner = await trialOwner();
    const other = await trialOwner();
    const accountNo = account('normal');
    const mine = await challengeFor(owner.cookie, accountNo);
    const theirs = await challengeFor(other.cookie, accountNo);
    const body = { accountNo, empName: '王五', empNo: 'E1001' };
    // Another enterprise's challenge, validly signed.
    const theirKey = await signed(other.cookie, accountNo, theirs.challenge);
    expect((await postJson(t, saveEmp, { ...body, challenge: theirs.challenge, ...theirKey }, owner.cookie)).code).toBe(
      400,
    );
    // My challenge presented for another account.
    const otherAccountKey = await signed(owner.cookie, account('saveFails'), mine.challenge);
    expect(
      (
        await postJson(
          t,
          saveEmp,
          { ...body, accountNo: account('saveFails'), challenge: mine.challenge, ...otherAccountKey },
          owner.cookie,
        )
      ).code,
    ).toBe(400);
    // Expired.
    await t.db
      .update(bankChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(bankChallenges.enterpriseId, owner.enterprise.id));
    const myKey = await signed(owner.cookie, accountNo, mine.challenge);
    expect(await postJson(t, saveEmp, { ...body, challenge: mine.challenge, ...myKey }, owner.cookie)).toMatchObject({
      code: 400,
      message: '签名挑战码无效或已过期，请重新查询账户',
    });
    expect((await enterpriseRow(t, owner.enterprise.id))?.authStatus).toBe(0);
    expect((await enterpriseRow(t, other.enterprise.id))?.authStatus).toBe(0);
  });

  it('the bank failing or timing out on saveEmp answers 503 and changes nothing; the challenge stays usable', async () => {
    for (const behaviour of ['saveFails', 'saveTimesOut'] as const) {
      const owner = await trialOwner();
      const accountNo = account(behaviour);
      const lookup = await challengeFor(owner.cookie, accountNo);
      const key = await signed(owner.cookie, accountNo, lookup.challenge);
      const before = await snapshot(owner.enterprise.id);
      const answer = await postJson(
        t,
        saveEmp,
        { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge, ...key },
        owner.cookie,
      );
      expect(answer.code, behaviour).toBe(503);
      expect(answer.message).toBe(
        behaviour === 'saveFails'
          ? '银行服务暂时不可用，请稍后再试，本次操作未做任何更改'
          : '银行响应超时，请稍后再试，本次操作未做任何更改',
      );
      expect(await snapshot(owner.enterprise.id)).toEqual(before);
      expect(await noticeKeys(t, owner.id)).toEqual([]);
    }
  });

  it('bad bodies are 400; no session 901; no enterprise 404', async () => {
    const owner = await trialOwner();
    const good = {
      accountNo: account('normal'),
      empName: '王五',
      empNo: 'E1001',
      challenge: 'c'.repeat(64),
      signature: 'A'.repeat(86),
      certSerial: 'SBX-0000',
    };
    for (const [field, value] of [
      ['empName', ''],
      ['empNo', 'E 1001; drop'],
      ['challenge', 'C'.repeat(64)],
      ['signature', '<script>alert(1)</script>'],
      ['certSerial', '../../key'],
      ['accountNo', 'abc'],
    ] as const) {
      expect((await postJson(t, saveEmp, { ...good, [field]: value }, owner.cookie)).code, field).toBe(400);
    }
    expect((await postJson(t, saveEmp, good)).code).toBe(901);
    const loner = await newUser(t);
    expect((await postJson(t, saveEmp, good, loner.cookie)).code).toBe(404);
  });
});

describe('removeIcbcAuth refusals', () => {
  it('not bound 409; open orders 409 and nothing changes; no enterprise 404; no session 901', async () => {
    const owner = await trialOwner();
    expect(await postJson(t, remove, {}, owner.cookie)).toMatchObject({ code: 409, message: '企业没有绑定的U盾账户' });
    const accountNo = account('normal');
    const lookup = await challengeFor(owner.cookie, accountNo);
    const key = await signed(owner.cookie, accountNo, lookup.challenge);
    await postJson(
      t,
      saveEmp,
      { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge, ...key },
      owner.cookie,
    );
    for (const status of [10, 20, 30]) {
      await t.db.delete(orders).where(eq(orders.enterpriseId, owner.enterprise.id));
      await t.db.insert(orders).values({
        orderNo: `HGD20261122${String(900000 + status + owner.id).slice(-6)}`,
        enterpriseId: owner.enterprise.id,
        userId: owner.id,
        areaCode: '440000',
        productId: 'id1',
        setId: 's',
        setName: '测试套餐',
        sellingSetId: 'ss',
        orgComId: 'o',
        orgComName: '测试售电公司',
        schemeParamId: 'p',
        schemeParam: {},
        contractStart: '2027-01-01',
        contractMonths: 12,
        estimatedConsumption: '100.000',
        status,
      });
      const before = await snapshot(owner.enterprise.id);
      expect(await postJson(t, remove, {}, owner.cookie)).toMatchObject({
        code: 409,
        message: expect.stringContaining('未完成的订单'),
      });
      expect(await snapshot(owner.enterprise.id)).toEqual(before);
    }
    // A completed order does not hold it.
    await t.db.update(orders).set({ status: 40 }).where(eq(orders.enterpriseId, owner.enterprise.id));
    expect((await postJson<EnterpriseData>(t, remove, {}, owner.cookie)).data.authStatus).toBe(0);

    const loner = await newUser(t);
    expect((await postJson(t, remove, {}, loner.cookie)).code).toBe(404);
    expect((await postJson(t, remove, {})).code).toBe(901);
  });

  it('a bank failure on removal answers 503 and keeps the binding', async () => {
    const owner = await trialOwner();
    const accountNo = account('normal');
    const lookup = await challengeFor(owner.cookie, accountNo);
    const key = await signed(owner.cookie, accountNo, lookup.challenge);
    await postJson(
      t,
      saveEmp,
      { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge, ...key },
      owner.cookie,
    );
    // The account starts failing at the bank after the binding was made.
    await t.db
      .update(bankBindings)
      .set({ accountNo: account('saveFails'), accountNoKey: null })
      .where(eq(bankBindings.enterpriseId, owner.enterprise.id));
    const before = await snapshot(owner.enterprise.id);
    expect((await postJson(t, remove, {}, owner.cookie)).code).toBe(503);
    expect(await snapshot(owner.enterprise.id)).toEqual(before);
  });
});

describe('lookup limit', () => {
  it('allows 20 account lookups per user and hour, then 429 without asking the bank', async () => {
    const owner = await trialOwner();
    for (let i = 0; i < bankLookupRule.limit; i += 1) {
      expect((await getJson(t, `${info}?accountNo=6222021001999999999`, owner.cookie)).code).toBe(400);
    }
    const refused = await getJson(t, `${info}?accountNo=${account('normal')}`, owner.cookie);
    expect(refused).toMatchObject({
      code: 429,
      message: expect.stringMatching(/^银行账户查询过于频繁，请 \d+ 分钟后再试$/),
    });
    expect(await t.db.$count(bankChallenges, eq(bankChallenges.enterpriseId, owner.enterprise.id))).toBe(0);
  });
});

describe('housekeeping', () => {
  it('drops challenges a day past their expiry and keeps the rest', async () => {
    const owner = await trialOwner();
    const live = await challengeFor(owner.cookie, account('normal'));
    await t.db.insert(bankChallenges).values({
      id: 'd'.repeat(64),
      enterpriseId: owner.enterprise.id,
      accountNo: account('normal'),
      createdAt: new Date(Date.now() - 3 * 86_400_000),
      expiresAt: new Date(Date.now() - 2 * 86_400_000),
    });
    expect((await pruneExpired(t.db)).bankChallenges).toBe(1);
    const left = await t.db
      .select({ id: bankChallenges.id })
      .from(bankChallenges)
      .where(eq(bankChallenges.enterpriseId, owner.enterprise.id));
    expect(left.map((row) => row.id)).toEqual([createHash('sha256').update(live.challenge).digest('hex')]);
  });
});

describe('the complete record (the same rule as the document route)', () => {
  /** A user whose enterprise has only the sandbox trial name and a clearance account (a draft, as binding makes). */
  async function bareOwner(): Promise<{ id: number; cookie: string; enterpriseId: number }> {
    const user = await newUser(t);
    const draft = await postJson<EnterpriseData>(
      t,
      `${base}/temporarySave`,
      { enterpriseName: sandboxTrialEnterpriseName, clearanceAccount: fullRecord()['clearanceAccount'] },
      user.cookie,
    );
    expect(draft.code, draft.message).toBe(200);
    return { ...user, enterpriseId: draft.data.id };
  }

  /** The same call in English. */
  async function inEnglish(method: 'GET' | 'POST', pathName: string, cookie: string, body?: unknown) {
    const response = await t.app.request(pathName, {
      method,
      headers: apiHeaders({
        Cookie: cookie,
        'Accept-Language': 'en-US',
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      }),
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await response.json()) as { code: number; message: string; data: unknown };
  }

  it('a record with only a name and a clearance account is refused by the lookup exactly as by editAuthInfo; the bank is not asked', async () => {
    const owner = await bareOwner();
    const documents = await postJson(t, `${base}/editAuthInfo`, { id: owner.enterpriseId }, owner.cookie);
    expect(documents.code).toBe(400);
    expect(documents.message).toBe(
      '企业信息不完整，请先填写：统一社会信用代码、法定代表人、联系人、联系电话、地址、行业、地区编码、电压等级、用电户号',
    );
    const usbKey = await getJson(t, `${info}?accountNo=${account('normal')}`, owner.cookie);
    expect(usbKey).toEqual(documents);
    // In the caller's locale, the same again.
    const documentsEn = await inEnglish('POST', `${base}/editAuthInfo`, owner.cookie, { id: owner.enterpriseId });
    expect(documentsEn.message).toMatch(/^The enterprise record is incomplete; please fill in: /);
    expect(await inEnglish('GET', `${info}?accountNo=${account('normal')}`, owner.cookie)).toEqual(documentsEn);
    // Refused before a challenge was made (and before a lookup was counted against the limit).
    expect(await t.db.$count(bankChallenges, eq(bankChallenges.enterpriseId, owner.enterpriseId))).toBe(0);
    expect((await enterpriseRow(t, owner.enterpriseId))?.authStatus).toBe(0);
  });

  it('saveEmp refuses a record emptied since the challenge, with the same answer; nothing changes', async () => {
    const owner = await trialOwner();
    const accountNo = account('normal');
    const lookup = await challengeFor(owner.cookie, accountNo);
    const key = await signed(owner.cookie, accountNo, lookup.challenge);
    await t.db
      .update(enterprises)
      .set({ creditCode: null, legalPerson: '', electricityAccounts: [] })
      .where(eq(enterprises.id, owner.enterprise.id));
    const before = await snapshot(owner.enterprise.id);
    const usbKey = await postJson(
      t,
      saveEmp,
      { accountNo, empName: '王五', empNo: 'E1001', challenge: lookup.challenge, ...key },
      owner.cookie,
    );
    const documents = await postJson(t, `${base}/editAuthInfo`, { id: owner.enterprise.id }, owner.cookie);
    expect(documents).toMatchObject({
      code: 400,
      message: '企业信息不完整，请先填写：统一社会信用代码、法定代表人、用电户号',
    });
    expect(usbKey).toEqual(documents);
    expect(await snapshot(owner.enterprise.id)).toEqual(before);
    expect(await noticeKeys(t, owner.id)).toEqual([]);
  });

  it('GET getUsbKeyBank tells the page the sandbox of demo mode is on, without a session', async () => {
    expect(await getJson(t, '/api/front/thirdparty/getUsbKeyBank')).toEqual({
      code: 200,
      message: expect.any(String),
      data: { provider: 'sandbox', available: true, sandbox: true, demoPin: sandboxPin },
    });
  });
});

describe('BANK_PROVIDER=none (the default once PUBLIC_ORIGIN is set)', () => {
  const none = openPerFile(() => createEnterpriseTestApp({ env: { PUBLIC_ORIGIN: 'https://portal.example.com' } }));

  async function ownerOn(app: TestApp): Promise<{ cookie: string; enterprise: EnterpriseData }> {
    const user = await newUser(app);
    return {
      ...user,
      enterprise: await addEnterprise(app, user.cookie, { enterpriseName: sandboxTrialEnterpriseName }),
    };
  }

  it('is the provider, and the page is told USB-key certification is not available', async () => {
    expect(none.config.bankProvider).toBe('none');
    expect((await getJson(none, '/api/front/thirdparty/getUsbKeyBank')).data).toEqual({
      provider: 'none',
      available: false,
      sandbox: false,
      demoPin: null,
    });
  });

  it('the sandbox signer is not mounted: HTTP 404', async () => {
    const owner = await ownerOn(none);
    const response = await none.app.request(sign, {
      method: 'POST',
      headers: apiHeaders({ 'Content-Type': 'application/json', Cookie: owner.cookie }),
      body: JSON.stringify({ accountNo: account('normal'), pin: sandboxPin, challenge: 'a'.repeat(64) }),
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { code: number }).code).toBe(404);
  });

  it("lookup, saveEmp and removeIcbcAuth answer 409 U盾认证未开通 (in the caller's locale); nothing changes", async () => {
    const owner = await ownerOn(none);
    const before = await enterpriseRow(none, owner.enterprise.id);
    const notEnabled = { code: 409, message: 'U盾认证未开通' };
    expect(await getJson(none, `${info}?accountNo=${account('normal')}`, owner.cookie)).toMatchObject(notEnabled);
    const body = {
      accountNo: account('normal'),
      empName: '王五',
      empNo: 'E1001',
      challenge: 'c'.repeat(64),
      signature: 'A'.repeat(86),
      certSerial: 'SBX-0000',
    };
    expect(await postJson(none, saveEmp, body, owner.cookie)).toMatchObject(notEnabled);
    expect(await postJson(none, remove, {}, owner.cookie)).toMatchObject(notEnabled);
    const english = await none.app.request(`${info}?accountNo=${account('normal')}`, {
      headers: { Cookie: owner.cookie, 'Accept-Language': 'en-US' },
    });
    expect(await english.json()).toMatchObject({ code: 409, message: 'USB-key certification is not available' });
    expect(await enterpriseRow(none, owner.enterprise.id)).toEqual(before);
    expect(await none.db.$count(bankChallenges, eq(bankChallenges.enterpriseId, owner.enterprise.id))).toBe(0);
    // Without a session it is still 901 first.
    expect((await getJson(none, `${info}?accountNo=${account('normal')}`)).code).toBe(901);
  });
});
