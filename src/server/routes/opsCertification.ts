/**
 * /api/ops/certification/*: the operator's certificate review (docs/enterprises.md). Operators
 * only (901 without a session, 403 without the role). The queue itself is
 * enterpriseuser/getAntTable filtered to status 1; the record with its files is enterpriseuser/get,
 * its numbers masked, and reveal gives one whole (audited).
 */
import { Hono } from 'hono';
import {
  certificationApproveBody,
  certificationReturnBody,
  enterpriseRevealAnswer,
  enterpriseRevealBody,
} from '../../lib/schemas/enterprise.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { revealEnterpriseField, reviewCertification } from '../services/certificationReview.ts';
import { enterpriseDataById } from '../services/enterpriseView.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';
import { enterpriseActor } from './enterpriseActor.ts';

export function createOpsCertificationRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const operator = requireRole('operator');
  const routes = new Hono<AppEnv>();

  routes.post(
    '/approve',
    describeCall({ summary: "Approve an enterprise's certification", body: certificationApproveBody }),
    operator,
    async (c) => {
      const { id } = await validate(c, certificationApproveBody, 'body');
      await reviewCertification(db, enterpriseActor(c, config), id, { decision: 'approve' });
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.approved');
    },
  );

  routes.post(
    '/return',
    describeCall({ summary: "Return an enterprise's certification with a reason", body: certificationReturnBody }),
    operator,
    async (c) => {
      const { id, comment } = await validate(c, certificationReturnBody, 'body');
      await reviewCertification(db, enterpriseActor(c, config), id, { decision: 'return', comment });
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'enterprise.returned');
    },
  );

  routes.post(
    '/reveal',
    describeCall({
      summary:
        "One whole number of an enterprise (its contact's mobile, its clearance account); recorded in the audit trail",
      body: enterpriseRevealBody,
      answer: enterpriseRevealAnswer,
      codes: { 404: 'no such enterprise' },
    }),
    operator,
    async (c) => {
      const { id, field } = await validate(c, enterpriseRevealBody, 'body');
      return ok(c, await revealEnterpriseField(db, enterpriseActor(c, config), id, field));
    },
  );

  return routes;
}
