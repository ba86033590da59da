/**
 * Orders (DOMAIN.md, Order and States): the ordering guide, placing an order, its detail, the
 * state machine of src/lib/orderStatus.ts for the enterprise, the operator and the scheduled job,
 * and the owner's delete. Every change writes the order, a history entry, a notice to the order's
 * user and an audit row in one transaction; a refused change writes nothing.
 *
 * Ownership: an enterprise user reaches only its own enterprise's orders that it has not deleted;
 * any other order number answers exactly like one that does not exist (404).
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ApiCode } from '../../lib/apiCodes.ts';
import { defaultLocale, t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import {
  allowedActions,
  canDeleteOrder,
  findTransition,
  OrderStatusCode,
  type OrderAction,
  type OrderActor,
  type OrderStatus,
} from '../../lib/orderStatus.ts';
import {
  chinaMonth,
  contractEndMonth,
  type CreateOrderInput,
  type OrderDetailData,
  type OrderGuideData,
  type OrderHistoryData,
  type OrderSchemeParamSnapshot,
} from '../../lib/schemas/order.ts';
import {
  defaultAreaCode,
  getDictionary,
  getProduct,
  getRegion,
  getSet,
  isSellingOn,
  listSellingSets,
  listSets,
  productsOfArea,
  type SellingSetView,
} from '../../content/query.ts';
import { chinaDate } from '../../lib/chinaTime.ts';
import type { ProductSet, SchemeParam, SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import { enterprises, orders, orderStatusHistory, type EnterpriseRow, type OrderRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { writeAudit } from './audit.ts';
import { requireRegion, requireSellingSet } from './contentLookup.ts';
import { keptNames } from './contentViews.ts';
import { localizeSiteContent } from '../../content/localized.ts';
import { maskAccountNo } from '../../lib/masking.ts';
import { regionName } from '../../lib/regionNames.ts';
import { findOwnEnterprise } from './enterpriseView.ts';
import { createNotice, listNotices, type NoticeMessageKey } from './notices.ts';

/**
 * Orders not yet finished: a second order of the same selling set is refused while one is open,
 * and the enterprise keeps its bank key certification while it has one.
 */
export const openOrderStatuses: readonly OrderStatus[] = [
  OrderStatusCode.SUBMITTED,
  OrderStatusCode.ACCEPTED,
  OrderStatusCode.IN_FORCE,
];

/** Who is asking, as the services need it: the user, where from, and the language of errors. */
export interface OrderCaller {
  userId: number;
  ip: string | null;
  locale: Locale;
}

/** Whose view of an order: its owner (own enterprise, not deleted) or an operator (every order). */
export type OrderViewer = { role: 'enterprise'; enterpriseId: number } | { role: 'operator' };

/** The caller's own enterprise; without one the order calls are forbidden (403). */
export async function requireOwnEnterprise(db: Database, userId: number): Promise<EnterpriseRow> {
  const enterprise = await findOwnEnterprise(db, userId);
  if (!enterprise) throw ApiError.forbidden('order.noEnterprise');
  return enterprise;
}

/** The status and the action in the caller's words, for "the order is X, it cannot be Y". */
function transitionRefused(locale: Locale, status: number, action: OrderAction): ApiError {
  return ApiError.conflict('order.transitionForbidden', {
    status: t(locale, `orderStatus.${status}` as MessageKey),
    action: t(locale, `order.action.${action}`),
  });
}

// ---------------------------------------------------------------------------------------------
// The ordering guide

/**
 * GET order/getListByGuideType: the products of the area, each with its online sets that have a
 * selling set valid today (China date), each with those selling sets. Products and sets with
 * nothing to order are left out.
 */
export function orderGuide(
  content: SiteContent,
  areaCode: string,
  productId?: string,
  today: string = chinaDate(),
): OrderGuideData {
  requireRegion(content, areaCode);
  return productsOfArea(content, areaCode)
    .filter((product) => productId === undefined || product.productId === productId)
    .map((product) => ({
      productId: product.productId,
      productName: product.name,
      sets: listSets(content, areaCode, product.productId)
        .filter((set) => set.online)
        .map((set) => ({
          setId: set.setId,
          name: set.name,
          summary: set.summary,
          sellingSets: listSellingSets(content, areaCode, { setId: set.setId, today }).map((selling) => ({
            sellingSetId: selling.sellingSetId,
            orgComId: selling.orgComId,
            orgComName: selling.orgCom.name,
            validFrom: selling.validFrom,
            validTo: selling.validTo,
          })),
        }))
        .filter((set) => set.sellingSets.length > 0),
    }))
    .filter((product) => product.sets.length > 0);
}

/** The area the guide shows when none is asked for: the enterprise's, else the default region. */
export function guideAreaOf(enterprise: EnterpriseRow | null): string {
  return enterprise?.areaCode ?? defaultAreaCode;
}

// ---------------------------------------------------------------------------------------------
// Placing an order

/** The plan parameter as the order keeps it (the catalogue may change later). */
export function schemeParamSnapshot(param: SchemeParam): OrderSchemeParamSnapshot {
  return {
    schemeParamId: param.schemeParamId,
    name: param.name,
    priceType: param.priceType,
    ...(param.energyPrice === undefined ? {} : { energyPrice: param.energyPrice }),
    ...(param.shareRatio === undefined ? {} : { shareRatio: param.shareRatio }),
    contractMonths: [...param.contractMonths],
    voltageLevels: [...param.voltageLevels],
    consumptionMin: param.consumptionMin,
    ...(param.consumptionMax === undefined ? {} : { consumptionMax: param.consumptionMax }),
    ...(param.remark === undefined ? {} : { remark: param.remark }),
  };
}

/** The tighter of the scheme parameter's and the set filter's consumption ranges. */
export function consumptionRange(
  param: SchemeParam,
  filter: { consumptionMin: number; consumptionMax?: number | undefined },
): { min: number; max?: number } {
  const min = Math.max(param.consumptionMin, filter.consumptionMin);
  const maxes = [param.consumptionMax, filter.consumptionMax].filter((value): value is number => value !== undefined);
  return maxes.length ? { min, max: Math.min(...maxes) } : { min };
}

/**
 * The next order number, made by the insert itself: `HGD` + China date + 6 digits of
 * order_no_seq (wrapping at a million, so a number repeats only after a million orders a day).
 */
export function orderNoExpression(at: Date) {
  return sql<string>`${'HGD' + chinaDate(at).replaceAll('-', '')} || lpad((nextval('order_no_seq') % 1000000)::text, 6, '0')`;
}

/**
 * What a new order row takes from the catalogue (its selling set, set and scheme parameter, kept
 * as they were then) and from the order form; placing an order and the demo seed both write it.
 */
export function orderRowValues(
  catalogue: { selling: SellingSetView; set: ProductSet; param: SchemeParam },
  input: Pick<CreateOrderInput, 'contractStart' | 'contractMonths' | 'estimatedConsumption'>,
  createdAt: Date,
) {
  const { selling, set, param } = catalogue;
  return {
    orderNo: orderNoExpression(createdAt),
    areaCode: selling.areaCode,
    productId: set.productId,
    setId: set.setId,
    setName: set.name,
    sellingSetId: selling.sellingSetId,
    orgComId: selling.orgComId,
    orgComName: selling.orgCom.name,
    schemeParamId: param.schemeParamId,
    schemeParam: { ...schemeParamSnapshot(param) },
    contractStart: `${input.contractStart}-01`,
    contractMonths: input.contractMonths,
    estimatedConsumption: input.estimatedConsumption.toFixed(3),
  };
}

/**
 * POST order/createCustomerOrder. The rules, in the order they are checked (docs/orders.md):
 * an enterprise (403), certified (409), the selling set on sale today in its area with its set
 * online (409), the scheme parameter the set's (400), fitting the enterprise's voltage level and
 * the set's filter (400), the months offered (400), the consumption within range (400), and no
 * open order of the enterprise for the same selling set (409). Returns the new order's number and
 * its enterprise.
 */
export async function createOrder(
  db: Database,
  caller: OrderCaller,
  content: SiteContent,
  input: CreateOrderInput,
  now: Date = new Date(),
): Promise<{ orderNo: string; enterpriseId: number }> {
  const enterprise = await requireOwnEnterprise(db, caller.userId);
  if (enterprise.authStatus !== 2) throw ApiError.conflict('order.notCertified');

  const selling = requireSellingSet(content, input.sellingSetId);
  const set = getSet(content, selling.setId);
  const areaCode = enterprise.areaCode ?? defaultAreaCode;
  const today = chinaDate(now);
  if (!set?.online || !isSellingOn(selling, today) || selling.areaCode !== areaCode)
    throw ApiError.conflict('order.notOnSale');

  const param = set.schemeParams.find((p) => p.schemeParamId === input.schemeParamId);
  if (!param) throw ApiError.field('schemeParamId', 'order.schemeParamUnknown');

  // Only codes from the lists are matched: a profile without them (or with free text from before
  // certification checked them) leaves the choice to the operator's review.
  const voltageLevels = getDictionary(content, 'voltageLevel') ?? [];
  if (voltageLevels.some((level) => level.code === enterprise.voltageLevel)) {
    if (!param.voltageLevels.includes(enterprise.voltageLevel))
      throw ApiError.field('schemeParamId', 'order.voltageMismatch');
    if (set.filter.voltageLevels.length > 0 && !set.filter.voltageLevels.includes(enterprise.voltageLevel)) {
      throw ApiError.field('sellingSetId', 'order.notForProfile');
    }
  }
  if (
    /^[A-T]$/.test(enterprise.industry) &&
    set.filter.industries.length > 0 &&
    !set.filter.industries.includes(enterprise.industry)
  ) {
    throw ApiError.field('sellingSetId', 'order.notForProfile');
  }

  if (!param.contractMonths.includes(input.contractMonths)) {
    throw ApiError.field('contractMonths', 'order.monthsNotOffered', {
      months: input.contractMonths,
      offered: param.contractMonths.join(' / '),
    });
  }
  const range = consumptionRange(param, set.filter);
  if (input.estimatedConsumption < range.min || (range.max !== undefined && input.estimatedConsumption > range.max)) {
    throw range.max === undefined
      ? ApiError.field('estimatedConsumption', 'order.consumptionAtLeast', { min: range.min })
      : ApiError.field('estimatedConsumption', 'order.consumptionRange', { min: range.min, max: range.max });
  }

  const product = getProduct(content, set.productId);
  return db.transaction(async (tx) => {
    // One order at a time per enterprise: two clicks on "submit" cannot both pass the check below,
    // and a certification withdrawn meanwhile (an edit of the name sends it back to review) counts.
    const [locked] = await tx
      .select({ authStatus: enterprises.authStatus, partnerId: enterprises.partnerId })
      .from(enterprises)
      .where(eq(enterprises.id, enterprise.id))
      .for('update');
    if (locked?.authStatus !== 2) throw ApiError.conflict('order.notCertified');
    const [open] = await tx
      .select({ orderNo: orders.orderNo })
      .from(orders)
      .where(
        and(
          eq(orders.enterpriseId, enterprise.id),
          eq(orders.sellingSetId, selling.sellingSetId),
          inArray(orders.status, [...openOrderStatuses]),
        ),
      )
      .limit(1);
    if (open) throw ApiError.conflict('order.openOrderExists', { orderNo: open.orderNo });

    const [created] = await tx
      .insert(orders)
      .values({
        ...orderRowValues({ selling, set, param }, input, now),
        enterpriseId: enterprise.id,
        userId: caller.userId,
        // The referring institution as it stands when the order is placed (docs/partner.md): a
        // later change of the enterprise's referral does not move its past orders between partners.
        partnerId: locked.partnerId,
        status: OrderStatusCode.SUBMITTED,
      })
      .returning({ id: orders.id, orderNo: orders.orderNo });
    const { id, orderNo } = created!;
    await tx.insert(orderStatusHistory).values({
      orderId: id,
      fromStatus: null,
      toStatus: OrderStatusCode.SUBMITTED,
      actorUserId: caller.userId,
      actorRole: 'enterprise',
    });
    await createNotice(tx, {
      userId: caller.userId,
      type: 'notification',
      ref: `order:${orderNo}`,
      messageKey: 'order.notice.created',
      vars: { orderNo, setName: set.name },
    });
    await writeAudit(tx, {
      userId: caller.userId,
      action: 'order.create',
      target: `order:${orderNo}`,
      detail: {
        enterpriseId: enterprise.id,
        productName: product?.name ?? set.productId,
        sellingSetId: selling.sellingSetId,
        schemeParamId: param.schemeParamId,
        contractStart: input.contractStart,
        contractMonths: input.contractMonths,
        estimatedConsumption: input.estimatedConsumption,
      },
      ip: caller.ip,
    });
    return { orderNo, enterpriseId: enterprise.id };
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

function scopeOf(viewer: OrderViewer) {
  return viewer.role === 'enterprise'
    ? and(eq(orders.enterpriseId, viewer.enterpriseId), isNull(orders.deletedAt))
    : undefined;
}

/** The order the viewer may see, locked for update when `lock` (inside a transaction); else 404. */
async function requireOrder(db: Database, orderNo: string, viewer: OrderViewer, lock = false): Promise<OrderRow> {
  const query = db
    .select()
    .from(orders)
    .where(and(eq(orders.orderNo, orderNo), scopeOf(viewer)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw ApiError.notFound('order.notFound');
  return row;
}

function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** The full detail of one order as the viewer sees it (getOrderDetail and the answer of every change). */
export async function orderDetail(
  db: Database,
  orderNo: string,
  viewer: OrderViewer,
  locale: Locale,
  content: SiteContent,
): Promise<OrderDetailData> {
  const order = await requireOrder(db, orderNo, viewer);
  const [enterprise] = await db
    .select({
      id: enterprises.id,
      enterpriseName: enterprises.enterpriseName,
      clearanceAccount: enterprises.clearanceAccount,
    })
    .from(enterprises)
    .where(eq(enterprises.id, order.enterpriseId))
    .limit(1);
  // The foreign key restricts deleting an enterprise that has orders: a missing one is a broken database.
  if (!enterprise) throw new Error(`order ${order.orderNo} has no enterprise ${order.enterpriseId}`);
  const history = await db
    .select()
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, order.id))
    .orderBy(asc(orderStatusHistory.at), asc(orderStatusHistory.id));
  const notices = await listNotices(db, order.userId, { ref: `order:${order.orderNo}`, locale });
  const actor: OrderActor = viewer.role;
  const contractStart = monthOf(order.contractStart);
  // The catalogue's names in the reader's language; the names the order kept, translated while the catalogue still uses them.
  const shown = localizeSiteContent(content, locale);
  const kept = keptNames(content, locale);
  const region = getRegion(content, order.areaCode);
  const schemeParam = order.schemeParam as unknown as OrderSchemeParamSnapshot;
  return {
    orderNo: order.orderNo,
    status: order.status as OrderStatus,
    statusReason: order.statusReason,
    // The operator reads the clearance account masked (lib/masking.ts), as on the enterprise's record.
    enterprise:
      viewer.role === 'enterprise'
        ? enterprise
        : { ...enterprise, clearanceAccount: maskAccountNo(enterprise.clearanceAccount) },
    areaCode: order.areaCode,
    areaName: region ? regionName(locale, region) : order.areaCode,
    productId: order.productId,
    productName: getProduct(shown, order.productId)?.name ?? order.productId,
    setId: order.setId,
    setName: kept(order.setName),
    sellingSetId: order.sellingSetId,
    orgComId: order.orgComId,
    orgComName: kept(order.orgComName),
    schemeParam: { ...schemeParam, name: kept(schemeParam.name) },
    contractStart,
    contractEnd: contractEndMonth(contractStart, order.contractMonths),
    contractMonths: order.contractMonths,
    estimatedConsumption: Number(order.estimatedConsumption),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    history: history.map((entry): OrderHistoryData => ({
      fromStatus: entry.fromStatus as OrderStatus | null,
      toStatus: entry.toStatus as OrderStatus,
      actorRole: entry.actorRole,
      note: entry.note,
      at: entry.at.toISOString(),
    })),
    notices,
    allowedActions: allowedActions(order.status, actor),
    canDelete: viewer.role === 'enterprise' && canDeleteOrder(order.status) && order.deletedAt === null,
    deletedAt: order.deletedAt?.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Changing state

const noticeKeys: Record<OrderAction, NoticeMessageKey> = {
  accept: 'order.notice.accepted',
  confirm: 'order.notice.confirmed',
  complete: 'order.notice.completed',
  cancel: 'order.notice.cancelled',
  reject: 'order.notice.rejected',
};

function noticeKeyFor(action: OrderAction, actor: OrderActor): NoticeMessageKey {
  return action === 'cancel' && actor !== 'enterprise' ? 'order.notice.cancelledByOperator' : noticeKeys[action];
}

export interface TransitionInput {
  orderNo: string;
  action: OrderAction;
  reason?: string | undefined;
}

/**
 * Moves one order with `action` as `actor` (orderStatus.ts decides what is allowed): the new
 * status, the reason of a cancel or reject, a history entry, a notice to the order's user and an
 * audit row, in one transaction. Refused → 409 naming the status in words; nothing changes.
 * `caller.userId` is null for the scheduled job.
 */
export async function transitionOrder(
  db: Database,
  caller: Omit<OrderCaller, 'userId'> & { userId: number | null },
  viewer: OrderViewer | { role: 'system' },
  input: TransitionInput,
): Promise<void> {
  const actor: OrderActor = viewer.role;
  await db.transaction(async (tx) => {
    const order = await requireOrder(tx, input.orderNo, viewer.role === 'system' ? { role: 'operator' } : viewer, true);
    const transition = findTransition(order.status, input.action, actor);
    if (!transition) throw transitionRefused(caller.locale, order.status, input.action);
    const reason = input.reason?.trim() ?? '';
    if (transition.reasonRequiredFor.includes(actor) && reason === '') {
      throw ApiError.field('reason', 'order.reasonRequired', {
        action: t(caller.locale, `order.action.${input.action}`),
      });
    }
    const endsWithReason = transition.to === OrderStatusCode.CANCELLED || transition.to === OrderStatusCode.REJECTED;
    await tx
      .update(orders)
      .set({ status: transition.to, ...(endsWithReason ? { statusReason: reason } : {}) })
      .where(eq(orders.id, order.id));
    await tx.insert(orderStatusHistory).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: transition.to,
      actorUserId: caller.userId,
      actorRole: actor,
      note: reason,
    });
    const contractStart = monthOf(order.contractStart);
    await createNotice(tx, {
      userId: order.userId,
      type: 'notification',
      ref: `order:${order.orderNo}`,
      messageKey: noticeKeyFor(input.action, actor),
      vars: {
        orderNo: order.orderNo,
        setName: order.setName,
        reason,
        contractStart,
        contractEnd: contractEndMonth(contractStart, order.contractMonths),
      },
    });
    await writeAudit(tx, {
      userId: caller.userId,
      action: `order.${input.action}`,
      target: `order:${order.orderNo}`,
      detail: { by: actor, from: order.status, to: transition.to, ...(reason ? { reason } : {}) },
      ip: caller.ip,
    });
  });
}

/** POST order/del: hides a cancelled or rejected order from its owner; the row stays for audit. */
export async function deleteOrder(
  db: Database,
  caller: OrderCaller,
  enterpriseId: number,
  orderNo: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await requireOrder(tx, orderNo, { role: 'enterprise', enterpriseId }, true);
    if (!canDeleteOrder(order.status)) {
      throw ApiError.conflict('order.deleteForbidden', {
        status: t(caller.locale, `orderStatus.${order.status}` as MessageKey),
      });
    }
    await tx
      .update(orders)
      .set({ deletedAt: sql`now()` })
      .where(eq(orders.id, order.id));
    await writeAudit(tx, {
      userId: caller.userId,
      action: 'order.delete',
      target: `order:${order.orderNo}`,
      detail: { status: order.status },
      ip: caller.ip,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The scheduled job

/**
 * Orders in force whose contract has ended (its last month is before the current China month)
 * move to completed by `system`, each in its own transaction with history, notice and audit.
 * Safe on N processes at once: the row is locked and re-checked, so a second process finds it
 * completed and skips it. Returns how many it completed.
 */
export async function completeEndedOrders(db: Database, now: Date = new Date()): Promise<number> {
  const firstOfMonth = `${chinaMonth(now)}-01`;
  const due = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(
      and(
        eq(orders.status, OrderStatusCode.IN_FORCE),
        sql`${orders.contractStart} + make_interval(months => ${orders.contractMonths}) <= ${firstOfMonth}::date`,
      ),
    )
    .orderBy(asc(orders.id))
    .limit(500);
  let completed = 0;
  for (const { orderNo } of due) {
    try {
      await transitionOrder(
        db,
        { userId: null, ip: null, locale: defaultLocale },
        { role: 'system' },
        { orderNo, action: 'complete' },
      );
      completed += 1;
    } catch (error) {
      // Completed meanwhile by an operator or another process: nothing to do for this one.
      if (!(error instanceof ApiError && error.code === ApiCode.CONFLICT)) throw error;
    }
  }
  return completed;
}
