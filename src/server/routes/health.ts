/**
 * Health calls, public and cheap (no session, no CSRF: a load balancer polls them every second or so).
 *
 * - GET /api/health: the process answers and the database answers `select 1`. The process answers
 *   at once even while the database is busy: PGlite is one connection, so behind a long import its
 *   `select 1` waits for the import's transaction. After `dbWaitMs` the answer is given without it,
 *   `database: 'busy'` (still 200: the process serves static files and other calls); a database
 *   that fails answers an error as before.
 * - GET /api/health/live: the process answers (liveness: restart it when this fails). Touches nothing.
 * - GET /api/health/ready: this process should be sent users (readiness): 200 when the database
 *   answers `select 1` within `readyDbBudgetMs`, the object store is reachable (S3: a HeadBucket;
 *   local: a probe file written and removed; either at most every `storeProbeTtlMs`) and a
 *   publication is loaded; HTTP 503 naming the failed checks otherwise, and at once while the
 *   process drains on its way out (shutdown.ts). Names only, never a connection string or an error
 *   text; the reasons go to the log when the state changes.
 *
 * Every answer names the release the process runs (`version`, `commit`: release.ts): during a
 * rollout it says which processes run which, and the operator console's footer shows it.
 *
 * On PGlite a `select 1` past the budget counts as busy, not failed: its one connection is held by
 * this very process (an import), and taking the only process out of the load balancer would end
 * the site for everyone instead of slowing one call.
 */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { ApiCode } from '../../lib/apiCodes.ts';
import { envelope, message, ok } from '../envelope.ts';
import { probeObjectStore, TimeoutError, within } from '../preflight.ts';
import { describeCall } from '../openapi/describe.ts';
import { currentRelease } from '../release.ts';
import type { AppEnv, RouteDeps } from '../types.ts';

const dbWaitMs = 1000;
/** How long the database has to answer a readiness probe. */
const readyDbBudgetMs = 1500;
/** A readiness `select 1` pending longer than this is given up on and a new one sent. */
const abandonSelectMs = 10_000;
/** A readiness probe of the object store is reused this long (a load balancer polls every second). */
export const storeProbeTtlMs = 5000;
/** How long the object store has to answer a readiness probe. */
const readyStoreBudgetMs = 2000;

type CheckState = 'ok' | 'busy' | 'failed' | 'timeout' | 'none';
type CheckName = 'database' | 'objectStore' | 'site';

interface Probe {
  state: CheckState;
  reason?: string;
}

// What the successful answers hold, for the API description (the handlers build them below).
const releaseFields = {
  version: z.string().describe("The release's version (package.json, semantic versioning)"),
  commit: z.string().describe('The git commit the release was built from (40 hex digits), or `unknown`'),
};
const uptimeField = z.number().int().describe('Seconds since the process started');
const healthAnswer = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
  database: z.enum(['ok', 'busy']),
  uptime: uptimeField,
  ...releaseFields,
});
const liveAnswer = z.object({ status: z.literal('live'), uptime: uptimeField, ...releaseFields });
const readyAnswer = z.object({
  status: z.literal('ready'),
  checks: z.object({ database: z.enum(['ok', 'busy']), objectStore: z.literal('ok'), site: z.literal('ok') }),
  ...releaseFields,
});

const firstLine = (text: string) => text.split('\n')[0] ?? '';
const reasonOf = (error: unknown) => firstLine(error instanceof Error ? error.message : String(error));

/** The driver's own words under drizzle's "Failed query: …" wrapper (its `cause`). */
function databaseReason(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  return reasonOf(inner);
}

export function createHealthRoutes(deps: RouteDeps): Hono<AppEnv> {
  const started = Date.now();
  const kind = deps.dbKind ?? (deps.config.databaseUrl ? 'postgres' : 'pglite');
  const uptime = () => Math.round((Date.now() - started) / 1000);
  const { version, commit } = currentRelease();
  const routes = new Hono<AppEnv>();

  routes.get(
    '/',
    describeCall({ summary: 'Health: the process and the database answer', answer: healthAnswer }),
    async (c) => {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<'busy'>((resolve) => {
        timer = setTimeout(() => resolve('busy'), dbWaitMs);
      });
      const answered = deps.db.execute(sql`select 1`).then(() => 'ok' as const);
      answered.catch(() => {}); // a failure after 'busy' was answered has no one left to tell
      const database = await Promise.race([answered, waited]).finally(() => clearTimeout(timer));
      return ok(c, { status: 'ok', db: kind, database, uptime: uptime(), version, commit });
    },
  );

  routes.get('/live', describeCall({ summary: 'Liveness: the process answers', answer: liveAnswer }), (c) =>
    ok(c, { status: 'live', uptime: uptime(), version, commit }),
  );

  // Polls share the `select 1` under way, so a hung database gets one pending statement per
  // process, not one per poll; one older than `abandonSelectMs` is left to itself and a new one
  // sent, so a connection that hangs for good cannot keep the process unready after a recovery.
  let pendingSelect: { since: number; answer: Promise<unknown> } | undefined;
  const probeDatabase = async (): Promise<Probe> => {
    if (!pendingSelect || Date.now() - pendingSelect.since > abandonSelectMs) {
      const answer = Promise.resolve(deps.db.execute(sql`select 1`));
      const current = { since: Date.now(), answer };
      pendingSelect = current;
      const settled = () => {
        if (pendingSelect === current) pendingSelect = undefined;
      };
      answer.then(settled, settled);
    }
    try {
      await within(pendingSelect.answer, readyDbBudgetMs);
      return { state: 'ok' };
    } catch (error) {
      if (error instanceof TimeoutError)
        return { state: kind === 'pglite' ? 'busy' : 'timeout', reason: error.message };
      return { state: 'failed', reason: databaseReason(error) };
    }
  };

  let storeProbe: { at: number; outcome: Promise<Probe> } | undefined;
  const probeStore = (): Promise<Probe> => {
    if (storeProbe && Date.now() - storeProbe.at < storeProbeTtlMs) return storeProbe.outcome;
    const objects = deps.objects;
    const outcome = within(objects.check ? objects.check() : probeObjectStore(objects), readyStoreBudgetMs).then(
      (): Probe => ({ state: 'ok' }),
      (error: unknown): Probe => ({
        state: error instanceof TimeoutError ? 'timeout' : 'failed',
        reason: reasonOf(error),
      }),
    );
    storeProbe = { at: Date.now(), outcome };
    return outcome;
  };

  // The failed checks last answered, so the log says when readiness changes, not at every poll.
  let lastFailed = '';
  routes.get(
    '/ready',
    describeCall({
      summary: 'Readiness: the database, the object store and a publication are there (HTTP 503 otherwise)',
      answer: readyAnswer,
    }),
    async (c) => {
      if (deps.drain?.draining) {
        return envelope(
          c,
          ApiCode.SERVICE_UNAVAILABLE,
          message(c, 'api.busy'),
          { status: 'draining', failed: ['draining'], version, commit },
          503,
        );
      }
      const [database, objectStore] = await Promise.all([probeDatabase(), probeStore()]);
      const site: Probe = deps.site.current() ? { state: 'ok' } : { state: 'none', reason: 'no publication loaded' };
      const probes: Record<CheckName, Probe> = { database, objectStore, site };
      const failed = (Object.keys(probes) as CheckName[]).filter(
        (name) => !['ok', 'busy'].includes(probes[name].state),
      );
      const checks = { database: database.state, objectStore: objectStore.state, site: site.state };
      const failedNow = failed.join(',');
      if (failedNow !== lastFailed) {
        if (failed.length > 0) {
          const reasons = Object.fromEntries(failed.map((name) => [name, probes[name].reason]));
          deps.logger.warn({ failed, reasons }, 'not ready');
        } else {
          deps.logger.info({ checks }, 'ready');
        }
        lastFailed = failedNow;
      }
      if (failed.length > 0) {
        return envelope(
          c,
          ApiCode.SERVICE_UNAVAILABLE,
          message(c, 'api.busy'),
          { status: 'not ready', failed, checks, version, commit },
          503,
        );
      }
      return ok(c, { status: 'ready', checks, version, commit });
    },
  );
  return routes;
}
