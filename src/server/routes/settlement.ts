/**
 * /api/front/hgdsel/settlementbuyresult: the partner's settlement results (spec §7; docs/partner.md,
 * Settlement rows). A session (901) and the `partner` role (403); rows are those of the caller's
 * visible institutions, or of one visible institution's subtree (`partnerId`; any other id
 * answers the partner 404 like a missing one).
 */
import { Hono } from 'hono';
import { currentPeriod } from '../../lib/partner.ts';
import { settlementTableBody } from '../../lib/schemas/partner.ts';
import { localeOf, message, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { writeAudit } from '../services/audit.ts';
import { contentStore } from '../services/contentStore.ts';
import { partnerScopeOf } from '../services/partnerScope.ts';
import { settlementExportSheet, settlementPage, settlementScopeIds } from '../services/settlementTable.ts';
import { parseTableRequest, readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { readQuery, validate } from '../validate.ts';
import { xlsxResponse, xlsxStream } from '../xlsx/writer.ts';

export function createSettlementRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const partner = requireRole('partner');

  routes.post(
    '/getSettlementAntTable',
    describeCall({ summary: 'Settlement results as a table', body: settlementTableBody }),
    partner,
    async (c) => {
      const { partnerId } = await validate(c, settlementTableBody, 'body');
      const request = await readTableRequest(c);
      const ids = await settlementScopeIds(db, await partnerScopeOf(db, c.var.user.id), partnerId);
      return ok(c, await settlementPage(db, request, ids));
    },
  );

  /**
   * The same fields flattened into the query; answers the .xlsx of every matching row (up to the
   * export cap). Everything is checked before the download starts: errors are envelopes as usual.
   */
  routes.get(
    '/exportSettlementAntTable',
    describeCall({
      summary: 'Settlement results as an xlsx download',
      query: settlementTableBody,
      download: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    partner,
    async (c) => {
      const { partnerId } = await validate(c, settlementTableBody, 'query');
      const request = parseTableRequest(readQuery(c)['antTable']);
      const ids = await settlementScopeIds(db, await partnerScopeOf(db, c.var.user.id), partnerId);
      const locale = localeOf(c);
      const sheet = settlementExportSheet(db, request, ids, locale, contentStore.current());
      await writeAudit(db, {
        userId: c.var.user.id,
        action: 'partner.export',
        target: 'settlement',
        detail: { partnerId: partnerId ?? null, antTable: request },
        ip: clientIp(c, config),
      });
      const date = currentPeriod(3).replaceAll('-', '');
      return xlsxResponse(xlsxStream(sheet), message(c, 'partner.settlement.file', { date }));
    },
  );

  return routes;
}
