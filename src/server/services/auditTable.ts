/**
 * The audit trail as a table (POST /api/ops/audit/getAntTable): audit_log with the acting user's
 * name. Filter by action, range by time, search the target (and the user name), newest first
 * (the (action, at) index serves an action filter).
 */
import { sql } from 'drizzle-orm';
import type { AuditRowData, OrderTableData } from '../../lib/schemas/order.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import type { Database } from '../db/client.ts';
import { defineTable, runTable } from '../table/antTable.ts';

export const auditTable = defineTable({
  from: sql`audit_log a`,
  // Only statements that show or search the user's name read users.
  joins: { user: sql`left join users u on u.id = a.user_id` },
  columns: {
    id: { sql: sql`a.id`, type: 'int', sort: true },
    at: { sql: sql`a.at`, type: 'timestamp', range: true, sort: true },
    userName: {
      sql: sql`u.user_name`,
      type: 'text',
      nullable: true,
      join: 'user',
      search: true,
      like: true,
      sort: true,
    },
    action: { sql: sql`a.action`, type: 'text', filter: true, like: true, sort: true },
    target: { sql: sql`a.target`, type: 'text', nullable: true, search: true, like: true, sort: true },
    // Sent as JSON text by the engine (it has no JSON type); parsed back below.
    detail: { sql: sql`a.detail::text`, type: 'text' },
    ip: { sql: sql`a.ip`, type: 'text', nullable: true, like: true },
  },
  defaultSort: [{ key: 'at', sort: 'descend' }],
  tieBreaker: sql`a.id`,
});

/** One page of the audit trail, `detail` as an object. */
export async function auditPage(db: Database, request: TableRequest): Promise<OrderTableData<Partial<AuditRowData>>> {
  const page = await runTable(db, auditTable, request);
  return {
    totalCount: page.totalCount,
    // The engine types every column as nullable; audit_log's id, at, action and detail never are.
    result: page.result.map((row) => {
      const { detail, ...rest } = row;
      const parsed = typeof detail === 'string' ? { detail: JSON.parse(detail) as Record<string, unknown> } : {};
      return { ...rest, ...parsed } as unknown as Partial<AuditRowData>;
    }),
  };
}
