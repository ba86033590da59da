/**
 * /api/front/hgdsel/order/*: the enterprise's orders (spec §7 "Order and set"; docs/orders.md).
 * Every call needs a session (901) and, except the guide, the caller's own enterprise (403);
 * an order number of another enterprise answers 404 like one that does not exist.
 */
import { Hono, type Context } from 'hono';
import {
  cancelOrderQuery,
  createOrderBody,
  deleteOrderBody,
  orderDetailQuery,
  orderGuideQuery,
} from '../../lib/schemas/order.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { contentStore } from '../services/contentStore.ts';
import { findOwnEnterprise } from '../services/enterpriseView.ts';
import { ownOrdersPage } from '../services/orderTables.ts';
import { keptNames } from '../services/contentViews.ts';
import {
  createOrder,
  deleteOrder,
  guideAreaOf,
  orderDetail,
  orderGuide,
  requireOwnEnterprise,
  transitionOrder,
  type OrderCaller,
} from '../services/orders.ts';
import { readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import { tableCallBody } from '../../lib/schemas/table.ts';
import type { AppEnv, AuthedEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createOrderRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();

  const callerOf = (c: Context<AuthedEnv>): OrderCaller => ({
    userId: c.var.user.id,
    ip: clientIp(c, config),
    locale: localeOf(c),
  });

  /** Without an area: the enterprise's area, else the default region. Signed-in users without an enterprise may look too. */
  routes.get(
    '/getListByGuideType',
    describeCall({ summary: "The ordering guide's steps", query: orderGuideQuery }),
    requireSession,
    async (c) => {
      const { areaCode, productId } = await validate(c, orderGuideQuery, 'query');
      const area = areaCode ?? guideAreaOf(await findOwnEnterprise(db, c.var.user.id));
      return ok(c, orderGuide(contentStore.localized(localeOf(c)), area, productId));
    },
  );

  routes.post(
    '/createCustomerOrder',
    describeCall({ summary: "Place an order for the caller's enterprise", body: createOrderBody }),
    requireSession,
    async (c) => {
      const body = await validate(c, createOrderBody, 'body');
      const content = contentStore.current();
      const caller = callerOf(c);
      const { orderNo, enterpriseId } = await createOrder(db, caller, content, body);
      const detail = await orderDetail(db, orderNo, { role: 'enterprise', enterpriseId }, caller.locale, content);
      return ok(c, detail, 'order.createdOk');
    },
  );

  // A GET that changes state: the app's CSRF guard checks it like a POST (middleware/csrf.ts).
  routes.get(
    '/cancelOrder',
    describeCall({ summary: "Cancel one of the enterprise's orders", query: cancelOrderQuery }),
    requireSession,
    async (c) => {
      const { orderNo, reason } = await validate(c, cancelOrderQuery, 'query');
      const caller = callerOf(c);
      const enterprise = await requireOwnEnterprise(db, caller.userId);
      const viewer = { role: 'enterprise', enterpriseId: enterprise.id } as const;
      await transitionOrder(db, caller, viewer, { orderNo, action: 'cancel', reason });
      return ok(c, await orderDetail(db, orderNo, viewer, caller.locale, contentStore.current()), 'order.cancelledOk');
    },
  );

  routes.post(
    '/del',
    describeCall({ summary: 'Delete a cancelled order', body: deleteOrderBody }),
    requireSession,
    async (c) => {
      const { orderNo } = await validate(c, deleteOrderBody, 'body');
      const caller = callerOf(c);
      const enterprise = await requireOwnEnterprise(db, caller.userId);
      await deleteOrder(db, caller, enterprise.id, orderNo);
      return ok(c, {}, 'order.deletedOk');
    },
  );

  /** The enterprise's own orders that it has not deleted (`antTable`: docs/tables.md). */
  routes.post(
    '/getAntTable',
    describeCall({ summary: "The enterprise's orders as a table", body: tableCallBody }),
    requireSession,
    async (c) => {
      const request = await readTableRequest(c);
      const enterprise = await requireOwnEnterprise(db, c.var.user.id);
      return ok(c, await ownOrdersPage(db, request, enterprise.id, keptNames(contentStore.current(), localeOf(c))));
    },
  );

  routes.get(
    '/getOrderDetail',
    describeCall({ summary: 'One order of the enterprise', query: orderDetailQuery }),
    requireSession,
    async (c) => {
      const { orderNo } = await validate(c, orderDetailQuery, 'query');
      const enterprise = await requireOwnEnterprise(db, c.var.user.id);
      return ok(
        c,
        await orderDetail(
          db,
          orderNo,
          { role: 'enterprise', enterpriseId: enterprise.id },
          localeOf(c),
          contentStore.current(),
        ),
      );
    },
  );

  return routes;
}
