/** The roles of DOMAIN.md (Roles): shared by the users table, the API's guards and the pages. */
export const userRoles = ['individual', 'enterprise', 'partner', 'operator', 'editor'] as const;
export type UserRole = (typeof userRoles)[number];

/** Who may use the editors' studio (/studio): editors, and operators, who may edit too. */
export const studioRoles: readonly UserRole[] = ['editor', 'operator'];
