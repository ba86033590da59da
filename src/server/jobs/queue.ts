/**
 * The job queue: pg-boss on the portal's own database (docs/deployment.md, "Jobs and the worker").
 *
 * Why pg-boss: it keeps jobs in PostgreSQL tables of its own (schema `pgboss`) with SKIP LOCKED
 * fetching, retries, deferred jobs (`startAfter`), cancellation, per-job heartbeats and queue
 * policies, and it runs on the embedded PGlite too (its `pglite` backend), so both databases have
 * one queue. graphile-worker needs a pool of real connections and LISTEN, which PGlite lacks.
 *
 * - A job a dead worker held stops heartbeating; the supervisor (every instance runs one, one at a
 *   time) fails it within `heartbeatSeconds` + `superviseSeconds` (about 20 s), and it is retried.
 * - `site-build` has the `singleton` policy: one active job across every worker.
 * - Jobs are rows: they survive a restart of every process.
 * - Its depth (jobs waiting, deferred, running per queue) is read from pg-boss's job table when
 *   scraped (metrics/instruments.ts `jobQueueMetrics`), without starting the queue.
 * - A job sent is picked up at once, not at the next poll: the sender wakes its own process's
 *   worker, and NOTIFY `job_sent` (the queue's name) wakes the others' — given the database handle
 *   to listen on. An editor's publication otherwise waited half a second on average for a poll.
 */
import { sql } from 'drizzle-orm';
import { PgBoss, fromPglite, type Job, type JobWithMetadata } from 'pg-boss';
import type { Sql } from 'postgres';
import { listenToChannel, notify } from '../db/changeNotifications.ts';
import { rowsOf, type Database, type DatabaseHandle } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { PgliteThread } from '../db/pgliteThread.ts';
import type { Logger } from '../logger.ts';
import { jobQueueMetrics, type Instrumented, type QueueDepth } from '../metrics/instruments.ts';

/** The site's builds, publications and previews (site/buildJob.ts). */
export const siteBuildQueue = 'site-build';
/** An editor's scheduled publication or removal, at its time (studio/schedules.ts). */
export const scheduleQueue = 'scheduled-publication';

/** A worker that stopped heartbeating this long has died; its job is failed and retried. */
export const jobHeartbeatSeconds = 10;
/** How often the supervisor looks for such jobs (its monitor pass fails them: both timers). */
const superviseSeconds = 10;
/** How often a scheduled publication that found another build running tries again. */
const scheduleRetrySeconds = 15;
/** How often an idle worker asks for a job (a job sent wakes it at once: see the header). */
const pollSeconds = 1;
/** Carries the name of a queue a job was just sent to. */
export const jobSentChannel = 'job_sent';

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

export interface JobQueue extends Instrumented {
  /** Creates the queue's tables (first start) and the queues; starts supervising and working. The first send starts it too. */
  start(): Promise<void>;
  /** Stops working and supervising; waits up to `timeoutMs` for running jobs. */
  stop(timeoutMs?: number): Promise<void>;
  send<T extends object>(name: string, data: T, options?: { startAfter?: Date }): Promise<string>;
  /** Runs `handler` for each job of `name`, one at a time in this process (from the start, when registered before it). */
  work<T extends object>(name: string, handler: JobHandler<T>): Promise<void>;
  cancel(name: string, id: string): Promise<void>;
  job<T extends object>(name: string, id: string): Promise<JobWithMetadata<T> | null>;
}

export interface JobQueueOptions {
  db: Database;
  logger: Logger;
  /** A job running longer than this fails (the build's own time limit). */
  expireSeconds: number;
  /** Listened on for jobs other processes send (`jobSentChannel`), when this process works jobs. */
  handle?: DatabaseHandle;
  /** How often an idle worker asks for a job anyway (1 s by default). */
  pollSeconds?: number;
}

/** A job's times as Dates: over postgres.js (whose timestamps the app reads as text) they come back as text. */
const jobTimes = [
  'startAfter',
  'startedOn',
  'createdOn',
  'completedOn',
  'keepUntil',
  'singletonOn',
  'heartbeatOn',
] as const;
function withDates<T extends object>(job: JobWithMetadata<T>): JobWithMetadata<T> {
  const times: Partial<Record<(typeof jobTimes)[number], Date>> = {};
  for (const field of jobTimes) {
    const value: unknown = job[field];
    if (typeof value === 'string') times[field] = new Date(value);
  }
  return { ...job, ...times };
}

function asParameter(value: unknown): unknown {
  const plainObject =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !ArrayBuffer.isView(value);
  return plainObject ? JSON.stringify(value) : value;
}

/** pg-boss talks to PGlite through the adapter it ships, and to PostgreSQL through the same client as the app. */
function bossDatabase(db: Database): ConstructorParameters<typeof PgBoss>[0] {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PgliteThread) {
    return {
      db: fromPglite({
        query: (text, params) => client.query(text, params ?? []),
        exec: async (text) => [await client.exec(text)],
      }),
      backend: 'pglite',
    };
  }
  const sql = client as Sql;
  return {
    db: {
      async executeSql(text: string, values?: unknown[]) {
        let rows: unknown[];
        // As node-postgres (pg-boss's own driver) sends them: a plain object as JSON text.
        if (values?.length) rows = await sql.unsafe(text, values.map(asParameter) as never[]);
        else {
          // A script without parameters (the queue's schema, a locked BEGIN … COMMIT) needs the
          // simple protocol and one connection of its own.
          const reserved = await sql.reserve();
          try {
            rows = await reserved.unsafe(text).simple();
          } catch (error) {
            // A failed BEGIN … COMMIT leaves its transaction open and aborted (pg-boss expects a
            // lost race creating its schema and goes on): end it before the connection goes back,
            // or every later statement on it fails with 25P02.
            await reserved
              .unsafe('rollback')
              .simple()
              .catch(() => {});
            throw error;
          } finally {
            reserved.release();
          }
        }
        const results = Array.isArray(rows[0])
          ? (rows as unknown as Record<string, unknown>[][]).flat()
          : (rows as unknown as Record<string, unknown>[]);
        return { rows: results };
      },
    },
  };
}

/** pg-boss's own schema (its tables and the state of every job). */
const bossSchema = 'pgboss';
const queueNames = [siteBuildQueue, scheduleQueue];

/**
 * Every queue's jobs by state, straight from the job table (pg-boss's own counts are refreshed by
 * its monitor, which only a started queue runs). Before the queue's first start the table does not
 * exist and this fails: no figures.
 */
async function queueDepth(db: Database): Promise<QueueDepth[]> {
  const rows = rowsOf<{ queue: string; waiting: number; deferred: number; active: number }>(
    await db.execute(sql`
      select name as queue,
             (count(*) filter (where state < 'active' and start_after <= now()))::int as waiting,
             (count(*) filter (where state < 'active' and start_after > now()))::int as deferred,
             (count(*) filter (where state = 'active'))::int as active
      from ${sql.identifier(bossSchema)}.job
      where name in ${queueNames} and state <= 'active'
      group by name`),
  );
  return queueNames.map((queue) => {
    const row = rows.find((found) => found.queue === queue);
    return {
      queue,
      waiting: Number(row?.waiting ?? 0),
      deferred: Number(row?.deferred ?? 0),
      active: Number(row?.active ?? 0),
    };
  });
}

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { logger } = options;
  const boss = new PgBoss({
    ...bossDatabase(options.db),
    schema: bossSchema,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
    registerInstance: false,
    persistWarnings: false,
    persistQueueStats: false,
  });
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
  let started: Promise<void> | undefined;
  /** Handlers registered before the start, attached once the queues exist. */
  const handlers = new Map<string, JobHandler<object>>();
  const workers = new Map<string, string>();
  /** Ends the listening for jobs other processes send, once this process works a queue. */
  let stopListening: Promise<(() => Promise<void>) | undefined> | undefined;

  /** Wakes this process's worker of `name`, if it has one. */
  function wake(name: string): void {
    const worker = workers.get(name);
    if (worker) boss.notifyWorker(worker);
  }

  async function attach(name: string, handler: JobHandler<object>): Promise<void> {
    const id = await boss.work<object>(
      name,
      { pollingIntervalSeconds: options.pollSeconds ?? pollSeconds, localConcurrency: 1, batchSize: 1 },
      async ([job]) => {
        if (job) await handler(job);
      },
    );
    workers.set(name, id);
    if (options.handle)
      stopListening ??= listenToChannel(options.handle, jobSentChannel, wake).catch((error: unknown) => {
        // Without it, jobs are still picked up at the next poll.
        logger.warn({ err: error }, 'job queue: not listening for jobs sent; polling only');
        return undefined;
      });
  }

  const start = () => {
    started ??= (async () => {
      // Two workers starting together on a new database race to create pg-boss's schema, and
      // PostgreSQL may answer the loser's CREATE SCHEMA IF NOT EXISTS (inside pg-boss's locked
      // script, on a stale catalog) with a unique violation that pg-boss does not expect. Made here
      // first, on its own, the loser's violation only means it exists.
      await options.db
        .execute(sql`create schema if not exists ${sql.identifier(bossSchema)}`)
        .catch((error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
        });
      await boss.start();
      const common = {
        heartbeatSeconds: jobHeartbeatSeconds,
        expireInSeconds: options.expireSeconds,
        deleteAfterSeconds: 7 * 24 * 3600,
      };
      const queues = [
        // A build whose worker died is built again at once, twice at most.
        { name: siteBuildQueue, policy: 'singleton', retryLimit: 2, retryDelay: 1 },
        // A schedule that falls due while another build runs waits for it: retried every 15 s for
        // longer than the longest build.
        {
          name: scheduleQueue,
          policy: 'standard',
          retryLimit: Math.ceil(options.expireSeconds / scheduleRetrySeconds) + 4,
          retryDelay: scheduleRetrySeconds,
        },
      ] as const;
      for (const { name, policy, ...settings } of queues) {
        if (await boss.getQueue(name)) await boss.updateQueue(name, { ...common, ...settings });
        else await boss.createQueue(name, { ...common, ...settings, policy });
      }
      for (const [name, handler] of handlers) await attach(name, handler);
    })();
    return started;
  };

  return {
    metrics: jobQueueMetrics(() => queueDepth(options.db)).metrics,
    start,
    async stop(timeoutMs = 10_000) {
      if (!started) return;
      await started.catch(() => {});
      const unlisten = await stopListening;
      stopListening = undefined;
      await unlisten?.().catch(() => {});
      await boss
        .stop({ graceful: true, timeout: timeoutMs, close: false, wait: true } as never)
        .catch((error: unknown) => logger.warn({ err: error }, 'job queue did not stop cleanly'));
    },
    async send(name, data, sendOptions = {}) {
      await start();
      const id = await boss.send(name, data, sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {});
      if (!id) throw new Error(`the job queue refused a ${name} job`);
      // Workers pick it up now rather than at their next poll: this process's, and the others'.
      wake(name);
      if (!sendOptions.startAfter)
        await notify(options.db, jobSentChannel, name).catch((error: unknown) =>
          logger.warn({ err: error }, 'job queue: the other processes will see the job at their next poll'),
        );
      return id;
    },
    async work<T extends object>(name: string, handler: JobHandler<T>) {
      handlers.set(name, handler as JobHandler<object>);
      if (started) {
        await started;
        await attach(name, handler as JobHandler<object>);
      }
    },
    async cancel(name, id) {
      await start();
      await boss.cancel(name, id);
    },
    async job<T extends object>(name: string, id: string) {
      await start();
      const [found] = await boss.findJobs<T>(name, { id });
      return found ? withDates(found) : null;
    },
  };
}
