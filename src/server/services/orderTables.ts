/**
 * The order tables (POST order/getAntTable and /api/ops/order/getAntTable) as definitions of the
 * table engine (src/server/table/antTable.ts; docs/tables.md): which columns exist and what each
 * may be searched, matched, ranged, filtered and sorted by. The columns are the API's
 * (src/lib/schemas/order.ts, orderTableColumns / opsOrderTableColumns).
 *
 * Speed (docs/orders.md): the default order is created_at descending, which the indexes of
 * migration 0005 serve — (enterprise_id, created_at desc) for the owner, (status, created_at desc)
 * and (created_at desc) for the operator's queue. The operator's table joins enterprises only in
 * the statements that use the enterprise's name (the engine's `joins`), so the queue's count reads
 * the orders' index alone.
 */
import { sql } from 'drizzle-orm';
import type { OpsOrderRowData, OrderRowData, OrderTableData } from '../../lib/schemas/order.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import type { Database } from '../db/client.ts';
import { defineTable, runTable, type ColumnDefinition } from '../table/antTable.ts';

const orderColumns = {
  orderNo: { sql: sql`o.order_no`, type: 'text', search: true, like: true, filter: true, sort: true },
  productId: { sql: sql`o.product_id`, type: 'text', filter: true, sort: true },
  setName: { sql: sql`o.set_name`, type: 'text', search: true, like: true, sort: true },
  orgComName: { sql: sql`o.org_com_name`, type: 'text', search: true, like: true, sort: true },
  areaCode: { sql: sql`o.area_code`, type: 'text', filter: true, sort: true },
  schemeParamName: { sql: sql`(o.scheme_param ->> 'name')`, type: 'text', search: true, like: true },
  contractStart: { sql: sql`o.contract_start`, type: 'month', range: true, filter: true, sort: true },
  contractMonths: { sql: sql`o.contract_months`, type: 'int', range: true, filter: true, sort: true },
  estimatedConsumption: { sql: sql`o.estimated_consumption`, type: 'number', range: true, sort: true },
  status: { sql: sql`o.status`, type: 'int', filter: true, sort: true },
  createdAt: { sql: sql`o.created_at`, type: 'timestamp', range: true, sort: true },
  updatedAt: { sql: sql`o.updated_at`, type: 'timestamp', range: true, sort: true },
} as const satisfies Record<string, ColumnDefinition>;

/** The enterprise's own orders; deleted ones are gone for their owner. Scope: the enterprise. */
export const ownOrdersTable = defineTable({
  from: sql`orders o`,
  where: sql`o.deleted_at is null`,
  columns: orderColumns,
  defaultSort: [{ key: 'createdAt', sort: 'descend' }],
  tieBreaker: sql`o.id`,
});

/** Every order, with its enterprise; deleted ones stay, flagged. */
export const opsOrdersTable = defineTable({
  from: sql`orders o`,
  joins: { enterprise: sql`left join enterprises e on e.id = o.enterprise_id` },
  columns: {
    ...orderColumns,
    enterpriseId: { sql: sql`o.enterprise_id`, type: 'int', filter: true, sort: true },
    enterpriseName: {
      sql: sql`e.enterprise_name`,
      type: 'text',
      join: 'enterprise',
      search: true,
      like: true,
      sort: true,
    },
    deleted: { sql: sql`(o.deleted_at is not null)`, type: 'boolean', filter: true },
  },
  defaultSort: [{ key: 'createdAt', sort: 'descend' }],
  tieBreaker: sql`o.id`,
});

/**
 * The names an order kept (package, retail company, plan), as the reader sees them: `shown`
 * (contentViews.ts `keptNames`). Searching and sorting still work on the names as kept.
 */
function withShownNames<Row extends Partial<OrderRowData>>(
  page: OrderTableData<Row>,
  shown: (name: string) => string,
): OrderTableData<Row> {
  const names = ['setName', 'orgComName', 'schemeParamName'] as const;
  return {
    ...page,
    result: page.result.map((row) => {
      const out: Partial<OrderRowData> = { ...row };
      for (const name of names) {
        const value = row[name];
        if (typeof value === 'string') out[name] = shown(value);
      }
      return out as Row;
    }),
  };
}

/** One page of the enterprise's orders. */
export async function ownOrdersPage(
  db: Database,
  request: TableRequest,
  enterpriseId: number,
  shown: (name: string) => string,
): Promise<OrderTableData<Partial<OrderRowData>>> {
  const page = await runTable(db, ownOrdersTable, request, { scope: sql`o.enterprise_id = ${enterpriseId}::int4` });
  return withShownNames(page as OrderTableData<Partial<OrderRowData>>, shown);
}

/** One page of the operator's queue. */
export async function opsOrdersPage(
  db: Database,
  request: TableRequest,
  shown: (name: string) => string,
): Promise<OrderTableData<Partial<OpsOrderRowData>>> {
  return withShownNames(
    (await runTable(db, opsOrdersTable, request)) as OrderTableData<Partial<OpsOrderRowData>>,
    shown,
  );
}
