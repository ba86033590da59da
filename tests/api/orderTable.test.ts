/**
 * The order and audit tables: POST order/getAntTable (own enterprise, not deleted),
 * /api/ops/order/getAntTable (every order, with the enterprise, deleted flagged) and
 * /api/ops/audit/getAntTable (with user names) — scope, filters, ranges, search, sort, paging,
 * and the engine's 400s for fields a table does not have or allow.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditActionText, auditTargetText, type AuditWords } from '../../src/lib/auditTrail.ts';
import { t as tr } from '../../src/lib/i18n/index.ts';
import type { AuditRowData, OpsOrderRowData, OrderRowData, OrderTableData } from '../../src/lib/schemas/order.ts';
import type { TableRequest } from '../../src/lib/schemas/table.ts';
import { auditLog } from '../../src/server/db/schema/index.ts';
import { opsOrdersTable, ownOrdersTable } from '../../src/server/services/orderTables.ts';
import { buildTableQueries } from '../../src/server/table/antTable.ts';
import { get, post, type Envelope } from './accountCalls.ts';
import { addEnterpriseUser, createOrderTestApp, type EnterpriseUser, insertOrder } from './orderFixtures.ts';
import { apiHeaders, openPerFile } from './harness.ts';

const t = openPerFile(createOrderTestApp);
let operator: string;
let mine: EnterpriseUser;
let theirs: EnterpriseUser;
const myOrders: string[] = [];
let theirOrder = '';
let deletedOrder = '';

beforeAll(async () => {
  operator = await t.login('demo_operator');
  mine = await addEnterpriseUser(t, { userName: 'table_mine', mobile: '13900002001' });
  theirs = await addEnterpriseUser(t, { userName: 'table_theirs', mobile: '13900002002' });
  // Five of mine, a day apart (oldest first), in different states; one deleted; one of theirs.
  const statuses = [10, 20, 30, 40, 91];
  for (const [i, status] of statuses.entries()) {
    myOrders.push(
      await insertOrder(t, mine, {
        status,
        createdAt: new Date(Date.UTC(2026, 10, 10 + i, 2)),
        setName: i % 2 ? '分时电价套餐' : '固定价格套餐',
      }),
    );
  }
  deletedOrder = await insertOrder(t, mine, {
    status: 90,
    deletedAt: new Date(),
    createdAt: new Date(Date.UTC(2026, 10, 16, 2)),
  });
  theirOrder = await insertOrder(t, theirs, { status: 10, createdAt: new Date(Date.UTC(2026, 10, 17, 2)) });
});

function table<Row>(path: string, antTable: unknown, cookie: string): Promise<Envelope<OrderTableData<Row>>> {
  return post<OrderTableData<Row>>(t, path, { antTable: JSON.stringify(antTable) }, { cookie });
}
const own = (antTable: unknown) => table<OrderRowData>('/api/front/hgdsel/order/getAntTable', antTable, mine.cookie);
const ops = (antTable: unknown) => table<OpsOrderRowData>('/api/ops/order/getAntTable', antTable, operator);

describe('POST order/getAntTable (own orders)', () => {
  it("lists only the enterprise's own orders not deleted, newest first, in the documented shape", async () => {
    const answer = await own({});
    expect(answer.code).toBe(200);
    expect(answer.data.totalCount).toBe(5);
    expect(answer.data.result.map((row) => row.orderNo)).toEqual([...myOrders].reverse());
    expect(answer.data.result.map((row) => row.orderNo)).not.toContain(deletedOrder);
    expect(answer.data.result.map((row) => row.orderNo)).not.toContain(theirOrder);
    expect(answer.data.result[0]).toEqual({
      orderNo: myOrders[4],
      productId: 'id1',
      setName: '固定价格套餐',
      orgComName: '粤汇电能售电有限公司',
      areaCode: '440000',
      schemeParamName: '10千伏用户',
      contractStart: '2027-01',
      contractMonths: 12,
      estimatedConsumption: 8600,
      status: 91,
      createdAt: '2026-11-14T02:00:00.000Z',
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('filters by status, ranges by creation day, searches, sorts and pages', async () => {
    const open = await own({ filter: { status: [10, 20, 30] }, sorter: [{ key: 'createdAt', sort: 'ascend' }] });
    expect(open.data.result.map((row) => row.status)).toEqual([10, 20, 30]);
    const days = await own({ range: { createdAt: { start: '2026-11-11', end: '2026-11-12' } } });
    expect(days.data.result.map((row) => row.orderNo)).toEqual([myOrders[2], myOrders[1]]);
    const found = await own({ search: { keyword: '分时' } });
    expect(found.data.result.map((row) => row.setName)).toEqual(['分时电价套餐', '分时电价套餐']);
    const byNo = await own({ liker: { orderNo: myOrders[0]?.slice(-4) } });
    expect(byNo.data.result.map((row) => row.orderNo)).toEqual([myOrders[0]]);
    const page2 = await own({ pager: { current: 2, pageSize: 2 }, sorter: [{ key: 'status', sort: 'descend' }] });
    expect(page2.data).toMatchObject({ totalCount: 5 });
    expect(page2.data.result.map((row) => row.status)).toEqual([30, 20]);
    const picked = await own({ select: ['orderNo', 'status'], pager: { pageSize: 1 } });
    expect(Object.keys(picked.data.result[0] ?? {}).sort()).toEqual(['orderNo', 'status']);
  });

  it('does not let a filter reach another enterprise', async () => {
    const answer = await own({ liker: { orderNo: theirOrder }, filter: { orderNo: [theirOrder] } });
    expect(answer.data).toEqual({ result: [], totalCount: 0 });
  });

  it('refuses unknown and operator-only fields, bad values and bad JSON (400)', async () => {
    expect((await own({ filter: { enterpriseId: [theirs.enterpriseId] } })).code).toBe(400);
    expect((await own({ filter: { deleted: [true] } })).code).toBe(400);
    expect((await own({ sorter: [{ key: 'schemeParamName', sort: 'ascend' }] })).code).toBe(400);
    expect((await own({ filter: { status: ["10' or '1'='1"] } })).code).toBe(400);
    expect((await own({ range: { createdAt: { start: 'yesterday' } } })).code).toBe(400);
    expect((await own({ pager: { pageSize: 101 } })).code).toBe(400);
    expect((await own({ filter: { __proto__: [1] } })).code).toBe(200);
    const broken = await post(
      t,
      '/api/front/hgdsel/order/getAntTable',
      { antTable: '{"filter":' },
      { cookie: mine.cookie },
    );
    expect(broken.code).toBe(400);
  });

  it('answers 901 without a session and 403 without an enterprise', async () => {
    expect((await post(t, '/api/front/hgdsel/order/getAntTable', { antTable: '{}' })).code).toBe(901);
    expect(
      (
        await post(
          t,
          '/api/front/hgdsel/order/getAntTable',
          { antTable: '{}' },
          { cookie: await t.login('demo_person') },
        )
      ).code,
    ).toBe(403);
  });

  it('takes the table request as an object in a JSON body', async () => {
    const response = await t.app.request('/api/front/hgdsel/order/getAntTable', {
      method: 'POST',
      headers: apiHeaders({ Cookie: mine.cookie, 'Content-Type': 'application/json' }),
      body: JSON.stringify({ antTable: { filter: { status: [40] } } }),
    });
    const answer = (await response.json()) as Envelope<OrderTableData<OrderRowData>>;
    expect(answer.data.result.map((row) => row.orderNo)).toEqual([myOrders[3]]);
  });
});

describe('POST /api/ops/order/getAntTable', () => {
  it('lists every order with its enterprise, deleted ones flagged', async () => {
    const answer = await ops({
      filter: { enterpriseId: [mine.enterpriseId, theirs.enterpriseId] },
      pager: { pageSize: 100 },
    });
    expect(answer.code).toBe(200);
    expect(answer.data.totalCount).toBe(7);
    const deleted = answer.data.result.find((row) => row.orderNo === deletedOrder);
    expect(deleted).toMatchObject({ deleted: true, enterpriseName: 'table_mine 有限公司', status: 90 });
    expect(answer.data.result.find((row) => row.orderNo === theirOrder)).toMatchObject({
      deleted: false,
      enterpriseId: theirs.enterpriseId,
    });
  });

  it('filters by status and deleted, ranges by time, searches the enterprise name, sorts', async () => {
    const submitted = await ops({
      filter: { status: [10], deleted: [false], enterpriseId: [mine.enterpriseId, theirs.enterpriseId] },
      range: { createdAt: { start: '2026-11-01T00:00:00Z', end: '2026-11-30T00:00:00Z' } },
      sorter: [{ key: 'createdAt', sort: 'descend' }],
    });
    expect(submitted.data.result.map((row) => row.orderNo)).toEqual([theirOrder, myOrders[0]]);
    const named = await ops({ search: { keyword: 'table_theirs' } });
    expect(named.data.result.map((row) => row.orderNo)).toEqual([theirOrder]);
    const hidden = await ops({ filter: { deleted: [true], enterpriseId: [mine.enterpriseId] } });
    expect(hidden.data.result.map((row) => row.orderNo)).toEqual([deletedOrder]);
  });

  it('refuses what the table does not have (400)', async () => {
    const answer = await ops({ filter: { password_hash: ['x'] } });
    expect(answer).toMatchObject({ code: 400, message: '此表格没有字段“password_hash”' });
    expect((await ops({ sorter: [{ key: 'createdAt', sort: 'sideways' }] })).code).toBe(400);
  });
});

describe('POST /api/ops/audit/getAntTable', () => {
  it('lists the audit trail with user names, filtered by action and searched by target', async () => {
    // Make one audited change to find.
    const orderNo = await insertOrder(t, mine, { status: 10 });
    expect((await post(t, '/api/ops/order/transition', { orderNo, action: 'accept' }, { cookie: operator })).code).toBe(
      200,
    );
    const auditor = await t.login('demo_auditor');
    const answer = await table<AuditRowData>(
      '/api/ops/audit/getAntTable',
      { filter: { action: ['order.accept'] }, search: { keyword: orderNo } },
      auditor,
    );
    expect(answer.code).toBe(200);
    expect(answer.data.totalCount).toBe(1);
    expect(answer.data.result[0]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/Z$/),
      userName: 'demo_operator',
      action: 'order.accept',
      target: `order:${orderNo}`,
      detail: { by: 'operator', from: 10, to: 20 },
      // app.request has no socket: no client address to record.
      ip: null,
    });
    const ranged = await table<AuditRowData>(
      '/api/ops/audit/getAntTable',
      { range: { at: { start: '2000-01-01', end: '2000-01-02' } } },
      auditor,
    );
    expect(ranged.data).toEqual({ result: [], totalCount: 0 });
    expect((await table('/api/ops/audit/getAntTable', { filter: { detail: ['x'] } }, auditor)).code).toBe(400);
  });
});

describe('the default order is read from an index', () => {
  // The planner is told to avoid scans that lose order and sorts (it still sorts when it has no
  // other way): a plan that sorts means no index gives the engine's order (created_at desc, then
  // id desc), and on 100 000 orders a page of ten would sort every matching row (docs/tables.md).
  async function plan(statement: SQL): Promise<string> {
    return t.db.transaction(async (tx) => {
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
        await tx.execute(sql.raw(`set local ${setting} = off`));
      const rows = await tx.execute(sql`explain ${statement}`);
      const list = (
        Array.isArray(rows) ? rows : (rows as unknown as { rows: Record<string, string>[] }).rows
      ) as Record<string, string>[];
      return list.map((row) => Object.values(row)[0]).join('\n');
    });
  }
  const filtered = (sort: 'asc' | 'desc'): TableRequest => ({
    filter: { status: [10, 20, 30] },
    sorter: [{ key: 'createdAt', sort }],
  });

  it("the operator's queue and the owner's table, newest or oldest first, need no sort", async () => {
    for (const sort of ['desc', 'asc'] as const) {
      expect(await plan(buildTableQueries(opsOrdersTable, filtered(sort)).page)).not.toMatch(/\bSort\b/);
      const ownPage = buildTableQueries(ownOrdersTable, filtered(sort), {
        scope: sql`o.enterprise_id = ${mine.enterpriseId}::int4`,
      }).page;
      expect(await plan(ownPage)).not.toMatch(/\bSort\b/);
    }
  });
});

describe('GET /api/ops/audit/exportAntTable', () => {
  const exportUrl = (antTable: Record<string, unknown>) =>
    `/api/ops/audit/exportAntTable?${new URLSearchParams({ antTable: JSON.stringify(antTable) }).toString()}`;

  it('the auditor downloads the entries the filters match, in the table’s order, and the export is itself audited', async () => {
    const orderNo = await insertOrder(t, mine, { status: 10 });
    expect((await post(t, '/api/ops/order/transition', { orderNo, action: 'accept' }, { cookie: operator })).code).toBe(
      200,
    );
    const auditor = await t.login('demo_auditor');
    const antTable = { search: { keyword: orderNo } };
    const page = await table<AuditRowData>(
      '/api/ops/audit/getAntTable',
      { ...antTable, pager: { pageSize: 100 } },
      auditor,
    );
    const response = await t.app.request(exportUrl(antTable), { headers: apiHeaders({ Cookie: auditor }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('spreadsheetml');
    expect(decodeURIComponent(response.headers.get('content-disposition') ?? '')).toMatch(/操作记录-\d{8}\.xlsx/);
    const sheet = await readSheet(Buffer.from(await response.arrayBuffer()));
    expect(sheet[0]).toEqual(['时间', '用户', '操作', '对象', '详情', 'IP 地址']);
    // In words, as the page shows them.
    const words: AuditWords = (key, params) => tr('zh-CN', key, params);
    expect(sheet.slice(1).map((row) => [row[2], row[3]])).toEqual(
      page.data.result.map((row) => [auditActionText(row.action, words), auditTargetText(row.target, words)]),
    );
    expect(sheet.slice(1).map((row) => [row[2], row[3]])).toContainEqual(['受理订单', `订单 ${orderNo}`]);
    expect(sheet.slice(1).find((row) => row[2] === '受理订单')?.[4]).toBe(
      '操作方：运营人员；原状态：待受理；新状态：已受理',
    );
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'audit.export'));
    expect(entry).toMatchObject({ target: 'audit', detail: { antTable: { search: { keyword: orderNo } } } });
  });

  it('is the auditor’s alone (403 to the operator and the administrator), and a bad request is a 400 before any byte', async () => {
    for (const userName of ['demo_operator', 'demo_admin', 'demo_company']) {
      expect((await get(t, exportUrl({}), { cookie: await t.login(userName) })).code, userName).toBe(403);
    }
    const auditor = await t.login('demo_auditor');
    expect((await get(t, exportUrl({ filter: { detail: ['x'] } }), { cookie: auditor })).code).toBe(400);
    expect((await get(t, '/api/ops/audit/exportAntTable?antTable=%7B', { cookie: auditor })).code).toBe(400);
  });
});
