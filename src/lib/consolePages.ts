/**
 * The staff console's pages (运营审核), in its menu's order, each for the roles of one duty
 * (lib/staffRoles.ts): the business to operators, the audit trail to auditors, staff accounts to
 * administrators (the API checks). The route table (routes.ts) lists them from here; this small
 * module is what the account menu needs in the browser to offer a staff member their console.
 */
import type { UserRole } from './roles.ts';

export const consolePages = [
  { path: '/ops/certifications', key: 'opsCertifications', role: 'operator' },
  { path: '/ops/orders', key: 'opsOrders', role: 'operator' },
  { path: '/ops/audit', key: 'opsAudit', role: 'auditor' },
  { path: '/ops/settlements', key: 'opsSettlements', role: 'operator' },
  { path: '/ops/staff', key: 'opsStaff', role: 'admin' },
] as const satisfies readonly { path: string; key: string; role: UserRole }[];

/** Where a staff member's console starts: the first page their roles open; none for others. */
export function consoleStartFor(roles: readonly string[]): string | undefined {
  return consolePages.find((page) => roles.includes(page.role))?.path;
}
