/** The demo enterprise's seeded orders: one per state, real selling sets of its area, consistent history. */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getSellingSet, getSet } from '../../src/content/query.ts';
import { findTransition, type OrderAction } from '../../src/lib/orderStatus.ts';
import { chinaMonth, contractEndMonth, type OrderDetailData } from '../../src/lib/schemas/order.ts';
import { demoOrders } from '../../src/server/seed/demoOrders.ts';
import { auditLog, enterprises, notices, orders, orderStatusHistory, users } from '../../src/server/db/schema/index.ts';
import { contentStore } from '../../src/server/services/contentStore.ts';
import { get, post } from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

async function companyOrders() {
  const [owner] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_company'));
  const [enterprise] = await t.db.select().from(enterprises).where(eq(enterprises.ownerUserId, owner!.id));
  const rows = await t.db.select().from(orders).where(eq(orders.enterpriseId, enterprise!.id)).orderBy(asc(orders.id));
  return { ownerId: owner!.id, enterprise: enterprise!, rows };
}

describe('demo orders', () => {
  it('gives demo_company one order in each state, all of real selling sets of its area', async () => {
    const { rows, enterprise } = await companyOrders();
    expect(rows).toHaveLength(demoOrders.length);
    expect(rows.map((row) => row.status).sort()).toEqual([10, 20, 30, 40, 90, 91]);
    const content = contentStore.current();
    for (const row of rows) {
      const selling = getSellingSet(content, row.sellingSetId);
      expect(selling?.areaCode, row.sellingSetId).toBe(enterprise.areaCode);
      const set = getSet(content, row.setId);
      expect(
        set?.schemeParams.some((p) => p.schemeParamId === row.schemeParamId),
        row.schemeParamId,
      ).toBe(true);
      expect(set?.schemeParams.find((p) => p.schemeParamId === row.schemeParamId)?.contractMonths).toContain(
        row.contractMonths,
      );
      expect(row.orderNo).toMatch(/^HGD\d{14}$/);
    }
  });

  it('has a history that follows the allowed transitions to the current status, with notices and audit rows', async () => {
    const { rows, ownerId } = await companyOrders();
    for (const row of rows) {
      const history = await t.db
        .select()
        .from(orderStatusHistory)
        .where(eq(orderStatusHistory.orderId, row.id))
        .orderBy(asc(orderStatusHistory.at));
      expect(history[0]).toMatchObject({
        fromStatus: null,
        toStatus: 10,
        actorRole: 'enterprise',
        actorUserId: ownerId,
      });
      for (const entry of history.slice(1)) {
        const actions: OrderAction[] = ['accept', 'confirm', 'complete', 'cancel', 'reject'];
        const legal = actions.some(
          (action) => findTransition(entry.fromStatus ?? -1, action, entry.actorRole)?.to === entry.toStatus,
        );
        expect(legal, `${row.orderNo} ${entry.fromStatus} → ${entry.toStatus} by ${entry.actorRole}`).toBe(true);
      }
      expect(history[history.length - 1]?.toStatus).toBe(row.status);
      const sent = await t.db
        .select()
        .from(notices)
        .where(eq(notices.ref, `order:${row.orderNo}`));
      expect(sent).toHaveLength(history.length);
      expect(sent.every((notice) => notice.userId === ownerId && notice.messageKey?.startsWith('order.notice.'))).toBe(
        true,
      );
      const audited = await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.target, `order:${row.orderNo}`));
      expect(audited).toHaveLength(history.length);
      if (row.status === 90 || row.status === 91) expect(row.statusReason).not.toBe('');
    }
  });

  it('keeps the in-force contract running this month and the completed one ended', async () => {
    const { rows } = await companyOrders();
    const month = chinaMonth();
    const inForce = rows.find((row) => row.status === 30)!;
    const start = inForce.contractStart.slice(0, 7);
    expect(start <= month && month <= contractEndMonth(start, inForce.contractMonths)).toBe(true);
    const completed = rows.find((row) => row.status === 40)!;
    expect(contractEndMonth(completed.contractStart.slice(0, 7), completed.contractMonths) < month).toBe(true);
  });

  it("shows them through the API, with the notices in the reader's locale", async () => {
    const cookie = await t.login('demo_company');
    const { rows } = await companyOrders();
    const rejected = rows.find((row) => row.status === 91)!;
    const detail = await get<OrderDetailData>(t, `/api/front/hgdsel/order/getOrderDetail?orderNo=${rejected.orderNo}`, {
      cookie,
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(detail.data).toMatchObject({ status: 91, canDelete: true, allowedActions: [] });
    expect(detail.data.notices.map((n) => n.title)).toEqual(['Order rejected', 'Order submitted']);
    const page = await post<{ totalCount: number }>(
      t,
      '/api/front/hgdsel/order/getAntTable',
      { antTable: '{}' },
      { cookie },
    );
    expect(page.data.totalCount).toBe(demoOrders.length);
    const queue = await post<{ totalCount: number }>(
      t,
      '/api/ops/audit/getAntTable',
      { antTable: JSON.stringify({ filter: { action: ['order.create'] } }) },
      { cookie: await t.login('demo_auditor') },
    );
    expect(queue.data.totalCount).toBeGreaterThanOrEqual(demoOrders.length);
  });

  it('leaves the fixed-price package free to order', async () => {
    const { rows } = await companyOrders();
    const open = rows.filter((row) => [10, 20, 30].includes(row.status)).map((row) => row.sellingSetId);
    expect(open.some((id) => id.startsWith('gd-fixed-2027-'))).toBe(false);
    // Other enterprises' orders (the partner demo's generated ones) do not stand in its way.
    const { enterprise } = await companyOrders();
    const stillOpen = await t.db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.enterpriseId, enterprise.id),
          inArray(orders.sellingSetId, ['gd-fixed-2027-yuehui', 'gd-fixed-2027-nanfang']),
        ),
      );
    expect(stillOpen).toEqual([]);
  });
});
