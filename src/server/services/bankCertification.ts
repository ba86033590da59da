/**
 * Bank USB-key certification (U盾认证; docs/enterprises.md):
 *
 * 1. getIcbcAccountInfo: the bank confirms the account, that it is not frozen and that it is held
 *    under the enterprise's exact name; the portal hands out a one-time challenge (5 minutes,
 *    only its sha256 stored in bank_challenges).
 * 2. The USB key signs the account and the challenge (at a real bank: its browser driver; here the
 *    sandbox signer).
 * 3. saveEmp: the bank verifies the signature and records the authorisation of the key holder;
 *    then, in one transaction, the challenge is used up, the binding row written and the enterprise
 *    certified (2, usbkey), with an audit row and a notice.
 *
 * removeIcbcAuth withdraws it at the bank, then deletes the binding; an enterprise certified by
 * its key goes back to not certified (0). Refused while it has open orders (10, 20, 30).
 *
 * The bank is called before the transaction and never inside it (no lock is held while waiting on
 * the bank); a bank failure or timeout answers 503 and nothing has been written.
 *
 * Key certification needs the same complete record as submission for review
 * (recordCompleteness.ts), checked before the bank is asked and again under the row's lock. With
 * BANK_PROVIDER=none there is no bank: every call here answers 409 U盾认证未开通.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { AuthStatusCode } from '../../lib/authStatus.ts';
import { bankChallengeSeconds, type IcbcAccountInfoData, type SaveEmpBody } from '../../lib/schemas/enterprise.ts';
import {
  BankUnavailableError,
  callBank,
  usbKeySignedText,
  type BankAccount,
  type BankProvider,
} from '../bank/provider.ts';
import type { Database } from '../db/client.ts';
import { bankBindings, bankChallenges, enterprises, type EnterpriseRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { FieldCipher } from '../fieldEncryption.ts';
import { maskAccountNo } from '../../lib/masking.ts';
import { writeAudit } from './audit.ts';
import { hitLimit, type RateRule } from './rateLimit.ts';
import { orderCount, ownEnterpriseOrFail, type EnterpriseActor } from './enterpriseView.ts';
import { createNotice, type NoticeMessageKey } from './notices.ts';
import { openOrderStatuses } from './orders.ts';
import { requireCompleteRecord } from './recordCompleteness.ts';

export interface BankContext {
  /** Null with BANK_PROVIDER=none: USB-key certification is not offered. */
  bank: BankProvider | null;
  timeoutMs: number;
  /** Seals the account numbers kept (fieldEncryption.ts). */
  cipher: FieldCipher;
}

/** A context whose bank is there. */
interface OpenBank extends BankContext {
  bank: BankProvider;
}

/** The bank, or 409 U盾认证未开通 when this portal has none (BANK_PROVIDER=none). */
function openBank(context: BankContext): OpenBank {
  if (!context.bank) throw ApiError.conflict('bank.error.notEnabled');
  return { ...context, bank: context.bank };
}

/**
 * Account lookups per user: each one tells whether an account number is held under the
 * enterprise's name, so they are not free to repeat (a user certifying needs one or two).
 */
export const bankLookupRule: RateRule = { name: 'bank.lookup.user', limit: 20, windowSeconds: 3600 };

function hashChallenge(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}

/** One bank call under the deadline; its failure or timeout becomes a 503 that changed nothing. */
async function askBank<T>(context: OpenBank, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await callBank(context.timeoutMs, call);
  } catch (error) {
    if (error instanceof BankUnavailableError) {
      throw ApiError.upstreamUnavailable(error.reason === 'timeout' ? 'bank.error.timeout' : 'bank.error.unavailable');
    }
    throw error;
  }
}

/** The audit row and the owner's notice of a binding made or withdrawn, in the caller's transaction. */
async function recordBindingChange(
  tx: Database,
  actor: EnterpriseActor,
  row: EnterpriseRow,
  accountNoMasked: string,
  change: {
    action: 'certification.usbkey' | 'certification.usbkeyRemove';
    messageKey: NoticeMessageKey;
    detail: Record<string, unknown>;
  },
): Promise<void> {
  await writeAudit(tx, {
    userId: actor.user.id,
    action: change.action,
    target: `enterprise:${row.id}`,
    detail: change.detail,
    ip: actor.ip,
  });
  await createNotice(tx, {
    userId: row.ownerUserId,
    type: 'notification',
    messageKey: change.messageKey,
    vars: { enterpriseName: row.enterpriseName, accountNoMasked },
    ref: `enterprise:${row.id}`,
  });
}

/** Only an enterprise not yet certified and not under review may certify by key. */
function checkMayCertify(row: EnterpriseRow): void {
  if (row.authStatus === AuthStatusCode.UNDER_REVIEW) throw ApiError.conflict('bank.error.underReview');
  if (row.authStatus === AuthStatusCode.CERTIFIED) throw ApiError.conflict('bank.error.alreadyCertified');
}

/** The bank's account, usable by this enterprise: known, not frozen, held under its exact name. */
async function usableAccount(context: OpenBank, row: EnterpriseRow, accountNo: string): Promise<BankAccount> {
  const account = await askBank(context, (signal) => context.bank.lookupAccount(accountNo, signal));
  if (!account) throw ApiError.field('accountNo', 'bank.error.accountNotFound');
  if (account.frozen) throw ApiError.conflict('bank.error.accountFrozen');
  if (account.accountName.trim() !== row.enterpriseName.trim()) throw ApiError.conflict('bank.error.nameMismatch');
  return account;
}

/** GET /api/front/thirdparty/getIcbcAccountInfo */
export async function lookupIcbcAccount(
  db: Database,
  bankContext: BankContext,
  actor: EnterpriseActor,
  accountNo: string,
): Promise<IcbcAccountInfoData> {
  const context = openBank(bankContext);
  const row = await ownEnterpriseOrFail(db, actor.user.id);
  checkMayCertify(row);
  // Refused before a lookup is counted or the bank asked: the record must be complete first.
  requireCompleteRecord(actor.locale, row);
  const verdict = await hitLimit(db, bankLookupRule, String(actor.user.id));
  if (!verdict.allowed) {
    throw ApiError.tooManyRequests('bank.error.tooManyLookups', {
      minutes: Math.max(1, Math.ceil(verdict.retryAfterSeconds / 60)),
    });
  }
  const account = await usableAccount(context, row, accountNo);
  const challenge = randomBytes(32).toString('hex');
  const expiresAt = new Date(Date.now() + bankChallengeSeconds * 1000);
  const sealed = await context.cipher.seal(db, 'bank_challenges.account_no', account.accountNo);
  await db.transaction(async (tx) => {
    // The enterprise's spent and stale challenges go as a new one is made: the table stays small.
    await tx
      .delete(bankChallenges)
      .where(
        and(
          eq(bankChallenges.enterpriseId, row.id),
          or(lt(bankChallenges.expiresAt, new Date()), gt(bankChallenges.usedAt, new Date(0))),
        ),
      );
    await tx.insert(bankChallenges).values({
      id: hashChallenge(challenge),
      enterpriseId: row.id,
      accountNo: sealed.value,
      accountNoKey: sealed.keyId,
      expiresAt,
    });
  });
  return {
    accountNo: account.accountNo,
    accountName: account.accountName,
    bankName: account.bankName,
    branchName: account.branchName,
    challenge,
    expiresAt: expiresAt.toISOString(),
  };
}

/** POST /api/front/thirdparty/saveEmp; answers the enterprise id. */
export async function saveIcbcEmp(
  db: Database,
  bankContext: BankContext,
  actor: EnterpriseActor,
  body: SaveEmpBody & { accountNo: string },
): Promise<number> {
  const context = openBank(bankContext);
  const row = await ownEnterpriseOrFail(db, actor.user.id);
  checkMayCertify(row);
  requireCompleteRecord(actor.locale, row);
  const challengeId = hashChallenge(body.challenge);
  const live = and(
    eq(bankChallenges.id, challengeId),
    eq(bankChallenges.enterpriseId, row.id),
    isNull(bankChallenges.usedAt),
    gt(bankChallenges.expiresAt, new Date()),
  );
  const [challenge] = await db
    .select({ value: bankChallenges.accountNo, keyId: bankChallenges.accountNoKey })
    .from(bankChallenges)
    .where(live)
    .limit(1);
  // The challenge was handed out for one account: the number is sealed, so compared once opened.
  if (!challenge || (await context.cipher.open(db, 'bank_challenges.account_no', challenge)) !== body.accountNo)
    throw ApiError.field('challenge', 'bank.error.challengeInvalid');

  const signedText = usbKeySignedText(body.accountNo, body.challenge);
  const verified = await askBank(context, (signal) =>
    context.bank.verifySignature(
      { accountNo: body.accountNo, signedText, signature: body.signature, certSerial: body.certSerial },
      signal,
    ),
  );
  if (!verified) throw ApiError.field('signature', 'bank.error.signatureInvalid');
  // Asked again: the account may have been frozen, or the enterprise renamed, since the challenge.
  const account = await usableAccount(context, row, body.accountNo);
  const empName = body.empName.trim();
  const empNo = body.empNo.trim();
  const { reference } = await askBank(context, (signal) =>
    context.bank.saveEmp(
      { accountNo: account.accountNo, accountName: account.accountName, empName, empNo, certSerial: body.certSerial },
      signal,
    ),
  );

  const sealed = await context.cipher.seal(db, 'bank_bindings.account_no', account.accountNo);
  const accountNoMasked = maskAccountNo(account.accountNo);
  try {
    return await db.transaction(async (tx) => {
      const current = await ownEnterpriseOrFail(tx, actor.user.id, true);
      checkMayCertify(current);
      requireCompleteRecord(actor.locale, current);
      if (current.id !== row.id || current.enterpriseName !== row.enterpriseName)
        throw ApiError.field('challenge', 'bank.error.challengeInvalid');
      // Single use: of two requests with one challenge, only the first finds it unused.
      const claimed = await tx
        .update(bankChallenges)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(bankChallenges.id, challengeId),
            isNull(bankChallenges.usedAt),
            gt(bankChallenges.expiresAt, new Date()),
          ),
        )
        .returning({ id: bankChallenges.id });
      if (claimed.length === 0) throw ApiError.field('challenge', 'bank.error.challengeInvalid');
      const now = new Date();
      // A binding left from an earlier key certification (later reviewed again) is replaced.
      await tx.delete(bankBindings).where(eq(bankBindings.enterpriseId, current.id));
      await tx.insert(bankBindings).values({
        enterpriseId: current.id,
        bank: context.bank.bank,
        accountNo: sealed.value,
        accountNoKey: sealed.keyId,
        accountNoMasked,
        accountName: account.accountName,
        empName,
        empNo,
        bankReference: reference,
        boundByUserId: actor.user.id,
      });
      await tx
        .update(enterprises)
        .set({
          authStatus: AuthStatusCode.CERTIFIED,
          authType: 'usbkey',
          reviewComment: '',
          reviewedAt: now,
          draft: false,
          updatedAt: now,
        })
        .where(eq(enterprises.id, current.id));
      await recordBindingChange(tx, actor, current, accountNoMasked, {
        action: 'certification.usbkey',
        messageKey: 'enterprise.notice.bankCertified',
        detail: {
          bank: context.bank.bank,
          accountNoMasked,
          certSerial: body.certSerial,
          bankReference: reference,
          from: current.authStatus,
        },
      });
      return current.id;
    });
  } catch (error) {
    // The bank recorded an authorisation the portal did not keep: withdraw it, as far as the bank lets us.
    await callBank(context.timeoutMs, (signal) =>
      context.bank.revokeEmp({ accountNo: account.accountNo, reference }, signal),
    ).catch(() => {});
    throw error;
  }
}

/** POST /api/front/user/removeIcbcAuth; answers the enterprise id. */
export async function removeIcbcAuth(db: Database, bankContext: BankContext, actor: EnterpriseActor): Promise<number> {
  // Without a bank the authorisation cannot be withdrawn there, so the binding stays.
  const context = openBank(bankContext);
  const row = await ownEnterpriseOrFail(db, actor.user.id);
  const [binding] = await db.select().from(bankBindings).where(eq(bankBindings.enterpriseId, row.id)).limit(1);
  if (!binding) throw ApiError.conflict('bank.error.notBound');
  if ((await orderCount(db, row.id, openOrderStatuses)) > 0) throw ApiError.conflict('bank.error.openOrders');
  const accountNo = await context.cipher.open(db, 'bank_bindings.account_no', {
    value: binding.accountNo,
    keyId: binding.accountNoKey,
  });
  await askBank(context, (signal) => context.bank.revokeEmp({ accountNo, reference: binding.bankReference }, signal));

  return db.transaction(async (tx) => {
    const current = await ownEnterpriseOrFail(tx, actor.user.id, true);
    // Checked again under the lock: an order placed meanwhile keeps the certification.
    if ((await orderCount(tx, current.id, openOrderStatuses)) > 0) throw ApiError.conflict('bank.error.openOrders');
    const removed = await tx
      .delete(bankBindings)
      .where(eq(bankBindings.enterpriseId, current.id))
      .returning({ id: bankBindings.id });
    if (removed.length === 0) throw ApiError.conflict('bank.error.notBound');
    const byKey = current.authType === 'usbkey' && current.authStatus === AuthStatusCode.CERTIFIED;
    if (byKey) {
      await tx
        .update(enterprises)
        .set({ authStatus: AuthStatusCode.NOT_CERTIFIED, authType: null, updatedAt: new Date() })
        .where(eq(enterprises.id, current.id));
    }
    const accountNoMasked = binding.accountNoMasked;
    await recordBindingChange(tx, actor, current, accountNoMasked, {
      action: 'certification.usbkeyRemove',
      messageKey: 'enterprise.notice.bankRemoved',
      detail: { bank: binding.bank, accountNoMasked, bankReference: binding.bankReference, uncertified: byKey },
    });
    return current.id;
  });
}
