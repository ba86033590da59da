/**
 * Inputs and answers of the order calls: the enterprise's under /api/front/hgdsel/order and the
 * operator's under /api/ops (order/*, audit/getAntTable). The ordering form and the server share
 * these schemas; the rules that need the content (is the scheme parameter the set's, are the
 * months offered, is the consumption within range) are checked by the server and answer 400
 * with the same messages (docs/orders.md).
 */
import { z } from 'zod/mini';
import { chinaMonth } from '../chinaTime.ts';
import {
  operatorReasonActions,
  orderActions,
  reasonMaxLength,
  type OrderAction,
  type OrderActor,
  type OrderStatus,
} from '../orderStatus.ts';
import type { NoticeData } from './account.ts';
import { contentIdSchema, productIdSchema } from './content.ts';
import { areaCodeSchema, preprocess } from './fields.ts';
import type { TableAnswer } from './table.ts';

/** HGD + China date (8 digits) + 6 digits of order_no_seq: HGD20261122000042. */
export const orderNoPattern = /^HGD\d{14}$/;
export const orderNoSchema = z.string().check(z.trim(), z.regex(orderNoPattern));

/** A contract month, `YYYY-MM`. */
export const monthPattern = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Estimated consumption in MWh per year: positive, at most three decimals (kWh precision). */
export const estimatedConsumptionMax = 100_000_000;

/** An optional parameter: empty (an unset form field, `?reason=`) counts as absent. */
function optional<S extends z.ZodMiniType>(schema: S) {
  return preprocess((value) => (value === '' ? undefined : value), z.optional(schema));
}

/** `YYYY-MM` of a China-time date plus `months` months. */
export function addMonths(month: string, months: number): string {
  const [year, monthOfYear] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (monthOfYear - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The current month in China Standard Time, `YYYY-MM` (src/lib/chinaTime.ts). */
export { chinaMonth };

/**
 * The months a contract may start in when ordering on `at`: from next month up to 12 months ahead
 * (a retail contract is signed before its first month; further ahead prices are not fixed yet).
 */
export function contractStartWindow(at: Date = new Date()): { first: string; last: string } {
  const now = chinaMonth(at);
  return { first: addMonths(now, 1), last: addMonths(now, 12) };
}

/** The last month of a contract starting in `start` (`YYYY-MM`) and lasting `months` months. */
export function contractEndMonth(start: string, months: number): string {
  return addMonths(start, months - 1);
}

export const contractStartSchema = z.string().check(
  z.trim(),
  z.regex(monthPattern),
  z.refine(
    (month) => {
      const { first, last } = contractStartWindow();
      return month >= first && month <= last;
    },
    { message: 'order.contractStartRange' },
  ),
);

export const contractMonthsSchema = z.coerce.number().check(z.int(), z.gte(1), z.lte(120));

export const estimatedConsumptionSchema = z.coerce.number().check(
  z.positive(),
  z.lte(estimatedConsumptionMax),
  z.refine((value) => Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6, {
    message: 'order.consumptionDecimals',
  }),
);

export const reasonSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(reasonMaxLength));

// ---------------------------------------------------------------------------------------------
// Calls of the enterprise (base /api/front/hgdsel/order)

/** GET order/getListByGuideType — the ordering guide; area defaults to the enterprise's, else 440000. */
export const orderGuideQuery = z.object({
  areaCode: optional(areaCodeSchema),
  productId: optional(productIdSchema),
});
export type OrderGuideQuery = z.input<typeof orderGuideQuery>;

/** POST order/createCustomerOrder — the ordering form. */
export const createOrderBody = z.object({
  sellingSetId: contentIdSchema,
  schemeParamId: contentIdSchema,
  contractStart: contractStartSchema,
  contractMonths: contractMonthsSchema,
  /** MWh per year. */
  estimatedConsumption: estimatedConsumptionSchema,
});
export type CreateOrderBody = z.input<typeof createOrderBody>;
export type CreateOrderInput = z.output<typeof createOrderBody>;

/** GET order/cancelOrder — a GET by the spec, yet guarded like a POST (CSRF headers). */
export const cancelOrderQuery = z.object({
  orderNo: orderNoSchema,
  reason: optional(reasonSchema),
});
export type CancelOrderQuery = z.input<typeof cancelOrderQuery>;

/** POST order/del — hides a cancelled or rejected order from its owner. */
export const deleteOrderBody = z.object({ orderNo: orderNoSchema });
export type DeleteOrderBody = z.input<typeof deleteOrderBody>;

/** GET order/getOrderDetail and GET /api/ops/order/getOrderDetail */
export const orderDetailQuery = z.object({ orderNo: orderNoSchema });
export type OrderDetailQuery = z.input<typeof orderDetailQuery>;

// ---------------------------------------------------------------------------------------------
// Calls of the operator (base /api/ops)

/** POST /api/ops/order/transition */
export const orderTransitionBody = z
  .object({
    orderNo: orderNoSchema,
    action: z.enum(orderActions),
    reason: optional(reasonSchema),
  })
  .check(
    z.refine((body) => !operatorReasonActions.includes(body.action) || body.reason !== undefined, {
      message: 'validation.required',
      path: ['reason'],
    }),
  );
export type OrderTransitionBody = z.input<typeof orderTransitionBody>;

// ---------------------------------------------------------------------------------------------
// Tables (POST order/getAntTable, /api/ops/order/getAntTable, /api/ops/audit/getAntTable):
// the body is `antTable` (src/lib/schemas/table.ts); these are the columns each table offers.

/** Columns of the enterprise's own orders. */
export const orderTableColumns = [
  'orderNo',
  'productId',
  'setName',
  'orgComName',
  'areaCode',
  'schemeParamName',
  'contractStart',
  'contractMonths',
  'estimatedConsumption',
  'status',
  'createdAt',
  'updatedAt',
] as const;
export type OrderTableColumn = (typeof orderTableColumns)[number];

/** Columns of the operator's order queue: every order, with its enterprise, deleted ones flagged. */
export const opsOrderTableColumns = [...orderTableColumns, 'enterpriseId', 'enterpriseName', 'deleted'] as const;
export type OpsOrderTableColumn = (typeof opsOrderTableColumns)[number];

/** Columns of the audit trail. */
export const auditTableColumns = ['id', 'at', 'userName', 'action', 'target', 'detail', 'ip'] as const;
export type AuditTableColumn = (typeof auditTableColumns)[number];

// ---------------------------------------------------------------------------------------------
// Answers

/** getListByGuideType: the products of the area, each with its online sets on sale today. */
export interface OrderGuideSellingSet {
  sellingSetId: string;
  orgComId: string;
  orgComName: string;
  /** YYYY-MM-DD */
  validFrom: string;
  validTo: string;
}
export interface OrderGuideSet {
  setId: string;
  name: string;
  summary: string;
  sellingSets: OrderGuideSellingSet[];
}
export interface OrderGuideProduct {
  productId: string;
  productName: string;
  sets: OrderGuideSet[];
}
export type OrderGuideData = OrderGuideProduct[];

/** The scheme parameter as it was when ordered (the catalogue may change later). */
export interface OrderSchemeParamSnapshot {
  schemeParamId: string;
  name: string;
  priceType: 'energyPrice' | 'shareRatio';
  /** 元/kWh, when priceType is energyPrice. */
  energyPrice?: number;
  /** %, when priceType is shareRatio. */
  shareRatio?: number;
  contractMonths: number[];
  voltageLevels: string[];
  consumptionMin: number;
  consumptionMax?: number;
  remark?: string;
}

export interface OrderHistoryData {
  /** null for the creation entry. */
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  actorRole: OrderActor;
  note: string;
  /** ISO time. */
  at: string;
}

/** createCustomerOrder, cancelOrder, getOrderDetail, ops order/getOrderDetail and order/transition. */
export interface OrderDetailData {
  orderNo: string;
  status: OrderStatus;
  /** Reason given with the last cancel or reject; '' otherwise. */
  statusReason: string;
  enterprise: { id: number; enterpriseName: string; clearanceAccount: string };
  areaCode: string;
  areaName: string;
  productId: string;
  productName: string;
  setId: string;
  setName: string;
  sellingSetId: string;
  orgComId: string;
  orgComName: string;
  schemeParam: OrderSchemeParamSnapshot;
  /** YYYY-MM */
  contractStart: string;
  /** YYYY-MM, the contract's last month. */
  contractEnd: string;
  contractMonths: number;
  /** MWh per year. */
  estimatedConsumption: number;
  createdAt: string;
  updatedAt: string;
  /** Oldest first. */
  history: OrderHistoryData[];
  /** The notices about this order sent to the order's user, newest first, in the reader's locale. */
  notices: NoticeData[];
  /** What the caller may do now: the enterprise's actions for its owner, the operator's on /api/ops. */
  allowedActions: OrderAction[];
  /** Whether the owner may delete (hide) it: cancelled or rejected and not yet deleted. */
  canDelete: boolean;
  /** When the owner deleted it (only the operator ever sees a deleted order). */
  deletedAt: string | null;
}

/** A row of order/getAntTable (only the selected columns when the request has `select`). */
export interface OrderRowData {
  orderNo: string;
  productId: string;
  setName: string;
  orgComName: string;
  areaCode: string;
  schemeParamName: string;
  /** YYYY-MM */
  contractStart: string;
  contractMonths: number;
  estimatedConsumption: number;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
}

/** A row of /api/ops/order/getAntTable. */
export interface OpsOrderRowData extends OrderRowData {
  enterpriseId: number;
  enterpriseName: string;
  /** Deleted (hidden) by its owner. */
  deleted: boolean;
}

/** A row of /api/ops/audit/getAntTable. */
export interface AuditRowData {
  id: number;
  /** ISO time. */
  at: string;
  /** null when the user is gone or the entry has none (system). */
  userName: string | null;
  /** Dotted verb: session.login, order.accept… */
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
}

/** Every table call answers `{ result, totalCount }` (the engine's answer, src/lib/schemas/table.ts). */
export type OrderTableData<Row> = TableAnswer<Row>;
