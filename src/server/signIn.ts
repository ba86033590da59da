/**
 * Starting a session for a user who has just proved who they are (login by account or mobile,
 * registration, password change). Always a new session id: the session the browser came with is
 * revoked first, so an id planted before login (session fixation) never becomes a logged-in one.
 */
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { AnyContext } from './envelope.ts';
import { clientIp } from './request.ts';
import { writeAudit } from './services/audit.ts';
import { createSession, revokeSession, sessionPolicy, setSessionCookie } from './session.ts';
import type { AppEnv } from './types.ts';

export type SignInMethod = 'account' | 'mobile' | 'register' | 'passwordChange';

export async function signIn(
  c: AnyContext,
  deps: { db: Database; config: Config },
  userId: number,
  method: SignInMethod,
  deviceId: string,
): Promise<void> {
  const { db, config } = deps;
  const previous = (c.var as AppEnv['Variables']).session;
  const ip = clientIp(c, config);
  const { token } = await db.transaction(async (tx) => {
    if (previous) await revokeSession(tx, previous.id);
    const created = await createSession(tx, userId, { ip, userAgent: c.req.header('user-agent') ?? null }, sessionPolicy(config));
    await writeAudit(tx, {
      userId,
      action: method === 'passwordChange' ? 'session.renew' : 'session.login',
      target: `user:${userId}`,
      detail: { method, deviceId },
      ip,
    });
    return created;
  });
  setSessionCookie(c, token, config, method === 'mobile' ? 'mobile' : 'account');
}
