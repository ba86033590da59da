/**
 * Session loading for every /api call, and the guards of protected calls.
 * `requireSession`: no live session → code 901 `api.sessionExpired` (HTTP 200), and a stale
 * cookie is cleared. `requireRole(...)`: a live session without one of the roles → code 403.
 */
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { ApiCode, signedInHintCookieName } from '../../lib/apiCodes.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { UserRole } from '../db/schema/index.ts';
import { ApiError } from '../envelope.ts';
import { clearSessionCookie, readSessionToken, resolveSession, sessionPolicy } from '../session.ts';
import type { AppEnv, AuthedEnv } from '../types.ts';

export function loadSession(deps: { db: Database; config: Config }) {
  const policy = sessionPolicy(deps.config);
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = readSessionToken(c);
    if (token) {
      const found = await resolveSession(deps.db, token, policy);
      if (found) {
        c.set('session', found.session);
        c.set('user', found.user);
      } else {
        // The browser holds a dead session: forget it.
        clearSessionCookie(c, deps.config);
      }
    } else if (getCookie(c, signedInHintCookieName) !== undefined) {
      // A signed-in hint without a session cookie: the header must not say signed in.
      clearSessionCookie(c, deps.config);
    }
    await next();
  });
}

export const requireSession = createMiddleware<AuthedEnv>(async (c, next) => {
  // c.get, not c.var: `c.var` copies every variable into a new object on each read.
  if (!c.get('user') || !c.get('session')) throw new ApiError(ApiCode.SESSION_EXPIRED, 'api.sessionExpired');
  await next();
});

export function requireRole(...roles: UserRole[]) {
  return createMiddleware<AuthedEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user || !c.get('session')) throw new ApiError(ApiCode.SESSION_EXPIRED, 'api.sessionExpired');
    if (!user.roles.some((role) => roles.includes(role))) throw new ApiError(ApiCode.FORBIDDEN, 'api.forbidden');
    await next();
  });
}
