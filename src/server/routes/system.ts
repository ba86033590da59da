/**
 * /api/front/system/*: account-level calls open to visitors (spec §7, "System, user, area").
 * This issue: checkphonenum and logout; login, register, SMS and captcha come with accounts.
 */
import { Hono } from 'hono';
import { checkPhoneQuery } from '../../lib/schemas/system.ts';
import { ok } from '../envelope.ts';
import { clientIp } from '../request.ts';
import { clearSessionCookie, revokeSession } from '../session.ts';
import { writeAudit } from '../services/audit.ts';
import { isMobileRegistered } from '../services/users.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createSystemRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();

  routes.get('/checkphonenum', async (c) => {
    const { phone } = await validate(c, checkPhoneQuery, 'query');
    return ok(c, { registered: await isMobileRegistered(db, phone) });
  });

  /** Idempotent: without a live session it still clears the cookie and says goodbye. */
  routes.post('/logout', async (c) => {
    const session = c.var.session;
    if (session) {
      await db.transaction(async (tx) => {
        await revokeSession(tx, session.id);
        await writeAudit(tx, {
          userId: session.userId,
          action: 'session.logout',
          target: `user:${session.userId}`,
          ip: clientIp(c, config),
        });
      });
    }
    clearSessionCookie(c, config);
    return ok(c, {}, 'api.logoutOk');
  });

  return routes;
}
