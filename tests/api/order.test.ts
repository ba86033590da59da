/**
 * /api/front/hgdsel/order/*: the ordering guide, placing an order (every rule, bad and hostile
 * input), its detail, cancel (a GET with the POST's CSRF protections) and delete, and ownership.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { localizeSiteContent } from '../../src/content/localized.ts';
import { getOrgCom, getProduct, getSet } from '../../src/content/query.ts';
import type { OrderDetailData, OrderGuideData } from '../../src/lib/schemas/order.ts';
import { auditLog, enterprises, notices, orders } from '../../src/server/db/schema/index.ts';
import { get, post, postForm, type Envelope } from './accountCalls.ts';
import {
  addEnterpriseUser,
  createOrderTestApp,
  type EnterpriseUser,
  freezeDate,
  getWithHeaders,
  goodOrder,
  orderRow,
} from './orderFixtures.ts';
import { apiHeaders, openPerFile } from './harness.ts';

const base = '/api/front/hgdsel/order';

const t = openPerFile(createOrderTestApp);
let company: string;
let rival: EnterpriseUser;

beforeAll(async () => {
  company = await t.login('demo_company');
  rival = await addEnterpriseUser(t, { userName: 'rival_co', mobile: '13900000001' });
});

async function create(body: Record<string, string | number>, cookie = company): Promise<Envelope<OrderDetailData>> {
  return post<OrderDetailData>(t, `${base}/createCustomerOrder`, body, { cookie });
}

async function tableCount(): Promise<number> {
  const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(orders);
  return Number(row?.n ?? 0);
}

describe('GET getListByGuideType', () => {
  it('answers 901 without a session', async () => {
    expect((await get(t, `${base}/getListByGuideType`)).code).toBe(901);
  });

  it("lists the enterprise's area's online sets on sale today, grouped by product", async () => {
    const answer = await get<OrderGuideData>(t, `${base}/getListByGuideType`, { cookie: company });
    expect(answer.code).toBe(200);
    const sets = answer.data.flatMap((product) => product.sets);
    const sellingIds = sets.flatMap((set) => set.sellingSets.map((s) => s.sellingSetId));
    expect(sellingIds).toContain('gd-fixed-2027-yuehui');
    // Offline (gd-share-large-2027) is not offered.
    expect(sets.map((set) => set.setId)).not.toContain('gd-share-large-2027');
    expect(answer.data[0]).toEqual({
      productId: expect.stringMatching(/^id[1-5]$/),
      productName: expect.any(String),
      sets: expect.arrayContaining([
        {
          setId: expect.any(String),
          name: expect.any(String),
          summary: expect.any(String),
          sellingSets: expect.arrayContaining([
            {
              sellingSetId: expect.any(String),
              orgComId: expect.any(String),
              orgComName: expect.any(String),
              validFrom: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
              validTo: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            },
          ]),
        },
      ]),
    });
    // Only Guangdong's selling sets: every id of this content starts with its region's prefix.
    expect(sellingIds.every((id) => id.startsWith('gd-'))).toBe(true);
  });

  it('takes another area and a product, and refuses bad ones', async () => {
    const gx = await get<OrderGuideData>(t, `${base}/getListByGuideType?areaCode=450000&productId=id1`, {
      cookie: company,
    });
    expect(gx.code).toBe(200);
    expect(gx.data.every((product) => product.productId === 'id1')).toBe(true);
    expect(gx.data.flatMap((p) => p.sets).every((set) => !set.setId.startsWith('gd-'))).toBe(true);
    expect((await get(t, `${base}/getListByGuideType?areaCode=999999`, { cookie: company })).code).toBe(404);
    expect((await get(t, `${base}/getListByGuideType?areaCode=44'--`, { cookie: company })).code).toBe(400);
    expect((await get(t, `${base}/getListByGuideType?productId=id9`, { cookie: company })).code).toBe(400);
  });

  it('serves a signed-in user without an enterprise the default region', async () => {
    const answer = await get<OrderGuideData>(t, `${base}/getListByGuideType`, { cookie: await t.login('demo_person') });
    expect(answer.code).toBe(200);
    expect(answer.data.flatMap((p) => p.sets).every((set) => set.setId.startsWith('gd-'))).toBe(true);
  });
});

describe('POST createCustomerOrder', () => {
  it('creates a submitted order with history, a notice and an audit row', async () => {
    const answer = await create({ ...goodOrder });
    expect(answer.code).toBe(200);
    expect(answer.message).toBe('订单已提交，请等待售电公司受理');
    const detail = answer.data;
    expect(detail.orderNo).toMatch(/^HGD20261122\d{6}$/);
    expect(detail).toMatchObject({
      status: 10,
      statusReason: '',
      areaCode: '440000',
      areaName: '广东省',
      productId: 'id1',
      setId: 'gd-fixed-2027',
      sellingSetId: 'gd-fixed-2027-yuehui',
      orgComId: 'yuehui-dianneng',
      contractStart: '2027-01',
      contractEnd: '2027-12',
      contractMonths: 12,
      estimatedConsumption: 8600,
      allowedActions: ['cancel'],
      canDelete: false,
      deletedAt: null,
      enterprise: { enterpriseName: '广州明珠精密制造有限公司', clearanceAccount: '0300012345678' },
      schemeParam: {
        schemeParamId: 'gd-fixed-2027-10kv',
        priceType: 'energyPrice',
        energyPrice: 0.392,
        contractMonths: [12],
      },
    });
    expect(detail.history).toEqual([
      { fromStatus: null, toStatus: 10, actorRole: 'enterprise', note: '', at: expect.any(String) },
    ]);
    expect(detail.notices).toHaveLength(1);
    expect(detail.notices[0]?.title).toBe('订单已提交');
    expect(detail.notices[0]?.description).toContain(detail.orderNo);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `order:${detail.orderNo}`));
    expect(audit.map((row) => row.action)).toEqual(['order.create']);
  });

  it('refuses a second open order for the same selling set (409), and allows another selling set', async () => {
    const before = await tableCount();
    const again = await create({ ...goodOrder });
    expect(again.code).toBe(409);
    expect(again.message).toMatch(/^该在售套餐已有未完结的订单 HGD\d{14}/);
    expect(await tableCount()).toBe(before);
    const other = await create({ ...goodOrder, sellingSetId: 'gd-fixed-2027-nanfang' });
    expect(other.code).toBe(200);
    expect(other.data.orderNo).not.toBe('');
  });

  it('takes a JSON body too', async () => {
    const response = await t.app.request(`${base}/createCustomerOrder`, {
      method: 'POST',
      headers: apiHeaders({ Cookie: company, 'Content-Type': 'application/json' }),
      body: JSON.stringify({
        ...goodOrder,
        sellingSetId: 'gd-fixed-sme-2027-yuehui',
        schemeParamId: 'gd-fixed-sme-2027-10kv',
        estimatedConsumption: 3000,
      }),
    });
    const answer = (await response.json()) as Envelope<OrderDetailData>;
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ setId: 'gd-fixed-sme-2027', estimatedConsumption: 3000 });
  });

  it('answers 901 without a session and 403 CSRF without the headers', async () => {
    expect((await post(t, `${base}/createCustomerOrder`, { ...goodOrder })).code).toBe(901);
    const response = await t.app.request(`${base}/createCustomerOrder`, {
      method: 'POST',
      headers: { Cookie: company, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...goodOrder, contractMonths: '12', estimatedConsumption: '8600' }).toString(),
    });
    expect(((await response.json()) as Envelope).code).toBe(403);
  });

  it('is forbidden (403) to a user without an enterprise', async () => {
    const answer = await create({ ...goodOrder }, await t.login('demo_person'));
    expect(answer).toMatchObject({ code: 403, message: '请先绑定或添加企业，再办理订单' });
  });

  it('refuses an enterprise that is not certified (409), in each uncertified status', async () => {
    for (const [i, authStatus] of [0, 1, 3].entries()) {
      const user = await addEnterpriseUser(t, {
        userName: `uncert_${authStatus}`,
        mobile: `1390000010${i}`,
        authStatus,
      });
      const answer = await create({ ...goodOrder }, user.cookie);
      expect(answer).toMatchObject({ code: 409, message: '企业尚未通过认证，认证通过后才能下单' });
    }
  });

  it('refuses what is not on sale in the enterprise area (409): other region, offline set', async () => {
    const before = await tableCount();
    // Guangxi's selling sets are not for a Guangdong enterprise.
    const gx = await get<OrderGuideData>(t, `${base}/getListByGuideType?areaCode=450000`, { cookie: company });
    const gxSet = gx.data[0]?.sets[0];
    const gxSelling = gxSet?.sellingSets[0]?.sellingSetId ?? '';
    expect(gxSelling).not.toBe('');
    expect((await create({ ...goodOrder, sellingSetId: gxSelling })).code).toBe(409);
    const offline = await create({
      ...goodOrder,
      sellingSetId: 'gd-share-large-2027-yuehui',
      schemeParamId: 'gd-share-large-2027-large',
    });
    expect(offline).toMatchObject({ code: 409, message: '该套餐当前不在贵企业所在地区销售，请重新选择' });
    expect(await tableCount()).toBe(before);
  });

  it('refuses a selling set outside its validity dates (409)', async () => {
    // gd-fixed-2027-nanfang starts on 2026-11-01: before then it is not on sale.
    const user = await addEnterpriseUser(t, { userName: 'early_co', mobile: '13900000201' });
    const { vi } = await import('vitest');
    vi.setSystemTime(new Date('2026-10-20T02:00:00Z'));
    try {
      const answer = await create(
        { ...goodOrder, sellingSetId: 'gd-fixed-2027-nanfang', contractStart: '2026-12' },
        user.cookie,
      );
      expect(answer.code).toBe(409);
    } finally {
      freezeDate();
    }
  });

  it('answers 404 for a selling set that does not exist', async () => {
    expect((await create({ ...goodOrder, sellingSetId: 'no-such-selling-set' })).code).toBe(404);
  });

  it('checks the plan parameters, months, consumption and start month (400 naming the field)', async () => {
    const user = await addEnterpriseUser(t, { userName: 'rules_co', mobile: '13900000301' });
    const before = await tableCount();
    const cases: [Record<string, string | number>, string, RegExp][] = [
      [{ schemeParamId: 'gd-share-2027-std' }, 'schemeParamId', /不属于该套餐/],
      [{ schemeParamId: 'gd-fixed-2027-35kv', estimatedConsumption: 9000 }, 'schemeParamId', /电压等级/],
      [{ contractMonths: 24 }, 'contractMonths', /不提供 24 个月的合同期，可选：12 个月/],
      [{ estimatedConsumption: 999 }, 'estimatedConsumption', /1000 至 50000/],
      [{ estimatedConsumption: 50000.5 }, 'estimatedConsumption', /1000 至 50000/],
      [{ contractStart: '2026-11' }, 'contractStart', /下月起 12 个月/],
      [{ contractStart: '2027-12' }, 'contractStart', /下月起 12 个月/],
      [{ contractStart: '2027-13' }, 'contractStart', /格式/],
      [{ contractMonths: 0 }, 'contractMonths', /./],
      [{ contractMonths: 1.5 }, 'contractMonths', /./],
      [{ estimatedConsumption: -1 }, 'estimatedConsumption', /./],
      [{ estimatedConsumption: 8600.0001 }, 'estimatedConsumption', /3 位小数/],
      [{ estimatedConsumption: 'abc' }, 'estimatedConsumption', /./],
      [{ sellingSetId: '' }, 'sellingSetId', /请输入在售套餐|在售套餐/],
    ];
    for (const [change, field, text] of cases) {
      const answer = await create({ ...goodOrder, ...change }, user.cookie);
      expect(answer.code, JSON.stringify(change)).toBe(400);
      const errors = (answer.data as unknown as { errors: { field: string; message: string }[] }).errors;
      expect(errors[0]?.field, JSON.stringify(change)).toBe(field);
      expect(answer.message, JSON.stringify(change)).toMatch(text);
    }
    expect(await tableCount()).toBe(before);
  });

  it('accepts the edges of the window and of the range', async () => {
    const user = await addEnterpriseUser(t, { userName: 'edges_co', mobile: '13900000401' });
    const first = await create({ ...goodOrder, contractStart: '2026-12', estimatedConsumption: 1000 }, user.cookie);
    expect(first.code).toBe(200);
    const last = await create(
      { ...goodOrder, sellingSetId: 'gd-fixed-2027-nanfang', contractStart: '2027-11', estimatedConsumption: 50000 },
      user.cookie,
    );
    expect(last.code).toBe(200);
    expect(last.data.contractEnd).toBe('2028-10');
  });

  it("serves an enterprise of another region its own region's packages, and orders there", async () => {
    const gx = await addEnterpriseUser(t, { userName: 'guangxi_co', mobile: '13900000601', areaCode: '450000' });
    const guide = await get<OrderGuideData>(t, `${base}/getListByGuideType`, { cookie: gx.cookie });
    const ids = guide.data.flatMap((p) => p.sets.flatMap((set) => set.sellingSets.map((s) => s.sellingSetId)));
    expect(ids).toContain('gx-fixed-2027-guihe');
    expect(ids.some((id) => id.startsWith('gd-'))).toBe(false);
    const answer = await create(
      { ...goodOrder, sellingSetId: 'gx-fixed-2027-guihe', schemeParamId: 'gx-fixed-2027-10kv' },
      gx.cookie,
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ areaCode: '450000', areaName: '广西壮族自治区' });
    // And a Guangdong package is not on sale to it.
    expect((await create({ ...goodOrder }, gx.cookie)).code).toBe(409);
  });

  it("refuses a package whose filter leaves out the enterprise's industry (400)", async () => {
    // gd-fixed-sme-2027 is for industries C, F, G, H, I, L, M; section A (agriculture) is not among them.
    const farm = await addEnterpriseUser(t, { userName: 'farm_co', mobile: '13900000701', industry: 'A' });
    const answer = await create(
      {
        ...goodOrder,
        sellingSetId: 'gd-fixed-sme-2027-yuehui',
        schemeParamId: 'gd-fixed-sme-2027-10kv',
        estimatedConsumption: 3000,
      },
      farm.cookie,
    );
    expect(answer).toMatchObject({ code: 400, message: '该套餐不面向贵企业的电压等级或行业' });
  });

  it('lets only one of two simultaneous orders for the same selling set through', async () => {
    const user = await addEnterpriseUser(t, { userName: 'twice_co', mobile: '13900000801' });
    const answers = await Promise.all([create({ ...goodOrder }, user.cookie), create({ ...goodOrder }, user.cookie)]);
    expect(answers.map((a) => a.code).sort()).toEqual([200, 409]);
    expect(await t.db.$count(orders, eq(orders.enterpriseId, user.enterpriseId))).toBe(1);
  });

  it('answers hostile input with 400, never a 500, and stores nothing', async () => {
    const before = await tableCount();
    const hostile: Record<string, string>[] = [
      { sellingSetId: "gd-fixed-2027-yuehui' or 1=1 --" },
      { sellingSetId: '../../etc/passwd' },
      { schemeParamId: '<script>alert(1)</script>' },
      { contractStart: "2027-01'; drop table orders; --" },
      { contractMonths: '12; delete from orders' },
      { estimatedConsumption: '1e400' },
      { estimatedConsumption: 'NaN' },
      { sellingSetId: 'x'.repeat(10_000) },
      { sellingSetId: '套餐' },
    ];
    for (const change of hostile) {
      const response = await postForm(
        t,
        `${base}/createCustomerOrder`,
        { ...goodOrder, ...change },
        { cookie: company },
      );
      expect(response.status, JSON.stringify(change).slice(0, 80)).toBe(200);
      expect(((await response.json()) as Envelope).code, JSON.stringify(change).slice(0, 80)).toBe(400);
    }
    // Arrays and nested objects where strings belong.
    const nested = await t.app.request(`${base}/createCustomerOrder`, {
      method: 'POST',
      headers: apiHeaders({ Cookie: company, 'Content-Type': 'application/json' }),
      body: JSON.stringify({
        ...goodOrder,
        sellingSetId: ['a', 'b'],
        schemeParamId: { $ne: null },
        __proto__: { admin: true },
      }),
    });
    expect(((await nested.json()) as Envelope).code).toBe(400);
    const broken = await t.app.request(`${base}/createCustomerOrder`, {
      method: 'POST',
      headers: apiHeaders({ Cookie: company, 'Content-Type': 'application/json' }),
      body: '{"sellingSetId":',
    });
    expect(((await broken.json()) as Envelope).code).toBe(400);
    expect(await tableCount()).toBe(before);
  });

  it('answers in the caller locale', async () => {
    const answer = await post(
      t,
      `${base}/createCustomerOrder`,
      { ...goodOrder, contractMonths: 24 },
      { cookie: company, headers: { 'Accept-Language': 'en-US' } },
    );
    expect(answer.message).toBe('These plan parameters do not offer a 24-month contract; available: 12 months');
  });
});

describe('GET getOrderDetail and ownership', () => {
  it("answers the owner's order and 404 for another enterprise's, exactly like a missing one", async () => {
    const created = await create({
      ...goodOrder,
      sellingSetId: 'gd-green-30-2027-yuehui',
      schemeParamId: 'gd-green-30-2027-10kv',
    });
    expect(created.code).toBe(200);
    const orderNo = created.data.orderNo;
    const own = await get<OrderDetailData>(t, `${base}/getOrderDetail?orderNo=${orderNo}`, { cookie: company });
    expect(own.code).toBe(200);
    expect(own.data.orderNo).toBe(orderNo);
    const foreign = await get(t, `${base}/getOrderDetail?orderNo=${orderNo}`, { cookie: rival.cookie });
    const missing = await get(t, `${base}/getOrderDetail?orderNo=HGD20261122999999`, { cookie: rival.cookie });
    expect(foreign).toEqual({ code: 404, message: '订单不存在', data: {} });
    expect(missing).toEqual(foreign);
  });

  it('shows the order in the reader’s language: the catalogue’s translations of the names it kept, its notices too', async () => {
    const created = await create({
      ...goodOrder,
      sellingSetId: 'gd-green-30-2027-lingnan',
      schemeParamId: 'gd-green-30-2027-10kv',
    });
    const orderNo = created.data.orderNo;
    const english = localizeSiteContent(loadContent('src/content'), 'en-US');
    const set = getSet(english, 'gd-green-30-2027')!;
    const detail = await get<OrderDetailData>(t, `${base}/getOrderDetail?orderNo=${orderNo}`, {
      cookie: company,
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(detail.data).toMatchObject({
      areaName: 'Guangdong',
      productName: getProduct(english, 'id4')?.name,
      setName: set.name,
      orgComName: getOrgCom(english, 'lingnan-lvdian')?.name,
      schemeParam: { name: set.schemeParams.find((param) => param.schemeParamId === 'gd-green-30-2027-10kv')?.name },
    });
    // The order keeps the names as they were (zh-CN); only the answer shows them translated.
    expect(created.data.setName).toMatch(/\p{Script=Han}/u);
    expect(detail.data.notices[0]?.description).toContain(set.name);
    expect(detail.data.notices[0]?.description).not.toMatch(/\p{Script=Han}/u);
    const table = await post<{ result: { orderNo: string; setName: string; orgComName: string }[] }>(
      t,
      `${base}/getAntTable`,
      { antTable: JSON.stringify({ filter: { orderNo: [orderNo] } }) },
      { cookie: company, headers: { 'Accept-Language': 'en-US' } },
    );
    expect(table.data.result[0]).toMatchObject({ setName: set.name, orgComName: detail.data.orgComName });
  });

  it('refuses malformed numbers (400), no session (901), no enterprise (403)', async () => {
    for (const bad of ['', 'HGD1', "HGD20261122000001' or '1'='1", 'hgd20261122000001x', '%00']) {
      expect(
        (await get(t, `${base}/getOrderDetail?orderNo=${encodeURIComponent(bad)}`, { cookie: company })).code,
        bad,
      ).toBe(400);
    }
    expect((await get(t, `${base}/getOrderDetail?orderNo=HGD20261122000001`)).code).toBe(901);
    expect(
      (await get(t, `${base}/getOrderDetail?orderNo=HGD20261122000001`, { cookie: await t.login('demo_person') })).code,
    ).toBe(403);
  });
});

describe('GET cancelOrder and POST del', () => {
  let orderNo = '';
  let cancelCookie = '';
  beforeAll(async () => {
    const user = await addEnterpriseUser(t, { userName: 'cancel_co', mobile: '13900000501' });
    cancelCookie = user.cookie;
    orderNo = (await create({ ...goodOrder }, cancelCookie)).data.orderNo;
  });

  it('demands the CSRF headers like a POST (403), and changes nothing without them', async () => {
    const path = `${base}/cancelOrder?orderNo=${orderNo}`;
    expect((await getWithHeaders(t, path, cancelCookie, {})).code).toBe(403);
    expect((await getWithHeaders(t, path, cancelCookie, { 'X-Requested-With': 'XMLHttpRequest' })).code).toBe(403);
    expect(
      (
        await getWithHeaders(t, path, cancelCookie, {
          'X-Requested-With': 'XMLHttpRequest',
          Origin: 'https://evil.example',
        })
      ).code,
    ).toBe(403);
    expect(
      (
        await getWithHeaders(t, path, cancelCookie, {
          'X-Requested-With': 'XMLHttpRequest',
          Referer: 'https://evil.example/page',
        })
      ).code,
    ).toBe(403);
    expect((await orderRow(t, orderNo)).status).toBe(10);
  });

  it('refuses delete before cancel (409), another enterprise (404)', async () => {
    const early = await post(t, `${base}/del`, { orderNo }, { cookie: cancelCookie });
    expect(early).toMatchObject({ code: 409, message: '订单当前状态为“待受理”，只有已取消或已驳回的订单可以删除' });
    expect((await getWithHeaders(t, `${base}/cancelOrder?orderNo=${orderNo}`, rival.cookie)).code).toBe(404);
    expect((await post(t, `${base}/del`, { orderNo }, { cookie: rival.cookie })).code).toBe(404);
    expect((await orderRow(t, orderNo)).status).toBe(10);
  });

  it('cancels a submitted order with the reason, a history entry, a notice and an audit row', async () => {
    const answer = await getWithHeaders<OrderDetailData>(
      t,
      `${base}/cancelOrder?orderNo=${orderNo}&reason=${encodeURIComponent('预算调整')}`,
      cancelCookie,
    );
    expect(answer.code).toBe(200);
    expect(answer.message).toBe('订单已取消');
    expect(answer.data).toMatchObject({ status: 90, statusReason: '预算调整', allowedActions: [], canDelete: true });
    expect(answer.data.history.map((h) => [h.fromStatus, h.toStatus, h.actorRole, h.note])).toEqual([
      [null, 10, 'enterprise', ''],
      [10, 90, 'enterprise', '预算调整'],
    ]);
    expect(answer.data.notices.map((n) => n.title)).toEqual(['订单已取消', '订单已提交']);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `order:${orderNo}`));
    expect(audit.map((row) => row.action).sort()).toEqual(['order.cancel', 'order.create']);
  });

  it('refuses cancelling twice (409, status in words) and changes nothing', async () => {
    const before = await orderRow(t, orderNo);
    const again = await getWithHeaders(t, `${base}/cancelOrder?orderNo=${orderNo}`, cancelCookie);
    expect(again).toMatchObject({ code: 409, message: '订单当前状态为“已取消”，不能取消' });
    const after = await orderRow(t, orderNo);
    expect(after.history).toHaveLength(before.history.length);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it('refuses malformed and hostile order numbers (400), without a session (901), without an enterprise (403)', async () => {
    const before = await orderRow(t, orderNo);
    for (const bad of ['', "HGD20261122000001' or '1'='1", 'HGD2026112200000１', '<img src=x>']) {
      const answer = await getWithHeaders(t, `${base}/cancelOrder?orderNo=${encodeURIComponent(bad)}`, cancelCookie);
      expect(answer.code, bad).toBe(400);
    }
    expect((await getWithHeaders(t, `${base}/cancelOrder?orderNo=${orderNo}`)).code).toBe(901);
    expect((await getWithHeaders(t, `${base}/cancelOrder?orderNo=${orderNo}`, await t.login('demo_person'))).code).toBe(
      403,
    );
    const after = await orderRow(t, orderNo);
    expect([after.status, after.history.length]).toEqual([before.status, before.history.length]);
  });

  it('refuses a reason over 500 characters (400)', async () => {
    const answer = await getWithHeaders(
      t,
      `${base}/cancelOrder?orderNo=${orderNo}&reason=${'长'.repeat(501)}`,
      cancelCookie,
    );
    expect(answer.code).toBe(400);
  });

  it('deletes a cancelled order: hidden from the owner (404), kept in the table', async () => {
    const answer = await post(t, `${base}/del`, { orderNo }, { cookie: cancelCookie });
    expect(answer).toEqual({ code: 200, message: '订单已删除', data: {} });
    expect((await get(t, `${base}/getOrderDetail?orderNo=${orderNo}`, { cookie: cancelCookie })).code).toBe(404);
    expect((await post(t, `${base}/del`, { orderNo }, { cookie: cancelCookie })).code).toBe(404);
    const row = await orderRow(t, orderNo);
    expect(row.deletedAt).not.toBeNull();
    expect(row.status).toBe(90);
    // A deleted order no longer blocks ordering the same selling set again, nor does a cancelled one.
    const user = await t.db
      .select({ ownerUserId: enterprises.ownerUserId })
      .from(enterprises)
      .where(eq(enterprises.id, row.enterpriseId));
    expect(user[0]?.ownerUserId).toBe(row.userId);
    expect((await create({ ...goodOrder }, cancelCookie)).code).toBe(200);
  });

  it('refuses del with bad input (400) and without the CSRF headers (403)', async () => {
    expect((await post(t, `${base}/del`, {}, { cookie: cancelCookie })).code).toBe(400);
    expect((await post(t, `${base}/del`, { orderNo: "1' or '1'='1" }, { cookie: cancelCookie })).code).toBe(400);
    const response = await t.app.request(`${base}/del`, {
      method: 'POST',
      headers: { Cookie: cancelCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `orderNo=${orderNo}`,
    });
    expect(((await response.json()) as Envelope).code).toBe(403);
  });

  it('sends the notices to the order user only', async () => {
    const rivalNotices = await t.db.select().from(notices).where(eq(notices.userId, rival.userId));
    expect(rivalNotices).toEqual([]);
  });
});
