/**
 * The enterprise table (POST enterpriseuser/getAntTable) as a definition of the table engine
 * (src/server/table/antTable.ts; docs/tables.md). An enterprise user sees their own enterprise
 * only; an operator sees every one — the review queue is this table filtered to authStatus [1].
 *
 * Default order: submitted first-come first-served (submitted_at ascending, never-submitted last),
 * which the (auth_status, submitted_at) index of migration 0005 serves for the filtered queue.
 */
import { sql } from 'drizzle-orm';
import type { EnterpriseTableColumn, EnterpriseTableData } from '../../lib/schemas/enterprise.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import type { Database } from '../db/client.ts';
import { defineTable, runTable, type ColumnDefinition } from '../table/antTable.ts';
import type { SessionUser } from '../types.ts';
import { isOperator } from './enterpriseView.ts';
import { maskAccountNo } from '../../lib/masking.ts';

const columns = {
  id: { sql: sql`e.id`, type: 'int', filter: true, sort: true },
  enterpriseName: { sql: sql`e.enterprise_name`, type: 'text', search: true, like: true, sort: true },
  creditCode: { sql: sql`e.credit_code`, type: 'text', nullable: true, search: true, like: true, sort: true },
  clearanceAccount: { sql: sql`e.clearance_account`, type: 'text', search: true, like: true, sort: true },
  areaCode: { sql: sql`e.area_code`, type: 'text', nullable: true, filter: true, sort: true },
  industry: { sql: sql`e.industry`, type: 'text', filter: true },
  contactName: { sql: sql`e.contact_name`, type: 'text', search: true, like: true },
  authStatus: { sql: sql`e.auth_status`, type: 'int', filter: true, sort: true },
  authType: { sql: sql`e.auth_type`, type: 'text', nullable: true, filter: true, sort: true },
  submittedAt: { sql: sql`e.submitted_at`, type: 'timestamp', nullable: true, range: true, sort: true },
  reviewedAt: { sql: sql`e.reviewed_at`, type: 'timestamp', nullable: true, range: true, sort: true },
  createdAt: { sql: sql`e.created_at`, type: 'timestamp', range: true, sort: true },
} as const satisfies Record<EnterpriseTableColumn, ColumnDefinition>;

export const enterprisesTable = defineTable({
  from: sql`enterprises e`,
  columns,
  defaultSort: [
    { key: 'submittedAt', sort: 'ascend' },
    { key: 'createdAt', sort: 'descend' },
  ],
  tieBreaker: sql`e.id`,
});

/** One page of the enterprises the user may see. */
export async function enterprisesPage(
  db: Database,
  user: SessionUser,
  request: TableRequest,
): Promise<EnterpriseTableData> {
  const scope = isOperator(user) ? undefined : sql`e.owner_user_id = ${user.id}::int4`;
  const page = (await runTable(db, enterprisesTable, request, scope ? { scope } : {})) as EnterpriseTableData;
  // An operator finds an enterprise by its whole clearance account, and reads it masked (lib/masking.ts).
  if (!scope)
    page.result = page.result.map((row) =>
      row.clearanceAccount === undefined ? row : { ...row, clearanceAccount: maskAccountNo(row.clearanceAccount) },
    );
  return page;
}
