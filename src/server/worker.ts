/**
 * `npm run worker`: the worker role in a process of its own (docs/deployment.md, "Jobs and the
 * worker"): it runs the queue's jobs — site builds and publications, scheduled publications — and
 * serves nothing. API processes with SITE_WORKER=external only send jobs. Run one or more per
 * deployment; the `site-build` queue lets one build run at a time across all of them. On SIGTERM
 * it stops taking jobs and lets the running one finish (up to WORKER_STOP_SECONDS); a worker killed
 * outright has its job retried by another within a minute. With METRICS_PORT it serves /metrics
 * there (its builds, publications, queue depth, database and process figures; metrics/endpoint.ts).
 */
import { loadContent } from '../content/load.ts';
import { loadConfig } from './config.ts';
import { createJobQueue } from './jobs/queue.ts';
import { attachWorker } from './jobs/worker.ts';
import { createLogger } from './logger.ts';
import { databaseMetricsOf } from './db/client.ts';
import { listenForMetrics } from './metrics/endpoint.ts';
import { createMetricsRegistry } from './metrics/registry.ts';
import { assertPreflight } from './preflight.ts';
import { openRuntime } from './runtime.ts';
import { exitOnSignals } from './shutdown.ts';
import { createContentStore } from './services/contentStore.ts';
import { astroBuildCommand, heldBuildFor } from './site/buildCommand.ts';
import { createBuildRunner } from './site/buildJob.ts';
import { cdnStoreFromConfig } from './site/cdn.ts';
import { createPublishedSite } from './site/servedSite.ts';
import { createSitePublisher } from './site/sitePublisher.ts';
import { createSiteRebuilder } from './site/rebuild.ts';
import { createScheduleService } from './studio/schedules.ts';

const config = loadConfig();
// The same checks as a server's start (preflight.ts): a worker that cannot reach the database or the bucket takes no job.
await assertPreflight(config).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
const logger = createLogger(config).child({ role: 'worker' });
const runtime = await openRuntime(config, null);
// The worker's own view of the publication: it publishes through the database like any process,
// and keeps the published build on its disk as the base of incremental builds (it serves nothing).
const publisher = createSitePublisher({
  db: runtime.db,
  objects: runtime.objects,
  dataDir: config.dataDir,
  site: createPublishedSite(undefined),
  store: createContentStore(() => loadContent()),
  logger,
});
const jobs = createJobQueue({
  db: runtime.db,
  handle: runtime.handle,
  logger,
  expireSeconds: config.rebuildTimeoutMinutes * 60,
});
// A build held ready, bundled before the first publication asks (content/heldBuild.ts).
const held = heldBuildFor(config);
held?.hold();
const builds = createBuildRunner({
  db: runtime.db,
  logger,
  dataDir: config.dataDir,
  objects: runtime.objects,
  publisher,
  build: held ?? astroBuildCommand(),
  timeoutMs: config.rebuildTimeoutMinutes * 60_000,
  cdn: cdnStoreFromConfig(config),
});
// Scheduled publications start builds the way the studio does (a queued `site-build` job).
const rebuilder = createSiteRebuilder({
  db: runtime.db,
  logger,
  dataDir: config.dataDir,
  objects: runtime.objects,
  publisher,
  jobs,
  cdn: cdnStoreFromConfig(config),
});
const schedules = createScheduleService({ db: runtime.db, jobs, rebuilder, logger });
await attachWorker(jobs, { builds, schedules });
// Follows the publication like an API process, so the published build — the next incremental
// build's base — is on this disk before a job needs it.
const stopWatching = await publisher.watch(runtime.handle, config.sitePollSeconds * 1000);
void publisher.sync();
await jobs.start();
const metrics = createMetricsRegistry();
metrics.add(databaseMetricsOf(runtime.db), publisher, jobs, builds);
const metricsListener = await listenForMetrics(metrics, config);
const metricsUrl = metricsListener
  ? `http://${config.metricsHost}:${metricsListener.address().port}/metrics`
  : undefined;
process.stdout.write(
  `\n  汇购电 worker running jobs (database: ${runtime.kind})${metricsUrl ? `\n  metrics: ${metricsUrl}` : ''}\n\n`,
);
logger.info({ db: runtime.kind, metrics: metricsUrl }, 'worker started');

exitOnSignals(
  logger,
  async () => {
    await jobs.stop(config.workerStopSeconds * 1000);
    await stopWatching();
    await metricsListener?.close(1_000);
    await runtime.close();
  },
  'worker stopping: no new jobs, the running one may finish',
);
