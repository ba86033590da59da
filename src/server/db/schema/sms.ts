/** SMS verification codes and the outbox of the local SMS provider. */
import { sql } from 'drizzle-orm';
import { char, check, index, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt } from './timestamps.ts';

/**
 * What a code is for; a code only proves the phone for the purpose it was sent for.
 * `mobile` proves a new number before it replaces an account's own.
 */
export const smsPurposes = ['login', 'register', 'modify', 'verify', 'binding', 'mobile'] as const;
export type SmsPurpose = (typeof smsPurposes)[number];

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: varchar('phone', { length: 11 }).notNull(),
    purpose: text('purpose').$type<SmsPurpose>().notNull(),
    /** sha256 of purpose, phone and code; the code itself is never stored. */
    codeHash: char('code_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong tries so far; the code is dead at the limit. */
    attempts: integer('attempts').notNull().default(0),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    ip: text('ip'),
  },
  (t) => [
    index('sms_codes_phone_purpose_idx').on(t.phone, t.purpose, t.createdAt),
    check(
      'sms_codes_purpose_check',
      sql`${t.purpose} in ('login', 'register', 'modify', 'verify', 'binding', 'mobile')`,
    ),
  ],
);

/** Every message handed to the outbox provider (the local stand-in for an SMS gateway). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: varchar('phone', { length: 11 }).notNull(),
    purpose: text('purpose').$type<SmsPurpose>().notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sms_outbox_phone_idx').on(t.phone, t.createdAt)],
);

export type SmsCodeRow = typeof smsCodes.$inferSelect;
export type SmsOutboxRow = typeof smsOutbox.$inferSelect;
