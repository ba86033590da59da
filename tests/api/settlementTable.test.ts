/**
 * The partner's settlement table and its export (docs/partner.md, Settlement rows):
 * getSettlementAntTable and exportSettlementAntTable — engine features, guards, bad and hostile
 * input, and scoping (a branch never sees a sibling branch's rows, counts, totals or export lines).
 * The export is read back with read-excel-file and compared row by row with the table call.
 */
import { and, eq } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import type { SettlementRowData, SettlementTableData } from '../../src/lib/schemas/partner.ts';
import { auditLog } from '../../src/server/db/schema/index.ts';
import { get, post, type Envelope } from './accountCalls.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';
import {
  insertPartnerTree,
  insertPartnerUser,
  insertSettledOrder,
  insertUser,
  type PartnerTree,
} from './partnerFixtures.ts';

const t = openPerFile(() => createTestApp());
const base = '/api/front/hgdsel/settlementbuyresult';
const months = ['2026-08', '2026-09', '2026-10'];

let tree: PartnerTree;
let branchUser: { userId: number; cookie: string };
let headUser: { userId: number; cookie: string };
let orderOf: Record<'a1' | 'a2' | 'b1' | 'other', Awaited<ReturnType<typeof insertSettledOrder>>>;

beforeAll(async () => {
  tree = await insertPartnerTree(t);
  orderOf = {
    a1: await insertSettledOrder(t, tree.subA1, months, { enterpriseName: '广州天河精工有限公司' }),
    a2: await insertSettledOrder(t, tree.subA2, months, { enterpriseName: '深圳南山电子有限公司', status: 1 }),
    b1: await insertSettledOrder(t, tree.subB1, months, { enterpriseName: '南宁青秀食品有限公司' }),
    other: await insertSettledOrder(t, tree.other, months, { enterpriseName: '另一银行客户有限公司' }),
  };
  branchUser = await insertPartnerUser(t, [tree.branchA]);
  headUser = await insertPartnerUser(t, [tree.head]);
});

type Page = Envelope<SettlementTableData>;

function table(cookie: string, antTable: unknown = {}, extra: Record<string, string | number> = {}): Promise<Page> {
  return post<SettlementTableData>(
    t,
    `${base}/getSettlementAntTable`,
    { antTable: typeof antTable === 'string' ? antTable : JSON.stringify(antTable), ...extra },
    { cookie },
  );
}

function exportUrl(antTable: unknown, partnerId?: number): string {
  const query = new URLSearchParams({
    antTable: JSON.stringify(antTable),
    partnerId: partnerId === undefined ? '' : String(partnerId),
  });
  return `${base}/exportSettlementAntTable?${query.toString()}`;
}

describe('guards', () => {
  it('901 without a session, 403 without the partner role (operators included)', async () => {
    expect((await post(t, `${base}/getSettlementAntTable`, {})).code).toBe(ApiCode.SESSION_EXPIRED);
    expect((await get(t, exportUrl({}))).code).toBe(ApiCode.SESSION_EXPIRED);
    for (const userName of ['demo_person', 'demo_operator', 'demo_company']) {
      const cookie = await t.login(userName);
      expect((await post(t, `${base}/getSettlementAntTable`, {}, { cookie })).code).toBe(ApiCode.FORBIDDEN);
      expect((await get(t, exportUrl({}), { cookie })).code).toBe(ApiCode.FORBIDDEN);
    }
  });
});

describe('getSettlementAntTable', () => {
  it('a branch user gets its sub-branches’ rows, newest month first then by id, and nothing of the sibling branch', async () => {
    const page = await table(branchUser.cookie, { pager: { pageSize: 100 } });
    expect(page.code).toBe(200);
    expect(page.data.totalCount).toBe(6);
    const rows = page.data.result as SettlementRowData[];
    expect(new Set(rows.map((row) => row.partnerId))).toEqual(new Set([tree.subA1, tree.subA2]));
    expect(rows.map((row) => row.settleMonth)).toEqual([
      '2026-10',
      '2026-10',
      '2026-09',
      '2026-09',
      '2026-08',
      '2026-08',
    ]);
    for (let i = 1; i < rows.length; i++)
      if (rows[i]!.settleMonth === rows[i - 1]!.settleMonth) expect(rows[i]!.id).toBeLessThan(rows[i - 1]!.id);
    expect(JSON.stringify(page.data)).not.toContain('南宁青秀');
    expect(rows[0]).toMatchObject({
      orderNo: expect.stringMatching(/^HGD/),
      enterpriseName: expect.any(String),
      partnerName: expect.stringContaining('支行'),
      areaCode: '440000',
      productId: 'id1',
      setName: '2026 年度固定价格套餐',
      contractPrice: 0.392,
      marketPrice: 0.41537,
    });
    const a1 = rows.find((row) => row.partnerId === tree.subA1 && row.settleMonth === '2026-08')!;
    expect(a1.settledAmount).toBeCloseTo(a1.settledEnergy * 1000 * 0.392, 2);
    expect(a1.saving).toBeCloseTo(a1.settledEnergy * 1000 * (0.41537 - 0.392), 2);
  });

  it('a head office user sees the whole bank (9 rows), never the other bank', async () => {
    const page = await table(headUser.cookie, { pager: { pageSize: 100 } });
    expect(page.data.totalCount).toBe(9);
    expect((page.data.result as SettlementRowData[]).some((row) => row.partnerId === tree.other)).toBe(false);
  });

  it('partnerId narrows to a subtree in scope; out of scope and missing answer the same 404', async () => {
    const own = await table(branchUser.cookie, {}, { partnerId: tree.subA1 });
    expect(own.data.totalCount).toBe(3);
    expect(new Set((own.data.result as SettlementRowData[]).map((row) => row.partnerId))).toEqual(
      new Set([tree.subA1]),
    );
    const answers = await Promise.all(
      [tree.branchB, tree.subB1, tree.head, tree.other, 2_000_000_000].map((partnerId) =>
        table(branchUser.cookie, {}, { partnerId }),
      ),
    );
    for (const answer of answers) expect(answer).toEqual(answers[4]);
    expect(answers[4]).toMatchObject({ code: ApiCode.NOT_FOUND, data: {} });
  });

  it('a partner user without relations sees no rows at all', async () => {
    const user = await insertUser(t, ['partner']);
    const page = await table(await t.login(user.userName), { pager: { pageSize: 100 } });
    expect(page).toMatchObject({ code: 200, data: { result: [], totalCount: 0 } });
  });

  it('a filter on a sibling’s institution finds nothing: the scope is always ANDed', async () => {
    const page = await table(branchUser.cookie, { filter: { partnerId: [tree.subB1, tree.other] } });
    expect(page).toMatchObject({ code: 200, data: { result: [], totalCount: 0 } });
    const search = await table(branchUser.cookie, { search: { keyword: '南宁青秀' } });
    expect(search.data.totalCount).toBe(0);
  });

  it('month range, enterprise keyword, order number, status filter, sort and select', async () => {
    const range = await table(branchUser.cookie, { range: { settleMonth: { start: '2026-09', end: '2026-10' } } });
    expect(range.data.totalCount).toBe(4);
    const keyword = await table(branchUser.cookie, { search: { keyword: '天河精工', select: ['enterpriseName'] } });
    expect(keyword.data.totalCount).toBe(3);
    const liker = await table(branchUser.cookie, { liker: { orderNo: orderOf.a2.orderNo.slice(-6) } });
    expect((liker.data.result as SettlementRowData[]).every((row) => row.orderNo === orderOf.a2.orderNo)).toBe(true);
    expect(liker.data.totalCount).toBe(3);
    const provisional = await table(branchUser.cookie, { filter: { status: [1] } });
    expect(provisional.data.totalCount).toBe(3);
    expect((provisional.data.result as SettlementRowData[]).every((row) => row.status === 1)).toBe(true);
    const sorted = await table(branchUser.cookie, {
      sorter: [{ key: 'settledAmount', sort: 'ascend' }],
      pager: { pageSize: 100 },
    });
    const amounts = (sorted.data.result as SettlementRowData[]).map((row) => row.settledAmount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const energyRange = await table(branchUser.cookie, { range: { settledEnergy: { start: 1_000_000 } } });
    expect(energyRange.data.totalCount).toBe(0);
    const selected = await table(branchUser.cookie, { select: ['orderNo', 'settleMonth'], pager: { pageSize: 1 } });
    expect(Object.keys(selected.data.result[0]!).sort()).toEqual(['orderNo', 'settleMonth']);
    expect(selected.data.totalCount).toBe(6);
  });

  it('paging neither repeats nor skips rows', async () => {
    const seen: number[] = [];
    for (let current = 1; current <= 3; current++) {
      const page = await table(headUser.cookie, { pager: { current, pageSize: 4 } });
      seen.push(...(page.data.result as SettlementRowData[]).map((row) => row.id));
      expect(page.data.totalCount).toBe(9);
    }
    expect(new Set(seen).size).toBe(9);
  });

  it('bad and hostile requests → 400 with a message, never a 500', async () => {
    const bad: unknown[] = [
      '{not json',
      '[1,2]',
      { pagination: 1 },
      { sorter: [{ key: 'creditCode', sort: 'ascend' }] },
      { sorter: [{ key: 'settleMonth', sort: 'sideways' }] },
      { filter: { 'partner_id; drop table settlement_results': [1] } },
      { filter: { status: ['final'] } },
      { filter: { partnerId: ['1 or 1=1'] } },
      { range: { settleMonth: { start: '2026-13' } } },
      { range: { settledEnergy: { start: 'lots' } } },
      { liker: { enterpriseName: 'x'.repeat(101) } },
      { pager: { pageSize: 1000 } },
      { __proto__: { polluted: true }, select: ['constructor'] },
    ];
    for (const antTable of bad) {
      const answer = await table(branchUser.cookie, antTable);
      expect(answer.code, JSON.stringify(antTable)).toBe(ApiCode.BAD_REQUEST);
      expect(answer.message).not.toBe('');
    }
    for (const partnerId of ['abc', '-1', '0', '1.5', "1' or '1'='1"]) {
      expect((await table(branchUser.cookie, {}, { partnerId })).code).toBe(ApiCode.BAD_REQUEST);
    }
  });
});

describe('exportSettlementAntTable', () => {
  async function download(url: string, cookie: string, headers: Record<string, string> = {}) {
    const response = await t.app.request(url, { headers: apiHeaders({ Cookie: cookie, ...headers }) });
    return response;
  }

  async function sheetOf(response: Response) {
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    return readSheet(Buffer.from(await response.arrayBuffer()));
  }

  it('every row of the table call for the same filters, in its order, with Chinese headers and a totals row', async () => {
    const antTable = {
      range: { settleMonth: { start: '2026-08', end: '2026-10' } },
      sorter: [{ key: 'enterpriseName', sort: 'ascend' }],
    };
    const page = await table(branchUser.cookie, { ...antTable, pager: { pageSize: 100 } });
    const rows = page.data.result as SettlementRowData[];
    const response = await download(exportUrl(antTable), branchUser.cookie);
    expect(response.status).toBe(200);
    const disposition = decodeURIComponent(response.headers.get('content-disposition') ?? '');
    expect(disposition).toMatch(/结算结果-\d{8}\.xlsx/);
    const sheet = await sheetOf(response);
    expect(sheet[0]).toEqual([
      '结算月份',
      '订单号',
      '企业名称',
      '统一社会信用代码',
      '合作机构',
      '省份',
      '产品',
      '套餐',
      '结算电量（MWh）',
      '合同电价（元/kWh）',
      '市场参考价（元/kWh）',
      '结算电费（元）',
      '节省金额（元）',
      '状态',
    ]);
    const lines = sheet.slice(1, -1);
    expect(lines).toHaveLength(rows.length);
    rows.forEach((row, index) => {
      const line = lines[index]!;
      expect(line[0]).toBe(row.settleMonth);
      expect(line[1]).toBe(row.orderNo);
      expect(line[2]).toBe(row.enterpriseName);
      expect(line[3]).toBe(row.creditCode);
      expect(line[4]).toBe(row.partnerName);
      expect(line[5]).toBe('广东省');
      expect(typeof line[6]).toBe('string');
      expect(line[7]).toBe(row.setName);
      expect(line.slice(8, 13)).toEqual([
        row.settledEnergy,
        row.contractPrice,
        row.marketPrice,
        row.settledAmount,
        row.saving,
      ]);
      expect(line[13]).toBe(row.status === 2 ? '正式结算' : '预结算');
    });
    const totals = sheet[sheet.length - 1]!;
    expect(totals[0]).toBe('合计');
    const sum = (key: 'settledEnergy' | 'settledAmount' | 'saving') => rows.reduce((total, row) => total + row[key], 0);
    expect(totals[8] as number).toBeCloseTo(sum('settledEnergy'), 3);
    expect(totals[11] as number).toBeCloseTo(sum('settledAmount'), 2);
    expect(totals[12] as number).toBeCloseTo(sum('saving'), 2);
    // Nothing of the sibling branch or the other bank in the file.
    expect(JSON.stringify(sheet)).not.toMatch(/南宁青秀|另一银行/);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'partner.export'), eq(auditLog.userId, branchUser.userId)));
    expect(audit).toMatchObject({ target: 'settlement' });
  });

  it('a subtree export equals that subtree’s table; the totals are the subtree’s', async () => {
    const page = await table(headUser.cookie, { pager: { pageSize: 100 } }, { partnerId: tree.branchB });
    const sheet = await sheetOf(await download(exportUrl({}, tree.branchB), headUser.cookie));
    const lines = sheet.slice(1, -1);
    expect(lines.map((line) => line[1])).toEqual((page.data.result as SettlementRowData[]).map((row) => row.orderNo));
    expect(lines).toHaveLength(3);
    expect(sheet[sheet.length - 1]![8] as number).toBeCloseTo(
      (page.data.result as SettlementRowData[]).reduce((total, row) => total + row.settledEnergy, 0),
      3,
    );
  });

  it('headers and file name in the request’s locale', async () => {
    const response = await download(exportUrl({}), branchUser.cookie, { 'Accept-Language': 'en-US' });
    expect(decodeURIComponent(response.headers.get('content-disposition') ?? '')).toMatch(
      /settlement-results-\d{8}\.xlsx/,
    );
    const sheet = await sheetOf(response);
    expect(sheet[0]?.[0]).toBe('Settlement month');
    expect(sheet[sheet.length - 1]?.[0]).toBe('Total');
    expect(sheet[1]?.[13]).toMatch(/Final|Provisional/);
  });

  it('an empty result is a file with the headers and a zero totals row', async () => {
    const sheet = await sheetOf(await download(exportUrl({ filter: { partnerId: [tree.subB1] } }), branchUser.cookie));
    expect(sheet).toHaveLength(2);
    expect(sheet[1]?.[0]).toBe('合计');
  });

  it('out of scope and missing → the same 404 envelope; bad requests → 400 envelopes; no file, no audit', async () => {
    const before = await t.db.$count(auditLog, eq(auditLog.action, 'partner.export'));
    const outOfScope = await get(t, exportUrl({}, tree.subB1), { cookie: branchUser.cookie });
    const missing = await get(t, exportUrl({}, 2_000_000_000), { cookie: branchUser.cookie });
    expect(outOfScope).toEqual(missing);
    expect(missing.code).toBe(ApiCode.NOT_FOUND);
    const badJson = await get(t, `${base}/exportSettlementAntTable?antTable=%7Bnope`, { cookie: branchUser.cookie });
    expect(badJson.code).toBe(ApiCode.BAD_REQUEST);
    const badColumn = await get(t, exportUrl({ sorter: [{ key: 'password', sort: 'ascend' }] }), {
      cookie: branchUser.cookie,
    });
    expect(badColumn.code).toBe(ApiCode.BAD_REQUEST);
    expect(await t.db.$count(auditLog, eq(auditLog.action, 'partner.export'))).toBe(before);
  });
});
