/**
 * The settlement table's keyword search and liker on the names kept on the settlement rows
 * (migration 0011; docs/partner.md, Benchmark; the engine's `match`, docs/tables.md): the answers
 * are those of the order's and the enterprise's own values (checked against a reference computed
 * here from the rows shown, not by the engine), the copies follow a renamed enterprise or order
 * and an import, and a keyword's count reads settlement_results alone.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SettlementRowData, SettlementTableData } from '../../src/lib/schemas/partner.ts';
import { settlementImportColumns, type ImportResultData } from '../../src/lib/schemas/partner.ts';
import { rowsOf } from '../../src/server/db/client.ts';
import { partnerIdIn } from '../../src/server/services/partnerScope.ts';
import { settlementTable } from '../../src/server/services/settlementTable.ts';
import { buildTableQueries } from '../../src/server/table/antTable.ts';
import { post, type Envelope } from './accountCalls.ts';
import { addEnterprise, base as enterpriseBase, fullRecord, newUser, postJson } from './enterpriseCalls.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';
import { insertPartnerTree, insertPartnerUser, insertSettledOrder, type PartnerTree } from './partnerFixtures.ts';

const t = openPerFile(() => createTestApp());
const tablePath = '/api/front/hgdsel/settlementbuyresult/getSettlementAntTable';
const months = ['2026-08', '2026-09'];

/** Names that exercise the match: case, the LIKE wildcards and the escape character taken literally. */
const names = [
  '广州精密机械有限公司',
  '佛山精工PreCision有限公司',
  '百分之100%电子有限公司',
  'A_B 贸易有限公司',
  'AxB 贸易有限公司',
  '反斜杠\\科技有限公司',
  '深圳南山食品有限公司',
];

let tree: PartnerTree;
let cookie: string;
let orders: Awaited<ReturnType<typeof insertSettledOrder>>[];

beforeAll(async () => {
  tree = await insertPartnerTree(t);
  orders = [];
  for (const [i, enterpriseName] of names.entries()) {
    orders.push(await insertSettledOrder(t, i % 2 === 0 ? tree.subA1 : tree.subA2, months, { enterpriseName }));
  }
  // Set names that differ, one with a keyword the enterprise names share (精密) and one with a wildcard.
  await t.db.execute(sql`update orders set set_name = '精密制造 2026 套餐' where id = ${orders[6]!.orderId}`);
  await t.db.execute(sql`update orders set set_name = '峰谷_分时 套餐' where id = ${orders[4]!.orderId}`);
  cookie = (await insertPartnerUser(t, [tree.branchA])).cookie;
});

async function table(antTable: unknown): Promise<SettlementTableData> {
  const answer = await post<SettlementTableData>(t, tablePath, { antTable: JSON.stringify(antTable) }, { cookie });
  expect(answer.code, answer.message).toBe(200);
  return answer.data;
}

type Field = 'orderNo' | 'enterpriseName' | 'setName';
const searchable: readonly Field[] = ['orderNo', 'enterpriseName', 'setName'];

/** Every row of the branch, as shown (the order's and the enterprise's own values). */
async function allRows(): Promise<SettlementRowData[]> {
  return (await table({ pager: { pageSize: 100 } })).result as SettlementRowData[];
}

/** The joined columns' meaning, computed here: the value contains the text, ASCII case ignored. */
function reference(rows: readonly SettlementRowData[], text: string, fields: readonly Field[]): number[] {
  const wanted = text.trim().toLowerCase();
  return rows
    .filter((row) => fields.some((field) => String(row[field]).toLowerCase().includes(wanted)))
    .map((row) => row.id);
}

const ids = (data: SettlementTableData) => (data.result as SettlementRowData[]).map((row) => row.id);

describe('keyword and liker on the kept names', () => {
  const keywords = [
    '精密',
    '精',
    'precision',
    'PRECISION',
    '100%',
    '%',
    '_',
    'A_B',
    '\\',
    '反斜杠\\',
    'HGD2026',
    '套餐',
    '峰谷_',
    '不存在的名字',
    ' 精密 ',
  ];

  it('a keyword answers what the shown values contain, for every field set', async () => {
    const rows = await allRows();
    expect(rows).toHaveLength(names.length * months.length);
    // The keywords of the reference must find something: the test would prove nothing otherwise.
    expect(reference(rows, '%', searchable)).toHaveLength(2);
    expect(reference(rows, '_', searchable).length).toBeGreaterThan(0);
    expect(reference(rows, '\\', searchable)).toHaveLength(2);
    const selections: (readonly Field[] | undefined)[] = [
      undefined,
      ['enterpriseName'],
      ['orderNo'],
      ['setName'],
      ['orderNo', 'setName'],
    ];
    for (const select of selections) {
      for (const keyword of keywords) {
        const data = await table({ search: { keyword, ...(select ? { select } : {}) }, pager: { pageSize: 100 } });
        const expected = reference(rows, keyword, select ?? searchable);
        expect(ids(data), `${keyword} in ${select?.join(',') ?? 'all'}`).toEqual(expected);
        expect(data.totalCount).toBe(expected.length);
      }
    }
  });

  it('each of the three fields is found by its own words', async () => {
    const rows = await allRows();
    const byEnterprise = await table({ search: { keyword: '南山食品' } });
    expect(byEnterprise.totalCount).toBe(2);
    const orderNo = orders[3]!.orderNo;
    const byOrder = await table({ search: { keyword: orderNo.slice(-7).toLowerCase() } });
    expect(new Set((byOrder.result as SettlementRowData[]).map((row) => row.orderNo))).toEqual(new Set([orderNo]));
    const bySet = await table({ search: { keyword: '精密制造' } });
    expect((bySet.result as SettlementRowData[]).every((row) => row.setName === '精密制造 2026 套餐')).toBe(true);
    expect(bySet.totalCount).toBe(reference(rows, '精密制造', ['setName']).length);
  });

  it('liker matches its one column the same way, and likers and a keyword combine', async () => {
    const rows = await allRows();
    for (const text of ['精密', 'precision', '%', '_', '\\', 'HGD']) {
      for (const field of ['orderNo', 'enterpriseName'] as const) {
        const data = await table({ liker: { [field]: text }, pager: { pageSize: 100 } });
        expect(ids(data), `${field} ~ ${text}`).toEqual(reference(rows, text, [field]));
      }
    }
    const both = await table({
      liker: { enterpriseName: '贸易', orderNo: 'hgd' },
      search: { keyword: 'a_b' },
      pager: { pageSize: 100 },
    });
    expect(ids(both)).toEqual(
      reference(rows, 'a_b', searchable).filter((id) => reference(rows, '贸易', ['enterpriseName']).includes(id)),
    );
    expect(both.totalCount).toBe(2);
  });
});

describe('the kept names follow their sources', () => {
  it('a renamed enterprise is found by its new name, not its old one; the page shows the new name', async () => {
    const target = orders[5]!;
    await t.db.execute(
      sql`update enterprises set enterprise_name = '改名后的星河科技有限公司' where id = ${target.enterpriseId}`,
    );
    const byNew = await table({ search: { keyword: '星河' } });
    expect(byNew.totalCount).toBe(months.length);
    expect(
      (byNew.result as SettlementRowData[]).every((row) => row.enterpriseName === '改名后的星河科技有限公司'),
    ).toBe(true);
    expect((await table({ search: { keyword: '反斜杠' } })).totalCount).toBe(0);
    expect((await table({ liker: { enterpriseName: '反斜杠' } })).totalCount).toBe(0);
  });

  it('an enterprise renamed by its owner (the edit call) is found by its new name at once', async () => {
    const owner = await newUser(t);
    const created = await addEnterprise(t, owner.cookie, { enterpriseName: '旧名称云岭能源有限公司' });
    // A settled order moved to the owner's enterprise: the rows' enterprise_id changes, so the copy does too.
    const settled = await insertSettledOrder(t, tree.subA1, months);
    await t.db.execute(sql`update orders set enterprise_id = ${created.id} where id = ${settled.orderId}`);
    await t.db.execute(
      sql`update settlement_results set enterprise_id = ${created.id} where order_id = ${settled.orderId}`,
    );
    expect((await table({ search: { keyword: '云岭' } })).totalCount).toBe(months.length);
    const record = fullRecord({
      enterpriseName: '新名称滇池能源有限公司',
      creditCode: created.creditCode,
      clearanceAccount: created.clearanceAccount,
    });
    const renamed = await postJson(t, `${enterpriseBase}/edit`, { id: created.id, ...record }, owner.cookie);
    expect(renamed.code, renamed.message).toBe(200);
    expect((await table({ search: { keyword: '云岭' } })).totalCount).toBe(0);
    const byNew = await table({ liker: { enterpriseName: '滇池' } });
    expect(byNew.totalCount).toBe(months.length);
    expect((byNew.result as SettlementRowData[]).every((row) => row.enterpriseName === '新名称滇池能源有限公司')).toBe(
      true,
    );
  });

  it('a renamed set is found by its new name', async () => {
    await t.db.execute(sql`update orders set set_name = '绿电月度套餐' where id = ${orders[1]!.orderId}`);
    const data = await table({ search: { keyword: '绿电', select: ['setName'] } });
    expect(data.totalCount).toBe(months.length);
    expect(new Set((data.result as SettlementRowData[]).map((row) => row.orderNo))).toEqual(
      new Set([orders[1]!.orderNo]),
    );
  });

  it('rows written by the import carry the names and are found by them', async () => {
    const imported = await insertSettledOrder(t, tree.subA2, [], { enterpriseName: '导入专用银河精密有限公司' });
    const operator = await t.login('demo_operator');
    const headers = settlementImportColumns.map((column) => column.header);
    const file = `${[headers, [imported.orderNo, '2026-09', '120.5', '0.392', '0.41', '', '', '正式结算']].map((row) => row.join(',')).join('\r\n')}\r\n`;
    const form = new FormData();
    form.append('file', new File([file], 'names.csv'));
    const response = await t.app.request('/api/ops/settlement/import', {
      method: 'POST',
      headers: apiHeaders({ Cookie: operator }),
      body: form,
    });
    const answer = (await response.json()) as Envelope<ImportResultData>;
    expect(answer.code, answer.message).toBe(200);
    const data = await table({ search: { keyword: '银河精密' } });
    expect(data.totalCount).toBe(1);
    expect(data.result[0]).toMatchObject({
      orderNo: imported.orderNo,
      enterpriseName: '导入专用银河精密有限公司',
      settleMonth: '2026-09',
    });
  });

  it('every row of the database holds its order’s and enterprise’s current names', async () => {
    const [row] = rowsOf<{ rows: number; wrong: number }>(
      await t.db.execute(sql`
        select count(*)::int4 as rows,
               count(*) filter (where s.order_no <> o.order_no or s.set_name <> o.set_name or s.enterprise_name <> e.enterprise_name)::int4 as wrong
        from settlement_results s join orders o on o.id = s.order_id join enterprises e on e.id = s.enterprise_id`),
    );
    expect(row!.rows).toBeGreaterThan(names.length * months.length);
    expect(row!.wrong).toBe(0);
  });

  it('names a writer sends are replaced by the sources’ (one source of truth)', async () => {
    const target = orders[0]!;
    await t.db.execute(
      sql`update settlement_results set enterprise_name = '伪造的名字', order_no = 'X' where order_id = ${target.orderId}`,
    );
    const [row] = rowsOf<{ enterprise_name: string; order_no: string }>(
      await t.db.execute(
        sql`select enterprise_name, order_no from settlement_results where order_id = ${target.orderId} limit 1`,
      ),
    );
    expect(row).toEqual({ enterprise_name: '广州精密机械有限公司', order_no: target.orderNo });
  });
});

describe('the keyword joins nothing', () => {
  it('the count of a keyword reads settlement_results alone (no orders, no enterprises in its plan)', async () => {
    const queries = buildTableQueries(
      settlementTable,
      { search: { keyword: '精密' }, range: { settleMonth: { start: '2026-08', end: '2026-09' } } },
      { scope: partnerIdIn(sql`s.partner_id`, [tree.subA1, tree.subA2]) },
    );
    const plan = rowsOf(await t.db.execute(sql`explain ${queries.count}`))
      .map((row) => String(Object.values(row)[0]))
      .join('\n');
    expect(plan).toContain('settlement_results');
    expect(plan).not.toMatch(/\borders\b|\benterprises\b/);
    const liker = buildTableQueries(
      settlementTable,
      { liker: { enterpriseName: '精密', orderNo: 'HGD' } },
      { scope: partnerIdIn(sql`s.partner_id`, [tree.subA1]) },
    );
    const likerPlan = rowsOf(await t.db.execute(sql`explain ${liker.count}`))
      .map((row) => String(Object.values(row)[0]))
      .join('\n');
    expect(likerPlan).not.toMatch(/\borders\b|\benterprises\b/);
  });
});
