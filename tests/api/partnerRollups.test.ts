/**
 * The analysis roll-ups of migration 0007 (partner_order_monthly, partner_enterprise_monthly,
 * partner_contracts), kept by statement-level triggers on orders and enterprises: after inserts,
 * bulk inserts, status changes, moves between institutions or months, and deletes, each roll-up
 * equals the same sums computed from the rows themselves.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/client.ts';
import { enterprises, orders } from '../../src/server/db/schema/index.ts';
import { openPerFile } from './harness.ts';
import { createOrderTestApp } from './orderFixtures.ts';
import { china, insertAnalysisData } from './partnerAnalysisFixtures.ts';

const t = openPerFile(createOrderTestApp);

const month = (column: string) => `date_trunc('month', (${column} at time zone 'UTC') + interval '8 hours')::date`;

/** Each roll-up's non-zero rows and the same sums from the base tables, as comparable text. */
async function both(): Promise<{ rolled: string[]; computed: string[] }> {
  const text = async (query: string) =>
    rowsOf<{ line: string }>(await t.db.execute(sql.raw(query)))
      .map((row) => row.line)
      .sort();
  const rolled = [
    ...(await text(
      `select 'o ' || partner_id || ' ' || month || ' ' || product_id || ' ' || area_code || ' ' || orders || ' ' || contracted::numeric(20,3) as line from partner_order_monthly where orders <> 0 or contracted <> 0`,
    )),
    ...(await text(
      `select 'e ' || partner_id || ' ' || month || ' ' || registered || ' ' || certified as line from partner_enterprise_monthly where registered <> 0 or certified <> 0`,
    )),
    ...(await text(
      `select 'c ' || partner_id || ' ' || contract_start || ' ' || contract_months || ' ' || running as line from partner_contracts where running <> 0`,
    )),
  ];
  const computed = [
    ...(await text(`select 'o ' || partner_id || ' ' || ${month('created_at')} || ' ' || product_id || ' ' || area_code || ' ' || count(*) || ' ' ||
      coalesce(sum(estimated_consumption * contract_months) filter (where status in (20, 30, 40)), 0)::numeric(20,3) as line
      from orders where partner_id is not null group by partner_id, ${month('created_at')}, product_id, area_code`)),
    ...(await text(`select 'e ' || partner_id || ' ' || m || ' ' || sum(r) || ' ' || sum(c) as line from (
      select partner_id, ${month('created_at')} as m, 1 as r, 0 as c from enterprises where partner_id is not null
      union all select partner_id, ${month('reviewed_at')}, 0, 1 from enterprises where partner_id is not null and auth_status = 2 and reviewed_at is not null
      ) x group by partner_id, m having sum(r) <> 0 or sum(c) <> 0`)),
    ...(await text(`select 'c ' || partner_id || ' ' || contract_start || ' ' || contract_months || ' ' || count(*) as line
      from orders where partner_id is not null and status in (30, 40) group by partner_id, contract_start, contract_months`)),
  ];
  return { rolled, computed };
}

describe('the analysis roll-ups (migration 0007 triggers)', () => {
  it('follow inserts, status changes, moves, bulk updates and deletes exactly', async () => {
    const tree = await insertAnalysisData(t);
    let state = await both();
    expect(state.rolled.length).toBeGreaterThan(5);
    expect(state.rolled).toEqual(state.computed);

    const ours = await t.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(inArray(orders.partnerId, [tree.subA1, tree.subA2, tree.branchA]));
    const submitted = ours.find((row) => row.status === 10)!;
    // Accepted, then in force: contracted energy and the running contracts follow.
    await t.db.update(orders).set({ status: 20 }).where(eq(orders.id, submitted.id));
    await t.db.update(orders).set({ status: 30 }).where(eq(orders.id, submitted.id));
    // Moved to the sibling branch's sub-branch and to another month.
    await t.db
      .update(orders)
      .set({ partnerId: tree.subB1, createdAt: china('2026-07-03T08:00:00') })
      .where(eq(orders.id, submitted.id));
    // A bulk change touching counted and uncounted columns at once.
    await t.db
      .update(orders)
      .set({ updatedAt: new Date(), status: sql`case when ${orders.status} = 30 then 40 else ${orders.status} end` })
      .where(inArray(orders.partnerId, [tree.subA1, tree.subB1]));
    // Certification granted, returned and granted again, and an enterprise moved.
    const [enterprise] = await t.db
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(eq(enterprises.partnerId, tree.branchA));
    await t.db
      .update(enterprises)
      .set({ authStatus: 2, reviewedAt: china('2026-05-05T10:00:00') })
      .where(eq(enterprises.id, enterprise!.id));
    await t.db.update(enterprises).set({ authStatus: 3 }).where(eq(enterprises.id, enterprise!.id));
    await t.db
      .update(enterprises)
      .set({ authStatus: 2, reviewedAt: china('2026-06-06T10:00:00'), partnerId: tree.subA2 })
      .where(eq(enterprises.id, enterprise!.id));
    // A referral removed.
    await t.db.update(enterprises).set({ partnerId: null }).where(eq(enterprises.partnerId, tree.other));
    state = await both();
    expect(state.rolled).toEqual(state.computed);

    // Deleting orders (cancelled ones, as housekeeping might) takes them out.
    const cancelled = ours.find((row) => row.status === 90)!;
    await t.db.delete(orders).where(eq(orders.id, cancelled.id));
    state = await both();
    expect(state.rolled).toEqual(state.computed);
  });
});
