/**
 * Opens the database: PGlite (PostgreSQL in WebAssembly, file-backed under DATA_DIR) by default,
 * a PostgreSQL server through postgres-js when DATABASE_URL is set. Both give the same drizzle
 * `Database` type, so services never know which one they talk to.
 *
 * PGlite runs on a worker thread of its own (pgliteThread.ts), so a long statement never stops the
 * server's thread. It is a single connection: it serialises queries and transactions with its own
 * mutex, so inside `db.transaction(async (tx) => …)` use `tx` only — a query on `db` from inside a
 * transaction callback would wait for the transaction to finish, i.e. forever.
 *
 * Both drivers time every statement and transaction, and count the connections they hold
 * (metrics/instruments.ts `DatabaseMetrics`; off with METRICS_ENABLED=false): the registry of the
 * app or worker built on a database finds them with `databaseMetricsOf(db)`.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { DrizzleConfig, SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres, { type Sql } from 'postgres';
import type { Config } from '../config.ts';
import { DatabaseMetrics } from '../metrics/instruments.ts';
import { DatabaseDeadlineError } from './errors.ts';
import { lockDataDir } from './dataDirLock.ts';
import { PgliteThread, type PgliteThreadOptions } from './pgliteThread.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is underneath; a transaction (`tx`) has the same API. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

interface HandleBase {
  db: Database;
  close(): Promise<void>;
}
export interface PgliteHandle extends HandleBase {
  kind: 'pglite';
  client: PgliteThread;
}
export interface PostgresHandle extends HandleBase {
  kind: 'postgres';
  client: Sql;
  url: string;
}
export type DatabaseHandle = PgliteHandle | PostgresHandle;

/**
 * The planner's cost of a random page read. PostgreSQL's default (4) models spinning disks; on SSDs
 * and in PGlite's memory-backed pages a random read costs little more than a sequential one, and
 * with 4 the planner read all of `orders` and `enterprises` for a branch's keyword search of
 * settlements instead of looking up its few thousand rows (docs/partner.md, Benchmark). 1.1 is
 * the usual SSD setting.
 */
const randomPageCost = 1.1;

/** Whether statements are measured; omitted: they are (tests and tools pass only what they set). */
type MetricsSetting = Partial<Pick<Config, 'metricsEnabled'>>;

export type DatabaseConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'dbStatementTimeoutMs' | 'dbPoolMax'> &
  Partial<Pick<Config, 'dbConnectTimeoutMs'>> &
  MetricsSetting;

/** The statement metrics of each database opened here (none when METRICS_ENABLED=false). */
const measured = new WeakMap<Database, DatabaseMetrics>();

/** The statement and connection metrics of a database opened by this module, if it is measured. */
export function databaseMetricsOf(db: Database): DatabaseMetrics | undefined {
  return measured.get(db);
}

export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config);
  const dir = path.join(config.dataDir, 'pglite');
  await mkdir(dir, { recursive: true });
  // PGlite has no lock of its own: a second process on the same files would corrupt them.
  const lock = await lockDataDir(dir);
  try {
    const handle = await openPglite({ dataDir: dir }, config);
    return {
      ...handle,
      close: async () => {
        try {
          await handle.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** PGlite on its own thread: a data directory, `{ loadDataDir }` for an in-memory copy of a dump, or neither (in memory). */
export async function openPglite(
  options: Omit<PgliteThreadOptions, 'sessionSql'>,
  config: Pick<Config, 'dbStatementTimeoutMs'> & MetricsSetting,
): Promise<PgliteHandle> {
  // PGlite cannot interrupt its own statement, so the timeout is advisory there; it is set anyway
  // so that the same session settings hold on both drivers.
  const client = await PgliteThread.start({
    ...options,
    sessionSql: `set statement_timeout = ${Math.trunc(config.dbStatementTimeoutMs)}; set random_page_cost = ${randomPageCost}`,
  });
  if (config.metricsEnabled !== false) client.metrics = new DatabaseMetrics(1);
  return wrapPglite(client);
}

/**
 * drizzle's PGlite driver over the thread: it calls only `query` and `transaction`, which
 * PgliteThread offers with PGlite's signatures, so the cast is to the part it uses.
 */
export function pgliteDrizzle<S extends Record<string, unknown> = Record<string, never>>(
  client: PgliteThread,
  config: DrizzleConfig<S> = {},
): PgliteDatabase<S> {
  return drizzlePglite({ ...config, client: client as unknown as PGlite });
}

export function wrapPglite(client: PgliteThread): PgliteHandle {
  const db: Database = pgliteDrizzle(client, { schema });
  if (client.metrics) measured.set(db, client.metrics);
  return {
    kind: 'pglite',
    client,
    db,
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * Distinct statement texts prepared on PostgreSQL; texts beyond them run unnamed (parsed and
 * planned each time). The same bound as the PGlite thread's. postgres-js keeps a connection's
 * statements for the connection's life (30–60 minutes), so this bounds their memory too.
 */
const maxPreparedTexts = 1000;

/**
 * The client's own deadline on a statement: the server's statement_timeout ends a slow statement,
 * but not one a frozen or unreachable server never answers. Past the deadline the statement is
 * cancelled (a queued one never runs) and fails as DatabaseDeadlineError (503 api.busy).
 */
function withDeadline(query: { cancel(): unknown } & PromiseLike<unknown>, ms: number): void {
  const timer = setTimeout(() => {
    void Promise.resolve(query.cancel()).catch(() => {});
    (query as unknown as { reject(error: Error): void }).reject(new DatabaseDeadlineError(ms));
  }, ms);
  const clear = () => clearTimeout(timer);
  query.then(clear, clear);
}

/**
 * drizzle on postgres-js, with its statements prepared. postgres-js prepares every statement
 * (a named statement per connection, by its text), but drizzle asks it not to for every statement
 * it was not given a name for (`.prepare(name)`), which is all of ours: PostgreSQL parsed and
 * planned each one again, at a cost measured in docs/performance.md. The client drizzle gets asks for preparation instead, in transactions
 * and savepoints too.
 *
 * With `metrics`, each statement is timed from its sending to its answer, and each transaction
 * whole. Statements through `unsafe` are awaited whole (drizzle, pg-boss): timing one attaches to
 * its promise, which a cursor or a stream of rows would not survive.
 */
export function postgresDrizzle<S extends Record<string, unknown> = Record<string, never>>(
  client: Sql,
  config: DrizzleConfig<S> = {},
  metrics?: DatabaseMetrics,
  deadlineMs?: number,
) {
  const prepared = new Set<string>();
  const shouldPrepare = (text: string) => {
    if (prepared.has(text)) return true;
    if (prepared.size >= maxPreparedTexts) return false;
    prepared.add(text);
    return true;
  };
  type Callback = (sql: Sql) => unknown;
  /** `inTransaction`: the client of a transaction's callback, whose connection its transaction holds. */
  const preparing = <T extends Sql>(sql: T, inTransaction: boolean): T =>
    new Proxy(sql, {
      get(target, key, receiver) {
        if (key === 'unsafe') {
          return (text: string, params?: unknown[], options?: Record<string, unknown>) => {
            const query = target.unsafe(text, params as never, { ...options, prepare: shouldPrepare(text) });
            if (deadlineMs !== undefined) withDeadline(query, deadlineMs);
            if (metrics) {
              const done = metrics.statement(text, !inTransaction);
              query.then(done, done);
            }
            return query;
          };
        }
        if (key === 'begin' || key === 'savepoint') {
          // begin(fn) / begin(options, fn), savepoint(fn) / savepoint(name, fn): the callback's client prepares too.
          return (...args: unknown[]) => {
            const last = args.length - 1;
            const callback = args[last] as Callback;
            args[last] = (inner: Sql) => callback(preparing(inner, true));
            const done = key === 'begin' && !inTransaction ? metrics?.transaction() : undefined;
            const result = (Reflect.get(target, key) as (...given: unknown[]) => Promise<unknown>).apply(target, args);
            if (done) result.then(done, done);
            return result;
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  return drizzlePostgres({ ...config, client: preparing(client, false) });
}

/**
 * Seconds before a connection is tried again after one failed: postgres-js's own curve (3^n / 100,
 * halved at random) capped at 2 s instead of 20 s. Its count of failures grows all through an
 * outage, so with 20 s a process kept answering 503 for up to 20 s after the server was back
 * (measured 6.4 s after a 1 s outage polled every 100 ms; tests/cluster/readiness.test.ts).
 */
export function reconnectBackoffSeconds(failures: number): number {
  return (0.5 + Math.random() / 2) * Math.min(3 ** failures / 100, 2);
}

/** postgres-js's connection deadline when none is configured (its own default is 30 s). */
const defaultConnectTimeoutMs = 5_000;
/** How much longer than the server's statement_timeout the client waits for an answer. */
const statementDeadlineMarginMs = 1_000;

export function openPostgres(
  url: string,
  config: Pick<Config, 'dbStatementTimeoutMs' | 'dbPoolMax'> &
    Partial<Pick<Config, 'dbConnectTimeoutMs'>> &
    MetricsSetting,
): PostgresHandle {
  const client = postgres(url, {
    max: config.dbPoolMax,
    // Seconds: a server that takes no connection fails the call within this (503 api.busy), not 30 s later.
    connect_timeout: (config.dbConnectTimeoutMs ?? defaultConnectTimeoutMs) / 1000,
    onnotice: () => {},
    backoff: reconnectBackoffSeconds,
    connection: {
      application_name: 'hgd-portal',
      statement_timeout: config.dbStatementTimeoutMs,
      random_page_cost: randomPageCost,
      idle_in_transaction_session_timeout: config.dbStatementTimeoutMs * 4,
    },
  });
  const metrics = config.metricsEnabled === false ? undefined : new DatabaseMetrics(config.dbPoolMax);
  const db: Database = postgresDrizzle(
    client,
    { schema },
    metrics,
    config.dbStatementTimeoutMs + statementDeadlineMarginMs,
  );
  if (metrics) measured.set(db, metrics);
  return {
    kind: 'postgres',
    client,
    url,
    db,
    close: async () => {
      await client.end({ timeout: 5 });
    },
  };
}

/** The rows of a raw `db.execute(sql…)`: postgres-js answers an array, PGlite an object with `rows`. */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return (result as { rows?: Row[] }).rows ?? [];
}

const dialect = new PgDialect();

/**
 * A statement whose text is built once (its values are `sql.placeholder(name)`s), for the hottest
 * paths: drizzle otherwise rebuilds the text from its parts on every call.
 */
export function preparedStatement<Values extends Record<string, unknown>>(build: () => SQL) {
  let query: { sql: string; params: unknown[] } | undefined;
  return {
    execute(db: Database, values: Values): Promise<unknown> {
      query ??= dialect.sqlToQuery(build());
      return db._.session.prepareQuery(query, undefined, undefined, false).execute(values);
    },
  };
}
