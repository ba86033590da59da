/**
 * Every metric the portal exports, in one place: names, help, labels, buckets (docs/deployment.md,
 * "Metrics", lists them with example alerts). Each part of the server that measures something
 * makes its instruments here, unregistered, and keeps them in its `metrics`; the registry of the
 * process it runs in serves them (registry.ts). So an app, a worker or a test makes as many as it
 * likes without two registrations of one name colliding.
 *
 * Names follow Prometheus' conventions: base units (`_seconds`), counters end in `_total`, `hgd_`
 * before ours. Label values come from short fixed lists (route patterns, rule names, outcomes),
 * never from a URL, a user or a statement's text, so the number of series stays bounded.
 */
import { Counter, Gauge, Histogram, type Metric } from 'prom-client';
import type { Release } from '../release.ts';

/** A part of the server that measures something: its instruments, for the process's registry. */
export interface Instrumented {
  readonly metrics: readonly Metric[];
}

// --- The release ------------------------------------------------------------------------------

/**
 * The release the process runs, as labels of a constant 1 (Prometheus' `_info` convention): joined
 * onto another series (`* on (instance) group_left (version) hgd_build_info`) it says which
 * release a figure came from, and during a rollout which processes run which.
 */
export function buildInfo(release: Release): Gauge<'version' | 'commit'> {
  const info = new Gauge({
    name: 'hgd_build_info',
    help: "The release this process runs: package.json's version and the git commit (unknown when neither git nor the build's record had it). Always 1.",
    labelNames: ['version', 'commit'] as const,
    registers: [],
  });
  info.set({ version: release.version, commit: release.commit }, 1);
  return info;
}

// --- HTTP -------------------------------------------------------------------------------------

/** Methods named in the label; anything else counts as `OTHER`, so the label has a fixed set of values. */
const httpMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const statusClasses = ['1xx', '2xx', '3xx', '4xx', '5xx'];
/** The exemplar's label name; prom-client refuses an exemplar whose name and value pass 128 characters. */
const exemplarLabel = 'request_id';
const exemplarIdLength = 128 - exemplarLabel.length;

type HttpLabel = 'method' | 'route' | 'status_class';

export interface HttpMetrics extends Instrumented {
  /**
   * One answered request. `route` is the matched pattern (middleware/requestLog.ts `routeOf`),
   * `requestId` the log line's `reqId`, kept as the exemplar of the duration's bucket.
   */
  observe(method: string, route: string, status: number, seconds: number, requestId: string): void;
}

export function httpMetrics(): HttpMetrics {
  const duration = new Histogram<HttpLabel>({
    name: 'http_request_duration_seconds',
    help: 'Time from a request reaching the app to its answer, by method, matched route pattern and status class. Exemplar: the request id of the log line.',
    labelNames: ['method', 'route', 'status_class'],
    // 5 ms … 10 s: a session-checked read takes a few ms, the request budget ends at 30 s.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    enableExemplars: true,
    registers: [],
  });
  return {
    metrics: [duration],
    observe(method, route, status, seconds, requestId) {
      duration.observe({
        labels: {
          method: httpMethods.has(method) ? method : 'OTHER',
          route,
          status_class: statusClasses[Math.floor(status / 100) - 1] ?? 'other',
        },
        value: seconds,
        // prom-client types an exemplar's labels as the metric's own; they are any names.
        exemplarLabels: {
          [exemplarLabel]: requestId.length > exemplarIdLength ? requestId.slice(0, exemplarIdLength) : requestId,
        } as Partial<Record<HttpLabel, string>>,
      });
    },
  };
}

// --- Sessions ---------------------------------------------------------------------------------

/**
 * What a session check of an /api call found: `valid` (a live session), `missing` (no session
 * cookie), `expired` (a cookie whose session is not live: ended, idle too long, revoked, unknown,
 * or its user disabled), `malformed` (a cookie that is not a session token at all).
 */
export const sessionOutcomes = ['valid', 'missing', 'expired', 'malformed'] as const;
export type SessionOutcome = (typeof sessionOutcomes)[number];

export interface SessionMetrics extends Instrumented {
  checked(outcome: SessionOutcome): void;
}

export function sessionMetrics(): SessionMetrics {
  const checks = new Counter({
    name: 'hgd_session_checks_total',
    help: 'Session checks of /api calls, by outcome: valid, missing (no cookie), expired (a cookie whose session is not live), malformed.',
    labelNames: ['outcome'] as const,
    registers: [],
  });
  // Bound once: a check costs one increment, no label object.
  const byOutcome = Object.fromEntries(sessionOutcomes.map((outcome) => [outcome, checks.labels(outcome)])) as Record<
    SessionOutcome,
    { inc(): void }
  >;
  for (const outcome of sessionOutcomes) checks.inc({ outcome }, 0);
  return { metrics: [checks], checked: (outcome) => byOutcome[outcome].inc() };
}

// --- Rate limits ------------------------------------------------------------------------------

/**
 * Refusals by rule. One per process, not per app: `hitLimit` (services/rateLimit.ts) is called by
 * services with a database or a transaction and nothing else; every registry serves it (registry.ts).
 */
export const rateLimitRefusals = new Counter({
  name: 'hgd_rate_limit_refusals_total',
  help: 'Hits refused by a rate limit, by rule name (login.ip, sms.phone…).',
  labelNames: ['rule'] as const,
  registers: [],
});

// --- Database ---------------------------------------------------------------------------------

/** The kind of a statement, from its first word: the label of its duration (never its text). */
export function statementOperation(text: string): string {
  let start = 0;
  while (start < text.length && (text.charCodeAt(start) <= 32 || text.charCodeAt(start) === 40)) start += 1;
  const word = text.slice(start, start + 6).toLowerCase();
  if (word === 'select' || word === 'insert' || word === 'update' || word === 'delete') return word;
  if (word.startsWith('with') && (word.length === 4 || word.charCodeAt(4) <= 32)) return 'with';
  return 'other';
}

/**
 * A database's statements and connections, measured by its driver's wrapper (db/client.ts). A
 * statement outside a transaction and a transaction each hold a connection while they run; what
 * runs beyond the pool's size waits (postgres.js queues it on a busy connection; PGlite has one).
 */
export class DatabaseMetrics implements Instrumented {
  readonly metrics: readonly Metric[];
  #busy = 0;
  readonly #duration: Histogram<'operation'>;

  constructor(poolSize: number) {
    const busy = () => this.#busy;
    this.#duration = new Histogram({
      name: 'hgd_db_statement_duration_seconds',
      help: 'Time from a statement being sent to its answer (waiting for a connection included), by operation: select, insert, update, delete, with (a CTE), other; transaction: a whole transaction.',
      labelNames: ['operation'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers: [],
    });
    const size = new Gauge({
      name: 'hgd_db_pool_size',
      help: 'Connections the database pool may open (DB_POOL_MAX; 1 for PGlite).',
      registers: [],
    });
    size.set(poolSize);
    const inUse = new Gauge({
      name: 'hgd_db_pool_in_use',
      help: 'Connections busy with a statement or a transaction of this process.',
      registers: [],
      collect() {
        this.set(Math.min(busy(), poolSize));
      },
    });
    const waiting = new Gauge({
      name: 'hgd_db_pool_waiting',
      help: 'Statements and transactions of this process waiting for a connection (PGlite: queued for its one connection).',
      registers: [],
      collect() {
        this.set(Math.max(0, busy() - poolSize));
      },
    });
    this.metrics = [this.#duration, size, inUse, waiting];
  }

  /**
   * A statement was sent; the answer calls the function returned. `ownConnection`: it runs on a
   * connection of its own (false inside a transaction, whose connection is already counted).
   */
  statement(text: string, ownConnection: boolean): () => void {
    const started = performance.now();
    if (ownConnection) this.#busy += 1;
    return () => {
      if (ownConnection) this.#busy -= 1;
      this.#duration.observe({ operation: statementOperation(text) }, (performance.now() - started) / 1000);
    };
  }

  /** A transaction began; its end (commit or rollback) calls the function returned. */
  transaction(): () => void {
    const started = performance.now();
    this.#busy += 1;
    return () => {
      this.#busy -= 1;
      this.#duration.observe({ operation: 'transaction' }, (performance.now() - started) / 1000);
    };
  }
}

// --- Values read from the database at scrape time ---------------------------------------------

export interface ScrapeReadTiming {
  /** A reading younger than this is served without asking again. */
  freshMs: number;
  /** A scrape waits this long at most for a new reading, then serves the last one. */
  waitMs: number;
  /** A reading older than this is not served (the series disappear until one succeeds). */
  staleMs: number;
}

export const scrapeReadTiming: ScrapeReadTiming = { freshMs: 5_000, waitMs: 1_000, staleMs: 60_000 };

/**
 * A reading taken when scraped, so that an idle process asks nothing, but never holding a scrape
 * up behind a busy database: one read at a time, cached for `freshMs`, waited for `waitMs` at most.
 */
export function scrapeRead<T>(
  read: () => Promise<T>,
  timing: ScrapeReadTiming = scrapeReadTiming,
): () => Promise<T | undefined> {
  let last: { value: T; at: number } | undefined;
  let pending: Promise<void> | undefined;
  return async () => {
    if (!last || Date.now() - last.at >= timing.freshMs) {
      pending ??= read().then(
        (value) => {
          last = { value, at: Date.now() };
          pending = undefined;
        },
        () => {
          pending = undefined;
        },
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pending, new Promise<void>((resolve) => (timer = setTimeout(resolve, timing.waitMs)))]);
      clearTimeout(timer);
    }
    return last && Date.now() - last.at < timing.staleMs ? last.value : undefined;
  };
}

// --- Job queue --------------------------------------------------------------------------------

/** Jobs of a queue right now: due and not yet taken, due later, being run. */
export interface QueueDepth {
  queue: string;
  waiting: number;
  deferred: number;
  active: number;
}

export function jobQueueMetrics(
  readDepth: () => Promise<readonly QueueDepth[]>,
  timing?: ScrapeReadTiming,
): Instrumented {
  const depth = scrapeRead(readDepth, timing);
  const jobs = new Gauge({
    name: 'hgd_queue_jobs',
    help: 'Jobs per queue and state: waiting (due, not yet taken by a worker), deferred (due later: scheduled publications), active (being run). Read from the database at scrape time.',
    labelNames: ['queue', 'state'] as const,
    registers: [],
    async collect() {
      const rows = await depth();
      this.reset();
      for (const row of rows ?? []) {
        this.set({ queue: row.queue, state: 'waiting' }, row.waiting);
        this.set({ queue: row.queue, state: 'deferred' }, row.deferred);
        this.set({ queue: row.queue, state: 'active' }, row.active);
      }
    },
  });
  return { metrics: [jobs] };
}

// --- Site builds ------------------------------------------------------------------------------

export const buildPurposes = ['publish', 'preview'] as const;
export type BuildOutcome = 'succeeded' | 'failed';

export interface SiteBuildMetrics extends Instrumented {
  finished(purpose: string, outcome: BuildOutcome, seconds: number): void;
}

/**
 * `readLastSuccess`: when each purpose's last build succeeded (unix seconds), over every worker,
 * from the database: the gauge holds it after a restart too, so an age alert keeps working.
 */
export function siteBuildMetrics(
  readLastSuccess: () => Promise<ReadonlyMap<string, number>>,
  timing: ScrapeReadTiming = { ...scrapeReadTiming, freshMs: 30_000, staleMs: Infinity },
): SiteBuildMetrics {
  const lastSuccessOf = scrapeRead(readLastSuccess, timing);
  const builds = new Counter({
    name: 'hgd_site_builds_total',
    help: 'Site builds run by this process, by purpose (publish, preview) and outcome (succeeded, failed).',
    labelNames: ['purpose', 'outcome'] as const,
    registers: [],
  });
  const duration = new Histogram({
    name: 'hgd_site_build_duration_seconds',
    help: 'Time of a successful site build, from its start to its publication (publish) or its stored pages (preview), by purpose.',
    labelNames: ['purpose'] as const,
    // The goal is 15 s for one changed item; a full build of every locale takes minutes.
    buckets: [5, 10, 15, 30, 60, 120, 300, 600, 1200],
    registers: [],
  });
  /** Successes of this process, seen before the database's reading catches up. */
  const ownSuccess = new Map<string, number>();
  const lastSuccess = new Gauge({
    name: 'hgd_site_build_last_success_timestamp_seconds',
    help: 'When the last successful site build of each purpose finished (unix seconds), on any worker.',
    labelNames: ['purpose'] as const,
    registers: [],
    async collect() {
      const stored = await lastSuccessOf();
      for (const purpose of buildPurposes) {
        const at = Math.max(stored?.get(purpose) ?? 0, ownSuccess.get(purpose) ?? 0);
        if (at > 0) this.set({ purpose }, at);
      }
    },
  });
  for (const purpose of buildPurposes)
    for (const outcome of ['succeeded', 'failed']) builds.inc({ purpose, outcome }, 0);
  return {
    metrics: [builds, duration, lastSuccess],
    finished(purpose, outcome, seconds) {
      builds.inc({ purpose, outcome });
      if (outcome !== 'succeeded') return;
      duration.observe({ purpose }, seconds);
      ownSuccess.set(purpose, Date.now() / 1000);
    },
  };
}

// --- Site publications ------------------------------------------------------------------------

export interface PublicationMetrics extends Instrumented {
  /** This process switched to another build (or failed to). */
  switched(outcome: BuildOutcome, seconds: number): void;
}

/** `servedBuild`: the build this process serves now (null: STATIC_DIR's, not a recorded build). */
export function publicationMetrics(servedBuild: () => number | null): PublicationMetrics {
  const switches = new Counter({
    name: 'hgd_site_publication_switches_total',
    help: 'Switches of this process to a newly published build (or a rollback), by outcome (succeeded, failed: the previous one stays served).',
    labelNames: ['outcome'] as const,
    registers: [],
  });
  const duration = new Histogram({
    name: 'hgd_site_publication_switch_duration_seconds',
    help: 'Time of a successful switch: fetching the build when this machine lacks it, reading its content, swapping.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [],
  });
  const lastSwitch = new Gauge({
    name: 'hgd_site_publication_last_switch_timestamp_seconds',
    help: 'When this process last switched to a published build (unix seconds).',
    registers: [],
  });
  const served = new Gauge({
    name: 'hgd_site_served_build',
    help: 'The id of the build this process serves (0: the STATIC_DIR it started with). Every process should serve the same.',
    registers: [],
    collect() {
      this.set(servedBuild() ?? 0);
    },
  });
  for (const outcome of ['succeeded', 'failed']) switches.inc({ outcome }, 0);
  return {
    metrics: [switches, duration, lastSwitch, served],
    switched(outcome, seconds) {
      switches.inc({ outcome });
      if (outcome !== 'succeeded') return;
      duration.observe(seconds);
      lastSwitch.set(Date.now() / 1000);
    },
  };
}
