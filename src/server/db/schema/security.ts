/**
 * Tables of the privileged paths: the server's own secrets, second factors (TOTP) with their
 * recovery codes, and the pending second step of a login.
 */
import { bigint, char, index, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './foundation.ts';
import { createdAt } from './timestamps.ts';

/**
 * Secrets the server generated for itself when configuration gave none (APP_SECRET unset), shared
 * by every process: the first process to start writes the row, the others read it.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: varchar('name', { length: 64 }).primaryKey(),
  /** base64url of 32 random bytes. */
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * The data keys of the encrypted columns (fieldEncryption.ts): 32 random bytes each, kept wrapped
 * (AES-256-GCM) by a key derived from the server's root secret, so the database alone opens
 * nothing. The newest seals new values; each sealed value names its key by a foreign key, so a key
 * still in use cannot be deleted (`npm run keys -- rotate` re-seals everything, then deletes the
 * keys nothing names).
 */
export const fieldKeys = pgTable('field_keys', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** `<iv>.<tag>.<ciphertext>` (base64url). */
  wrapped: text('wrapped').notNull(),
  createdAt: createdAt(),
});

/**
 * A user's TOTP authenticator (RFC 6238). A row without `confirmedAt` is an enrolment in progress
 * (the QR code shown, no code typed yet); a confirmed row is the second factor every login then
 * asks for. Resetting the factor deletes the row and the user's recovery codes.
 */
export const secondFactors = pgTable('second_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The shared secret, encrypted with a key derived from the server secret (never stored plain). */
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: createdAt(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The last accepted time step: a code is accepted once (no replay within its 30 s window). */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});

/** One-time recovery codes: only a keyed hash (HMAC with the server secret) is kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: char('code_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_id_idx').on(t.userId)],
);

/**
 * A login whose first factor (password or SMS code) passed and whose second is still owed. The
 * browser holds a random token (HttpOnly cookie); only its sha256 is kept. Short-lived, single use,
 * a bounded number of tries.
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: char('id', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How the first factor was proved: `account` (password) or `mobile` (SMS code). */
    method: varchar('method', { length: 16 }).notNull(),
    deviceId: varchar('device_id', { length: 32 }).notNull().default(''),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    ip: text('ip'),
  },
  (t) => [index('login_challenges_expires_at_idx').on(t.expiresAt)],
);

export type SecondFactorRow = typeof secondFactors.$inferSelect;
export type LoginChallengeRow = typeof loginChallenges.$inferSelect;
