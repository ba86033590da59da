/**
 * Starting a session for a user who has just proved who they are (login by account or mobile,
 * with its second step when the user has a second factor; registration; password change). Always
 * a new session id: the session the browser came with is revoked first, so an id planted before
 * login (session fixation) never becomes a logged-in one.
 */
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { AnyContext } from './envelope.ts';
import { clientIp } from './request.ts';
import { writeAudit } from './services/audit.ts';
import { withdrawCancellation } from './services/cancellation.ts';
import { createSession, revokeSession, sessionPolicy, setSessionCookie } from './session.ts';
import type { AppEnv } from './types.ts';

export type SignInMethod = 'account' | 'mobile' | 'register' | 'passwordChange';

export interface SignInOptions {
  /**
   * The session has proved the second factor (the login's second step). A password change keeps
   * the proof of the session it renews; every other sign-in starts without one.
   */
  secondFactorAt?: Date;
}

/**
 * Revokes the browser's session, makes the new one and audits it, inside the caller's
 * transaction (the second step uses its code and its pending login in the same one); answers the
 * token for `handOverSession`.
 */
export async function openSession(
  tx: Database,
  c: AnyContext,
  config: Config,
  userId: number,
  method: SignInMethod,
  deviceId: string,
  options: SignInOptions = {},
): Promise<string> {
  const previous = (c.var as AppEnv['Variables']).session;
  const ip = clientIp(c, config);
  const secondFactorAt =
    options.secondFactorAt ?? (method === 'passwordChange' ? previous?.secondFactorAt : null) ?? null;
  if (previous) await revokeSession(tx, previous.id);
  const created = await createSession(
    tx,
    userId,
    { ip, userAgent: c.req.header('user-agent') ?? null, secondFactorAt },
    sessionPolicy(config),
  );
  // Signing in again during the cooling-off withdraws a request to close the account.
  if (method === 'account' || method === 'mobile') await withdrawCancellation(tx, userId, ip);
  await writeAudit(tx, {
    userId,
    action: method === 'passwordChange' ? 'session.renew' : 'session.login',
    target: `user:${userId}`,
    detail: { method, deviceId, secondFactor: secondFactorAt !== null },
    ip,
  });
  return created.token;
}

/** Gives the browser its new session's cookie (and the signed-in hint). */
export function handOverSession(c: AnyContext, config: Config, token: string, method: SignInMethod): void {
  setSessionCookie(c, token, config, method === 'mobile' ? 'mobile' : 'account');
}

export async function signIn(
  c: AnyContext,
  deps: { db: Database; config: Config },
  userId: number,
  method: SignInMethod,
  deviceId: string,
  options: SignInOptions = {},
): Promise<void> {
  const token = await deps.db.transaction((tx) => openSession(tx, c, deps.config, userId, method, deviceId, options));
  handOverSession(c, deps.config, token, method);
}
