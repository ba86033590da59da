/**
 * The pending second step of a login (docs/accounts.md, "Two-step verification"): when the first
 * factor (password, or SMS code) of a user with a confirmed second factor passes, no session is
 * made; the browser gets a random token in an HttpOnly cookie instead, and the table keeps only
 * its sha256 with the user, how the first step was made and a count of tries. The token is good
 * for 5 minutes, one login and 5 codes; unknown, expired, used and spent tokens are refused alike.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { loginChallenges } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { writeAudit } from './audit.ts';

export const loginChallengeRules = {
  ttlSeconds: 5 * 60,
  maxAttempts: 5,
} as const;

/** How the first factor was proved. */
export type FirstFactor = 'account' | 'mobile';

export interface PendingLogin {
  id: string;
  userId: number;
  method: FirstFactor;
  deviceId: string;
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function hashChallengeToken(token: string): string {
  return createHash('sha256').update(`login-challenge:${token}`).digest('hex');
}

/** Records a login owing its second factor; answers the token for the cookie. Run in the first step's transaction. */
export async function createLoginChallenge(
  tx: Database,
  input: { userId: number; method: FirstFactor; deviceId: string; ip: string | null },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(loginChallenges).values({
    id: hashChallengeToken(token),
    userId: input.userId,
    method: input.method,
    deviceId: input.deviceId,
    expiresAt: sql`now() + make_interval(secs => ${loginChallengeRules.ttlSeconds})`,
    ip: input.ip,
  });
  await writeAudit(tx, {
    userId: input.userId,
    action: 'session.secondFactorOwed',
    target: `user:${input.userId}`,
    detail: { method: input.method, deviceId: input.deviceId },
    ip: input.ip,
  });
  return token;
}

/** The one refusal of a token that is unknown, expired, used or out of tries. */
export function challengeGone(): ApiError {
  return ApiError.badRequest('auth.secondFactorExpired');
}

/**
 * Claims one try of the pending login before its code is checked: one conditional update that
 * succeeds only while the login is unused, unexpired and has tries left, so concurrent codes
 * share its 5 tries. Throws the one refusal otherwise.
 */
export async function claimChallengeTry(db: Database, token: string | undefined): Promise<PendingLogin> {
  if (!token || !tokenPattern.test(token)) throw challengeGone();
  const [row] = await db
    .update(loginChallenges)
    .set({ attempts: sql`${loginChallenges.attempts} + 1` })
    .where(
      and(
        eq(loginChallenges.id, hashChallengeToken(token)),
        isNull(loginChallenges.usedAt),
        gt(loginChallenges.expiresAt, sql`now()`),
        lt(loginChallenges.attempts, loginChallengeRules.maxAttempts),
      ),
    )
    .returning({
      id: loginChallenges.id,
      userId: loginChallenges.userId,
      method: loginChallenges.method,
      deviceId: loginChallenges.deviceId,
    });
  if (!row) throw challengeGone();
  return {
    id: row.id,
    userId: row.userId,
    method: row.method === 'mobile' ? 'mobile' : 'account',
    deviceId: row.deviceId,
  };
}

/** Uses the pending login up, in the transaction that signs in; a concurrent success got it first → the refusal. */
export async function useChallenge(tx: Database, id: string): Promise<void> {
  const [used] = await tx
    .update(loginChallenges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(loginChallenges.id, id), isNull(loginChallenges.usedAt), gt(loginChallenges.expiresAt, sql`now()`)))
    .returning({ id: loginChallenges.id });
  if (!used) throw challengeGone();
}
