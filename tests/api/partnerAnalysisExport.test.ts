/**
 * The partner analysis downloads (docs/partner.md, Analysis): GET exportAntTable,
 * exportClassificationAntTable and exportTrendAntTable. Each file is opened with read-excel-file
 * and compared row by row with the table call of the same request; the totals row (合计) is the
 * union of what the listed rows cover, never a sum of nested rows. A branch user's file holds
 * nothing of its sibling branch. Refusals answer the usual envelope instead of a file.
 */
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import { rowsOf } from '../../src/server/db/client.ts';
import { partnerMetrics, classifiedMetrics } from '../../src/lib/partner.ts';
import type { CompareData, StatisticsData, TrendData } from '../../src/lib/schemas/partner.ts';
import { post, type Envelope } from './accountCalls.ts';
import { apiHeaders, openPerFile } from './harness.ts';
import { createOrderTestApp } from './orderFixtures.ts';
import { insertAnalysisData, metrics, own2026, sum } from './partnerAnalysisFixtures.ts';
import { insertPartnerUser, insertUser, type PartnerTree } from './partnerFixtures.ts';

const t = openPerFile(createOrderTestApp);
const base = '/api/front/hgdarc/partner';
const levelNames: Record<number, string> = { 1: '总行', 2: '分行', 3: '支行' };

let tree: PartnerTree;
let headUser: { userId: number; cookie: string };
let branchUser: { userId: number; cookie: string };
let notPartner: string;

beforeAll(async () => {
  tree = await insertAnalysisData(t);
  headUser = await insertPartnerUser(t, [tree.head]);
  branchUser = await insertPartnerUser(t, [tree.branchA]);
  notPartner = await t.login((await insertUser(t, ['individual'])).userName);
});

type Fields = Record<string, string | number>;

function queryOf(fields: Fields, antTable?: unknown): string {
  const params = new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)]));
  if (antTable !== undefined) params.set('antTable', JSON.stringify(antTable));
  return params.toString();
}

async function download(
  path: string,
  fields: Fields,
  cookie: string | undefined,
  antTable?: unknown,
  locale = 'zh-CN',
): Promise<Response> {
  return t.app.request(`${base}/${path}?${queryOf(fields, antTable)}`, {
    headers: apiHeaders({ ...(cookie ? { Cookie: cookie } : {}), 'Accept-Language': locale }),
  });
}

async function sheetOf(response: Response): Promise<unknown[][]> {
  expect(response.headers.get('content-type')).toBe(
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  return (await readSheet(Buffer.from(await response.arrayBuffer()))) as unknown[][];
}

async function table<T>(
  path: string,
  fields: Fields,
  cookie: string,
  antTable: Record<string, unknown> = {},
): Promise<Envelope<T>> {
  return post<T>(
    t,
    `${base}/${path}`,
    { ...fields, antTable: JSON.stringify({ ...antTable, pager: { pageSize: 100 } }) },
    { cookie },
  );
}

function metricCells(values: Record<string, unknown>, names: readonly string[] = partnerMetrics): unknown[] {
  return names.map((name) => values[name]);
}

describe('GET exportAntTable', () => {
  it("every row equals the table call's, Chinese headers, and the totals row is the head office's own row (not the sum of nested rows)", async () => {
    const fields = { yearType: 1, period: '2026' };
    const response = await download('exportAntTable', fields, headUser.cookie);
    expect(response.status).toBe(200);
    expect(decodeURIComponent(response.headers.get('content-disposition') ?? '')).toContain(
      "filename*=UTF-8''统计分析-2026-20261122.xlsx",
    );
    const rows = await sheetOf(response);
    const answer = await table<StatisticsData>('getStaDataAntTable', fields, headUser.cookie);
    expect(rows[0]).toEqual([
      '机构代码',
      '合作机构',
      '机构级别',
      '注册企业数',
      '认证企业数',
      '订单数',
      '生效订单数',
      '签约电量（MWh）',
      '结算电量（MWh）',
      '结算电费（元）',
      '节省金额（元）',
    ]);
    expect(rows.slice(1, -1)).toEqual(
      answer.data.result.map((row) => [
        row.partnerCode,
        row.partnerName,
        levelNames[row.level ?? 0],
        ...metricCells(row),
      ]),
    );
    const head = answer.data.result.find((row) => row.partnerId === tree.head) ?? {};
    expect(rows.at(-1)).toEqual(['合计', null, null, ...metricCells(head)]);
    // Not the column sums, which would count the sub-branches three times.
    expect(rows.at(-1)?.[3]).toBe(
      sum(own2026.branchA, own2026.subA1, own2026.subA2, own2026.subB1).registeredEnterprises,
    );
  });

  it('the totals row of a filtered export: two branches side by side add up; a head office with its branch counts once', async () => {
    const fields = { period: '2026' };
    const branches = await sheetOf(
      await download('exportAntTable', fields, headUser.cookie, { filter: { level: [2] } }),
    );
    expect(branches.slice(1, -1).map((row) => row[0])).toHaveLength(2);
    const branchA = sum(own2026.branchA, own2026.subA1, own2026.subA2);
    expect(branches.at(-1)?.slice(3)).toEqual(metricCells(sum(branchA, own2026.subB1)));
    const nested = await sheetOf(
      await download('exportAntTable', fields, headUser.cookie, { filter: { partnerId: [tree.head, tree.branchA] } }),
    );
    expect(nested.length).toBe(4);
    expect(nested.at(-1)?.slice(3)).toEqual(metricCells(sum(branchA, own2026.subB1)));
    // Sorted the other way round, the same rows and the same totals.
    const sorted = await sheetOf(
      await download('exportAntTable', fields, headUser.cookie, { sorter: [{ key: 'partnerCode', sort: 'descend' }] }),
    );
    expect(sorted.slice(1, -1).map((row) => row[0])).toEqual(
      [
        ...(
          await table<StatisticsData>('getStaDataAntTable', fields, headUser.cookie, {
            sorter: [{ key: 'partnerCode', sort: 'descend' }],
          })
        ).data.result,
      ].map((row) => row.partnerCode),
    );
    expect(sorted.at(-1)).toEqual(nested.at(-1));
  });

  it("SCOPING: a branch user's file holds its branch and sub-branches only, and its totals are the branch's", async () => {
    const rows = await sheetOf(await download('exportAntTable', { period: '2026' }, branchUser.cookie));
    const text = JSON.stringify(rows);
    expect(text).not.toContain('广西');
    expect(text).not.toContain('总行');
    expect(rows.slice(1, -1).map((row) => row[2])).toEqual(['分行', '支行', '支行']);
    expect(rows.at(-1)).toEqual([
      '合计',
      null,
      null,
      ...metricCells(sum(own2026.branchA, own2026.subA1, own2026.subA2)),
    ]);
  });

  it("headers and file name in the request's locale; the export is audited", async () => {
    const response = await download(
      'exportAntTable',
      { yearType: 2, period: '2026-02' },
      branchUser.cookie,
      undefined,
      'en-US',
    );
    expect(decodeURIComponent(response.headers.get('content-disposition') ?? '')).toContain(
      'statistics-2026-02-20261122.xlsx',
    );
    const rows = await sheetOf(response);
    expect(rows[0]?.slice(0, 4)).toEqual([
      'Institution code',
      'Partner institution',
      'Level',
      'Registered enterprises',
    ]);
    expect(rows.at(-1)?.[0]).toBe('Total');
    expect(rows[1]?.[2]).toBe('Branch');
    const audit = await t.db.execute(
      sql`select action, target, detail from audit_log where user_id = ${branchUser.userId} and action = 'partner.export' order by id desc limit 1`,
    );
    const entry = (Array.isArray(audit) ? audit : (audit as { rows: unknown[] }).rows)[0] as {
      target: string;
      detail: Record<string, unknown>;
    };
    expect(entry).toMatchObject({ target: 'partner:statistics', detail: { yearType: 2, period: '2026-02' } });
  });

  it('refusals answer the envelope, not a file: 901, 403, bad period, bad antTable, out of scope', async () => {
    const envelope = async (response: Response) => {
      expect(response.headers.get('content-type')).toContain('application/json');
      return (await response.json()) as Envelope;
    };
    expect((await envelope(await download('exportAntTable', {}, undefined))).code).toBe(ApiCode.SESSION_EXPIRED);
    expect((await envelope(await download('exportAntTable', {}, notPartner))).code).toBe(ApiCode.FORBIDDEN);
    expect(
      (await envelope(await download('exportAntTable', { yearType: 3, period: '2026-02-29' }, branchUser.cookie))).code,
    ).toBe(ApiCode.BAD_REQUEST);
    expect(
      (
        await envelope(
          await download('exportAntTable', {}, branchUser.cookie, { sorter: [{ key: 'path', sort: 'ascend' }] }),
        )
      ).code,
    ).toBe(ApiCode.BAD_REQUEST);
    const badJson = await t.app.request(`${base}/exportAntTable?antTable=%7Bnope`, {
      headers: apiHeaders({ Cookie: branchUser.cookie }),
    });
    expect((await envelope(badJson)).code).toBe(ApiCode.BAD_REQUEST);
    expect(
      (await envelope(await download('exportAntTable', { partnerId: tree.branchB }, branchUser.cookie))).code,
    ).toBe(ApiCode.NOT_FOUND);
    expect(
      (
        await envelope(
          await download(
            'exportClassificationAntTable',
            { partnerIds: `${tree.subA1},${tree.subB1}` },
            branchUser.cookie,
          ),
        )
      ).code,
    ).toBe(ApiCode.NOT_FOUND);
    expect(
      (
        await envelope(
          await download('exportClassificationAntTable', { partnerIds: `${tree.subA1}` }, branchUser.cookie),
        )
      ).code,
    ).toBe(ApiCode.BAD_REQUEST);
    expect(
      (
        await envelope(
          await download('exportTrendAntTable', { yearType: 2, from: '2020-01', to: '2026-01' }, branchUser.cookie),
        )
      ).code,
    ).toBe(ApiCode.BAD_REQUEST);
    expect(
      (await envelope(await download('exportTrendAntTable', { partnerId: tree.other }, headUser.cookie))).code,
    ).toBe(ApiCode.NOT_FOUND);
    // The year that once looped forever: refused at once, in the schema.
    expect(
      (await envelope(await download('exportTrendAntTable', { yearType: 1, to: '9999' }, branchUser.cookie))).code,
    ).toBe(ApiCode.BAD_REQUEST);
  });

  it.each(['exportAntTable', 'exportClassificationAntTable', 'exportTrendAntTable'])(
    '%s from another site (a link, an <img>, a navigation) → 403, no file, no audit',
    async (path) => {
      const audits = async () =>
        Number(
          rowsOf(
            await t.db.execute(sql`select count(*)::int as n from audit_log where action = 'partner.export'`),
          )[0]?.['n'] ?? 0,
        );
      const before = await audits();
      const fields = path === 'exportClassificationAntTable' ? { partnerIds: `${tree.subA1},${tree.subA2}` } : {};
      const query = `${base}/${path}?${queryOf(fields)}`;
      const link = await t.app.request(query, { headers: { Cookie: branchUser.cookie } });
      const crossSite = await t.app.request(query, {
        headers: { Cookie: branchUser.cookie, 'X-Requested-With': 'XMLHttpRequest', Origin: 'https://evil.example' },
      });
      for (const response of [link, crossSite]) {
        expect(response.headers.get('content-type')).toContain('application/json');
        expect(((await response.json()) as Envelope).code).toBe(ApiCode.FORBIDDEN);
      }
      expect(await audits()).toBe(before);
    },
  );
});

describe('GET exportClassificationAntTable', () => {
  it("rows equal the table call's; the totals per class are the union of the compared subtrees", async () => {
    const fields = { period: '2026', partnerIds: `${tree.head},${tree.branchA}`, classification: 'area' };
    const response = await download('exportClassificationAntTable', fields, headUser.cookie);
    expect(response.status).toBe(200);
    const rows = await sheetOf(response);
    const answer = await table<CompareData>('getCompareDataAntTable', fields, headUser.cookie);
    expect(rows[0]).toEqual([
      '省份',
      '合作机构',
      '订单数',
      '签约电量（MWh）',
      '结算电量（MWh）',
      '结算电费（元）',
      '节省金额（元）',
    ]);
    expect(rows.slice(1, -1)).toEqual(
      answer.data.result.map((row) => [row.className, row.partnerName, ...metricCells(row, classifiedMetrics)]),
    );
    // The head office contains the branch: the totals are the head office's, not head + branch.
    const whole = sum(own2026.branchA, own2026.subA1, own2026.subA2, own2026.subB1);
    expect(rows.at(-1)).toEqual(['合计', null, ...classifiedMetrics.map((metric) => whole[metric])]);
  });

  it("by product for two sibling branches, filtered to one product: the totals are that product's two rows added", async () => {
    const fields = { period: '2026', partnerIds: `${tree.branchA},${tree.branchB}`, classification: 'product' };
    const rows = await sheetOf(
      await download('exportClassificationAntTable', fields, headUser.cookie, { filter: { classKey: ['id1'] } }),
    );
    expect(rows[0]?.[0]).toBe('产品');
    expect(rows.length).toBe(4);
    expect(rows.at(-1)).toEqual(['合计', null, 2, 600, 150.5, 60000.1, 1500.05]);
  });
});

describe('GET exportTrendAntTable', () => {
  it("rows equal the table call's; totals add the periods, and an order in force over several months counts once", async () => {
    const fields = { yearType: 2, from: '2025-11', to: '2026-03' };
    const response = await download('exportTrendAntTable', fields, branchUser.cookie);
    expect(decodeURIComponent(response.headers.get('content-disposition') ?? '')).toContain(
      '趋势分析-2025-11_2026-03-20261122.xlsx',
    );
    const rows = await sheetOf(response);
    const answer = await table<TrendData>('getTrendDataAntTable', fields, branchUser.cookie);
    expect(rows[0]?.[0]).toBe('时间');
    expect(rows.slice(1, -1)).toEqual(answer.data.result.map((row) => [row.period, ...metricCells(row)]));
    expect(rows.at(-1)).toEqual([
      '合计',
      ...metricCells(
        metrics({
          registeredEnterprises: 2,
          certifiedEnterprises: 1,
          orders: 2,
          ordersInForce: 2,
          contractedEnergy: 1200,
          settledEnergy: 501.75,
          settledAmount: 200000.5,
          saving: 2950.05,
        }),
      ),
    ]);
  });

  it('a filtered trend export totals only the listed periods', async () => {
    const rows = await sheetOf(
      await download('exportTrendAntTable', { yearType: 2, from: '2025-11', to: '2026-03' }, branchUser.cookie, {
        range: { period: { start: '2026-02', end: '2026-03' } },
      }),
    );
    expect(rows.slice(1, -1).map((row) => row[0])).toEqual(['2026-02', '2026-03']);
    expect(rows.at(-1)).toEqual([
      '合计',
      ...metricCells(
        metrics({
          registeredEnterprises: 1,
          orders: 1,
          ordersInForce: 2,
          settledEnergy: 200.25,
          settledAmount: 80000.2,
          saving: -50.1,
        }),
      ),
    ]);
  });
});
