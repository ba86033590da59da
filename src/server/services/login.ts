/**
 * Login by account (DOMAIN.md, Security; OWASP ASVS V6): rate limited per address, a captcha
 * after repeated failures, a temporary lock after more, and the same answer for an unknown name
 * as for a wrong password — same message, same counters, and an argon2 verification either way,
 * so neither the answer nor its timing says whether a name exists.
 *
 * Counters live in `rate_limits` (shared by every API process), keyed by the lower-cased name
 * (known or not) and by the address. A lock is its own window, so it lasts its full time from
 * the failure that set it. The user row also gets `locked_until` / `failed_logins`, for operators.
 */
import { eq, sql } from 'drizzle-orm';
import { ApiCode, type ApiCodeValue } from '../../lib/apiCodes.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Database } from '../db/client.ts';
import { users, type UserRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { hashPassword, verifyPassword } from '../password.ts';
import { writeAudit } from './audit.ts';
import { consumeCaptcha } from './captcha.ts';
import { hitLimit, peekLimit, peekWindow, releaseHit, resetLimit, type RateRule } from './rateLimit.ts';
import { findUserByUserName } from './users.ts';

export const loginRules = {
  /** Every try from one address, right or wrong. */
  perIp: { name: 'login.ip', limit: 30, windowSeconds: 15 * 60 },
  /** Failures per user name; at `limit` the name is locked. */
  failuresPerName: { name: 'login.fail.name', limit: 5, windowSeconds: 15 * 60 },
  /** Failures per address (they decide the captcha, with the name's). */
  failuresPerIp: { name: 'login.fail.ip', limit: 1000, windowSeconds: 15 * 60 },
  /** A lock: one hit opens a window of this length. */
  lock: { name: 'login.lock', limit: 0, windowSeconds: 15 * 60 },
  /** The captcha is required once a name has this many failures… */
  captchaAfterNameFailures: 2,
  /** …or the address this many. */
  captchaAfterIpFailures: 5,
} as const satisfies Record<string, RateRule | number>;

export interface AccountLoginInput {
  userName: string;
  password: string;
  captcha: string | undefined;
  captchaToken: string | undefined;
  /** The server's captcha key (secrets.ts). */
  captchaKey: Buffer;
  ip: string | null;
}

/** A refusal that tells the form whether the next try needs the captcha. */
function refusal(
  code: ApiCodeValue,
  key: MessageKey,
  captchaRequired: boolean,
  vars?: Record<string, number>,
): ApiError {
  return new ApiError(code, key, vars, { captchaRequired });
}

function minutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

// A real argon2id hash to verify against when the name is unknown, so both paths cost the same.
let decoyHash: Promise<string> | undefined;
function decoy(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Date.now()}-${Math.random()}`);
  return decoyHash;
}

async function captchaRequired(db: Database, priorFailures: number, ip: string | null): Promise<boolean> {
  if (priorFailures >= loginRules.captchaAfterNameFailures) return true;
  return ip !== null && (await peekLimit(db, loginRules.failuresPerIp, ip)) >= loginRules.captchaAfterIpFailures;
}

/**
 * Checks an account login and answers the user to sign in, or throws the refusal
 * (docs/accounts.md, "login"). Counts failures, sets and reports locks, uses the captcha up.
 */
export async function checkAccountLogin(db: Database, input: AccountLoginInput): Promise<UserRow> {
  const name = input.userName.trim().toLowerCase();

  if (input.ip) {
    const perIp = await hitLimit(db, loginRules.perIp, input.ip);
    if (!perIp.allowed) {
      throw refusal(ApiCode.TOO_MANY_REQUESTS, 'auth.tooManyAttempts', true, {
        minutes: minutes(perIp.retryAfterSeconds),
      });
    }
  }

  const lock = await peekWindow(db, loginRules.lock, name);
  if (lock.hits > 0) {
    throw refusal(ApiCode.TOO_MANY_REQUESTS, 'auth.locked', true, { minutes: minutes(lock.remainingSeconds) });
  }

  const user = await findUserByUserName(db, name);
  if (user?.lockedUntil && user.lockedUntil.getTime() > Date.now()) {
    throw refusal(ApiCode.TOO_MANY_REQUESTS, 'auth.locked', true, {
      minutes: minutes((user.lockedUntil.getTime() - Date.now()) / 1000),
    });
  }

  // The try is claimed before the slow password check: one atomic upsert counts it as a failure
  // of the name, so concurrent tries (from any address, on any process) each see a different
  // count and only those within the rules reach the check. A try refused before the check gives
  // its claim back; a right password clears the count. So a burst of simultaneous
  // tries cannot check more passwords than the rules allow.
  const claim = await hitLimit(db, loginRules.failuresPerName, name);
  const priorFailures = claim.hits - 1;
  const refuseBeforeCheck = async (error: ApiError): Promise<never> => {
    await releaseHit(db, loginRules.failuresPerName, name);
    throw error;
  };
  if (input.captcha) {
    // Given: always checked, and used up whatever the answer.
    if (!(await consumeCaptcha(db, input.captchaKey, input.captchaToken, input.captcha))) {
      await refuseBeforeCheck(refusal(ApiCode.BAD_REQUEST, 'auth.captchaInvalid', true));
    }
  } else if (await captchaRequired(db, priorFailures, input.ip)) {
    await refuseBeforeCheck(refusal(ApiCode.BAD_REQUEST, 'auth.captchaRequired', true));
  }
  if (priorFailures >= loginRules.failuresPerName.limit) {
    // Tries racing past the one that locks the name.
    await refuseBeforeCheck(
      refusal(ApiCode.TOO_MANY_REQUESTS, 'auth.locked', true, { minutes: minutes(loginRules.lock.windowSeconds) }),
    );
  }

  const passwordOk = await verifyPassword(user?.passwordHash ?? (await decoy()), input.password);
  if (user && passwordOk) {
    await resetLimit(db, loginRules.failuresPerName, name);
    if (user.failedLogins !== 0 || user.lockedUntil !== null) {
      await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
    }
    if (user.status !== 'active') throw ApiError.badRequest('auth.accountDisabled');
    return user;
  }

  await recordFailure(db, user, input.ip);
  const ipFailures = input.ip ? await hitLimit(db, loginRules.failuresPerIp, input.ip) : undefined;
  if (claim.hits >= loginRules.failuresPerName.limit) {
    await lockName(db, name, user, input.ip);
    throw refusal(ApiCode.TOO_MANY_REQUESTS, 'auth.locked', true, { minutes: minutes(loginRules.lock.windowSeconds) });
  }
  const nextNeedsCaptcha =
    claim.hits >= loginRules.captchaAfterNameFailures || (ipFailures?.hits ?? 0) >= loginRules.captchaAfterIpFailures;
  throw refusal(ApiCode.BAD_REQUEST, 'auth.badCredentials', nextNeedsCaptcha);
}

/** Counts a failure on the user row (when the name exists) and audits it — never the typed name or password. */
async function recordFailure(db: Database, user: UserRow | undefined, ip: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    if (user) {
      await tx
        .update(users)
        .set({ failedLogins: sql`${users.failedLogins} + 1` })
        .where(eq(users.id, user.id));
    }
    await writeAudit(tx, {
      userId: user?.id ?? null,
      action: 'session.loginFailed',
      target: user ? `user:${user.id}` : null,
      detail: { method: 'account', knownName: user !== undefined },
      ip,
    });
  });
}

async function lockName(db: Database, name: string, user: UserRow | undefined, ip: string | null): Promise<void> {
  // The failure count is left to run out with its window (it started before the lock's): reset
  // here, a try that passed the lock check a moment earlier could claim a fresh count.
  await hitLimit(db, loginRules.lock, name);
  await db.transaction(async (tx) => {
    if (user) {
      await tx
        .update(users)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${loginRules.lock.windowSeconds})`, failedLogins: 0 })
        .where(eq(users.id, user.id));
    }
    await writeAudit(tx, {
      userId: user?.id ?? null,
      action: 'session.locked',
      target: user ? `user:${user.id}` : null,
      detail: { minutes: loginRules.lock.windowSeconds / 60 },
      ip,
    });
  });
}

/** Lifts a lock and forgets failures (after a password reset). */
export async function clearLoginFailures(db: Database, userName: string): Promise<void> {
  const name = userName.toLowerCase();
  await resetLimit(db, loginRules.lock, name);
  await resetLimit(db, loginRules.failuresPerName, name);
}
