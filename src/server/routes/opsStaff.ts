/**
 * /api/ops/staff/*: the administrator's staff accounts (/ops/staff; docs/accounts.md, Staff
 * accounts). Every call needs the administrator role (901 without a session, 403 without the
 * role). The rules — one duty per account, not oneself, never the last active administrator,
 * audited — are the service's, shared with `npm run user` (services/staffAccounts.ts). A partner
 * relation is removed with the partner area's own call (partneraccount/delRelationPartnerAccount),
 * which administrators may use.
 */
import { Hono, type Context } from 'hono';
import { relateInstitutionBody, staffRoleBody, staffUserBody } from '../../lib/schemas/staff.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import {
  disableAccount,
  enableAccount,
  grantRole,
  relateInstitution,
  resetSecondFactor,
  revokeRole,
  staffPage,
  staffRowOf,
  type StaffActor,
} from '../services/staffAccounts.ts';
import { readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import { tableCallBody } from '../../lib/schemas/table.ts';
import type { AppEnv, AuthedEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createOpsStaffRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const admin = requireRole('admin');

  const actorOf = (c: Context<AuthedEnv>): StaffActor => ({
    userId: c.var.user.id,
    ip: clientIp(c, config),
    locale: localeOf(c),
    via: 'ops',
  });
  /** Every change answers the account as the table shows it now. */
  const changed = (c: Context<AuthedEnv>, userId: number, key: Parameters<typeof ok>[2]) =>
    staffRowOf(db, userId, c.var.user.id).then((row) => ok(c, row, key));

  /** Staff accounts (or, with a keyword, every user), with roles, second factor, status, institutions, last sign-in. */
  routes.post(
    '/getAntTable',
    describeCall({ summary: 'Staff accounts as a table', body: tableCallBody }),
    admin,
    async (c) => ok(c, await staffPage(db, c.var.user.id, await readTableRequest(c))),
  );

  /** One account as the table shows it (any user, staff or not): the page's panel. */
  routes.get(
    '/getStaff',
    describeCall({ summary: 'One staff account with its roles and relations', query: staffUserBody }),
    admin,
    async (c) => {
      const { userId } = await validate(c, staffUserBody, 'query');
      return ok(c, await staffRowOf(db, userId, c.var.user.id));
    },
  );

  routes.post('/grant', describeCall({ summary: 'Grant a role', body: staffRoleBody }), admin, async (c) => {
    const { userId, role } = await validate(c, staffRoleBody, 'body');
    await grantRole(db, actorOf(c), userId, role);
    return changed(c, userId, 'staff.granted');
  });

  routes.post('/revoke', describeCall({ summary: 'Revoke a role', body: staffRoleBody }), admin, async (c) => {
    const { userId, role } = await validate(c, staffRoleBody, 'body');
    await revokeRole(db, actorOf(c), userId, role);
    return changed(c, userId, 'staff.revoked');
  });

  routes.post('/disable', describeCall({ summary: 'Disable an account', body: staffUserBody }), admin, async (c) => {
    const { userId } = await validate(c, staffUserBody, 'body');
    await disableAccount(db, actorOf(c), userId);
    return changed(c, userId, 'staff.disabled');
  });

  routes.post('/enable', describeCall({ summary: 'Enable an account', body: staffUserBody }), admin, async (c) => {
    const { userId } = await validate(c, staffUserBody, 'body');
    await enableAccount(db, actorOf(c), userId);
    return changed(c, userId, 'staff.enabled');
  });

  routes.post(
    '/resetSecondFactor',
    describeCall({ summary: "Remove an account's second factor", body: staffUserBody }),
    admin,
    async (c) => {
      const { userId } = await validate(c, staffUserBody, 'body');
      await resetSecondFactor(db, actorOf(c), userId);
      return changed(c, userId, 'staff.secondFactorWasReset');
    },
  );

  routes.post(
    '/relateInstitution',
    describeCall({ summary: 'Relate a partner account to an institution', body: relateInstitutionBody }),
    admin,
    async (c) => {
      const body = await validate(c, relateInstitutionBody, 'body');
      await relateInstitution(db, actorOf(c), body);
      return changed(c, body.userId, 'staff.related');
    },
  );

  return routes;
}
