/**
 * The partner analysis table calls (docs/partner.md, Analysis): POST getStaDataAntTable,
 * getCompareDataAntTable and getTrendDataAntTable over a known data set (partnerAnalysisFixtures.ts)
 * — every metric at each granularity, the subtree roll-up, the China calendar, scoping (a branch
 * user never sees its sibling branch), the engine's paging/sort/filter/search, and every kind of
 * bad or hostile input answering 400/404/403/901 without a 500.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import type {
  CompareData,
  CompareRowData,
  MetricValues,
  StatisticsData,
  StatisticsRowData,
  TrendData,
} from '../../src/lib/schemas/partner.ts';
import { contentStore } from '../../src/server/services/contentStore.ts';
import { post, type Envelope } from './accountCalls.ts';
import { openPerFile } from './harness.ts';
import { createOrderTestApp } from './orderFixtures.ts';
import { metrics, own2025, own2026, sum, insertAnalysisData } from './partnerAnalysisFixtures.ts';
import { insertPartnerUser, insertUser, type PartnerTree } from './partnerFixtures.ts';

const t = openPerFile(createOrderTestApp);
const base = '/api/front/hgdarc/partner';

let tree: PartnerTree;
let headUser: string;
let branchUser: string;
let lonelyPartner: string;
let notPartner: string;

beforeAll(async () => {
  tree = await insertAnalysisData(t);
  headUser = (await insertPartnerUser(t, [tree.head])).cookie;
  branchUser = (await insertPartnerUser(t, [tree.branchA])).cookie;
  // The partner role but no relation: sees nothing.
  const lonely = await insertUser(t, ['partner']);
  lonelyPartner = await t.login(lonely.userName);
  const individual = await insertUser(t, ['individual']);
  notPartner = await t.login(individual.userName);
});

type Fields = Record<string, string | number>;

function call<T>(path: string, fields: Fields, cookie: string | undefined, antTable?: unknown): Promise<Envelope<T>> {
  const body =
    antTable === undefined
      ? fields
      : { ...fields, antTable: typeof antTable === 'string' ? antTable : JSON.stringify(antTable) };
  return post<T>(t, `${base}/${path}`, body, cookie ? { cookie } : {});
}
const statistics = (fields: Fields, cookie: string | undefined = branchUser, antTable?: unknown) =>
  call<StatisticsData>('getStaDataAntTable', fields, cookie, antTable);
const compare = (fields: Fields, cookie: string | undefined = headUser, antTable?: unknown) =>
  call<CompareData>('getCompareDataAntTable', fields, cookie, antTable);
const trend = (fields: Fields, cookie: string | undefined = branchUser, antTable?: unknown) =>
  call<TrendData>('getTrendDataAntTable', fields, cookie, antTable);

function metricsOf(row: Partial<StatisticsRowData> | undefined): MetricValues {
  expect(row).toBeDefined();
  const {
    registeredEnterprises,
    certifiedEnterprises,
    orders,
    ordersInForce,
    contractedEnergy,
    settledEnergy,
    settledAmount,
    saving,
  } = row as StatisticsRowData;
  return {
    registeredEnterprises,
    certifiedEnterprises,
    orders,
    ordersInForce,
    contractedEnergy,
    settledEnergy,
    settledAmount,
    saving,
  };
}

function rowOf(answer: Envelope<StatisticsData>, partnerId: number): Partial<StatisticsRowData> | undefined {
  return answer.data.result.find((row) => row.partnerId === partnerId);
}

describe('who may call', () => {
  const calls: [string, Fields][] = [
    ['getStaDataAntTable', {}],
    ['getCompareDataAntTable', { partnerIds: '1,2' }],
    ['getTrendDataAntTable', {}],
  ];
  it.each(calls)('%s: no session → 901, no partner role → 403', async (path, fields) => {
    expect((await call(path, fields, undefined)).code).toBe(ApiCode.SESSION_EXPIRED);
    const forbidden = await call(path, fields, notPartner);
    expect(forbidden.code).toBe(ApiCode.FORBIDDEN);
  });

  it('a partner without relations sees no institution and no figures', async () => {
    const answer = await statistics({ period: '2026' }, lonelyPartner);
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ result: [], totalCount: 0 });
    const trendAnswer = await trend({ yearType: 2, from: '2026-01', to: '2026-03' }, lonelyPartner);
    expect(trendAnswer.data.result.map((row) => row.orders)).toEqual([0, 0, 0]);
    expect((await statistics({ partnerId: tree.branchA }, lonelyPartner)).code).toBe(ApiCode.NOT_FOUND);
  });
});

describe('POST getStaDataAntTable', () => {
  it('a branch user: its branch and sub-branches in level then code order, each with its subtree figures for the year', async () => {
    const answer = await statistics({ yearType: 1, period: '2026' });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ yearType: 1, period: '2026', totalCount: 3 });
    expect(answer.data.result.map((row) => row.partnerId)).toEqual([tree.branchA, tree.subA1, tree.subA2]);
    expect(answer.data.result[0]).toMatchObject({
      partnerCode: expect.stringMatching(/^T9\d\d100$/),
      level: 2,
      parentId: tree.head,
    });
    expect(metricsOf(rowOf(answer, tree.subA1))).toEqual(own2026.subA1);
    expect(metricsOf(rowOf(answer, tree.subA2))).toEqual(own2026.subA2);
    // The roll-up: a branch row is its sub-branches plus itself.
    expect(metricsOf(rowOf(answer, tree.branchA))).toEqual(sum(own2026.branchA, own2026.subA1, own2026.subA2));
  });

  it('SCOPING: the branch user never sees the head office, the sibling branch, its sub-branch or the other bank', async () => {
    const answer = await statistics({ yearType: 1, period: '2026' }, branchUser, { pager: { pageSize: 100 } });
    const ids = answer.data.result.map((row) => row.partnerId);
    for (const id of [tree.head, tree.branchB, tree.subB1, tree.other]) expect(ids).not.toContain(id);
    // Nothing of the sibling's data leaks into the branch's own total either.
    expect(metricsOf(rowOf(answer, tree.branchA)).ordersInForce).toBe(2);
    // Filtering or sorting cannot reach past the scope.
    const filtered = await statistics({ period: '2026' }, branchUser, {
      filter: { partnerId: [tree.branchB, tree.head] },
    });
    expect(filtered.data).toMatchObject({ result: [], totalCount: 0 });
  });

  it('a head office user: the head row holds the whole bank, a branch row its own subtree, never the other bank', async () => {
    const answer = await statistics({ period: '2026' }, headUser);
    expect(answer.data.result.map((row) => row.partnerId)).toEqual([
      tree.head,
      tree.branchA,
      tree.branchB,
      tree.subA1,
      tree.subA2,
      tree.subB1,
    ]);
    const branchA = sum(own2026.branchA, own2026.subA1, own2026.subA2);
    expect(metricsOf(rowOf(answer, tree.branchB))).toEqual(own2026.subB1);
    expect(metricsOf(rowOf(answer, tree.head))).toEqual(sum(branchA, own2026.subB1));
  });

  it('partnerId narrows to that subtree; out of scope, another bank and missing ids all answer the same 404', async () => {
    const answer = await statistics({ period: '2026', partnerId: tree.branchB }, headUser);
    expect(answer.data.result.map((row) => row.partnerId)).toEqual([tree.branchB, tree.subB1]);
    const missing = await statistics({ partnerId: 2_147_483_647 });
    expect(missing.code).toBe(ApiCode.NOT_FOUND);
    for (const id of [tree.branchB, tree.subB1, tree.head, tree.other]) {
      const refused = await statistics({ partnerId: id });
      expect(refused.code).toBe(ApiCode.NOT_FOUND);
      expect(refused.message).toBe(missing.message);
    }
  });

  it('granularity: a year, a month and a day of the same data, in China time', async () => {
    const at = async (yearType: number, period: string) =>
      metricsOf(rowOf(await statistics({ yearType, period }), tree.subA1));
    expect(await at(1, '2025')).toEqual(own2025.subA1);
    // Enterprise A1b and order O2 at 2026-01-01 00:30 China time are 2025-12-31 in UTC: they count in 2026.
    expect(await at(2, '2025-12')).toEqual(
      metrics({ ordersInForce: 1, settledEnergy: 100.5, settledAmount: 40000.1, saving: 1000.05 }),
    );
    expect(await at(2, '2026-01')).toEqual(
      metrics({
        registeredEnterprises: 1,
        certifiedEnterprises: 1,
        orders: 1,
        ordersInForce: 1,
        contractedEnergy: 1200,
        settledEnergy: 100.5,
        settledAmount: 40000.1,
        saving: 1000.05,
      }),
    );
    expect(await at(2, '2026-02')).toEqual(
      metrics({ ordersInForce: 2, settledEnergy: 200.25, settledAmount: 80000.2, saving: -50.1 }),
    );
    // By day a month's settlement counts on its first day.
    expect(await at(3, '2026-01-01')).toEqual(
      metrics({
        registeredEnterprises: 1,
        orders: 1,
        ordersInForce: 1,
        contractedEnergy: 1200,
        settledEnergy: 100.5,
        settledAmount: 40000.1,
        saving: 1000.05,
      }),
    );
    expect(await at(3, '2026-01-02')).toEqual(metrics({ certifiedEnterprises: 1, ordersInForce: 1 }));
    expect(await at(3, '2025-12-31')).toEqual(metrics({ ordersInForce: 1 }));
    // O1 (2025-04 × 12) ends with March 2026; O2 (2026-02 × 6) with July.
    expect((await at(2, '2026-04')).ordersInForce).toBe(1);
    expect((await at(2, '2026-08')).ordersInForce).toBe(0);
    // The twelve months of 2025 add up to the year (in force excepted: an order runs through many months).
    const months = await Promise.all(
      Array.from({ length: 12 }, (_, i) => at(2, `2025-${String(i + 1).padStart(2, '0')}`)),
    );
    const year = sum(...months);
    expect({ ...year, ordersInForce: 1 }).toEqual(own2025.subA1);
  });

  it('defaults: yearType 1 and the latest period with settlements; empty fields count as absent', async () => {
    const answer = await statistics({ yearType: '', period: '', partnerId: '' });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ yearType: 1, period: '2026' });
    // Today is 2026-11-22: November has no settlements yet. branchA's latest is 2026-02 (subA1),
    // the head office's 2026-04 (subB1): the month opens there, with figures to chart.
    const month = await statistics({ yearType: 2 });
    expect(month.data.period).toBe('2026-02');
    expect(rowOf(month, tree.subA1)?.settledEnergy).toBe(200.25);
    expect((await statistics({ yearType: 2 }, headUser)).data.period).toBe('2026-04');
    expect((await statistics({ yearType: 2, partnerId: tree.subA2 })).data.period).toBe('2026-11');
    // By day the current day; with no settlement in sight the current period.
    expect((await statistics({ yearType: 3 })).data.period).toBe('2026-11-22');
    expect((await statistics({ yearType: 2 }, lonelyPartner)).data.period).toBe('2026-11');
    // The comparison asks the same of the chosen institutions.
    expect((await compare({ yearType: 2, partnerIds: `${tree.subA1},${tree.subA2}` })).data.period).toBe('2026-02');
    expect((await compare({ yearType: 1, partnerIds: `${tree.subA1},${tree.subA2}` })).data.period).toBe('2026');
  });

  it('the engine: sort by a metric, filter by level, search by name, paging with the full count', async () => {
    const sorted = await statistics({ period: '2026' }, headUser, {
      sorter: [{ key: 'settledAmount', sort: 'descend' }],
      select: ['partnerId', 'settledAmount'],
    });
    expect(sorted.data.result.map((row) => row.settledAmount)).toEqual([140000.3, 120000.3, 120000.3, 20000, 20000, 0]);
    expect(Object.keys(sorted.data.result[0] ?? {}).sort()).toEqual(['partnerId', 'settledAmount']);
    const subBranches = await statistics({ period: '2026' }, headUser, { filter: { level: [3] } });
    expect(subBranches.data.result.map((row) => row.partnerId)).toEqual([tree.subA1, tree.subA2, tree.subB1]);
    const searched = await statistics({ period: '2026' }, headUser, { search: { keyword: '天河' } });
    expect(searched.data.result.map((row) => row.partnerId)).toEqual([tree.subA1]);
    const page = await statistics({ period: '2026' }, headUser, { pager: { current: 2, pageSize: 4 } });
    expect(page.data.totalCount).toBe(6);
    expect(page.data.result.map((row) => row.partnerId)).toEqual([tree.subA2, tree.subB1]);
    const ranged = await statistics({ period: '2026' }, headUser, { range: { ordersInForce: { start: 2 } } });
    expect(ranged.data.result.map((row) => row.partnerId)).toEqual([tree.head, tree.branchA, tree.subA1]);
  });

  it.each([
    [{ yearType: 4 }, 'yearType'],
    [{ yearType: 'year' }, 'yearType'],
    [{ yearType: 1, period: '26' }, 'period'],
    [{ yearType: 1, period: '2026-01' }, 'period'],
    [{ yearType: 2, period: '2026' }, 'period'],
    [{ yearType: 2, period: '2026-13' }, 'period'],
    [{ yearType: 3, period: '2026-02-30' }, 'period'],
    [{ yearType: 3, period: '2026-1-1' }, 'period'],
    [{ period: "2026' or 1=1 --" }, 'period'],
    [{ partnerId: 'abc' }, 'partnerId'],
    [{ partnerId: -3 }, 'partnerId'],
    [{ partnerId: '99999999999999999999' }, 'partnerId'],
    [{ partnerId: 2147483648 }, 'partnerId'],
    [{ yearType: 1, period: '0000' }, 'period'],
    [{ yearType: 2, period: '0000-01' }, 'period'],
    [{ yearType: 1, period: '9999' }, 'period'],
    [{ yearType: 4, period: '2026' }, 'yearType'],
    [{ yearType: '-1', period: '2026-01' }, 'yearType'],
  ] as [Fields, string][])('bad input %j → 400 on %s', async (fields, field) => {
    const answer = await statistics(fields);
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect((answer.data as unknown as { errors: { field: string }[] }).errors[0]?.field).toBe(field);
  });

  it("period errors speak the granularity in the caller's locale", async () => {
    const zh = await statistics({ yearType: 3, period: '2026-02-30' });
    expect(zh.message).toBe('请按 YYYY-MM-DD 格式填写 2000–2099 年间的有效日期');
    const en = await post(
      t,
      `${base}/getStaDataAntTable`,
      { yearType: 2, period: '2026' },
      { cookie: branchUser, headers: { 'Accept-Language': 'en-US' } },
    );
    expect(en.message).toBe('Enter a month from 2000 to 2099 as YYYY-MM');
  });

  it.each([
    ['{not json', 'table.badJson'],
    [{ sorter: [{ key: 'path', sort: 'ascend' }] }, 'unknownField'],
    [{ filter: { partnerName: ['x'] } }, 'notAllowed'],
    [{ filter: { level: ['1); drop table orders; --'] } }, 'badValue'],
    [{ pager: { pageSize: 1000 } }, 'pageSize'],
    [{ pagination: 1 }, 'unknownKey'],
  ] as [unknown, string][])('a bad antTable %j (%s) → 400', async (antTable) => {
    const answer = await statistics({ period: '2026' }, headUser, antTable);
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.message).not.toBe('');
  });
});

describe('POST getCompareDataAntTable', () => {
  const products = () => [...contentStore.current().products].sort((a, b) => a.sort - b.sort);

  function pick(answer: Envelope<CompareData>, classKey: string, partnerId: number): Partial<CompareRowData> {
    const row = answer.data.result.find((item) => item.classKey === classKey && item.partnerId === partnerId);
    expect(row).toBeDefined();
    return row as Partial<CompareRowData>;
  }

  it("two branches by product: every product × institution, zero-filled, in the content's order then the chosen order", async () => {
    const answer = await compare(
      { period: '2026', partnerIds: `${tree.branchA},${tree.branchB}`, classification: 'product' },
      headUser,
      { pager: { pageSize: 100 } },
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ yearType: 1, period: '2026', totalCount: 10 });
    expect(answer.data.result.map((row) => `${row.classKey}:${row.partnerId}`)).toEqual(
      products().flatMap((product) => [`${product.productId}:${tree.branchA}`, `${product.productId}:${tree.branchB}`]),
    );
    expect(pick(answer, 'id1', tree.branchA)).toMatchObject({
      className: products()[0]?.name,
      partnerName: expect.stringContaining('广东省分行'),
      orders: 1,
      contractedEnergy: 0,
      settledEnergy: 100.5,
      settledAmount: 40000.1,
      saving: 1000.05,
    });
    expect(pick(answer, 'id2', tree.branchA)).toMatchObject({
      orders: 1,
      contractedEnergy: 1200,
      settledEnergy: 200.25,
      settledAmount: 80000.2,
      saving: -50.1,
    });
    expect(pick(answer, 'id3', tree.branchA)).toMatchObject({ orders: 1, contractedEnergy: 0, settledEnergy: 0 });
    expect(pick(answer, 'id1', tree.branchB)).toMatchObject({
      orders: 1,
      contractedEnergy: 600,
      settledEnergy: 50,
      settledAmount: 20000,
      saving: 500,
    });
    expect(pick(answer, 'id2', tree.branchB)).toMatchObject({
      orders: 0,
      contractedEnergy: 0,
      settledEnergy: 0,
      settledAmount: 0,
      saving: 0,
    });
  });

  it("by province, with each institution's whole subtree; a head office compared with its own branch contains it", async () => {
    const answer = await compare(
      { period: '2026', partnerIds: `${tree.head},${tree.branchA}`, classification: 'area' },
      headUser,
      { pager: { pageSize: 100 } },
    );
    expect(answer.code).toBe(200);
    expect(pick(answer, '440000', tree.branchA)).toMatchObject({
      className: '广东省',
      orders: 3,
      contractedEnergy: 1200,
      settledEnergy: 300.75,
      settledAmount: 120000.3,
      saving: 949.95,
    });
    expect(pick(answer, '450000', tree.branchA)).toMatchObject({ orders: 0, settledEnergy: 0 });
    expect(pick(answer, '450000', tree.head)).toMatchObject({ orders: 1, contractedEnergy: 600, settledEnergy: 50 });
    expect(pick(answer, '440000', tree.head)).toMatchObject({ orders: 3, settledAmount: 120000.3 });
  });

  it('the engine: filter by class, sort by a metric, search by institution name', async () => {
    const fields = { period: '2026', partnerIds: `${tree.branchA},${tree.branchB}` };
    const filtered = await compare(fields, headUser, {
      filter: { classKey: ['id1'] },
      sorter: [{ key: 'settledEnergy', sort: 'ascend' }],
    });
    expect(filtered.data.result.map((row) => row.partnerId)).toEqual([tree.branchB, tree.branchA]);
    const searched = await compare(fields, headUser, { search: { keyword: '广西' }, pager: { pageSize: 100 } });
    expect(searched.data.totalCount).toBe(5);
    expect(new Set(searched.data.result.map((row) => row.partnerId))).toEqual(new Set([tree.branchB]));
  });

  it('SCOPING: a branch user may compare its own sub-branches but not its sibling branch or the other bank (404 like a missing id)', async () => {
    const own = await compare({ period: '2026', partnerIds: `${tree.subA1},${tree.subA2}` }, branchUser);
    expect(own.code).toBe(200);
    const missing = await compare({ partnerIds: `${tree.subA1},2147483647` }, branchUser);
    expect(missing.code).toBe(ApiCode.NOT_FOUND);
    for (const ids of [
      `${tree.branchA},${tree.branchB}`,
      `${tree.subA1},${tree.subB1}`,
      `${tree.subA1},${tree.other}`,
      `${tree.head},${tree.branchA}`,
    ]) {
      const refused = await compare({ partnerIds: ids }, branchUser);
      expect(refused.code).toBe(ApiCode.NOT_FOUND);
      expect(refused.message).toBe(missing.message);
    }
  });

  it.each([
    [{}, 'partnerIds'],
    [{ partnerIds: '5' }, 'partnerIds'],
    [{ partnerIds: '1,2,3,4,5,6,7,8,9' }, 'partnerIds'],
    [{ partnerIds: '1,x' }, 'partnerIds.1'],
    [{ partnerIds: '1,2', classification: 'industry' }, 'classification'],
    [{ partnerIds: '1,2', yearType: 2, period: '2026-00' }, 'period'],
    [{ partnerIds: '1,2', yearType: 0 }, 'yearType'],
  ] as [Fields, string][])('bad input %j → 400 on %s', async (fields, field) => {
    const answer = await compare(fields);
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect((answer.data as unknown as { errors: { field: string }[] }).errors[0]?.field).toBe(field);
  });

  it('the same institution twice is not a comparison: 400 on partnerIds', async () => {
    const answer = await compare({ partnerIds: `${tree.branchA},${tree.branchA}` });
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect(answer.message).toBe('请选择 2 至 8 个不同的合作机构');
  });
});

describe('POST getTrendDataAntTable', () => {
  it("months: one row per month, zero-filled, only the branch's subtree", async () => {
    const answer = await trend({ yearType: 2, from: '2025-11', to: '2026-03' });
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({ yearType: 2, from: '2025-11', to: '2026-03', totalCount: 5 });
    expect(answer.data.result).toEqual([
      {
        period: '2025-11',
        ...metrics({ ordersInForce: 1, settledEnergy: 100.5, settledAmount: 40000.1, saving: 1000.05 }),
      },
      {
        period: '2025-12',
        ...metrics({ ordersInForce: 1, settledEnergy: 100.5, settledAmount: 40000.1, saving: 1000.05 }),
      },
      {
        period: '2026-01',
        ...metrics({
          registeredEnterprises: 1,
          certifiedEnterprises: 1,
          orders: 1,
          ordersInForce: 1,
          contractedEnergy: 1200,
          settledEnergy: 100.5,
          settledAmount: 40000.1,
          saving: 1000.05,
        }),
      },
      {
        period: '2026-02',
        ...metrics({
          registeredEnterprises: 1,
          orders: 1,
          ordersInForce: 2,
          settledEnergy: 200.25,
          settledAmount: 80000.2,
          saving: -50.1,
        }),
      },
      // The sibling branch's enterprise, order and contract of March are not the branch user's.
      { period: '2026-03', ...metrics({ ordersInForce: 2 }) },
    ]);
  });

  it("the head office user sees the sibling's March too; partnerId narrows to a subtree", async () => {
    const whole = await trend({ yearType: 2, from: '2026-03', to: '2026-04' }, headUser);
    expect(whole.data.result[0]).toMatchObject({
      period: '2026-03',
      registeredEnterprises: 1,
      certifiedEnterprises: 1,
      orders: 1,
      contractedEnergy: 600,
      ordersInForce: 2,
    });
    expect(whole.data.result[1]).toMatchObject({ period: '2026-04', ordersInForce: 2, settledEnergy: 50 });
    const narrowed = await trend({ yearType: 2, from: '2026-03', to: '2026-04', partnerId: tree.subB1 }, headUser);
    expect(narrowed.data.result[1]).toMatchObject({ ordersInForce: 1, settledEnergy: 50, settledAmount: 20000 });
    expect((await trend({ partnerId: tree.subB1 })).code).toBe(ApiCode.NOT_FOUND);
    expect((await trend({ partnerId: tree.other }, headUser)).code).toBe(ApiCode.NOT_FOUND);
  });

  it('years by default: the last five up to the current one; days in China time', async () => {
    const years = await trend({});
    expect(years.data).toMatchObject({ yearType: 1, from: '2022', to: '2026', totalCount: 5 });
    expect(years.data.result.map((row) => row.period)).toEqual(['2022', '2023', '2024', '2025', '2026']);
    expect(years.data.result[3]).toEqual({ period: '2025', ...sum(own2025.subA1) });
    expect(years.data.result[4]).toEqual({
      period: '2026',
      ...sum(own2026.branchA, own2026.subA1, own2026.subA2),
      ordersInForce: 2,
    });
    expect(years.data.result[0]).toEqual({ period: '2022', ...metrics({}) });
    const months = await trend({ yearType: 2 });
    expect(months.data).toMatchObject({ from: '2025-12', to: '2026-11', totalCount: 12 });
    const days = await trend({ yearType: 3 });
    expect(days.data).toMatchObject({ from: '2026-10-24', to: '2026-11-22', totalCount: 30 });
    const newYear = await trend({ yearType: 3, from: '2025-12-31', to: '2026-01-02' });
    expect(
      newYear.data.result.map((row) => [row.period, row.registeredEnterprises, row.orders, row.settledEnergy]),
    ).toEqual([
      ['2025-12-31', 0, 0, 0],
      ['2026-01-01', 1, 1, 100.5],
      ['2026-01-02', 0, 0, 0],
    ]);
    const onlyTo = await trend({ yearType: 2, to: '2026-03' });
    expect(onlyTo.data).toMatchObject({ from: '2025-04', to: '2026-03', totalCount: 12 });
  });

  it('the engine sorts and pages the periods', async () => {
    const answer = await trend({ yearType: 2, from: '2025-11', to: '2026-03' }, branchUser, {
      sorter: [{ key: 'settledEnergy', sort: 'descend' }],
      pager: { pageSize: 2 },
    });
    expect(answer.data.totalCount).toBe(5);
    expect(answer.data.result.map((row) => row.period)).toEqual(['2026-02', '2026-01']);
  });

  it.each([
    [{ yearType: 2, from: '2026-03', to: '2026-01' }, 'to', '结束时间不能早于开始时间'],
    [{ yearType: 2, from: '2020-01', to: '2026-01' }, 'to', '按月最多查看 60 个月'],
    [{ yearType: 1, from: '2000' }, 'to', '按年最多查看 20 年'],
    [{ yearType: 3, from: '2026-01-01', to: '2026-06-01' }, 'to', '按日最多查看 92 天'],
    [{ yearType: 3, from: '2026-02-29' }, 'from', '请按 YYYY-MM-DD 格式填写 2000–2099 年间的有效日期'],
    [{ yearType: 2, to: '2026-1' }, 'to', '请按 YYYY-MM 格式填写 2000–2099 年间的月份'],
    [{ yearType: 9 }, 'yearType', undefined],
    // Hostile periods: year 9999 once stepped into '10000' < '9999' and looped forever.
    [{ yearType: 1, to: '9999' }, 'to', '请按 YYYY 格式填写 2000–2099 年间的年份'],
    [{ yearType: 1, from: '9999', to: '9999' }, 'from', '请按 YYYY 格式填写 2000–2099 年间的年份'],
    [{ yearType: 2, to: '0000-01' }, 'to', '请按 YYYY-MM 格式填写 2000–2099 年间的月份'],
    [{ yearType: 3, to: '9999-12-31' }, 'to', '请按 YYYY-MM-DD 格式填写 2000–2099 年间的有效日期'],
    [{ yearType: 4, to: '2026' }, 'yearType', undefined],
    [{ yearType: 'abc', from: '2026' }, 'yearType', undefined],
  ] as [Fields, string, string | undefined][])('bad input %j → 400 on %s', async (fields, field, text) => {
    const answer = await trend(fields);
    expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    expect((answer.data as unknown as { errors: { field: string }[] }).errors[0]?.field).toBe(field);
    if (text) expect(answer.message).toBe(text);
  });

  it('the last year a period may name answers at once, its default start five years back', async () => {
    const answer = await trend({ yearType: 1, to: '2099' });
    expect(answer.data).toMatchObject({ from: '2095', to: '2099', totalCount: 5 });
  });

  it('a start after the current period, alone, runs to itself (one period) instead of failing', async () => {
    const answer = await trend({ yearType: 1, from: '2030' });
    expect(answer.data).toMatchObject({ from: '2030', to: '2030', totalCount: 1 });
  });
});
