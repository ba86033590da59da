/**
 * Deleting rows whose life is over, so the tables that grow with every login and SMS stay small:
 * ended rate-limit windows, captchas and SMS codes an hour / a day past their expiry, bank USB-key
 * challenges and pending second steps of logins a day past theirs, and sessions a week after they ended (the audit log keeps the logins themselves). Safe on N processes at once
 * (plain deletes by time), cheap when there is nothing to do. The same timer completes the orders
 * whose contract has ended (services/orders.ts, completeEndedOrders), and writes the audit chain's
 * head to the log, a record of it kept apart from the database: `npm run audit -- verify --head`
 * with a head from the log finds the newest entries deleted since (services/auditChain.ts).
 * The audit log itself is never pruned (the Cybersecurity Law asks six months at least).
 */
import { and, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { bankChallenges, captchas, loginChallenges, sessions, smsCodes } from './db/schema/index.ts';
import type { Logger } from './logger.ts';
import { chainHead } from './services/auditChain.ts';
import { completeCancellations } from './services/cancellation.ts';
import { completeEndedOrders } from './services/orders.ts';
import { pruneLimits } from './services/rateLimit.ts';

export interface Pruned {
  rateLimits: number;
  captchas: number;
  smsCodes: number;
  sessions: number;
  bankChallenges: number;
  loginChallenges: number;
}

export async function pruneExpired(db: Database): Promise<Pruned> {
  const rateLimits = await pruneLimits(db);
  const oldCaptchas = await db
    .delete(captchas)
    .where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`))
    .returning({ id: captchas.id });
  const oldCodes = await db
    .delete(smsCodes)
    .where(lt(smsCodes.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: smsCodes.id });
  const oldSessions = await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, sql`now() - interval '7 days'`),
        and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, sql`now() - interval '7 days'`)),
        // Idle-expired sessions are dead too, whatever their absolute end.
        lt(sessions.lastSeenAt, sql`now() - interval '8 days'`),
      ),
    )
    .returning({ id: sessions.id });
  const oldChallenges = await db
    .delete(bankChallenges)
    .where(lt(bankChallenges.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: bankChallenges.id });
  const oldLogins = await db
    .delete(loginChallenges)
    .where(lt(loginChallenges.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: loginChallenges.id });
  return {
    rateLimits,
    captchas: oldCaptchas.length,
    smsCodes: oldCodes.length,
    sessions: oldSessions.length,
    bankChallenges: oldChallenges.length,
    loginChallenges: oldLogins.length,
  };
}

/** Runs pruneExpired now and then every `intervalMs`; the timer never keeps the process alive. */
export function startHousekeeping(db: Database, logger: Logger, intervalMs = 10 * 60_000): () => void {
  const run = () => {
    pruneExpired(db).then(
      (pruned) => {
        if (Object.values(pruned).some((n) => n > 0)) logger.info({ pruned }, 'housekeeping');
      },
      (error: unknown) => logger.warn({ err: error }, 'housekeeping failed'),
    );
    // Orders in force whose contract has ended become completed, by `system` (DOMAIN.md, States).
    completeEndedOrders(db).then(
      (completedOrders) => {
        if (completedOrders > 0) logger.info({ completedOrders }, 'housekeeping');
      },
      (error: unknown) => logger.warn({ err: error }, 'housekeeping: completing ended orders failed'),
    );
    // Accounts whose cooling-off has ended are erased (services/cancellation.ts).
    completeCancellations(db).then(
      (closedAccounts) => {
        if (closedAccounts > 0) logger.info({ closedAccounts }, 'housekeeping');
      },
      (error: unknown) => logger.warn({ err: error }, 'housekeeping: closing cancelled accounts failed'),
    );
    chainHead(db).then(
      (head) => logger.info({ auditHead: `${head.seq}:${head.hash}` }, 'audit chain head'),
      (error: unknown) => logger.warn({ err: error }, 'housekeeping: reading the audit chain head failed'),
    );
  };
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
