/**
 * The monthly roll-up of settlement results (`settlement_monthly`, schema/partners.ts): what the
 * partner analysis reads, so a year over a million settlement rows sums a few thousand. Every
 * writer of settlement_results (the operator's import, the demo seed, the bench's generator)
 * calls `refreshSettlementMonthly` for the months it touched, inside its own transaction, so the
 * roll-up never disagrees with the rows a reader can see.
 */
import { sql } from 'drizzle-orm';
import { monthPattern } from '../../lib/schemas/order.ts';
import type { Database } from '../db/client.ts';

/** Rewrites the roll-up of the given months (`YYYY-MM`) from settlement_results. */
export async function refreshSettlementMonthly(tx: Database, months: readonly string[]): Promise<void> {
  const distinct = [...new Set(months)];
  if (distinct.length === 0) return;
  for (const month of distinct) {
    if (!monthPattern.test(month)) throw new Error(`refreshSettlementMonthly: not a month: ${month}`);
  }
  // One bound parameter holding a PostgreSQL array literal (drizzle would spread a JS array into a list).
  const firstDays = `{${distinct.map((month) => `${month}-01`).join(',')}}`;
  await tx.execute(sql`delete from settlement_monthly where settle_month = any(${firstDays}::date[])`);
  await tx.execute(sql`
    insert into settlement_monthly (partner_id, settle_month, product_id, area_code, results, settled_energy, settled_amount, saving)
    select partner_id, settle_month, product_id, area_code, count(*)::int4, sum(settled_energy), sum(settled_amount), sum(saving)
    from settlement_results
    where settle_month = any(${firstDays}::date[]) and partner_id is not null
    group by partner_id, settle_month, product_id, area_code`);
}
