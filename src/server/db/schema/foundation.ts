/** Foundation tables: users, sessions, regions, the audit log and rate-limit counters. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { userRoles, type UserRole } from '../../../lib/roles.ts';
import { staffDuties } from '../../../lib/staffRoles.ts';
import { createdAt, updatedAt } from './timestamps.ts';

export { userRoles, type UserRole };

/** `cancelled`: the person closed the account and their personal data was erased (services/cancellation.ts). */
export const userStatuses = ['active', 'locked', 'cancelled'] as const;
export type UserStatus = (typeof userStatuses)[number];

function roleArray(roles: readonly UserRole[]) {
  return sql.raw(`array[${roles.map((role) => `'${role}'`).join(', ')}]::text[]`);
}

function otherDutiesRoles(roles: readonly UserRole[]): UserRole[] {
  return Object.values(staffDuties)
    .flat()
    .filter((role) => !roles.includes(role));
}

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userName: varchar('user_name', { length: 32 }).notNull(),
    mobile: varchar('mobile', { length: 11 }).notNull(),
    name: varchar('name', { length: 64 }).notNull().default(''),
    email: varchar('email', { length: 128 }).notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    /** When the password was last set: a staff password expires after STAFF_PASSWORD_MAX_AGE_DAYS. */
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The hashes of the passwords before this one, newest first, as many as a staff password may not reuse. */
    previousPasswordHashes: text('previous_password_hashes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').$type<UserStatus>().notNull().default('active'),
    roles: text('roles')
      .array()
      .$type<UserRole[]>()
      .notNull()
      .default(sql`'{individual}'::text[]`),
    /** Set after repeated login failures; login is refused until then. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    failedLogins: integer('failed_logins').notNull().default(0),
    /**
     * The versions of the user agreement and privacy policy this account last agreed to, by
     * document (services/consent.ts): read with the session, so currentUser knows what is owed
     * without a statement of its own. The evidence is the consents table.
     */
    agreedVersions: jsonb('agreed_versions').$type<Partial<Record<string, string>>>().notNull().default({}),
    /** When the person asked to close the account: erased after the cooling-off, unless they sign in again. */
    cancellationRequestedAt: timestamp('cancellation_requested_at', { withTimezone: true }),
    /** When the account was closed and its personal data erased. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Login names are unique regardless of case ("Demo" and "demo" are one account).
    uniqueIndex('users_user_name_key').on(sql`lower(${t.userName})`),
    uniqueIndex('users_mobile_key').on(t.mobile),
    check('users_status_check', sql`${t.status} in ('active', 'locked', 'cancelled')`),
    check('users_roles_check', sql`${t.roles} <@ ${roleArray(userRoles)}`),
    // One staff duty per account (lib/roles.ts, staffDuties): the services refuse first, in words.
    ...Object.entries(staffDuties).map(([duty, roles]) =>
      check(
        `users_${duty}_duty_check`,
        sql`not (${t.roles} && ${roleArray(roles)} and ${t.roles} && ${roleArray(otherDutiesRoles(roles))})`,
      ),
    ),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** sha256 (hex) of the cookie's random token; the raw token is never stored. */
    id: char('id', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Absolute end of life, fixed at creation. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** When this session proved a second factor (at login, or by enrolling one); null: never. */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const regions = pgTable('regions', {
  /** GB/T 2260 six-digit code, e.g. 440000. */
  areaCode: char('area_code', { length: 6 }).primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  shortName: varchar('short_name', { length: 16 }).notNull(),
  enabled: boolean('enabled').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  hotline: varchar('hotline', { length: 32 }).notNull().default(''),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who acted; null for anonymous actions (a failed login of an unknown name). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Dotted verb, e.g. `session.login`, `session.logout`, `order.accept`. */
    action: varchar('action', { length: 64 }).notNull(),
    /** What was acted on, e.g. `user:12`, `order:HGD20250101001`. */
    target: varchar('target', { length: 128 }),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    /**
     * The entry's place in the chain (services/auditChain.ts): 1, 2, 3… with no gap, so a deleted
     * row leaves a hole by which `npm run audit -- verify` names it. Null on rows written before the
     * chain existed.
     */
    seq: bigint('seq', { mode: 'number' }),
    /** The keyed hash of the entry before it (64 zeros for the first), and this entry's own. */
    prevHash: char('prev_hash', { length: 64 }),
    hash: char('hash', { length: 64 }),
  },
  (t) => [
    index('audit_log_user_id_at_idx').on(t.userId, t.at),
    index('audit_log_action_at_idx').on(t.action, t.at),
    uniqueIndex('audit_log_seq_idx').on(t.seq),
  ],
);

/**
 * Fixed-window counters behind every rate limit (services/rateLimit.ts). Kept in the database, not
 * in memory, so that N API processes behind a load balancer share one count.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** `<rule>:<subject>`, e.g. `login.ip:203.0.113.7`, `sms.phone:13800138000`. */
    key: varchar('key', { length: 160 }).primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
    hits: integer('hits').notNull().default(0),
    /** End of the window; rows past it are stale and may be deleted at any time. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_expires_at_idx').on(t.expiresAt)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type SessionRow = typeof sessions.$inferSelect;
export type RegionRow = typeof regions.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;
