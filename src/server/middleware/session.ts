/**
 * Session loading for every /api call, and the guards of protected calls.
 * `requireSession`: no live session → code 901 `api.sessionExpired` (HTTP 200), and a stale
 * cookie is cleared. `requireRole(...)`: a live session without one of the roles → code 403; an
 * account whose role requires a second factor (MFA_REQUIRED_ROLES) on a session that has not
 * proved one has that role withheld from the request's user, and a call needing it answers code 403
 * with `data.secondFactorRequired` (`enrol` or `verify`), never the data.
 * Each check is counted by what it found (`hgd_session_checks_total`), when the app measures.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { ApiCode, signedInHintCookieName } from '../../lib/apiCodes.ts';
import type { SecondFactorRequiredData } from '../../lib/schemas/secondFactor.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { UserRole } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { SessionMetrics } from '../metrics/instruments.ts';
import { answersCodes } from '../openapi/describe.ts';
import { requiresSecondFactor, secondFactorDemand } from '../services/secondFactor.ts';
import { clearSessionCookie, isWellFormedToken, readSessionToken, resolveSession, sessionPolicy } from '../session.ts';
import type { AppEnv, AuthedEnv } from '../types.ts';

export function loadSession(deps: { db: Database; config: Config }, metrics?: SessionMetrics) {
  const policy = sessionPolicy(deps.config);
  const requiredRoles = deps.config.mfaRequiredRoles;
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = readSessionToken(c);
    if (token) {
      const found = await resolveSession(deps.db, token, policy);
      metrics?.checked(found ? 'valid' : isWellFormedToken(token) ? 'expired' : 'malformed');
      if (found) {
        c.set('session', found.session);
        if (found.session.secondFactorAt === null && requiresSecondFactor(found.user.roles, requiredRoles)) {
          // The privileged roles are withheld from the request's user, not only refused by
          // requireRole: a check elsewhere (an operator's wider read, the studio's files) sees
          // them missing too. Only a session owing its factor pays this second statement.
          const kept = found.user.roles.filter((role) => !requiredRoles.includes(role));
          c.set('user', { ...found.user, roles: kept.length > 0 ? kept : ['individual'] });
          c.set('secondFactorDemand', {
            demand: await secondFactorDemand(deps.db, found.user.id),
            accountRoles: found.user.roles,
          });
        } else {
          c.set('user', found.user);
        }
      } else {
        // The browser holds a dead session: forget it.
        clearSessionCookie(c, deps.config);
      }
    } else {
      metrics?.checked('missing');
      // A signed-in hint without a session cookie: the header must not say signed in.
      if (getCookie(c, signedInHintCookieName) !== undefined) clearSessionCookie(c, deps.config);
    }
    await next();
  });
}

/**
 * The signed-in account's own roles, those withheld until a second factor included: what the
 * account is (currentUser, whether its role requires a factor), never what this request may do.
 */
export function accountRoles(c: Context<AuthedEnv>): UserRole[] {
  return c.get('secondFactorDemand')?.accountRoles ?? c.get('user').roles;
}

/** What the API description says of code 901 behind a guard. */
const notSignedIn = 'no live session (`api.sessionExpired`): the browser goes to the login page';

export const requireSession = answersCodes(
  createMiddleware<AuthedEnv>(async (c, next) => {
    // c.get, not c.var: `c.var` copies every variable into a new object on each read.
    if (!c.get('user') || !c.get('session')) throw new ApiError(ApiCode.SESSION_EXPIRED, 'api.sessionExpired');
    await next();
  }),
  { [ApiCode.SESSION_EXPIRED]: notSignedIn },
);

export function requireRole(...roles: UserRole[]) {
  const guard = createMiddleware<AuthedEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user || !c.get('session')) throw new ApiError(ApiCode.SESSION_EXPIRED, 'api.sessionExpired');
    if (user.roles.some((role) => roles.includes(role))) return next();
    const owed = c.get('secondFactorDemand');
    if (owed?.accountRoles.some((role) => roles.includes(role))) {
      const data: SecondFactorRequiredData = { secondFactorRequired: owed.demand };
      throw new ApiError(
        ApiCode.FORBIDDEN,
        owed.demand === 'enrol' ? 'auth.secondFactorEnrolRequired' : 'auth.secondFactorVerifyRequired',
        undefined,
        data,
      );
    }
    throw new ApiError(ApiCode.FORBIDDEN, 'api.forbidden');
  });
  return answersCodes(guard, {
    [ApiCode.SESSION_EXPIRED]: notSignedIn,
    [ApiCode.FORBIDDEN]: `not one of the roles ${roles.join(', ')} (\`api.forbidden\`), or a second factor owed`,
  });
}
