/**
 * The Hono application: `/api` (envelope, validation, sessions, CSRF) and, when `staticDir` is
 * given, the built static site. Middleware order:
 *   every request  request id + log line → security headers → locale
 *   /api/openapi.json, /api/reference   the API description (public, cacheable: openapi/mount.ts)
 *   /api/*         no-store → time budget → stream guard → CSRF → body limit → session → the modules of routes/index.ts
 *   /api unknown   HTTP 404 envelope
 *   /metrics       the app's metrics, with METRICS_TOKEN (metrics/endpoint.ts; else 404)
 *   /studio-preview/*, /images/uploads/*   the editors' previews and uploaded images (routes/studioFiles.ts)
 *   everything else  static files of the published directory (or 404)
 */
import { Hono } from 'hono';
import { defaultContentDir } from '../content/load.ts';
import { databaseMetricsOf } from './db/client.ts';
import { handleError, isApiPath, unknownPath } from './envelope.ts';
import { apiBodyLimit } from './middleware/bodyLimit.ts';
import { csrfGuard } from './middleware/csrf.ts';
import { localeMiddleware } from './middleware/locale.ts';
import { noStore } from './middleware/noStore.ts';
import { requestBudget } from './middleware/requestBudget.ts';
import { streamGuard } from './middleware/streamGuard.ts';
import { requestLog } from './middleware/requestLog.ts';
import { securityHeaders } from './middleware/secureHeaders.ts';
import { loadSession } from './middleware/session.ts';
import { bankProviderFromConfig } from './bank/fromConfig.ts';
import { apiModules } from './routes/index.ts';
import { mountApiDescription } from './openapi/mount.ts';
import { httpProviderFromConfig } from './sms/http.ts';
import { createOutboxProvider } from './sms/provider.ts';
import { lazyKeys } from './secrets.ts';
import { createFieldCipher } from './fieldEncryption.ts';
import { contentStore } from './services/contentStore.ts';
import { createPublishedSite } from './site/servedSite.ts';
import { astroBuildCommand } from './site/buildCommand.ts';
import { cdnStoreFromConfig } from './site/cdn.ts';
import { createSitePublisher } from './site/sitePublisher.ts';
import { createBuildRunner } from './site/buildJob.ts';
import { createSiteRebuilder } from './site/rebuild.ts';
import { createJobQueue } from './jobs/queue.ts';
import { attachWorker } from './jobs/worker.ts';
import { createScheduleService } from './studio/schedules.ts';
import { httpMetrics, sessionMetrics } from './metrics/instruments.ts';
import { mountMetrics } from './metrics/endpoint.ts';
import { createMetricsRegistry } from './metrics/registry.ts';
import { createStaticHandler } from './static.ts';
import { objectStoreFromConfig } from './storage/fromConfig.ts';
import { mountStudioFiles } from './routes/studioFiles.ts';
import type { AppDeps, AppEnv, RouteDeps } from './types.ts';

export type { AppDeps, AppEnv } from './types.ts';

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Requests and session checks are measured unless METRICS_ENABLED=false; /metrics serves them with the other parts'.
  const http = deps.config.metricsEnabled ? httpMetrics() : undefined;
  const sessions = deps.config.metricsEnabled ? sessionMetrics() : undefined;
  const metrics = deps.metrics ?? createMetricsRegistry();

  app.use('*', requestLog(deps.logger, http));
  app.use('*', securityHeaders());
  app.use('*', localeMiddleware);
  // Public and cacheable, so ahead of the /api middleware (openapi/mount.ts).
  mountApiDescription(app);

  app.use('/api/*', noStore);
  app.use('/api/*', requestBudget(deps.config));
  app.use('/api/*', streamGuard);
  app.use('/api/*', csrfGuard(deps.config));
  app.use('/api/*', apiBodyLimit(deps.config));
  app.use('/api/*', loadSession(deps, sessions));

  const sms =
    deps.sms ?? httpProviderFromConfig(deps.config, deps.logger) ?? createOutboxProvider(deps.db, deps.logger);
  const bank = deps.bank === undefined ? bankProviderFromConfig(deps.config) : deps.bank;
  const objects = deps.objects ?? objectStoreFromConfig(deps.config);
  // The published directory can change while the app runs (a rebuild or a rollback, on any process).
  const publisher =
    deps.publisher ??
    createSitePublisher({
      db: deps.db,
      objects,
      dataDir: deps.config.dataDir,
      site: createPublishedSite(
        deps.publication ??
          (deps.staticDir ? { staticDir: deps.staticDir, contentDir: defaultContentDir(), buildId: null } : undefined),
      ),
      store: contentStore,
      logger: deps.logger,
    });
  const site = publisher.site;
  const jobs =
    deps.jobs ??
    createJobQueue({ db: deps.db, logger: deps.logger, expireSeconds: deps.config.rebuildTimeoutMinutes * 60 });
  const cdn = cdnStoreFromConfig(deps.config);
  const rebuilder = createSiteRebuilder({
    db: deps.db,
    logger: deps.logger,
    dataDir: deps.config.dataDir,
    objects,
    publisher,
    jobs,
    cdn,
  });
  if (deps.config.siteWorker === 'embedded') {
    const builds = createBuildRunner({
      db: deps.db,
      logger: deps.logger,
      dataDir: deps.config.dataDir,
      objects,
      publisher,
      build: deps.siteBuild?.command ?? astroBuildCommand(),
      timeoutMs: deps.config.rebuildTimeoutMinutes * 60_000,
      cdn,
    });
    const schedules = createScheduleService({ db: deps.db, jobs, rebuilder, logger: deps.logger });
    metrics.add(builds);
    attachWorker(jobs, { builds, schedules }).catch((error: unknown) =>
      deps.logger.error({ err: error }, 'the embedded worker could not start'),
    );
  }
  if (deps.rebuildAtStart) {
    rebuilder.start({ purpose: 'publish', drafts: 'none' }).then(
      (build) => deps.logger.info({ buildId: build.buildId }, 'new release: rebuilding the published content with it'),
      (error: unknown) =>
        deps.logger.info(
          { reason: error instanceof Error ? error.message : String(error) },
          'new release: rebuild not started here',
        ),
    );
  }
  const keys = deps.keys ?? lazyKeys(deps.db, deps.config);
  const cipher = createFieldCipher(keys);
  const routeDeps: RouteDeps = { ...deps, sms, site, publisher, rebuilder, jobs, bank, objects, keys, cipher };
  for (const module of apiModules) app.route(module.base, module.create(routeDeps));
  app.all('/api', unknownPath);
  app.all('/api/*', unknownPath);
  metrics.add(http, sessions, databaseMetricsOf(deps.db), publisher, jobs);
  mountMetrics(app, metrics, deps.config);
  mountStudioFiles(app, routeDeps);

  const servedAtStart = site.staticDir();
  if (servedAtStart) app.use('*', createStaticHandler({ root: () => site.staticDir() ?? servedAtStart }));

  app.notFound((c) => (isApiPath(c.req.path) ? unknownPath(c) : c.text('Not Found', 404)));
  app.onError(handleError);
  return app;
}
