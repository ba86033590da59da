/**
 * Two-step verification: a TOTP authenticator (RFC 6238: 6 digits, 30 s steps, SHA-1, as every
 * authenticator app expects) and 10 one-time recovery codes per user (docs/accounts.md).
 *
 * - The shared secret is stored encrypted (AES-256-GCM with the server's key for it, the user id
 *   as associated data, so a row copied to another user does not decrypt); recovery codes only as
 *   an HMAC keyed with another server key. A leaked table yields neither.
 * - A code is accepted within ±1 step of now, and a step once: the accepted step is claimed by one
 *   conditional update of `last_used_step`, so two requests with the same code cannot both pass.
 * - Every check of a code counts against the user, like passwords (services/login.ts): the try is
 *   claimed before the check, 5 failures in 15 minutes lock code checks for 15 minutes.
 * - Every change is audited and noticed to the user, in the transaction that makes it.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, or, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { Locale } from '../../lib/i18n/index.ts';
import { qrSvg } from '../../lib/qrSvg.ts';
import {
  isRecoveryCode,
  recoveryCodeAlphabet,
  recoveryCodeCount,
  type SecondFactorDemand,
  type SecondFactorEnrolmentData,
  type SecondFactorStatusData,
} from '../../lib/schemas/secondFactor.ts';
import type { Database } from '../db/client.ts';
import { recoveryCodes, secondFactors, type UserRole } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { ServerKeys } from '../secrets.ts';
import { markSecondFactorProved } from '../session.ts';
import { verifyCurrentPassword } from './accounts.ts';
import { writeAudit } from './audit.ts';
import { createNotice } from './notices.ts';
import { hitLimit, peekWindow, releaseHit, resetLimit, type RateRule } from './rateLimit.ts';

export const secondFactorRules = {
  /** Wrong codes per user (login's second step, verifying, disabling, new recovery codes). */
  failures: { name: 'secondFactor.fail', limit: 5, windowSeconds: 15 * 60 },
  /** A lock: one hit opens a window of this length. */
  lock: { name: 'secondFactor.lock', limit: 0, windowSeconds: 15 * 60 },
  /** Steps either side of now whose code is accepted (clock drift, typing time). */
  window: 1,
  periodSeconds: 30,
  digits: 6,
  /** The name authenticator apps show above the account. */
  issuer: '汇购电',
} as const satisfies Record<string, RateRule | number | string>;

// ---- Pure parts --------------------------------------------------------------------------------

/** Whether an account with these roles must prove a second factor before role-guarded calls. */
export function requiresSecondFactor(roles: readonly UserRole[], requiredRoles: readonly UserRole[]): boolean {
  return roles.some((role) => requiredRoles.includes(role));
}

const cipherName = 'aes-256-gcm';

/** `v1.<iv>.<tag>.<ciphertext>` (base64url): the base32 secret sealed to this user. */
export function encryptSecret(key: Buffer, userId: number, secretBase32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(cipherName, key, iv);
  cipher.setAAD(Buffer.from(`second-factor:${userId}`));
  const sealed = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The base32 secret; throws when the value was not sealed with this key for this user. */
export function decryptSecret(key: Buffer, userId: number, stored: string): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || sealed === undefined) throw new Error('second factor secret: unknown format');
  const decipher = createDecipheriv(cipherName, key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`second-factor:${userId}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: secondFactorRules.issuer,
    label,
    algorithm: 'SHA1',
    digits: secondFactorRules.digits,
    period: secondFactorRules.periodSeconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The time step a code belongs to when it is valid at `now` (±1 step), else null. */
export function acceptedStep(secretBase32: string, code: string, now: number = Date.now()): number | null {
  const totp = totpOf(secretBase32, '');
  const delta = totp.validate({ token: code, timestamp: now, window: secondFactorRules.window });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/** A recovery code as shown: `xxxxx-xxxxx`. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += recoveryCodeAlphabet[randomInt(recoveryCodeAlphabet.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What was typed, as stored: lower case, no separator, and Crockford's look-alikes read as digits. */
export function normalizeRecoveryCode(typed: string): string {
  return typed.trim().toLowerCase().replace(/[- ]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
}

export function hashRecoveryCode(key: Buffer, userId: number, typed: string): string {
  return createHmac('sha256', key)
    .update(`${userId}:${normalizeRecoveryCode(typed)}`)
    .digest('hex');
}

/** The manual key: the base32 secret in groups of four, as apps ask for it. */
function manualKeyOf(secretBase32: string): string {
  return secretBase32.replace(/(.{4})(?=.)/g, '$1 ');
}

// ---- Reading -----------------------------------------------------------------------------------

export async function hasConfirmedSecondFactor(db: Database, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: secondFactors.userId })
    .from(secondFactors)
    .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * What a session lacks for role-guarded calls, or null: only asked when the user's role requires a
 * factor and the session has not proved one (middleware/session.ts), so other requests pay nothing.
 */
export async function secondFactorDemand(db: Database, userId: number): Promise<SecondFactorDemand> {
  return (await hasConfirmedSecondFactor(db, userId)) ? 'verify' : 'enrol';
}

export async function secondFactorStatus(
  db: Database,
  userId: number,
  context: { required: boolean; sessionVerified: boolean },
): Promise<SecondFactorStatusData> {
  const [factor] = await db
    .select({ confirmedAt: secondFactors.confirmedAt })
    .from(secondFactors)
    .where(eq(secondFactors.userId, userId))
    .limit(1);
  const [left] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const enabledAt = factor?.confirmedAt ?? null;
  return {
    enabled: enabledAt !== null,
    enabledAt: enabledAt?.toISOString() ?? null,
    recoveryCodesLeft: enabledAt === null ? 0 : Number(left?.n ?? 0),
    required: context.required,
    sessionVerified: context.sessionVerified,
  };
}

// ---- Proving a code, under the per-user limit --------------------------------------------------

export interface CodeProof {
  userId: number;
  /** An authenticator code or a recovery code, as typed. */
  code: string;
  ip: string | null;
  /** What the proof is for, in the audit log: `login`, `verify`, `disable`, `recoveryCodes`. */
  purpose: string;
}

function minutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

function lockedFor(seconds: number): ApiError {
  return ApiError.tooManyRequests('auth.secondFactorLocked', { minutes: minutes(seconds) });
}

/**
 * Uses one code of the user's confirmed factor: an authenticator code claims its time step
 * (refused when that step or a later one was used), a recovery code is marked used. Answers which
 * kind passed, or null. Run it inside the transaction of what the code allows, so both commit or
 * neither does.
 */
async function useCode(
  tx: Database,
  keys: ServerKeys,
  userId: number,
  code: string,
): Promise<'totp' | 'recovery' | null> {
  if (isRecoveryCode(code)) {
    const codeHash = hashRecoveryCode(keys.recoveryCodes, userId, code);
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used ? 'recovery' : null;
  }
  const [factor] = await tx
    .select({ secretEncrypted: secondFactors.secretEncrypted })
    .from(secondFactors)
    .where(and(eq(secondFactors.userId, userId), isNotNull(secondFactors.confirmedAt)))
    .limit(1);
  if (!factor) return null;
  const step = acceptedStep(decryptSecret(keys.secondFactorSecrets, userId, factor.secretEncrypted), code.trim());
  if (step === null) return null;
  // One conditional update: of two requests with this code, only one moves the step forward.
  const [claimed] = await tx
    .update(secondFactors)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(secondFactors.userId, userId),
        isNotNull(secondFactors.confirmedAt),
        or(isNull(secondFactors.lastUsedStep), lt(secondFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: secondFactors.userId });
  return claimed ? 'totp' : null;
}

/** The refusal of a wrong code: at the form's field when it has one, else the message alone. */
export type WrongCode = () => ApiError;

/**
 * Checks a code of the user's second factor and, when it passes, runs `then` in the same
 * transaction as the code's use. The try is claimed before the check (one atomic count per user,
 * shared by every process); past 5 failures in 15 minutes code checks are locked for 15 minutes
 * (429), and a claim landing beyond the limit is refused without a check and given back.
 */
export async function proveSecondFactor<T>(
  db: Database,
  keys: ServerKeys,
  proof: CodeProof,
  wrongCode: WrongCode,
  then: (tx: Database, kind: 'totp' | 'recovery') => Promise<T>,
): Promise<T> {
  const subject = String(proof.userId);
  const lock = await peekWindow(db, secondFactorRules.lock, subject);
  if (lock.hits > 0) throw lockedFor(lock.remainingSeconds);
  const claim = await hitLimit(db, secondFactorRules.failures, subject);
  if (claim.hits > secondFactorRules.failures.limit) {
    // Tries racing past the one that locked the codes.
    await releaseHit(db, secondFactorRules.failures, subject);
    throw lockedFor(secondFactorRules.lock.windowSeconds);
  }
  let outcome: { passed: false } | { passed: true; value: T };
  try {
    outcome = await db.transaction(async (tx) => {
      const kind = await useCode(tx, keys, proof.userId, proof.code);
      if (!kind) return { passed: false as const };
      return { passed: true as const, value: await then(tx, kind) };
    });
  } catch (error) {
    // What the code was for failed (the pending login went first, the account was disabled): not a wrong code.
    await releaseHit(db, secondFactorRules.failures, subject);
    throw error;
  }
  if (outcome.passed) {
    await resetLimit(db, secondFactorRules.failures, subject);
    return outcome.value;
  }
  const locking = claim.hits >= secondFactorRules.failures.limit;
  if (locking) await hitLimit(db, secondFactorRules.lock, subject);
  await writeAudit(db, {
    userId: proof.userId,
    action: locking ? 'secondFactor.locked' : 'secondFactor.failed',
    target: `user:${proof.userId}`,
    detail: { purpose: proof.purpose },
    ip: proof.ip,
  });
  throw locking ? lockedFor(secondFactorRules.lock.windowSeconds) : wrongCode();
}

/**
 * A recovery code just used: the user is told, with how many are left (a login with one they did
 * not type is how they learn of it).
 */
export async function noticeRecoveryCodeUsed(tx: Database, userId: number): Promise<void> {
  const [left] = await tx
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  await createNotice(tx, {
    userId,
    type: 'notification',
    messageKey: 'auth.notice.recoveryCodeUsed',
    vars: { left: Number(left?.n ?? 0) },
  });
}

// ---- Changes -----------------------------------------------------------------------------------

export interface Actor {
  userId: number;
  userName: string;
  /** The session making the change (sha256 id). */
  sessionId: string;
  /** Whether that session has proved the second factor (at login or since). */
  sessionProved: boolean;
  ip: string | null;
  locale: Locale;
}

async function replaceRecoveryCodes(tx: Database, keys: ServerKeys, userId: number): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(keys.recoveryCodes, userId, code) })));
  return codes;
}

/**
 * Starts (or starts again) an enrolment after the password: a new secret, stored encrypted and not
 * yet confirmed; answers what the authenticator app needs. 409 when a factor is already enabled.
 */
export async function startEnrolment(
  db: Database,
  keys: ServerKeys,
  actor: Actor,
  password: string,
): Promise<SecondFactorEnrolmentData> {
  await verifyCurrentPassword(db, actor.userId, password, () => ApiError.field('password', 'auth.passwordWrong'));
  const secret = new Secret({ size: 20 }).base32;
  const secretEncrypted = encryptSecret(keys.secondFactorSecrets, actor.userId, secret);
  const started = await db.transaction(async (tx) => {
    // A pending enrolment is replaced; a confirmed factor is left alone (and the call refused).
    const [row] = await tx
      .insert(secondFactors)
      .values({ userId: actor.userId, secretEncrypted })
      .onConflictDoUpdate({
        target: secondFactors.userId,
        set: { secretEncrypted, createdAt: sql`now()`, lastUsedStep: null },
        setWhere: isNull(secondFactors.confirmedAt),
      })
      .returning({ userId: secondFactors.userId });
    if (!row) return false;
    await writeAudit(tx, {
      userId: actor.userId,
      action: 'secondFactor.enrolStart',
      target: `user:${actor.userId}`,
      ip: actor.ip,
    });
    return true;
  });
  if (!started) throw ApiError.conflict('auth.secondFactorAlreadyEnabled');
  const otpauthUri = totpOf(secret, actor.userName).toString();
  const svg = qrSvg(otpauthUri, { margin: 2 });
  return {
    otpauthUri,
    manualKey: manualKeyOf(secret),
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/**
 * Confirms the pending enrolment with the first code from the app: the factor is enabled, this
 * session counts as proved, 10 recovery codes are made (answered once), audited and noticed —
 * one transaction. 409 without a pending enrolment; 400 at `totpCode` for a wrong code.
 */
export async function confirmEnrolment(
  db: Database,
  keys: ServerKeys,
  actor: Actor,
  totpCode: string,
): Promise<string[]> {
  const [pending] = await db
    .select({ secretEncrypted: secondFactors.secretEncrypted, confirmedAt: secondFactors.confirmedAt })
    .from(secondFactors)
    .where(eq(secondFactors.userId, actor.userId))
    .limit(1);
  if (!pending) throw ApiError.conflict('auth.secondFactorNotEnrolling');
  if (pending.confirmedAt !== null) throw ApiError.conflict('auth.secondFactorAlreadyEnabled');
  const step = acceptedStep(decryptSecret(keys.secondFactorSecrets, actor.userId, pending.secretEncrypted), totpCode);
  if (step === null) throw ApiError.field('totpCode', 'auth.totpCodeWrong');
  const codes = await db.transaction(async (tx) => {
    // The secret the code was checked against, still pending: a concurrent new enrolment or
    // confirmation makes this one fail instead of confirming a secret the user never saw.
    const [confirmed] = await tx
      .update(secondFactors)
      .set({ confirmedAt: sql`now()`, lastUsedStep: step })
      .where(
        and(
          eq(secondFactors.userId, actor.userId),
          isNull(secondFactors.confirmedAt),
          eq(secondFactors.secretEncrypted, pending.secretEncrypted),
        ),
      )
      .returning({ userId: secondFactors.userId });
    if (!confirmed) return null;
    const made = await replaceRecoveryCodes(tx, keys, actor.userId);
    await markSecondFactorProved(tx, actor.sessionId);
    await writeAudit(tx, {
      userId: actor.userId,
      action: 'secondFactor.enable',
      target: `user:${actor.userId}`,
      ip: actor.ip,
    });
    await createNotice(tx, {
      userId: actor.userId,
      type: 'notification',
      messageKey: 'auth.notice.secondFactorEnabled',
    });
    return made;
  });
  if (!codes) throw ApiError.conflict('auth.secondFactorNotEnrolling');
  return codes;
}

/** Proves the factor in this session (one begun before the factor was enabled, or on another device). */
export async function verifyInSession(db: Database, keys: ServerKeys, actor: Actor, code: string): Promise<void> {
  if (!(await hasConfirmedSecondFactor(db, actor.userId))) throw ApiError.conflict('auth.secondFactorNotEnabled');
  await proveSecondFactor(
    db,
    keys,
    { userId: actor.userId, code, ip: actor.ip, purpose: 'verify' },
    () => ApiError.field('secondFactorCode', 'auth.secondFactorInvalid'),
    async (tx, kind) => {
      await markSecondFactorProved(tx, actor.sessionId);
      await writeAudit(tx, {
        userId: actor.userId,
        action: 'secondFactor.verify',
        target: `user:${actor.userId}`,
        detail: { kind },
        ip: actor.ip,
      });
      if (kind === 'recovery') await noticeRecoveryCodeUsed(tx, actor.userId);
    },
  );
}

/** A current code (or a recovery code) proves a change to the factor; the password, only in a proved session. */
export interface FactorChangeProof {
  secondFactorCode?: string | undefined;
  password?: string | undefined;
}

async function withProof<T>(
  db: Database,
  keys: ServerKeys,
  actor: Actor,
  proof: FactorChangeProof,
  purpose: string,
  then: (tx: Database) => Promise<T>,
): Promise<T> {
  if (proof.secondFactorCode) {
    return proveSecondFactor(
      db,
      keys,
      { userId: actor.userId, code: proof.secondFactorCode, ip: actor.ip, purpose },
      () => ApiError.field('secondFactorCode', 'auth.secondFactorInvalid'),
      then,
    );
  }
  // The password is the first factor: it may stand in for a code only in a session that has
  // proved the second one, or a stolen password would replace the factor (new recovery codes).
  if (!actor.sessionProved && (await hasConfirmedSecondFactor(db, actor.userId))) {
    throw ApiError.field('secondFactorCode', 'auth.secondFactorCodeNeeded');
  }
  await verifyCurrentPassword(db, actor.userId, proof.password ?? '', () =>
    ApiError.field('password', 'auth.passwordWrong'),
  );
  return db.transaction(then);
}

/**
 * Turns the factor off (and drops its recovery codes) after a proof. Refused (403) when the
 * account's role requires a factor; 409 when none is enabled.
 */
export async function disableSecondFactor(
  db: Database,
  keys: ServerKeys,
  actor: Actor,
  proof: FactorChangeProof,
  required: boolean,
): Promise<void> {
  if (required) throw new ApiError(ApiCode.FORBIDDEN, 'auth.secondFactorRequiredByRole');
  if (!(await hasConfirmedSecondFactor(db, actor.userId))) throw ApiError.conflict('auth.secondFactorNotEnabled');
  await withProof(db, keys, actor, proof, 'disable', async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.userId));
    await tx.delete(secondFactors).where(eq(secondFactors.userId, actor.userId));
    await writeAudit(tx, {
      userId: actor.userId,
      action: 'secondFactor.disable',
      target: `user:${actor.userId}`,
      ip: actor.ip,
    });
    await createNotice(tx, {
      userId: actor.userId,
      type: 'notification',
      messageKey: 'auth.notice.secondFactorDisabled',
    });
  });
}

/** 10 new recovery codes after a proof; the old ones stop working. 409 when no factor is enabled. */
export async function regenerateRecoveryCodes(
  db: Database,
  keys: ServerKeys,
  actor: Actor,
  proof: FactorChangeProof,
): Promise<string[]> {
  if (!(await hasConfirmedSecondFactor(db, actor.userId))) throw ApiError.conflict('auth.secondFactorNotEnabled');
  return withProof(db, keys, actor, proof, 'recoveryCodes', async (tx) => {
    const codes = await replaceRecoveryCodes(tx, keys, actor.userId);
    await writeAudit(tx, {
      userId: actor.userId,
      action: 'secondFactor.recoveryCodes',
      target: `user:${actor.userId}`,
      ip: actor.ip,
    });
    await createNotice(tx, {
      userId: actor.userId,
      type: 'notification',
      messageKey: 'auth.notice.recoveryCodesRegenerated',
    });
    return codes;
  });
}
