/**
 * SMS verification codes (DOMAIN.md, Security): 6 digits, 5 minutes, single use, dead after 5
 * wrong tries, 60 s between sends to one phone, daily caps per phone and per IP.
 *
 * Checking and consuming are two steps so that a flow can consume the code inside its own
 * transaction: a wrong try is counted at once (and survives the flow's rollback), while a right
 * code is only used up if the flow's writes commit.
 *
 * @example
 *   const codeId = await checkSmsCode(db, { phone, purpose: 'register', code });
 *   await db.transaction(async (tx) => { await consumeSmsCode(tx, codeId); await tx.insert(users)… });
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { smsCodes, type SmsPurpose } from '../db/schema/index.ts';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { SmsTooSoonData } from '../../lib/schemas/auth.ts';
import { ApiError } from '../apiError.ts';
import { hitLimit, type RateRule } from '../services/rateLimit.ts';
import type { SmsProvider } from './provider.ts';

export const smsRules = {
  codeTtlSeconds: 5 * 60,
  maxAttempts: 5,
  resendInterval: { name: 'sms.interval', limit: 1, windowSeconds: 60 },
  dailyPerPhone: { name: 'sms.phone', limit: 10, windowSeconds: 24 * 3600 },
  dailyPerIp: { name: 'sms.ip', limit: 30, windowSeconds: 24 * 3600 },
} as const satisfies Record<string, RateRule | number>;

/** Text of the message per purpose, in the portal's language (SMS go to mainland phones). */
const smsText: Record<SmsPurpose, (code: string, minutes: number) => string> = {
  login: (code, m) => `【汇购电】您的登录验证码为 ${code}，${m} 分钟内有效。如非本人操作，请忽略本短信。`,
  register: (code, m) => `【汇购电】您正在注册账户，验证码为 ${code}，${m} 分钟内有效，请勿泄露给他人。`,
  modify: (code, m) => `【汇购电】您正在重置密码，验证码为 ${code}，${m} 分钟内有效。如非本人操作，请尽快联系客服。`,
  verify: (code, m) => `【汇购电】您正在进行账户安全验证，验证码为 ${code}，${m} 分钟内有效，请勿泄露给他人。`,
  binding: (code, m) => `【汇购电】您正在绑定企业，验证码为 ${code}，${m} 分钟内有效，请勿泄露给他人。`,
  mobile: (code, m) => `【汇购电】您正在将此号码设为账户手机号，验证码为 ${code}，${m} 分钟内有效，请勿泄露给他人。`,
};

function hashCode(purpose: SmsPurpose, phone: string, code: string): string {
  return createHash('sha256').update(`${purpose}:${phone}:${code}`).digest('hex');
}

export interface SendCodeInput {
  phone: string;
  purpose: SmsPurpose;
  ip: string | null;
  /**
   * False where the flow must answer alike whether or not the phone is registered (login,
   * modify, binding to an unknown number): the limits are counted and a code row is written as
   * usual, but no message leaves, so the answer and its timing tell nothing. Default true.
   */
  deliver?: boolean;
}

/**
 * Makes a new code for phone + purpose and hands it to the provider. Refuses (429) within 60 s of
 * the last send to the phone and past the daily caps. A newer code replaces older unused ones.
 * When the provider fails, the code is withdrawn and the caller gets `sms.sendFailed`.
 */
export async function sendSmsCode(db: Database, provider: SmsProvider, input: SendCodeInput): Promise<void> {
  const interval = await hitLimit(db, smsRules.resendInterval, input.phone);
  if (!interval.allowed) {
    // The seconds travel as data too, so the form can count down instead of just saying so.
    const retryAfterSeconds = interval.retryAfterSeconds;
    throw new ApiError(ApiCode.TOO_MANY_REQUESTS, 'sms.tooSoon', { seconds: retryAfterSeconds }, {
      retryAfterSeconds,
    } satisfies SmsTooSoonData);
  }
  const perPhone = await hitLimit(db, smsRules.dailyPerPhone, input.phone);
  if (!perPhone.allowed) throw ApiError.tooManyRequests('sms.dailyLimit');
  if (input.ip) {
    const perIp = await hitLimit(db, smsRules.dailyPerIp, input.ip);
    if (!perIp.allowed) throw ApiError.tooManyRequests('sms.dailyLimit');
  }

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = await db.transaction(async (tx) => {
    await tx
      .update(smsCodes)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(smsCodes.phone, input.phone), eq(smsCodes.purpose, input.purpose), isNull(smsCodes.consumedAt)));
    const [row] = await tx
      .insert(smsCodes)
      .values({
        phone: input.phone,
        purpose: input.purpose,
        codeHash: hashCode(input.purpose, input.phone, code),
        expiresAt: sql`now() + make_interval(secs => ${smsRules.codeTtlSeconds})`,
        ip: input.ip,
      })
      .returning({ id: smsCodes.id });
    return row!.id;
  });

  if (input.deliver === false) return;
  try {
    await provider.send({
      phone: input.phone,
      purpose: input.purpose,
      text: smsText[input.purpose](code, smsRules.codeTtlSeconds / 60),
    });
  } catch (error) {
    await db.delete(smsCodes).where(eq(smsCodes.id, id));
    throw Object.assign(ApiError.upstreamUnavailable('sms.sendFailed'), { cause: error });
  }
}

export interface CheckCodeInput {
  phone: string;
  purpose: SmsPurpose;
  code: string;
}

/**
 * Checks a code against the newest live one for phone + purpose and returns its id for
 * `consumeSmsCode`. Wrong, expired, used, burnt or never-sent codes all get the same
 * `sms.codeInvalid`, so the answer tells an attacker nothing; each wrong try counts.
 */
export async function checkSmsCode(db: Database, input: CheckCodeInput): Promise<number> {
  // The try is counted before the comparison, in one atomic update of the newest live code that
  // only succeeds while tries are left: concurrent guesses each take a try of their own, so no
  // burst can compare more than `maxAttempts` codes. A right code's try counts too;
  // the code is used up then anyway.
  const newestLive = db
    .select({ id: smsCodes.id })
    .from(smsCodes)
    .where(
      and(
        eq(smsCodes.phone, input.phone),
        eq(smsCodes.purpose, input.purpose),
        isNull(smsCodes.consumedAt),
        gt(smsCodes.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(smsCodes.id))
    .limit(1);
  const [claimed] = await db
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(and(eq(smsCodes.id, newestLive), lt(smsCodes.attempts, smsRules.maxAttempts)))
    .returning({ id: smsCodes.id, codeHash: smsCodes.codeHash });
  if (!claimed) throw ApiError.badRequest('sms.codeInvalid');

  const given = Buffer.from(hashCode(input.purpose, input.phone, input.code));
  if (!timingSafeEqual(given, Buffer.from(claimed.codeHash))) throw ApiError.badRequest('sms.codeInvalid');
  return claimed.id;
}

/** Uses a checked code up; fails with `sms.codeInvalid` if a concurrent request used it first. */
export async function consumeSmsCode(tx: Database, codeId: number): Promise<void> {
  const used = await tx
    .update(smsCodes)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(smsCodes.id, codeId), isNull(smsCodes.consumedAt)))
    .returning({ id: smsCodes.id });
  if (used.length === 0) throw ApiError.badRequest('sms.codeInvalid');
}
