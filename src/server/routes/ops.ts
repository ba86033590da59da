/**
 * /api/ops/order/* and /api/ops/audit/*: the operator's order queue, order detail, state changes
 * and the audit trail (docs/orders.md). Every call needs the operator role: 901 without a session,
 * 403 without the role. The certification review lives in its own module under /api/ops/certification.
 */
import { Hono } from 'hono';
import { orderDetailQuery, orderTransitionBody } from '../../lib/schemas/order.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { auditPage } from '../services/auditTable.ts';
import { contentStore } from '../services/contentStore.ts';
import { opsOrdersPage } from '../services/orderTables.ts';
import { orderDetail, transitionOrder } from '../services/orders.ts';
import { keptNames } from '../services/contentViews.ts';
import { readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import { tableCallBody } from '../../lib/schemas/table.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createOpsRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const operator = requireRole('operator');

  /** Every order with its enterprise; deleted ones flagged (`deleted`), never hidden. */
  routes.post(
    '/order/getAntTable',
    describeCall({ summary: "The operator's order queue as a table", body: tableCallBody }),
    operator,
    async (c) =>
      ok(c, await opsOrdersPage(db, await readTableRequest(c), keptNames(contentStore.current(), localeOf(c)))),
  );

  routes.get(
    '/order/getOrderDetail',
    describeCall({ summary: 'Any order with its enterprise and history', query: orderDetailQuery }),
    operator,
    async (c) => {
      const { orderNo } = await validate(c, orderDetailQuery, 'query');
      return ok(c, await orderDetail(db, orderNo, { role: 'operator' }, localeOf(c), contentStore.current()));
    },
  );

  /** accept, confirm, complete, cancel (with a reason), reject (with a reason): orderStatus.ts. */
  routes.post(
    '/order/transition',
    describeCall({ summary: 'Move an order to its next state', body: orderTransitionBody }),
    operator,
    async (c) => {
      const { orderNo, action, reason } = await validate(c, orderTransitionBody, 'body');
      const locale = localeOf(c);
      await transitionOrder(
        db,
        { userId: c.var.user.id, ip: clientIp(c, config), locale },
        { role: 'operator' },
        { orderNo, action, reason },
      );
      return ok(
        c,
        await orderDetail(db, orderNo, { role: 'operator' }, locale, contentStore.current()),
        'order.transitionOk',
      );
    },
  );

  /** The audit trail: filter by action, range by time, search the target. */
  routes.post(
    '/audit/getAntTable',
    describeCall({ summary: 'The audit trail as a table', body: tableCallBody }),
    operator,
    async (c) => ok(c, await auditPage(db, await readTableRequest(c))),
  );

  return routes;
}
