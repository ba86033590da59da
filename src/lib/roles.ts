/** The roles of DOMAIN.md (Roles): shared by the users table, the API's guards and the pages. */
import type { MessageKey } from './i18n/index.ts';

export const userRoles = ['individual', 'enterprise', 'partner', 'operator', 'editor'] as const;
export type UserRole = (typeof userRoles)[number];

/**
 * Staff: accounts administrators create for the business's own people and the partner banks'
 * (not people who registered): shorter idle sessions, administered rather than self-cancelled.
 */
export const staffRoles: readonly UserRole[] = ['operator', 'editor', 'partner'];

/** Who may use the editors' studio (/studio): editors, and operators, who may edit too. */
export const studioRoles: readonly UserRole[] = ['editor', 'operator'];

/** Each role's name in the dictionaries (`account.role.*`). */
export const roleKeys = {
  individual: 'account.role.individual',
  enterprise: 'account.role.enterprise',
  partner: 'account.role.partner',
  operator: 'account.role.operator',
  editor: 'account.role.editor',
} as const satisfies Record<UserRole, MessageKey>;
