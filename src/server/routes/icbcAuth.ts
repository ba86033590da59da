/**
 * POST /api/front/user/removeIcbcAuth (spec §7): withdraws the enterprise's bank USB-key
 * certification. Mounted on the same base as user.ts, which holds the account calls of that group.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { localeOf, ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { removeIcbcAuth } from '../services/bankCertification.ts';
import { enterpriseDataById } from '../services/enterpriseView.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';
import { enterpriseActor } from './enterpriseActor.ts';

/** The call names nothing: it is about the caller's own enterprise. */
const removeIcbcAuthBody = z.object({});

export function createIcbcAuthRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const bank = { bank: deps.bank, timeoutMs: config.bankTimeoutMs, cipher: deps.cipher };
  const routes = new Hono<AppEnv>();

  routes.post(
    '/removeIcbcAuth',
    describeCall({ summary: "Withdraw the enterprise's USB key certification", body: removeIcbcAuthBody }),
    requireSession,
    async (c) => {
      await validate(c, removeIcbcAuthBody, 'body');
      const id = await removeIcbcAuth(db, bank, enterpriseActor(c, config));
      return ok(c, await enterpriseDataById(db, id, localeOf(c), c.var.user.id), 'bank.removed');
    },
  );

  return routes;
}
