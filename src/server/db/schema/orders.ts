/**
 * Tables of enterprises' certification and orders: the certification files, the bank
 * USB-key binding and its one-time challenges, orders and their status history.
 * Codes and allowed transitions live in src/lib/orderStatus.ts and src/lib/authStatus.ts.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises } from './accounts.ts';
import { users } from './foundation.ts';
import { partnerInstitutions } from './partners.ts';
import { fieldKeys } from './security.ts';
import { createdAt, updatedAt } from './timestamps.ts';

export const authFileKinds = ['businessLicence', 'authLetter'] as const;
export type AuthFileKind = (typeof authFileKinds)[number];

/**
 * A certification document (DOMAIN.md, Auth file): one per kind per enterprise; uploading again
 * replaces it. The bytes live on disk under DATA_DIR with the generated `stored_name`, outside the
 * web root, served only to the owner and operators.
 */
export const enterpriseAuthFiles = pgTable(
  'enterprise_auth_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<AuthFileKind>().notNull(),
    originalName: varchar('original_name', { length: 255 }).notNull(),
    storedName: varchar('stored_name', { length: 80 }).notNull(),
    /** Detected from the bytes, never taken from the upload's header. */
    contentType: varchar('content_type', { length: 32 }).notNull(),
    size: integer('size').notNull(),
    sha256: char('sha256', { length: 64 }).notNull(),
    uploadedByUserId: integer('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('enterprise_auth_files_enterprise_id_kind_key').on(t.enterpriseId, t.kind),
    uniqueIndex('enterprise_auth_files_stored_name_key').on(t.storedName),
    check('enterprise_auth_files_kind_check', sql`${t.kind} in ('businessLicence', 'authLetter')`),
  ],
);

/**
 * The bank account an enterprise certified with its bank USB key (saveEmp), and the key holder
 * (the "emp") the bank confirmed. removeIcbcAuth deletes the row. One binding per enterprise.
 */
export const bankBindings = pgTable(
  'bank_bindings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    bank: varchar('bank', { length: 16 }).notNull().default('icbc'),
    /** Sealed by `accountNoKey` (fieldEncryption.ts); plain only in a row written before the upgrade, until start-up seals it. */
    accountNo: text('account_no').notNull(),
    accountNoKey: integer('account_no_key').references(() => fieldKeys.id, { onDelete: 'restrict' }),
    /** The number as every page shows it (lib/masking.ts), so showing it needs no key. */
    accountNoMasked: varchar('account_no_masked', { length: 32 }).notNull().default(''),
    accountName: varchar('account_name', { length: 100 }).notNull(),
    empName: varchar('emp_name', { length: 64 }).notNull(),
    /** The holder's staff/key number at the bank; no identity-card numbers are kept. */
    empNo: varchar('emp_no', { length: 32 }).notNull(),
    /** The bank's reference for the confirmation, for reconciliation. */
    bankReference: varchar('bank_reference', { length: 64 }).notNull(),
    boundByUserId: integer('bound_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('bank_bindings_enterprise_id_key').on(t.enterpriseId)],
);

/** A one-time challenge the USB key must sign; only its hash is kept. */
export const bankChallenges = pgTable(
  'bank_challenges',
  {
    /** sha256 (hex) of the challenge handed out. */
    id: char('id', { length: 64 }).primaryKey(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    /** Sealed as bank_bindings.account_no is. */
    accountNo: text('account_no').notNull(),
    accountNoKey: integer('account_no_key').references(() => fieldKeys.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('bank_challenges_expires_at_idx').on(t.expiresAt)],
);

/** The sequence behind readable order numbers: HGD + China date + 6 digits (HGD20261122000042). */
export const orderNoSeq = pgSequence('order_no_seq', { startWith: 1, increment: 1 });

/**
 * An enterprise's order of a selling set (DOMAIN.md, Order). Set, product and retail company come
 * from the content files, so their ids and names are copied in at creation: the order keeps what
 * was bought even after the catalogue changes, and tables can search and sort by them.
 */
export const orders = pgTable(
  'orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderNo: varchar('order_no', { length: 20 }).notNull(),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'restrict' }),
    /** The user who placed it. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    areaCode: char('area_code', { length: 6 }).notNull(),
    productId: varchar('product_id', { length: 8 }).notNull(),
    setId: varchar('set_id', { length: 64 }).notNull(),
    setName: varchar('set_name', { length: 60 }).notNull(),
    sellingSetId: varchar('selling_set_id', { length: 64 }).notNull(),
    orgComId: varchar('org_com_id', { length: 64 }).notNull(),
    orgComName: varchar('org_com_name', { length: 100 }).notNull(),
    /** Referring partner institution: the enterprise's when the order was placed. */
    partnerId: integer('partner_id').references((): AnyPgColumn => partnerInstitutions.id, { onDelete: 'restrict' }),
    schemeParamId: varchar('scheme_param_id', { length: 64 }).notNull(),
    /** The chosen scheme parameter as it was when ordered (name, priceType, price or share…). */
    schemeParam: jsonb('scheme_param').$type<Record<string, unknown>>().notNull(),
    /** First day of the contract's first month. */
    contractStart: date('contract_start', { mode: 'string' }).notNull(),
    contractMonths: integer('contract_months').notNull(),
    /** MWh per year. */
    estimatedConsumption: numeric('estimated_consumption', { precision: 14, scale: 3 }).notNull(),
    /** 10 submitted, 20 accepted, 30 in force, 40 completed, 90 cancelled, 91 rejected. */
    status: integer('status').notNull().default(10),
    /** Reason given with the last cancel or reject. */
    statusReason: text('status_reason').notNull().default(''),
    /** Set when the owner deletes a cancelled or rejected order; the row stays for audit. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    // The owner's table (my orders) and the operator's queue, both newest first. Each index is
    // exactly the table engine's order (docs/tables.md): `created_at desc, id desc` in
    // PostgreSQL's own null order (drizzle's `.desc()` alone would write NULLS LAST), with the id
    // the engine sorts by last for stable pages. Then a page of ten is read from the index in
    // order, either direction, instead of sorting every matching row.
    index('orders_enterprise_id_created_at_idx').on(
      t.enterpriseId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('orders_status_created_at_idx').on(t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_created_at_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The partner statistics count an institution's orders by when they were placed.
    index('orders_partner_id_created_at_idx').on(t.partnerId, t.createdAt),
    check('orders_status_check', sql`${t.status} in (10, 20, 30, 40, 90, 91)`),
    check('orders_contract_months_check', sql`${t.contractMonths} between 1 and 120`),
  ],
);

export const orderActorRoles = ['enterprise', 'operator', 'system'] as const;
export type OrderActorRole = (typeof orderActorRoles)[number];

/** Every status change of an order: who, when, from, to, note (DOMAIN.md). */
export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Null for the creation entry. */
    fromStatus: integer('from_status'),
    toStatus: integer('to_status').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorRole: text('actor_role').$type<OrderActorRole>().notNull(),
    note: text('note').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_status_history_order_id_at_idx').on(t.orderId, t.at),
    check('order_status_history_actor_role_check', sql`${t.actorRole} in ('enterprise', 'operator', 'system')`),
  ],
);

export type EnterpriseAuthFileRow = typeof enterpriseAuthFiles.$inferSelect;
export type BankBindingRow = typeof bankBindings.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type OrderStatusHistoryRow = typeof orderStatusHistory.$inferSelect;
