/**
 * Staff passwords (等保 2.0 level 3, docs/accounts.md "Staff passwords"): stricter than the shared
 * rule (8–64 characters with letters and digits) for the accounts that hold a staff role —
 * at least 12 characters, not a common or easily guessed password (zxcvbn's estimate, with the
 * account's own names and number as words an attacker would try), none of the last five, and
 * replaced after STAFF_PASSWORD_MAX_AGE_DAYS. Every place that sets a password goes through
 * `passwordFields`, so the history and the age are kept in one way.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import type { UserRole } from '../../lib/roles.ts';
import { isStaffRole } from '../../lib/staffRoles.ts';
import { ApiError } from '../apiError.ts';
import { verifyPassword } from '../password.ts';

export const staffPasswordMinLength = 12;
/** The passwords a staff account may not reuse: the current one and the ones before it. */
export const staffPasswordHistory = 5;
/**
 * zxcvbn's score 3: "safely unguessable", about 10⁸ guesses — well past an online attack on an
 * account that locks after 5 failures, and past the dictionary and keyboard patterns.
 */
const minimumScore = 3;

const estimator = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

export function isStaff(roles: readonly UserRole[]): boolean {
  return roles.some(isStaffRole);
}

interface PasswordOwner {
  roles: readonly UserRole[];
  userName: string;
  mobile: string;
  name: string;
  /** The current hash and the ones before it (none for a new account). */
  passwordHash?: string;
  previousPasswordHashes?: readonly string[];
}

/**
 * Refuses, at `field`, a password a staff account may not have; any password for an account
 * without a staff role. Checked after the shared schema, before anything is written.
 */
export async function checkStaffPassword(owner: PasswordOwner, password: string, field: string): Promise<void> {
  if (!isStaff(owner.roles)) return;
  if ([...password].length < staffPasswordMinLength)
    throw ApiError.field(field, 'auth.staffPasswordShort', { min: staffPasswordMinLength });
  const words = [owner.userName, owner.mobile, owner.name].filter((word) => word !== '');
  if (estimator.check(password, words).score < minimumScore) throw ApiError.field(field, 'auth.passwordTooCommon');
  const used = [owner.passwordHash, ...(owner.previousPasswordHashes ?? [])]
    .filter((hash): hash is string => hash !== undefined && hash !== '')
    .slice(0, staffPasswordHistory);
  for (const hash of used) {
    if (await verifyPassword(hash, password))
      throw ApiError.field(field, 'auth.passwordReused', { count: staffPasswordHistory });
  }
}

/**
 * The columns a new password sets: its hash, when, and — for staff — the hashes before it that
 * the reuse rule reads (the current one and three more, so five with the new one). Nobody
 * else's old hashes are kept (they would be personal data with no use).
 */
export function passwordFields(
  owner: Pick<PasswordOwner, 'roles' | 'passwordHash' | 'previousPasswordHashes'>,
  passwordHash: string,
  now = new Date(),
): { passwordHash: string; passwordChangedAt: Date; previousPasswordHashes: string[] } {
  const previous = isStaff(owner.roles)
    ? [owner.passwordHash ?? '', ...(owner.previousPasswordHashes ?? [])]
        .filter((hash) => hash !== '')
        .slice(0, staffPasswordHistory - 1)
    : [];
  return { passwordHash, passwordChangedAt: now, previousPasswordHashes: previous };
}

/**
 * What a grant making an account staff sets besides the role: a password chosen under the
 * shared rule may be weaker than staff's, so it counts as expired and the next sign-in asks for a
 * new one (set by SMS, under these rules). Nothing for an account that is staff already.
 */
export function becomingStaffFields(roles: readonly UserRole[]): { passwordChangedAt?: Date } {
  return isStaff(roles) ? {} : { passwordChangedAt: new Date(0) };
}

/** Whether a staff account's password is past its age (never for others, nor with 0 days). */
export function passwordExpired(
  owner: { roles: readonly UserRole[]; passwordChangedAt: Date },
  maxAgeDays: number,
  now = new Date(),
): boolean {
  if (maxAgeDays === 0 || !isStaff(owner.roles)) return false;
  return now.getTime() - owner.passwordChangedAt.getTime() > maxAgeDays * 86_400_000;
}
