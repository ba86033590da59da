/**
 * The staff roles and their separated duties, apart from lib/roles.ts so that the pages that only
 * name roles do not carry them: the server, the staff page and the users table read them.
 */
import type { UserRole } from './roles.ts';

/**
 * Staff: accounts administrators create for the business's own people and the partner banks'
 * (not people who registered): shorter idle sessions, administered rather than self-cancelled.
 */
export const staffRoles = ['admin', 'operator', 'editor', 'auditor', 'partner'] as const satisfies readonly UserRole[];
export type StaffRole = (typeof staffRoles)[number];

export function isStaffRole(role: UserRole): role is StaffRole {
  return (staffRoles as readonly UserRole[]).includes(role);
}

/**
 * The separated staff duties (三权分立, docs/privacy.md): administering staff accounts, operating
 * the business, auditing. One account holds the roles of one duty at most, so nobody audits what
 * they administer or operates what they audit. The users table checks the same (migration 0018).
 */
export const staffDuties = {
  administration: ['admin'],
  operation: ['operator', 'editor'],
  audit: ['auditor'],
} as const satisfies Record<string, readonly UserRole[]>;
export type StaffDuty = keyof typeof staffDuties;

/** The duty a role belongs to, or null for the roles outside them (individual, enterprise, partner). */
export function dutyOf(role: UserRole): StaffDuty | null {
  for (const [duty, roles] of Object.entries(staffDuties) as [StaffDuty, readonly UserRole[]][]) {
    if (roles.includes(role)) return duty;
  }
  return null;
}

/** A role of another duty than `role`'s among `held`, if any: what forbids granting `role`. */
export function conflictingRole(held: readonly UserRole[], role: UserRole): UserRole | undefined {
  const duty = dutyOf(role);
  if (duty === null) return undefined;
  return held.find((other) => {
    const otherDuty = dutyOf(other);
    return otherDuty !== null && otherDuty !== duty;
  });
}
