/**
 * The production server: one Node process serving the built site and /api (ARCHITECTURE.md).
 * `npx node src/server/main.ts` (or `npm start` after `npm run build`) starts it.
 * `createDevApp()` is the API alone for Astro's dev server, which serves the pages itself.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { defaultContentDir, loadContent } from '../content/load.ts';
import { createApp } from './app.ts';
import { bankBannerLines } from './bank/fromConfig.ts';
import { getConfig, loadConfig, type Config } from './config.ts';
import { demoAccounts, demoAccountsWithPublicPasswords } from './seed/seed.ts';
import { startHousekeeping } from './housekeeping.ts';
import { createFieldCipher, sealPlainValues } from './fieldEncryption.ts';
import { createLogger, type Logger } from './logger.ts';
import { listen } from './httpListeners.ts';
import { listenForMetrics } from './metrics/endpoint.ts';
import { createMetricsRegistry } from './metrics/registry.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { loadedKeys } from './secrets.ts';
import { assertPreflight } from './preflight.ts';
import { createDrain, exitOnSignals } from './shutdown.ts';
import { storageBannerLine } from './storage/fromConfig.ts';
import { filesMatchPublished } from './studio/contentRepo.ts';
import { contentStore, publishContent } from './services/contentStore.ts';
import { hasActiveAdmin } from './services/staffAccounts.ts';
import { heldBuildFor } from './site/buildCommand.ts';
import { createPublishedSite, type Publication } from './site/servedSite.ts';
import { createSitePublisher } from './site/sitePublisher.ts';
import { recordInitialPublication } from './site/initialPublication.ts';
import { createJobQueue } from './jobs/queue.ts';
import type { AppEnv } from './types.ts';

export interface RunningServer {
  /** The first of the listening sockets' servers (httpListeners.ts); its address is theirs. */
  server: ServerType;
  url: string;
  runtime: Runtime;
  /** What was published at start (it changes in memory after an editors' rebuild). */
  publication: Publication;
  /**
   * Drains (/api/health/ready answers 503 from now on, and the process serves on for
   * SHUTDOWN_DRAIN_SECONDS), stops accepting, waits for open requests (up to 10 s), then closes
   * the database.
   */
  close(): Promise<void>;
  /** The embedded worker's builds, one of them held ready once `hold()` is called (none with an external worker). */
  heldBuild?: { hold(): void } | undefined;
}

/** Address to print: `http://localhost:4321` for the usual wildcard and loopback hosts. */
export function displayUrl(host: string, port: number): string {
  const local = ['localhost', '0.0.0.0', '::', '127.0.0.1', '::1'].includes(host);
  const name = local ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** The demo accounts as a printable table. */
export function demoAccountTable(): string {
  const rows = [
    ['user name', 'mobile', 'password', 'role', 'who'],
    ...demoAccounts.map((a) => [a.userName, a.mobile, a.password, a.role, a.description]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export async function startServer(config: Config = getConfig()): Promise<RunningServer> {
  // Nothing is opened before the configuration is known to work (preflight.ts).
  await assertPreflight(config);
  const logger = createLogger(config);
  const runtime = await openRuntime(config, null);
  // The build the database says is published (fetched if this machine lacks it), or `npm run
  // build`'s output when that is newer; the API answers from the content that build was made from.
  const publisher = createSitePublisher({
    db: runtime.db,
    objects: runtime.objects,
    dataDir: config.dataDir,
    site: createPublishedSite(undefined),
    store: contentStore,
    logger,
  });
  let publication: Publication;
  let stopWatching: () => Promise<void>;
  let rebuildAtStart = false;
  try {
    const fallback: Publication = {
      staticDir: path.resolve(config.staticDir),
      contentDir: defaultContentDir(),
      buildId: null,
    };
    // STATIC_DIR (`npm run build`) is made from the content files; the site's content is the
    // database's (the editors' studio). When they differ, the published build is served, and a
    // STATIC_DIR newer than it (a new release) has its pages rebuilt from the database's content.
    const fallbackCurrent = await filesMatchPublished(runtime.db, fallback.contentDir);
    const lastPublished = await publisher.published();
    publication = await publisher.start(fallback, { preferPublished: !fallbackCurrent });
    rebuildAtStart = !fallbackCurrent && (!lastPublished || builtAfter(fallback.staticDir, lastPublished.publishedAt));
    // STATIC_DIR's own content: loaded now (a broken file stops the start) and its regions synced.
    if (publication.buildId === null) await publishContent(runtime.db, loadContent(publication.contentDir));
    // The site first served becomes the first publication, so that it can be rolled back to.
    if (publication.buildId === null && fallbackCurrent && !lastPublished) {
      await recordInitialPublication({
        db: runtime.db,
        objects: runtime.objects,
        publisher,
        logger,
        dataDir: config.dataDir,
        staticDir: fallback.staticDir,
        load: loadContent,
      }).catch((error: unknown) =>
        logger.error(
          { err: error },
          'the site first served could not be recorded as a publication; it is served as it is',
        ),
      );
      publication = publisher.site.current() ?? publication;
    }
    stopWatching = await publisher.watch(runtime.handle, config.sitePollSeconds * 1000);
  } catch (error) {
    await runtime.close().catch(() => {});
    throw error;
  }
  const jobs = createJobQueue({
    db: runtime.db,
    // An embedded worker also takes the jobs other processes send.
    ...(config.siteWorker === 'embedded' ? { handle: runtime.handle } : {}),
    logger,
    expireSeconds: config.rebuildTimeoutMinutes * 60,
  });
  const drain = createDrain();
  // What /metrics serves, on the API's port (METRICS_TOKEN) and on METRICS_PORT's listener.
  const metrics = createMetricsRegistry();
  const heldBuild = config.siteWorker === 'embedded' ? heldBuildFor(config) : undefined;
  const app = createApp({
    db: runtime.db,
    config,
    logger,
    metrics,
    staticDir: publication.staticDir,
    publisher,
    jobs,
    dbKind: runtime.kind,
    objects: runtime.objects,
    keys: loadedKeys(runtime.keys),
    rebuildAtStart,
    drain,
    ...(heldBuild ? { siteBuild: { command: heldBuild } } : {}),
  });
  // Numbers kept before their columns were encrypted are sealed once, by whichever process starts first.
  const sealed = await sealPlainValues(runtime.db, createFieldCipher(loadedKeys(runtime.keys)));
  if (sealed > 0) logger.info({ sealed }, 'encrypted the account numbers kept in plain text before');
  const stopHousekeeping = startHousekeeping(runtime.db, logger);
  // The embedded worker takes queued and scheduled jobs from the start (a process that only sends
  // jobs starts the queue with its first).
  if (config.siteWorker === 'embedded') await jobs.start();

  const listener = await listen(app.fetch, { host: config.host, port: config.port });
  const url = displayUrl(config.host, listener.address().port);
  const metricsListener = await listenForMetrics(metrics, config);
  if (metricsListener)
    logger.info(
      { url: `${displayUrl(config.metricsHost, metricsListener.address().port)}/metrics` },
      'metrics listening',
    );

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      drain.begin();
      if (config.shutdownDrainSeconds > 0) {
        logger.info(
          { seconds: config.shutdownDrainSeconds },
          'draining: /api/health/ready answers 503 before the listener closes',
        );
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000));
      }
      stopHousekeeping();
      await jobs.stop();
      heldBuild?.close();
      await stopWatching().catch(() => {});
      await listener.close(10_000);
      await metricsListener?.close(1_000);
      await runtime.close();
    })();
    return closing;
  };

  return { server: listener.server, url, runtime, publication, close, heldBuild };
}

/** Whether a directory was written after `moment` (a build newer than a publication). */
function builtAfter(dir: string, moment: Date): boolean {
  try {
    return statSync(dir).mtimeMs > moment.getTime();
  } catch {
    return false;
  }
}

/** Not a demo: no demo accounts seeded, or a public origin set (a deployment). */
function isRealDataRun(config: Pick<Config, 'seedDemoAccounts' | 'publicOrigin'>): boolean {
  return !config.seedDemoAccounts || config.publicOrigin !== undefined;
}

/**
 * PGlite writes its files but never fsyncs them (none was lost to kill -9 when measured,
 * docs/performance.md, but the OS may still hold them in its cache): said plainly when real data is at stake.
 */
const pgliteDurabilityLines = [
  '',
  '  WARNING: embedded database (PGlite). Commits survive a killed process, but NOT an operating-system',
  '  crash or a power loss: PGlite does not fsync. For production set DATABASE_URL to a PostgreSQL server.',
];

/**
 * The demo accounts in the banner. A local run lists them. A deployment that seeds them anyway
 * (SEED_DEMO_ACCOUNTS=true with PUBLIC_ORIGIN: a public demo) lists them under a warning that
 * their passwords are public. A deployment that does not, but whose database still holds demo
 * accounts that open with their published password (`stillOpen`), names those to disable.
 */
export function demoAccountBannerLines(
  config: Pick<Config, 'seedDemoAccounts' | 'publicOrigin'>,
  stillOpen: readonly string[] = [],
): string[] {
  const table = demoAccountTable()
    .split('\n')
    .map((line) => `    ${line}`);
  if (config.seedDemoAccounts && config.publicOrigin === undefined) return ['', '  Demo accounts:', ...table];
  if (config.seedDemoAccounts) {
    return [
      '',
      `  WARNING: demo accounts with public passwords are seeded (SEED_DEMO_ACCOUNTS=true with PUBLIC_ORIGIN=${config.publicOrigin}):`,
      '  anyone can sign in as the operator below. Only for a public demo; a real deployment unsets SEED_DEMO_ACCOUNTS.',
      '',
      '  Demo accounts (public passwords):',
      ...table,
    ];
  }
  if (stillOpen.length === 0) return [];
  return [
    '',
    `  WARNING: demo accounts open with their published passwords in this database: ${stillOpen.join(', ')}.`,
    '  Disable each one: npm run user -- disable <user name>',
  ];
}

/** Until an operator exists nobody can manage the portal: how to make the first one (a new deployment). */
export function firstAdminBannerLines(adminExists: boolean): string[] {
  if (adminExists) return [];
  return [
    '',
    '  There is no active administrator yet. Create the first one on this machine (docs/deployment.md);',
    '  they create the operators, editors and auditors on /ops/staff:',
    '    npm run user -- create --user-name <name> --mobile <mobile> --name <name> --role admin',
  ];
}

function printBanner(
  running: RunningServer,
  config: Config,
  logger: Logger,
  openDemoAccounts: readonly string[],
  adminExists: boolean,
): void {
  const lines = [
    '',
    `  汇购电 portal listening on ${running.url}`,
    `  database: ${running.runtime.kind}${running.runtime.seeded ? ' (new, seeded)' : ''}`,
    `  static files: ${running.publication.staticDir}${existsSync(running.publication.staticDir) ? '' : ' (missing: run `npm run build` first)'}`,
    storageBannerLine(config),
  ];
  // Demo mode (the sandbox bank certifies anyone with the demo PIN) is said plainly, and logged.
  lines.push(...bankBannerLines(config));
  if (config.bankProvider === 'sandbox')
    logger.warn(
      { bankProvider: 'sandbox', publicOrigin: config.publicOrigin },
      'demo mode: USB-key certification uses the sandbox bank',
    );
  if (running.runtime.kind === 'pglite' && isRealDataRun(config)) {
    lines.push(...pgliteDurabilityLines);
    logger.warn(
      { db: 'pglite' },
      'embedded database: commits survive a killed process but not an OS crash or power loss (no fsync); use PostgreSQL for production',
    );
  }
  lines.push(...demoAccountBannerLines(config, openDemoAccounts), ...firstAdminBannerLines(adminExists));
  if (config.seedDemoAccounts && config.publicOrigin !== undefined) {
    logger.warn(
      { seedDemoAccounts: true, publicOrigin: config.publicOrigin },
      'demo accounts with public passwords are seeded (SEED_DEMO_ACCOUNTS=true)',
    );
  } else if (openDemoAccounts.length > 0) {
    logger.warn(
      { demoAccounts: openDemoAccounts },
      'demo accounts open with their published passwords; disable them with npm run user -- disable',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
  logger.info({ url: running.url, db: running.runtime.kind }, 'server started');
}

/** Starts the server and stops it cleanly on SIGINT / SIGTERM. */
export async function runServer(): Promise<RunningServer> {
  const config = loadConfig();
  const logger = createLogger(config);
  const running = await startServer(config);
  // The first publication finds its build ready (content/heldBuild.ts).
  running.heldBuild?.hold();
  // Only a deployment that did not ask for demo accounts looks for leftover ones (a few argon2 checks).
  const openDemoAccounts =
    config.publicOrigin !== undefined && !config.seedDemoAccounts
      ? await demoAccountsWithPublicPasswords(running.runtime.db)
      : [];
  printBanner(running, config, logger, openDemoAccounts, await hasActiveAdmin(running.runtime.db));
  exitOnSignals(logger, () => running.close());
  return running;
}

interface DevState {
  runtime?: Promise<Runtime> | undefined;
}
const devKey = Symbol.for('hgd.devRuntime');

/** Module-level on purpose: when Vite reloads this module after an edit, a new app is built. */
let devApp: Promise<Hono<AppEnv>> | undefined;

/**
 * The API for Astro's dev server (mount with `getRequestListener(app.fetch)`): no static files.
 * Cheap to call per request: the app is built once per module instance, and the database is
 * opened once per process and kept on globalThis, so module reloads reuse it.
 */
export function createDevApp(config: Config = getConfig()): Promise<Hono<AppEnv>> {
  devApp ??= (async () => {
    const state = ((globalThis as Record<symbol, DevState | undefined>)[devKey] ??= {});
    state.runtime ??= openRuntime(config).catch((error: unknown) => {
      state.runtime = undefined;
      throw error;
    });
    const runtime = await state.runtime;
    return createApp({
      db: runtime.db,
      config,
      logger: createLogger(config),
      dbKind: runtime.kind,
      objects: runtime.objects,
      keys: loadedKeys(runtime.keys),
    });
  })().catch((error: unknown) => {
    devApp = undefined;
    throw error;
  });
  return devApp;
}

/** Closes the dev runtime's database (tests, or an integration's server shutdown hook). */
export async function closeDevApp(): Promise<void> {
  devApp = undefined;
  const state = (globalThis as Record<symbol, DevState | undefined>)[devKey];
  const pending = state?.runtime;
  if (!state || !pending) return;
  state.runtime = undefined;
  await (await pending).close();
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  runServer().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
