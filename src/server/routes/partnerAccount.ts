/**
 * /api/front/hgdarc/partneraccount: an institution's details and staff relations (spec §7;
 * docs/partner.md, Calls). A partner user acts on the institutions in its scope (anything else
 * answers the partner 404, exactly like a missing one); an administrator on any institution.
 */
import { Hono, type Context } from 'hono';
import {
  addRelationBody,
  delRelationBody,
  partnerAccountInfoQuery,
  type PartnerAccountInfoData,
} from '../../lib/schemas/partner.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import {
  addRelation,
  deleteRelation,
  partnerAccountsOf,
  requirePartnerVisible,
  type RelationActor,
} from '../services/partnerAccounts.ts';
import { partnerDetail } from '../services/partnerInstitutions.ts';
import { partnerScopeOf } from '../services/partnerScope.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, AuthedEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createPartnerAccountRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const staffOrAdmin = requireRole('partner', 'admin');

  /** An administrator sees every institution; anyone else its scope. */
  const actorOf = async (c: Context<AuthedEnv>): Promise<RelationActor> => ({
    userId: c.var.user.id,
    scope: c.var.user.roles.includes('admin') ? null : await partnerScopeOf(db, c.var.user.id),
    ip: clientIp(c, config),
    locale: localeOf(c),
  });

  routes.get(
    '/getPartnerAccountInfo',
    describeCall({ summary: "An institution's details and staff relations", query: partnerAccountInfoQuery }),
    staffOrAdmin,
    async (c) => {
      const { partnerId } = await validate(c, partnerAccountInfoQuery, 'query');
      const actor = await actorOf(c);
      if (partnerId === undefined) {
        const answer: PartnerAccountInfoData = {
          partner: null,
          accounts: await partnerAccountsOf(db, c.var.user.id, null),
        };
        return ok(c, answer);
      }
      await requirePartnerVisible(db, actor, partnerId);
      const answer: PartnerAccountInfoData = {
        partner: await partnerDetail(db, partnerId),
        accounts: await partnerAccountsOf(db, c.var.user.id, partnerId),
      };
      return ok(c, answer);
    },
  );

  routes.post(
    '/addRelationPartnerAccount',
    describeCall({ summary: 'Relate a staff account to an institution', body: addRelationBody }),
    staffOrAdmin,
    async (c) => {
      const body = await validate(c, addRelationBody, 'body');
      const actor = await actorOf(c);
      return ok(c, await addRelation(db, actor, body), 'partner.relationAdded');
    },
  );

  routes.post(
    '/delRelationPartnerAccount',
    describeCall({ summary: 'Remove a staff relation', body: delRelationBody }),
    staffOrAdmin,
    async (c) => {
      const { id } = await validate(c, delRelationBody, 'body');
      await deleteRelation(db, await actorOf(c), id);
      return ok(c, {}, 'partner.relationRemoved');
    },
  );

  return routes;
}
