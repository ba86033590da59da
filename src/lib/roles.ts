/** The roles of DOMAIN.md (Roles): shared by the users table, the API's guards and the pages. */
import type { MessageKey } from './i18n/index.ts';

export const userRoles = ['individual', 'enterprise', 'partner', 'operator', 'editor', 'admin', 'auditor'] as const;
export type UserRole = (typeof userRoles)[number];

/** Who may use the editors' studio (/studio): editors, and operators, who may edit too. */
export const studioRoles: readonly UserRole[] = ['editor', 'operator'];

/** A role's name in the dictionaries (`account.role.*`). */
export function roleKey<R extends UserRole>(role: R): `account.role.${R}` {
  return `account.role.${role}` satisfies MessageKey;
}
