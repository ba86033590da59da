/**
 * The demo enterprise's orders, seeded with it so that my orders, the order detail, the operator's
 * queue and the audit trail have something to show on first start: one order in each state
 * (submitted, accepted, in force, completed, cancelled, rejected), each with its history, the
 * notices its changes sent and their audit rows, dated relative to the seeding.
 *
 * Each is of a real selling set of Guangdong (the demo enterprise's area) and one of its plan
 * parameters, looked up in the content at seeding time; one that the content no longer has is
 * left out rather than invented. The open orders (submitted, accepted, in force) avoid the
 * fixed-price package, so that the demo account can still order it (one open order per selling set).
 */
import { addMonths, chinaMonth, contractEndMonth } from '../../lib/schemas/order.ts';
import { defaultLocale, t, type MessageVars } from '../../lib/i18n/index.ts';
import type { OrderAction, OrderActor, OrderStatus } from '../../lib/orderStatus.ts';
import { getSellingSet, getSet } from '../../content/query.ts';
import type { SiteContent } from '../../content/schemas.ts';
import { orderRowValues } from '../services/orders.ts';
import type { Database } from '../db/client.ts';
import { notices, orders, orderStatusHistory } from '../db/schema/index.ts';
import { writeAudit, type AuditEntry } from '../services/audit.ts';
import type { NoticeMessageKey } from '../services/notices.ts';

interface DemoStep {
  action: OrderAction;
  by: OrderActor;
  /** Days before the seeding. */
  daysAgo: number;
  reason?: string;
}

export interface DemoOrder {
  sellingSetId: string;
  schemeParamId: string;
  /** Months from the current month to the contract's first (negative: it started already). */
  startOffset: number;
  contractMonths: number;
  /** MWh per year. */
  estimatedConsumption: number;
  /** Days before the seeding it was placed. */
  createdDaysAgo: number;
  steps: readonly DemoStep[];
}

/** Oldest first, so their numbers run in the order they were placed. */
export const demoOrders: readonly DemoOrder[] = [
  // Completed: a six-month contract that ended last month, completed by the scheduled job.
  {
    sellingSetId: 'gd-linked-2027-nanfang',
    schemeParamId: 'gd-linked-2027-std',
    startOffset: -7,
    contractMonths: 6,
    estimatedConsumption: 8200,
    createdDaysAgo: 235,
    steps: [
      { action: 'accept', by: 'operator', daysAgo: 233 },
      { action: 'confirm', by: 'operator', daysAgo: 228 },
      { action: 'complete', by: 'system', daysAgo: 0.5 },
    ],
  },
  // In force since two months ago.
  {
    sellingSetId: 'gd-linked-cap-2027-yuehui',
    schemeParamId: 'gd-linked-cap-2027-cap',
    startOffset: -2,
    contractMonths: 12,
    estimatedConsumption: 8600,
    createdDaysAgo: 95,
    steps: [
      { action: 'accept', by: 'operator', daysAgo: 94 },
      { action: 'confirm', by: 'operator', daysAgo: 90 },
    ],
  },
  // Rejected by the operator, with the reason.
  {
    sellingSetId: 'gd-green-100-2027-lingnan',
    schemeParamId: 'gd-green-100-2027-all',
    startOffset: 2,
    contractMonths: 12,
    estimatedConsumption: 8600,
    createdDaysAgo: 20,
    steps: [
      { action: 'reject', by: 'operator', daysAgo: 19, reason: '用电户号与营业执照登记信息不一致，请核实后重新下单。' },
    ],
  },
  // Cancelled by the enterprise itself.
  {
    sellingSetId: 'gd-green-30-2027-lingnan',
    schemeParamId: 'gd-green-30-2027-10kv',
    startOffset: 1,
    contractMonths: 12,
    estimatedConsumption: 8600,
    createdDaysAgo: 12,
    steps: [{ action: 'cancel', by: 'enterprise', daysAgo: 11, reason: '内部预算调整，暂缓采购。' }],
  },
  // Accepted, waiting for the signed contract.
  {
    sellingSetId: 'gd-share-2027-nanfang',
    schemeParamId: 'gd-share-2027-std',
    startOffset: 2,
    contractMonths: 12,
    estimatedConsumption: 8600,
    createdDaysAgo: 3,
    steps: [{ action: 'accept', by: 'operator', daysAgo: 2 }],
  },
  // Just submitted.
  {
    sellingSetId: 'gd-tou-2027-yuehui',
    schemeParamId: 'gd-tou-2027-flat',
    startOffset: 1,
    contractMonths: 12,
    estimatedConsumption: 8600,
    createdDaysAgo: 0.125,
    steps: [],
  },
];

const reached: Record<OrderAction, OrderStatus> = { accept: 20, confirm: 30, complete: 40, cancel: 90, reject: 91 };

function noticeKey(step: DemoStep): NoticeMessageKey {
  if (step.action === 'cancel')
    return step.by === 'enterprise' ? 'order.notice.cancelled' : 'order.notice.cancelledByOperator';
  const keys = {
    accept: 'order.notice.accepted',
    confirm: 'order.notice.confirmed',
    complete: 'order.notice.completed',
    reject: 'order.notice.rejected',
  } as const;
  return keys[step.action];
}

export interface DemoOrderOwner {
  userId: number;
  enterpriseId: number;
  /** The operator who acted on them (the demo operator), or null. */
  operatorId: number | null;
}

/** Inserts the demo orders (inside the seed's transaction); answers how many. */
export async function seedDemoOrders(
  tx: Database,
  content: SiteContent,
  owner: DemoOrderOwner,
  now: Date = new Date(),
): Promise<number> {
  const month = chinaMonth(now);
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000);
  let count = 0;
  for (const demo of demoOrders) {
    const selling = getSellingSet(content, demo.sellingSetId);
    const set = selling ? getSet(content, selling.setId) : undefined;
    const param = set?.schemeParams.find((p) => p.schemeParamId === demo.schemeParamId);
    if (!selling || !set || !param) continue;
    const createdAt = at(demo.createdDaysAgo);
    const last = demo.steps[demo.steps.length - 1];
    const status = last ? reached[last.action] : 10;
    const contractStart = addMonths(month, demo.startOffset);
    const [row] = await tx
      .insert(orders)
      .values({
        ...orderRowValues({ selling, set, param }, { ...demo, contractStart }, createdAt),
        enterpriseId: owner.enterpriseId,
        userId: owner.userId,
        status,
        statusReason: last?.reason ?? '',
        createdAt,
        updatedAt: last ? at(last.daysAgo) : createdAt,
      })
      .returning({ id: orders.id, orderNo: orders.orderNo });
    const { id, orderNo } = row!;
    const ref = `order:${orderNo}`;
    const base: MessageVars = {
      orderNo,
      setName: set.name,
      contractStart,
      contractEnd: contractEndMonth(contractStart, demo.contractMonths),
    };

    const history: (typeof orderStatusHistory.$inferInsert)[] = [
      {
        orderId: id,
        fromStatus: null,
        toStatus: 10,
        actorUserId: owner.userId,
        actorRole: 'enterprise',
        at: createdAt,
      },
    ];
    const sent: (typeof notices.$inferInsert)[] = [];
    const audit: AuditEntry[] = [
      {
        userId: owner.userId,
        action: 'order.create',
        target: ref,
        at: createdAt,
        detail: {
          enterpriseId: owner.enterpriseId,
          sellingSetId: selling.sellingSetId,
          schemeParamId: param.schemeParamId,
        },
      },
    ];
    // Seeded as read: the bell's unread count stays that of the demo account's own notices.
    const notify = (key: NoticeMessageKey, vars: MessageVars, when: Date) =>
      sent.push({
        userId: owner.userId,
        type: 'notification',
        ref,
        messageKey: key,
        messageVars: vars,
        title: t(defaultLocale, `${key}.title`, vars).slice(0, 100),
        description: t(defaultLocale, `${key}.description`, vars),
        createdAt: when,
        readAt: when,
      });
    notify('order.notice.created', base, createdAt);

    let from: OrderStatus = 10;
    for (const step of demo.steps) {
      const when = at(step.daysAgo);
      const to = reached[step.action];
      const actorUserId = step.by === 'operator' ? owner.operatorId : step.by === 'enterprise' ? owner.userId : null;
      history.push({
        orderId: id,
        fromStatus: from,
        toStatus: to,
        actorUserId,
        actorRole: step.by,
        note: step.reason ?? '',
        at: when,
      });
      notify(noticeKey(step), { ...base, reason: step.reason ?? '' }, when);
      audit.push({
        userId: actorUserId,
        action: `order.${step.action}`,
        target: ref,
        at: when,
        detail: { by: step.by, from, to, ...(step.reason ? { reason: step.reason } : {}) },
      });
      from = to;
    }
    await tx.insert(orderStatusHistory).values(history);
    await tx.insert(notices).values(sent);
    await writeAudit(tx, audit);
    count += 1;
  }
  return count;
}
