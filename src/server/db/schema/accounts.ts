/** Tables of accounts: login captchas, users' notices and the enterprises users bind to. */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  char,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './foundation.ts';
import { partnerInstitutions } from './partners.ts';
import { createdAt, updatedAt } from './timestamps.ts';

/**
 * One captcha image handed out by GET captcha-image. Only hashes are kept: the id is sha256 of the
 * browser's cookie token, the answer sha256 of the lower-cased text, so a leaked table answers no
 * captcha. Single use: `used_at` is set by the first login try that presents it.
 */
export const captchas = pgTable(
  'captchas',
  {
    id: char('id', { length: 64 }).primaryKey(),
    answerHash: char('answer_hash', { length: 64 }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    ip: text('ip'),
  },
  (t) => [index('captchas_expires_at_idx').on(t.expiresAt)],
);

export const noticeTypes = ['notification', 'message', 'event'] as const;
export type NoticeType = (typeof noticeTypes)[number];

/** A user's notification (the notice bell, GET /api/notices). */
export const notices = pgTable(
  'notices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<NoticeType>().notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    description: text('description').notNull().default(''),
    /**
     * Dictionary key of a notice the system wrote (`<key>.title`, `<key>.description`) and its
     * variables: the bell shows it in the reader's locale; title/description keep the zh-CN text.
     */
    messageKey: varchar('message_key', { length: 64 }),
    messageVars: jsonb('message_vars').$type<Record<string, string | number>>().notNull().default({}),
    /** What the notice is about, e.g. `order:HGD20261122000042`, `enterprise:7`. */
    ref: varchar('ref', { length: 64 }),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notices_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('notices_user_id_ref_idx').on(t.userId, t.ref),
    check('notices_type_check', sql`${t.type} in ('notification', 'message', 'event')`),
  ],
);

export const authTypes = ['certificate', 'usbkey'] as const;
export type AuthType = (typeof authTypes)[number];

/**
 * An enterprise (the spec's "enterprise user", DOMAIN.md Enterprise). Binding creates
 * it with a name and a clearance account; certification fills in the rest. One owner
 * user per enterprise and one enterprise per owner; the clearance account identifies it.
 */
export const enterprises = pgTable(
  'enterprises',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    enterpriseName: varchar('enterprise_name', { length: 100 }).notNull(),
    /** 统一社会信用代码, 18 characters (GB 32100-2015); filled in at certification. */
    creditCode: char('credit_code', { length: 18 }),
    legalPerson: varchar('legal_person', { length: 64 }).notNull().default(''),
    contactName: varchar('contact_name', { length: 64 }).notNull().default(''),
    contactPhone: varchar('contact_phone', { length: 11 }).notNull().default(''),
    address: varchar('address', { length: 200 }).notNull().default(''),
    industry: varchar('industry', { length: 64 }).notNull().default(''),
    areaCode: char('area_code', { length: 6 }),
    /** 结算户号. */
    clearanceAccount: varchar('clearance_account', { length: 32 }).notNull(),
    /** 用电户号 (one enterprise may have several metering accounts). */
    electricityAccounts: text('electricity_accounts')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    voltageLevel: varchar('voltage_level', { length: 16 }).notNull().default(''),
    /** MWh per year. */
    annualConsumption: numeric('annual_consumption', { precision: 14, scale: 3 }),
    /** The partner institution (bank branch) that referred it, given by its code on the form. */
    partnerId: integer('partner_id').references((): AnyPgColumn => partnerInstitutions.id, { onDelete: 'restrict' }),
    /** 0 not certified, 1 under review, 2 certified, 3 returned (spec §4). */
    authStatus: integer('auth_status').notNull().default(0),
    authType: text('auth_type').$type<AuthType>(),
    reviewComment: text('review_comment').notNull().default(''),
    /** A certification form saved with temporarySave and not submitted. */
    draft: boolean('draft').notNull().default(false),
    /** When it last went to review (status 1): the operator's queue is oldest first. */
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    /** When an operator last approved or returned it, or the bank confirmed it. */
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('enterprises_clearance_account_key').on(t.clearanceAccount),
    uniqueIndex('enterprises_owner_user_id_key').on(t.ownerUserId),
    index('enterprises_auth_status_submitted_at_idx').on(t.authStatus, t.submittedAt),
    // The partner statistics count an institution's enterprises by when they registered.
    index('enterprises_partner_id_created_at_idx').on(t.partnerId, t.createdAt),
    check('enterprises_auth_status_check', sql`${t.authStatus} in (0, 1, 2, 3)`),
    check('enterprises_auth_type_check', sql`${t.authType} is null or ${t.authType} in ('certificate', 'usbkey')`),
  ],
);

export type CaptchaRow = typeof captchas.$inferSelect;
export type NoticeRow = typeof notices.$inferSelect;
export type EnterpriseRow = typeof enterprises.$inferSelect;
