/**
 * The monthly roll-up of settlement results (src/server/services/settlementRollup.ts): rewritten
 * for exactly the months given, summed per institution, product and area, rows without an
 * institution left out, and a bad month refused before anything is deleted.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/client.ts';
import { orders, partnerInstitutions, settlementResults } from '../../src/server/db/schema/index.ts';
import { refreshSettlementMonthly } from '../../src/server/services/settlementRollup.ts';
import { openPerFile } from './harness.ts';
import { addEnterpriseUser, createOrderTestApp, insertOrder } from './orderFixtures.ts';

const t = openPerFile(createOrderTestApp);
let head = 0;
let branch = 0;
const orderIds: number[] = [];
let enterpriseId = 0;

async function settle(
  orderId: number,
  month: string,
  partnerId: number | null,
  energy: string,
  amount: string,
  saving: string,
) {
  await t.db.insert(settlementResults).values({
    orderId,
    enterpriseId,
    partnerId,
    areaCode: '440000',
    productId: 'id1',
    settleMonth: `${month}-01`,
    settledEnergy: energy,
    contractPrice: '0.39000',
    marketPrice: '0.41000',
    settledAmount: amount,
    saving,
    status: 2,
  });
}

async function rollup() {
  type Row = {
    partner_id: number;
    settle_month: string;
    results: number;
    settled_energy: string;
    settled_amount: string;
    saving: string;
  };
  const result = await t.db.execute(
    sql`select partner_id, to_char(settle_month, 'YYYY-MM') as settle_month, results, settled_energy::text, settled_amount::text, saving::text
        from settlement_monthly where partner_id in (${head}, ${branch}) order by settle_month, partner_id`,
  );
  return rowsOf<Row>(result).map((row) => ({
    ...row,
    settled_energy: Number(row.settled_energy),
    settled_amount: Number(row.settled_amount),
    saving: Number(row.saving),
  }));
}

beforeAll(async () => {
  const [root] = await t.db
    .insert(partnerInstitutions)
    .values({ code: 'T0001', name: '测试总行', level: 1, path: '/' })
    .returning();
  head = root!.id;
  await t.db
    .update(partnerInstitutions)
    .set({ path: `/${head}/` })
    .where(sql`id = ${head}`);
  const [child] = await t.db
    .insert(partnerInstitutions)
    .values({ code: 'T0002', name: '测试分行', level: 2, parentId: head, path: '/' })
    .returning();
  branch = child!.id;
  await t.db
    .update(partnerInstitutions)
    .set({ path: `/${head}/${branch}/` })
    .where(sql`id = ${branch}`);
  const owner = await addEnterpriseUser(t, { userName: 'rollup_owner', mobile: '13900003001' });
  enterpriseId = owner.enterpriseId;
  for (let index = 0; index < 3; index += 1) {
    const orderNo = await insertOrder(t, owner, { status: 30, contractStart: '2025-01-01', contractMonths: 24 });
    const [row] = await t.db
      .select({ id: orders.id })
      .from(orders)
      .where(sql`order_no = ${orderNo}`);
    orderIds.push(row!.id);
  }
});

describe('refreshSettlementMonthly', () => {
  it('sums the months given per institution, leaving rows without an institution out', async () => {
    await settle(orderIds[0]!, '2025-06', branch, '100.000', '39000.00', '2000.00');
    await settle(orderIds[1]!, '2025-06', branch, '50.500', '19695.00', '1010.00');
    await settle(orderIds[2]!, '2025-06', head, '10.000', '3900.00', '-50.00');
    await settle(orderIds[0]!, '2025-07', null, '7.000', '2730.00', '140.00');
    await refreshSettlementMonthly(t.db, ['2025-06', '2025-07', '2025-06']);
    expect(await rollup()).toEqual([
      { partner_id: head, settle_month: '2025-06', results: 1, settled_energy: 10, settled_amount: 3900, saving: -50 },
      {
        partner_id: branch,
        settle_month: '2025-06',
        results: 2,
        settled_energy: 150.5,
        settled_amount: 58695,
        saving: 3010,
      },
    ]);
  });

  it('rewrites only the months given', async () => {
    await settle(orderIds[1]!, '2025-07', branch, '1.000', '390.00', '20.00');
    await t.db.execute(sql`update settlement_results set settled_energy = 0 where settle_month = '2025-06-01'`);
    await refreshSettlementMonthly(t.db, ['2025-07']);
    const rows = await rollup();
    expect(rows.find((row) => row.settle_month === '2025-06' && row.partner_id === branch)?.settled_energy).toBe(150.5);
    expect(rows.find((row) => row.settle_month === '2025-07')).toMatchObject({
      partner_id: branch,
      results: 1,
      settled_energy: 1,
    });
  });

  it('refuses a month that is not YYYY-MM before touching anything, and does nothing for none', async () => {
    const before = await rollup();
    await expect(refreshSettlementMonthly(t.db, ['2025-06', "2025-07'; drop table x; --"])).rejects.toThrow(
      /not a month/,
    );
    await refreshSettlementMonthly(t.db, []);
    expect(await rollup()).toEqual(before);
  });
});
