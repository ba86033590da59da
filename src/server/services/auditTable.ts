/**
 * The audit trail as a table (POST /api/ops/audit/getAntTable) and its export (GET
 * /api/ops/audit/exportAntTable), the auditor's: audit_log with the acting user's name. Filter by action, range by time, search the target (and the user name), newest first
 * (the (action, at) index serves an action filter).
 */
import { sql } from 'drizzle-orm';
import { auditActionText, auditDetailText, auditTargetText, type AuditWords } from '../../lib/auditTrail.ts';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import { exportRowCap } from '../../lib/partner.ts';
import type { AuditRowData, OrderTableData } from '../../lib/schemas/order.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import type { Database } from '../db/client.ts';
import { defineTable, runTable, streamTable } from '../table/antTable.ts';
import type { XlsxSheet } from '../xlsx/writer.ts';

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

/** The export's columns: the table's, in its order and words (time in China time). */
const auditExportColumns = [
  { key: 'ops.audit.col.at', width: 20 },
  { key: 'ops.audit.col.userName', width: 18 },
  { key: 'ops.audit.col.action', width: 22 },
  { key: 'ops.audit.col.target', width: 28 },
  { key: 'ops.audit.col.detail', width: 60 },
  { key: 'ops.audit.col.ip', width: 16 },
] as const satisfies readonly { key: MessageKey; width: number }[];

/**
 * The auditor's export of the entries a request matches (no paging, at most `exportRowCap`,
 * newest first unless sorted): the sheet for the xlsx writer. Checked when called, so a bad
 * request answers 400 before any byte is sent.
 */
export function auditExportSheet(db: Database, request: TableRequest, locale: Locale): XlsxSheet {
  const { select: _select, ...everyColumn } = request;
  const chunks = streamTable(db, auditTable, everyColumn, { cap: exportRowCap });
  const words: AuditWords = (key, params) => t(locale, key, params);
  async function* rows(): AsyncGenerator<readonly (string | null)[]> {
    for await (const chunk of chunks) {
      for (const row of chunk) {
        yield [
          row.at === null ? null : formatChinaDateTime(row.at, locale),
          row.userName ?? t(locale, 'ops.audit.system'),
          row.action === null ? null : auditActionText(row.action, words),
          auditTargetText(row.target, words),
          row.detail === null
            ? null
            : auditDetailText(row.action ?? '', JSON.parse(row.detail) as Record<string, unknown>, words),
          row.ip,
        ];
      }
    }
  }
  return {
    name: t(locale, 'ops.audit.sheet'),
    columns: auditExportColumns.map((column) => ({
      header: t(locale, column.key),
      format: 'text',
      width: column.width,
    })),
    rows: rows(),
  };
}
