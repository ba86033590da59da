/**
 * Tables of the partner area: partner institutions (a tree: head office > branch >
 * sub-branch), staff accounts related to them, the monthly settlement results of orders and their
 * monthly roll-up. Codes live in src/lib/partner.ts; scoping rules in docs/partner.md.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  char,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { enterprises } from './accounts.ts';
import { users } from './foundation.ts';
import { orders } from './orders.ts';
import { createdAt, updatedAt } from './timestamps.ts';

/**
 * A partner institution (合作机构). `path` is the materialised path of ids from the root,
 * `/1/4/17/`: an institution's subtree is every row whose path starts with its own, which is how
 * every partner call scopes its rows (src/server/services/partnerScope.ts).
 */
export const partnerInstitutions = pgTable(
  'partner_institutions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The bank's own institution code, e.g. 0102000010; unique. */
    code: varchar('code', { length: 32 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => partnerInstitutions.id, { onDelete: 'restrict' }),
    /** 1 head office (总行), 2 branch (分行), 3 sub-branch (支行). */
    level: smallint('level').notNull(),
    path: varchar('path', { length: 200 }).notNull(),
    /** The province (GB/T 2260) the institution serves; null for a head office. */
    areaCode: char('area_code', { length: 6 }),
    address: varchar('address', { length: 200 }).notNull().default(''),
    phone: varchar('phone', { length: 20 }).notNull().default(''),
    contactName: varchar('contact_name', { length: 64 }).notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('partner_institutions_code_key').on(t.code),
    uniqueIndex('partner_institutions_path_key').on(t.path),
    index('partner_institutions_parent_id_idx').on(t.parentId),
    check('partner_institutions_level_check', sql`${t.level} in (1, 2, 3)`),
    check('partner_institutions_root_check', sql`(${t.level} = 1) = (${t.parentId} is null)`),
  ],
);

/** A staff account's relation to an institution (DOMAIN.md, Partner account relation), with the staff number. */
export const partnerAccounts = pgTable(
  'partner_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partnerInstitutions.id, { onDelete: 'cascade' }),
    /** 工号: the staff number at the institution. */
    empId: varchar('emp_id', { length: 32 }).notNull(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('partner_accounts_user_id_partner_id_key').on(t.userId, t.partnerId),
    uniqueIndex('partner_accounts_partner_id_emp_id_key').on(t.partnerId, t.empId),
  ],
);

/**
 * One order's settlement for one month (DOMAIN.md, Settlement result). Enterprise, institution,
 * area and product are copied from the order when the row is written, so the partner tables scope,
 * search and classify without joining orders. Energy in MWh, prices in 元/kWh, money in 元.
 */
export const settlementResults = pgTable(
  'settlement_results',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    enterpriseId: integer('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'restrict' }),
    /** The order's referring institution; null when the order has none (not in any partner's scope). */
    partnerId: integer('partner_id').references(() => partnerInstitutions.id, { onDelete: 'restrict' }),
    areaCode: char('area_code', { length: 6 }).notNull(),
    // The searchable names, copied from the order and the enterprise so a keyword search reads this
    // table alone (docs/partner.md, Benchmark). The database keeps them true, not the writers:
    // triggers of migration 0011 fill them on insert (and when order_id / enterprise_id change) and
    // follow a renamed enterprise or order. A writer leaves them out; drizzle then sends null.
    /** orders.order_no of order_id (kept by trigger). */
    orderNo: varchar('order_no', { length: 20 })
      .notNull()
      .$defaultFn(() => sql`null`),
    /** orders.set_name of order_id (kept by trigger). */
    setName: varchar('set_name', { length: 60 })
      .notNull()
      .$defaultFn(() => sql`null`),
    /** enterprises.enterprise_name of enterprise_id (kept by trigger). */
    enterpriseName: varchar('enterprise_name', { length: 100 })
      .notNull()
      .$defaultFn(() => sql`null`),
    productId: varchar('product_id', { length: 8 }).notNull(),
    /** The month settled: its first day. */
    settleMonth: date('settle_month', { mode: 'string' }).notNull(),
    settledEnergy: numeric('settled_energy', { precision: 14, scale: 3 }).notNull(),
    contractPrice: numeric('contract_price', { precision: 8, scale: 5 }).notNull(),
    marketPrice: numeric('market_price', { precision: 8, scale: 5 }).notNull(),
    settledAmount: numeric('settled_amount', { precision: 16, scale: 2 }).notNull(),
    /** (market price − contract price) × energy; negative when the contract cost more. */
    saving: numeric('saving', { precision: 16, scale: 2 }).notNull(),
    /** 1 provisional (预结算), 2 final (正式结算): src/lib/partner.ts. */
    status: smallint('status').notNull(),
    /** The operator whose import wrote it; null for generated demo data. */
    importedByUserId: integer('imported_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('settlement_results_order_id_settle_month_key').on(t.orderId, t.settleMonth),
    // The partner's table: scoped by institution, newest month first (the engine's default order,
    // then the id tie-breaker, in PostgreSQL's own null order: docs/tables.md).
    index('settlement_results_partner_id_settle_month_idx').on(
      t.partnerId,
      t.settleMonth.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('settlement_results_settle_month_idx').on(t.settleMonth.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('settlement_results_enterprise_id_idx').on(t.enterpriseId),
    check('settlement_results_status_check', sql`${t.status} in (1, 2)`),
    check('settlement_results_settled_energy_check', sql`${t.settledEnergy} >= 0`),
  ],
);

/**
 * The settlement results summed per institution, month, product and area: what the analysis calls
 * read, so a year across a million rows sums a few thousand. Rewritten for the months a write
 * touches, in the writer's transaction (src/server/services/settlementRollup.ts). Rows without
 * an institution are not rolled up (no partner sees them).
 */
export const settlementMonthly = pgTable(
  'settlement_monthly',
  {
    partnerId: integer('partner_id')
      .notNull()
      .references(() => partnerInstitutions.id, { onDelete: 'cascade' }),
    settleMonth: date('settle_month', { mode: 'string' }).notNull(),
    productId: varchar('product_id', { length: 8 }).notNull(),
    areaCode: char('area_code', { length: 6 }).notNull(),
    results: integer('results').notNull(),
    settledEnergy: numeric('settled_energy', { precision: 18, scale: 3 }).notNull(),
    settledAmount: numeric('settled_amount', { precision: 20, scale: 2 }).notNull(),
    saving: numeric('saving', { precision: 20, scale: 2 }).notNull(),
  },
  (t) => [
    uniqueIndex('settlement_monthly_key').on(t.settleMonth, t.partnerId, t.productId, t.areaCode),
    index('settlement_monthly_partner_id_idx').on(t.partnerId, t.settleMonth),
  ],
);

/**
 * Orders summed per institution, China month (of `created_at`), product and province: what the
 * analysis counts for a year or a month instead of reading every order (docs/partner.md,
 * Analysis). Maintained by statement-level triggers on `orders` (migration 0007), so every writer
 * — the order calls, the operator's transitions, the seed, the bench — keeps it exact without
 * knowing about it. `contracted` is Σ estimated_consumption × contract_months of the orders
 * accepted, in force or completed (÷ 12 = contracted MWh).
 */
export const partnerOrderMonthly = pgTable(
  'partner_order_monthly',
  {
    partnerId: integer('partner_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    productId: varchar('product_id', { length: 8 }).notNull(),
    areaCode: char('area_code', { length: 6 }).notNull(),
    orders: integer('orders').notNull(),
    contracted: numeric('contracted', { precision: 20, scale: 3 }).notNull(),
  },
  (t) => [uniqueIndex('partner_order_monthly_key').on(t.partnerId, t.month, t.productId, t.areaCode)],
);

/**
 * Enterprises per institution and China month: registered (by `created_at`) and certified
 * (auth status 2, by `reviewed_at`). Maintained by triggers on `enterprises` (migration 0007).
 */
export const partnerEnterpriseMonthly = pgTable(
  'partner_enterprise_monthly',
  {
    partnerId: integer('partner_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    registered: integer('registered').notNull(),
    certified: integer('certified').notNull(),
  },
  (t) => [uniqueIndex('partner_enterprise_monthly_key').on(t.partnerId, t.month)],
);

/**
 * Running contracts (orders in force or completed) per institution, first month and length: the
 * orders in force during any period are the groups whose months overlap it, a few hundred rows
 * however many orders. Maintained by triggers on `orders` (migration 0007).
 */
export const partnerContracts = pgTable(
  'partner_contracts',
  {
    partnerId: integer('partner_id').notNull(),
    contractStart: date('contract_start', { mode: 'string' }).notNull(),
    contractMonths: integer('contract_months').notNull(),
    running: integer('running').notNull(),
  },
  (t) => [uniqueIndex('partner_contracts_key').on(t.partnerId, t.contractStart, t.contractMonths)],
);

export type PartnerInstitutionRow = typeof partnerInstitutions.$inferSelect;
export type PartnerAccountRow = typeof partnerAccounts.$inferSelect;
export type SettlementResultRow = typeof settlementResults.$inferSelect;
