/** /api/front/user/*: calls of the logged-in user. Every route here requires a session. */
import { Hono } from 'hono';
import { ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { currentUserView } from '../services/users.ts';
import type { AppDeps, AppEnv } from '../types.ts';

export function createUserRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/currentUser', requireSession, (c) => ok(c, currentUserView(c.var.user)));

  return routes;
}
