/**
 * /api/ops/order/* and /api/ops/audit/*: the operator's order queue, order detail and state
 * changes (docs/orders.md), and the auditor's audit trail. The order calls need the operator role,
 * the audit calls the auditor role (separated duties, lib/roles.ts): 901 without a session, 403
 * without the role. The certification review lives in its own module under /api/ops/certification.
 */
import { Hono } from 'hono';
import { orderDetailQuery, orderTransitionBody } from '../../lib/schemas/order.ts';
import { chinaDate } from '../../lib/chinaTime.ts';
import { localeOf, message, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { auditExportSheet, auditPage } from '../services/auditTable.ts';
import { writeAudit } from '../services/audit.ts';
import { contentStore } from '../services/contentStore.ts';
import { opsOrdersPage } from '../services/orderTables.ts';
import { orderDetail, transitionOrder } from '../services/orders.ts';
import { keptNames } from '../services/contentViews.ts';
import { parseTableRequest, readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import { tableCallBody } from '../../lib/schemas/table.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { readQuery, validate } from '../validate.ts';
import { xlsxResponse, xlsxStream } from '../xlsx/writer.ts';

export function createOpsRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const operator = requireRole('operator');
  const auditor = requireRole('auditor');

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
    auditor,
    async (c) => ok(c, await auditPage(db, await readTableRequest(c))),
  );

  /**
   * The same request (`antTable` in the query) as an .xlsx of every matching entry, up to the
   * export cap; the export is itself an entry of the trail. Checked before the download starts.
   */
  routes.get(
    '/audit/exportAntTable',
    describeCall({
      summary: 'The audit trail as an xlsx download',
      query: tableCallBody,
      download: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    auditor,
    async (c) => {
      const request = parseTableRequest(readQuery(c)['antTable']);
      const locale = localeOf(c);
      const sheet = auditExportSheet(db, request, locale);
      await writeAudit(db, {
        userId: c.var.user.id,
        action: 'audit.export',
        target: 'audit',
        detail: { antTable: request },
        ip: clientIp(c, config),
      });
      return xlsxResponse(xlsxStream(sheet), message(c, 'ops.audit.file', { date: chinaDate().replaceAll('-', '') }));
    },
  );

  return routes;
}
