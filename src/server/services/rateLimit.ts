/**
 * Rate limits: fixed-window counters in the `rate_limits` table, shared by every API process.
 * One atomic upsert per hit, so two concurrent requests can never both slip under the limit.
 * Each refusal is counted by the rule's name (`hgd_rate_limit_refusals_total`).
 *
 * @example
 *   const verdict = await hitLimit(db, rateRules.requirementPerIp, clientIp(c));
 *   if (!verdict.allowed) throw tooManyRequests(verdict.retryAfterSeconds);
 */
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';
import { rateLimitRefusals } from '../metrics/instruments.ts';

export interface RateRule {
  /** Short dotted name, the key's prefix: `login.ip`, `sms.phone`… */
  name: string;
  /** Hits allowed per window; the hit that exceeds it is refused. */
  limit: number;
  windowSeconds: number;
}

export interface RateVerdict {
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  hits: number;
  /** Seconds until the window ends (0 when allowed and the caller need not wait). */
  retryAfterSeconds: number;
}

function keyOf(rule: RateRule, subject: string): string {
  return `${rule.name}:${subject}`.slice(0, 160);
}

/** Counts one hit of `subject` against `rule` and says whether it is within the limit. */
export async function hitLimit(db: Database, rule: RateRule, subject: string): Promise<RateVerdict> {
  const window = sql`make_interval(secs => ${rule.windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key: keyOf(rule, subject), hits: 1, windowStart: sql`now()`, expiresAt: sql`now() + ${window}` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      // A window that has ended starts again at this hit.
      set: {
        hits: sql`case when ${rateLimits.expiresAt} <= now() then 1 else ${rateLimits.hits} + 1 end`,
        windowStart: sql`case when ${rateLimits.expiresAt} <= now() then now() else ${rateLimits.windowStart} end`,
        expiresAt: sql`case when ${rateLimits.expiresAt} <= now() then now() + ${window} else ${rateLimits.expiresAt} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      remaining: sql<number>`greatest(0, ceil(extract(epoch from ${rateLimits.expiresAt} - now())))::int`,
    });
  const hits = row?.hits ?? 1;
  const allowed = hits <= rule.limit;
  if (!allowed) rateLimitRefusals.inc({ rule: rule.name });
  return { allowed, hits, retryAfterSeconds: allowed ? 0 : Number(row?.remaining ?? rule.windowSeconds) };
}

/** Reads the current count without counting a hit (e.g. "is a captcha required yet?"). */
export async function peekLimit(db: Database, rule: RateRule, subject: string): Promise<number> {
  const [row] = await db
    .select({ hits: sql<number>`case when ${rateLimits.expiresAt} <= now() then 0 else ${rateLimits.hits} end` })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${keyOf(rule, subject)}`)
    .limit(1);
  return Number(row?.hits ?? 0);
}

/** The current count and the seconds left in its window, without counting a hit (e.g. a lock's time left). */
export async function peekWindow(
  db: Database,
  rule: RateRule,
  subject: string,
): Promise<{ hits: number; remainingSeconds: number }> {
  const [row] = await db
    .select({
      hits: rateLimits.hits,
      remaining: sql<number>`greatest(0, ceil(extract(epoch from ${rateLimits.expiresAt} - now())))::int`,
    })
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${keyOf(rule, subject)} and ${rateLimits.expiresAt} > now()`)
    .limit(1);
  return { hits: Number(row?.hits ?? 0), remainingSeconds: Number(row?.remaining ?? 0) };
}

/**
 * Gives back one hit counted by `hitLimit` (a try that was claimed but then not made, e.g. refused
 * for a missing captcha), never below zero and only within the window that counted it.
 */
export async function releaseHit(db: Database, rule: RateRule, subject: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
    .where(sql`${rateLimits.key} = ${keyOf(rule, subject)} and ${rateLimits.expiresAt} > now()`);
}

/** Forgets a subject's count (e.g. the per-account failure count after a successful login). */
export async function resetLimit(db: Database, rule: RateRule, subject: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${keyOf(rule, subject)}`);
}

/** Deletes counters whose window has ended; cheap, safe to run at any time. */
export async function pruneLimits(db: Database): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expiresAt, sql`now()`))
    .returning({ key: rateLimits.key });
  return deleted.length;
}
