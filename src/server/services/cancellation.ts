/**
 * Account cancellation (注销账号; PIPL art. 47, GB/T 35273-2020 8.5, MIIT: done within 15 working
 * days). The person proves it is them again (password, or an SMS code to the account's phone),
 * the conditions are checked (no order in progress, no enterprise under review, not a staff
 * account), and a 15-day cooling-off starts: every session ends, and signing in again withdraws
 * the request. After it housekeeping erases the account: the personal data is deleted or replaced
 * irreversibly — name, mobile, e-mail, password, second factor, sessions, notices, the enterprise's
 * contact person, consents' addresses and devices — while what law or accounting keeps stays,
 * de-identified: the enterprise record and its orders (accounting records), settlements, the
 * consent evidence and the audit trail (whose chain forbids editing it; its entries name the
 * user by id, and a few name an enterprise and its clearance account). The mobile number can
 * register again at once. Each step is a notice to the person.
 */
import { and, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { chinaDate } from '../../lib/chinaTime.ts';
import { countKey } from '../../lib/i18n/plural.ts';
import type { UserRole } from '../../lib/roles.ts';
import { isStaffRole } from '../../lib/staffRoles.ts';
import { ApiError } from '../apiError.ts';
import type { Database } from '../db/client.ts';
import {
  consents,
  enterprises,
  loginChallenges,
  notices,
  orders,
  recoveryCodes,
  secondFactors,
  sessions,
  smsCodes,
  users,
} from '../db/schema/index.ts';
import { revokeOtherSessions } from '../session.ts';
import { checkSmsCode, consumeSmsCode } from '../sms/codes.ts';
import { verifyCurrentPassword } from './accounts.ts';
import { writeAudit } from './audit.ts';
import { createNotice } from './notices.ts';
import { findUserById } from './users.ts';

/** Days between the request and the erasure; signing in within them withdraws it. */
export const coolingOffDays = 15;

/** Orders not yet finished: submitted, accepted, in force. */
const ordersInProgress = [10, 20, 30];

export type CancellationProof = { password: string } | { code: string };

export interface CancellationRequest {
  userId: number;
  proof: CancellationProof;
  ip: string | null;
}

/** The day (China) the account will be erased, for a request made at `at`. */
export function erasureDay(at: Date): string {
  return chinaDate(new Date(at.getTime() + coolingOffDays * 86_400_000));
}

/**
 * Checks the proof and the conditions, then starts the cooling-off: every session of the account
 * ends (the caller clears this browser's cookie). Refusals say why and change nothing.
 */
export async function requestCancellation(db: Database, input: CancellationRequest): Promise<{ erasureDay: string }> {
  const user =
    'password' in input.proof
      ? await verifyCurrentPassword(db, input.userId, input.proof.password, () =>
          ApiError.badRequest('auth.oldPasswordWrong'),
        )
      : await findUserById(db, input.userId);
  if (!user) throw ApiError.sessionExpired();
  const codeId =
    'code' in input.proof
      ? await checkSmsCode(db, { phone: user.mobile, purpose: 'verify', code: input.proof.code })
      : undefined;
  await checkConditions(db, user);
  const at = new Date();
  await db.transaction(async (tx) => {
    if (codeId !== undefined) await consumeSmsCode(tx, codeId);
    const [requested] = await tx
      .update(users)
      .set({ cancellationRequestedAt: at })
      .where(and(eq(users.id, user.id), isNull(users.cancellationRequestedAt)))
      .returning({ id: users.id });
    if (!requested) throw ApiError.conflict('account.cancel.alreadyRequested');
    await revokeOtherSessions(tx, user.id, null);
    await createNotice(tx, {
      userId: user.id,
      type: 'notification',
      ref: `user:${user.id}`,
      messageKey: 'account.cancel.notice.requested',
      vars: { date: erasureDay(at), days: coolingOffDays },
    });
    await writeAudit(tx, {
      userId: user.id,
      action: 'user.cancelRequest',
      target: `user:${user.id}`,
      detail: { proof: 'password' in input.proof ? 'password' : 'sms', erasureDay: erasureDay(at) },
      ip: input.ip,
    });
  });
  return { erasureDay: erasureDay(at) };
}

async function checkConditions(db: Database, user: { id: number; roles: UserRole[] }): Promise<void> {
  if (user.roles.some(isStaffRole)) throw ApiError.conflict('account.cancel.staff');
  const [owned] = await db
    .select({ id: enterprises.id, authStatus: enterprises.authStatus })
    .from(enterprises)
    .where(eq(enterprises.ownerUserId, user.id))
    .limit(1);
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(
      and(
        owned ? or(eq(orders.userId, user.id), eq(orders.enterpriseId, owned.id)) : eq(orders.userId, user.id),
        inArray(orders.status, ordersInProgress),
        isNull(orders.deletedAt),
      ),
    );
  if ((open?.n ?? 0) > 0) throw ApiError.conflict(countKey('account.cancel.orderInProgress'), { count: open?.n ?? 0 });
  if (owned?.authStatus === 1) throw ApiError.conflict('account.cancel.underReview');
}

/** A sign-in during the cooling-off withdraws the request (inside the sign-in's transaction). */
export async function withdrawCancellation(tx: Database, userId: number, ip: string | null): Promise<boolean> {
  const [withdrawn] = await tx
    .update(users)
    .set({ cancellationRequestedAt: null })
    .where(and(eq(users.id, userId), isNotNull(users.cancellationRequestedAt), isNull(users.cancelledAt)))
    .returning({ id: users.id });
  if (!withdrawn) return false;
  await createNotice(tx, {
    userId,
    type: 'notification',
    ref: `user:${userId}`,
    messageKey: 'account.cancel.notice.withdrawn',
  });
  await writeAudit(tx, { userId, action: 'user.cancelWithdrawn', target: `user:${userId}`, ip });
  return true;
}

/** Erases every account whose cooling-off has ended; answers how many (housekeeping). */
export async function completeCancellations(db: Database, now: Date = new Date()): Promise<number> {
  const due = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        lte(users.cancellationRequestedAt, new Date(now.getTime() - coolingOffDays * 86_400_000)),
        isNull(users.cancelledAt),
      ),
    );
  let erased = 0;
  for (const { id } of due) if (await eraseAccount(db, id, now)) erased += 1;
  return erased;
}

/**
 * One account's personal data erased or replaced, in one transaction; false when another
 * process did it first or the request was withdrawn meanwhile.
 */
async function eraseAccount(db: Database, userId: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ mobile: users.mobile })
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.cancellationRequestedAt), isNull(users.cancelledAt)))
      .for('update');
    if (!user) return false;
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(secondFactors).where(eq(secondFactors.userId, userId));
    await tx.delete(notices).where(eq(notices.userId, userId));
    await tx.delete(smsCodes).where(eq(smsCodes.phone, user.mobile));
    await tx.update(consents).set({ ip: null, userAgent: null, deviceId: null }).where(eq(consents.userId, userId));
    await tx.update(enterprises).set({ contactName: '', contactPhone: '' }).where(eq(enterprises.ownerUserId, userId));
    await tx
      .update(users)
      .set({
        // No real name has a '-' (userNameSchema), no real mobile starts with 0: both free again.
        userName: `cancelled-${userId}`,
        mobile: `0${String(userId).padStart(10, '0')}`,
        name: '',
        email: '',
        avatar: '',
        passwordHash: '',
        previousPasswordHashes: [],
        status: 'cancelled',
        agreedVersions: {},
        failedLogins: 0,
        lockedUntil: null,
        cancelledAt: now,
      })
      .where(eq(users.id, userId));
    await writeAudit(tx, { userId, action: 'user.cancelled', target: `user:${userId}`, ip: null });
    return true;
  });
}
