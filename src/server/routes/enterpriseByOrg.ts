/**
 * GET /api/front/hgdsel/set/getEnterpriseUserByOrgId (spec §7, "enterprise users by orgId"):
 * mounted on the same base as set.ts, which answers the content's set calls. The current user's
 * orgId is their user id, so this answers only the caller's own enterprise: another orgId, or a
 * user without an enterprise, is 404.
 */
import { Hono } from 'hono';
import { enterpriseByOrgIdQuery } from '../../lib/schemas/enterprise.ts';
import { ApiError } from '../apiError.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { enterpriseData, findOwnEnterprise } from '../services/enterpriseView.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createEnterpriseByOrgRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db } = deps;
  const routes = new Hono<AppEnv>();

  routes.get(
    '/getEnterpriseUserByOrgId',
    describeCall({
      summary: "The caller's own enterprise by its orgId",
      query: enterpriseByOrgIdQuery,
      codes: { 404: '`enterprise.error.none`, not found' },
    }),
    requireSession,
    async (c) => {
      const { orgId } = await validate(c, enterpriseByOrgIdQuery, 'query');
      if (orgId !== c.var.user.id) throw ApiError.notFound();
      const row = await findOwnEnterprise(db, orgId);
      if (!row) throw ApiError.notFound('enterprise.error.none');
      return ok(c, await enterpriseData(db, row, localeOf(c), c.var.user.id));
    },
  );

  return routes;
}
