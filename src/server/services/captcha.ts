/**
 * Login captchas (DOMAIN.md, Security): a server-made PNG image (captchaImage.ts: our own stroke
 * font, every glyph distorted on its own), single use, short-lived. The browser holds a random
 * token in an HttpOnly cookie; the table keeps sha256(token) as the id and an HMAC of the answer
 * keyed with the server's captcha key (secrets.ts). An answer has only 43⁴ ≈ 3.4 million values,
 * so a plain hash of it would give every live answer of a leaked table in a second; the keyed
 * one gives nothing without the key.
 *
 * The text and the drawing's randomness come from node:crypto, so neither can be predicted from
 * earlier images.
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { captchas } from '../db/schema/index.ts';
import { captchaGlyphs, renderCaptchaPng } from './captchaImage.ts';
import type { RateRule } from './rateLimit.ts';

export const captchaRules = {
  ttlSeconds: 120,
  length: 4,
  /** Images one address may ask for per 10 minutes. */
  perIp: { name: 'captcha.ip', limit: 120, windowSeconds: 600 },
} as const satisfies Record<string, RateRule | number>;

/** No look-alikes (0/O/o, 1/l/I, 2/Z, 5/S, 8/B…): a person reads it at the first try. */
export const captchaAlphabet = 'ACDEFGHJKMNPQRTUVWXYabdefghjkmnpqrtuwxy3467';
const missingGlyphs = [...captchaAlphabet].filter((char) => !captchaGlyphs.includes(char));
if (missingGlyphs.length > 0) throw new Error(`captcha font lacks ${missingGlyphs.join('')}`);

export function captchaText(length: number = captchaRules.length): string {
  let text = '';
  for (let i = 0; i < length; i++) text += captchaAlphabet[randomInt(captchaAlphabet.length)];
  return text;
}

export function hashCaptchaToken(token: string): string {
  return createHash('sha256').update(`captcha:${token}`).digest('hex');
}

/** HMAC-SHA256 with the captcha key (secrets.ts); answers are case-insensitive. */
export function hashCaptchaAnswer(key: Buffer, answer: string): string {
  return createHmac('sha256', key).update(answer.trim().toLowerCase()).digest('hex');
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Makes a captcha: stores its hashes, returns the cookie token and the PNG. Prunes expired ones. */
export async function createCaptcha(
  db: Database,
  key: Buffer,
  ip: string | null,
): Promise<{ token: string; png: Buffer }> {
  const token = randomBytes(32).toString('base64url');
  const text = captchaText();
  const png = await renderCaptchaPng(text);
  await db.transaction(async (tx) => {
    // Images nobody answered: cheap to drop here, keeps the table at a few minutes' worth.
    await tx.delete(captchas).where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`));
    await tx.insert(captchas).values({
      id: hashCaptchaToken(token),
      answerHash: hashCaptchaAnswer(key, text),
      expiresAt: sql`now() + make_interval(secs => ${captchaRules.ttlSeconds})`,
      ip,
    });
  });
  return { token, png };
}

/**
 * Uses the captcha up (whatever the answer: one image, one try) and says whether the answer was
 * right. False for an unknown, expired or already used token.
 */
export async function consumeCaptcha(
  db: Database,
  key: Buffer,
  token: string | undefined,
  answer: string,
): Promise<boolean> {
  if (!token || !tokenPattern.test(token)) return false;
  const [row] = await db
    .update(captchas)
    .set({ usedAt: sql`now()` })
    .where(and(eq(captchas.id, hashCaptchaToken(token)), isNull(captchas.usedAt), gt(captchas.expiresAt, sql`now()`)))
    .returning({ answerHash: captchas.answerHash });
  if (!row) return false;
  return timingSafeEqual(Buffer.from(row.answerHash), Buffer.from(hashCaptchaAnswer(key, answer)));
}
