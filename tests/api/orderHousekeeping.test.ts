/** The scheduled job: orders in force whose contract has ended become completed, by `system`. */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, notices, orders } from '../../src/server/db/schema/index.ts';
import { completeEndedOrders } from '../../src/server/services/orders.ts';
import {
  addEnterpriseUser,
  createOrderTestApp,
  type EnterpriseUser,
  fixedNow,
  footprint,
  insertOrder,
  orderRow,
} from './orderFixtures.ts';
import { openPerFile } from './harness.ts';

const t = openPerFile(createOrderTestApp);
let owner: EnterpriseUser;
let running = '';

beforeAll(async () => {
  owner = await addEnterpriseUser(t, { userName: 'hk_owner', mobile: '13900003001' });
});

describe('completeEndedOrders', () => {
  it('completes in-force orders whose last month has passed, and nothing else', async () => {
    // Today is 2026-11-22 (China). 2025-11 + 12 months ended with 2026-10: due.
    const ended = await insertOrder(t, owner, { status: 30, contractStart: '2025-11-01', contractMonths: 12 });
    // 2025-12 + 12 months ends with 2026-11, this month: still in force.
    running = await insertOrder(t, owner, { status: 30, contractStart: '2025-12-01', contractMonths: 12 });
    // Ended, but never put in force: not the job's to decide.
    const accepted = await insertOrder(t, owner, { status: 20, contractStart: '2024-01-01', contractMonths: 12 });
    const untouched = [await footprint(t, running), await footprint(t, accepted)];

    expect(await completeEndedOrders(t.db, fixedNow)).toBe(1);

    const row = await orderRow(t, ended);
    expect(row.status).toBe(40);
    expect(row.history.map((h) => [h.fromStatus, h.toStatus, h.actorRole, h.actorUserId])).toEqual([
      [null, 10, 'enterprise', owner.userId],
      [30, 40, 'system', null],
    ]);
    const sent = await t.db
      .select()
      .from(notices)
      .where(eq(notices.ref, `order:${ended}`));
    expect(sent.map((n) => [n.userId, n.messageKey, n.title])).toEqual([
      [owner.userId, 'order.notice.completed', '订单已完成'],
    ]);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `order:${ended}`));
    expect(audit.map((a) => [a.action, a.userId, a.detail])).toEqual([
      ['order.complete', null, { by: 'system', from: 30, to: 40 }],
    ]);

    expect([await footprint(t, running), await footprint(t, accepted)]).toEqual(untouched);
  });

  it('does nothing the second time, and completes the running one once its month is over', async () => {
    expect(await completeEndedOrders(t.db, fixedNow)).toBe(0);
    // The seeded demo has contracts ending this month too: every one of them is due on 12-01.
    const endingThisMonth = await t.db.$count(
      orders,
      and(
        eq(orders.status, 30),
        sql`${orders.contractStart} + make_interval(months => ${orders.contractMonths}) = date '2026-12-01'`,
      ),
    );
    expect(await completeEndedOrders(t.db, new Date('2026-12-01T00:00:00+08:00'))).toBe(endingThisMonth);
    expect((await orderRow(t, running)).status).toBe(40);
  });
});
