/**
 * Account changes proved by an SMS code or the current password: registration, password reset
 * and change, profile and phone change. Each runs its writes in one transaction that also uses
 * the SMS code up, so a failure leaves the code valid and nothing half-written; a wrong code has
 * already been counted by checkSmsCode before the transaction.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { users, type UserRow } from '../db/schema/index.ts';
import type { LegalDocumentId } from '../../content/schemas.ts';
import { ApiError } from '../apiError.ts';
import { hashPassword, verifyPassword } from '../password.ts';
import { revokeOtherSessions } from '../session.ts';
import { checkSmsCode, consumeSmsCode } from '../sms/codes.ts';
import { writeAudit } from './audit.ts';
import { recordConsent } from './consent.ts';
import { clearLoginFailures } from './login.ts';
import { hitLimit, peekWindow, type RateRule } from './rateLimit.ts';
import { findUserById, findUserByMobile } from './users.ts';
import { checkStaffPassword, passwordFields } from './staffPasswords.ts';

export const accountRules = {
  /** Wrong current passwords per user (changePwd) before a pause. */
  wrongOldPassword: { name: 'pwd.wrong', limit: 5, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateRule>;

const phoneTaken = () => ApiError.conflict('auth.phoneTaken');

export interface RegisterInput {
  phone: string;
  code: string;
  name: string;
  password: string;
  ip: string | null;
  /** The versions agreed to (checked current by the caller: consent.ts) and the device it was on. */
  consent: { versions: Readonly<Record<LegalDocumentId, string>>; userAgent: string | null; deviceId: string };
}

/** Registers an individual user whose login name is the phone number; returns the new id. */
export async function registerUser(db: Database, input: RegisterInput): Promise<number> {
  const codeId = await checkSmsCode(db, { phone: input.phone, purpose: 'register', code: input.code });
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await consumeSmsCode(tx, codeId);
      if (await findUserByMobile(tx, input.phone)) throw phoneTaken();
      const [nameTaken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.userName}) = ${input.phone}`)
        .limit(1);
      const [row] = await tx
        .insert(users)
        .values({
          // The registration form has no user-name field (spec §3): the phone is the login name.
          // In the unlikely case an older account chose it as its name, prefix a letter.
          userName: nameTaken ? `u${input.phone}` : input.phone,
          mobile: input.phone,
          name: input.name,
          passwordHash,
          roles: ['individual'],
        })
        .returning({ id: users.id });
      const id = row!.id;
      await recordConsent(tx, input.consent.versions, {
        userId: id,
        decision: 'agreed',
        origin: 'register',
        ip: input.ip,
        userAgent: input.consent.userAgent,
        deviceId: input.consent.deviceId,
      });
      await writeAudit(tx, {
        userId: id,
        action: 'user.register',
        target: `user:${id}`,
        detail: { consent: input.consent.versions },
        ip: input.ip,
      });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw phoneTaken();
    throw error;
  }
}

export interface ResetPasswordInput {
  phone: string;
  code: string;
  newPassword: string;
  ip: string | null;
}

/** Sets a new password after an SMS code of type `modify`; every session of the account ends. */
export async function resetPassword(db: Database, input: ResetPasswordInput): Promise<number> {
  const codeId = await checkSmsCode(db, { phone: input.phone, purpose: 'modify', code: input.code });
  const user = await findUserByMobile(db, input.phone);
  // Unreachable in practice (no code reaches an unregistered phone), and answered alike anyway.
  if (!user) throw ApiError.badRequest('sms.codeInvalid');
  // Refused before the code is used up, so the person may try another password with it.
  await checkStaffPassword(user, input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await consumeSmsCode(tx, codeId);
    await tx
      .update(users)
      .set({ ...passwordFields(user, passwordHash), failedLogins: 0, lockedUntil: null })
      .where(eq(users.id, user.id));
    await revokeOtherSessions(tx, user.id, null);
    await writeAudit(tx, { userId: user.id, action: 'user.passwordReset', target: `user:${user.id}`, ip: input.ip });
  });
  await clearLoginFailures(db, user.userName);
  return user.id;
}

export interface ChangePasswordInput {
  userId: number;
  oldPassword: string;
  newPassword: string;
  ip: string | null;
}

/**
 * Changes the password after checking the current one (5 wrong tries per 15 minutes, then 429).
 * Revokes every session of the user; the caller signs this browser in again with a new id.
 */
export async function changePassword(db: Database, input: ChangePasswordInput): Promise<void> {
  const user = await verifyCurrentPassword(db, input.userId, input.oldPassword, () =>
    ApiError.badRequest('auth.oldPasswordWrong'),
  );
  await checkStaffPassword(user, input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set(passwordFields(user, passwordHash)).where(eq(users.id, user.id));
    await revokeOtherSessions(tx, user.id, null);
    await writeAudit(tx, { userId: user.id, action: 'user.passwordChange', target: `user:${user.id}`, ip: input.ip });
  });
}

/**
 * The signed-in user's password typed again before a sensitive change (password, second factor):
 * 5 wrong tries per user per 15 minutes, then 429 until the window ends. Answers the user row.
 */
export async function verifyCurrentPassword(
  db: Database,
  userId: number,
  password: string,
  wrong: () => ApiError,
): Promise<UserRow> {
  const subject = String(userId);
  const pause = await peekWindow(db, accountRules.wrongOldPassword, subject);
  if (pause.hits >= accountRules.wrongOldPassword.limit) {
    throw ApiError.tooManyRequests('auth.tooManyAttempts', {
      minutes: Math.max(1, Math.ceil(pause.remainingSeconds / 60)),
    });
  }
  const user = await findUserById(db, userId);
  if (!user) throw ApiError.sessionExpired();
  if (!(await verifyPassword(user.passwordHash, password))) {
    await hitLimit(db, accountRules.wrongOldPassword, subject);
    throw wrong();
  }
  return user;
}

export interface ChangeUserInfoInput {
  userId: number;
  name?: string | undefined;
  email?: string | undefined;
  mobile?: string | undefined;
  code?: string | undefined;
  verifyCode?: string | undefined;
  ip: string | null;
}

/**
 * Changes name and email; a new mobile needs a code sent to it (`mobile`) and a code sent to the
 * current one (`verify`), both checked before anything is written and used up together.
 */
export async function changeUserInfo(db: Database, input: ChangeUserInfoInput): Promise<void> {
  const user = await findUserById(db, input.userId);
  if (!user) throw ApiError.sessionExpired();
  const changes: Partial<typeof users.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.email !== undefined) changes.email = input.email;

  const codeIds: number[] = [];
  const newMobile = input.mobile !== undefined && input.mobile !== user.mobile ? input.mobile : undefined;
  if (newMobile !== undefined) {
    if (!input.code || !input.verifyCode) throw ApiError.badRequest('sms.codeInvalid');
    codeIds.push(await checkSmsCode(db, { phone: user.mobile, purpose: 'verify', code: input.verifyCode }));
    codeIds.push(await checkSmsCode(db, { phone: newMobile, purpose: 'mobile', code: input.code }));
    changes.mobile = newMobile;
  }
  if (Object.keys(changes).length === 0) return;

  try {
    await db.transaction(async (tx) => {
      for (const id of codeIds) await consumeSmsCode(tx, id);
      if (newMobile !== undefined) {
        const [other] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.mobile, newMobile), ne(users.id, user.id)))
          .limit(1);
        if (other) throw phoneTaken();
      }
      await tx.update(users).set(changes).where(eq(users.id, user.id));
      await writeAudit(tx, {
        userId: user.id,
        action: 'user.changeInfo',
        target: `user:${user.id}`,
        detail: { fields: Object.keys(changes) },
        ip: input.ip,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw phoneTaken();
    throw error;
  }
}
