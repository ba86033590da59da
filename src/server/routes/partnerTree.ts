/**
 * /api/front/hgdarc/partner: the partner's institutions (spec §7; docs/partner.md, Calls): its own
 * relations and the visible tree. A session (901) and the `partner` role (403) are needed; what is
 * answered is always computed from the caller's relations (src/server/services/partnerScope.ts).
 * The analysis calls under the same base are another module (routes/partnerAnalysis.ts).
 */
import { Hono } from 'hono';
import { partnersByEmpIdQuery } from '../../lib/schemas/partner.ts';
import { ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { partnerTree, relatedPartners } from '../services/partnerInstitutions.ts';
import { partnerScopeOf } from '../services/partnerScope.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createPartnerTreeRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db } = deps;
  const routes = new Hono<AppEnv>();
  const partner = requireRole('partner');

  /** The caller's own relations (with `empId`: only the relation with that staff number; none matching is an empty list). */
  routes.get(
    '/getPartnersByEmpId',
    describeCall({ summary: "The caller's own institution relations", query: partnersByEmpIdQuery }),
    partner,
    async (c) => {
      const { empId } = await validate(c, partnersByEmpIdQuery, 'query');
      return ok(c, await relatedPartners(db, c.var.user.id, empId));
    },
  );

  /** The visible tree (spec §3 `partnerTree`): the caller's top institutions first, children by code. */
  routes.get(
    '/getAllPartnersByEmpId',
    describeCall({ summary: 'The tree of institutions the caller may see' }),
    partner,
    async (c) => {
      const scope = await partnerScopeOf(db, c.var.user.id);
      return ok(c, await partnerTree(db, scope));
    },
  );

  return routes;
}
