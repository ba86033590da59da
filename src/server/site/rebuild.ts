/**
 * The editors' rebuild (POST /api/admin/site/rebuild): snapshot the content, build the site from
 * the snapshot into a fresh directory in the background, and publish both at once, on every API
 * process (publisher.ts).
 *
 *   start()   records a `site_builds` row (running) and returns it; a second start while one runs
 *             is refused (409 `rebuild.running`), in this process and, through the table and an
 *             advisory lock, in every other process: one builder at a time across the cluster
 *   run       copy CONTENT_DIR → builds/<id>/content; load it (a bad file fails here, naming the
 *             file and the field, before any build); build into builds/<id>/dist; count its pages;
 *             sync the regions table; store the build where every process can fetch it
 *             (artifacts.ts); record success and publish it in one transaction (NOTIFY), after
 *             which every process switches pages and content together
 *   CDN       with CDN_S3_BUCKET, the build's dist/ is uploaded to the CDN bucket (cdn.ts) after
 *             it is stored and before it is published; a failed upload fails the rebuild
 *   failure   any step before the publication throws: the old site and content stay published,
 *             the row records `failed` and why, the half-made build directory is removed
 *   rollback  an earlier publication becomes the published one again, everywhere (its dist/
 *             uploaded to the CDN bucket first, when there is one)
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import { loadContent } from '../../content/load.ts';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import { siteBuilds, type SiteBuildRow } from '../db/schema/index.ts';
import { ApiError } from '../envelope.ts';
import type { Logger } from '../logger.ts';
import { syncRegions } from '../services/regionSync.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { ensureLocalBuild, saveBuild } from './artifacts.ts';
import { countPages, type BuildCommand } from './buildCommand.ts';
import { uploadToCdn } from './cdn.ts';
import { buildDirName, siteLayout, type SiteLayout } from './publication.ts';
import type { SitePublisher } from './publisher.ts';

/** Longest failure reason kept in the table. */
const maxErrorLength = 4000;
/** Advisory lock id of the rebuild claim (any constant unique within this database). */
const rebuildLockKey = 4_400_003;

export interface SiteBuildView {
  buildId: number;
  status: SiteBuildRow['status'];
  startedAt: string;
  finishedAt: string | null;
  pages: number | null;
  error: string | null;
  /** The published directory, relative to DATA_DIR (set on success). */
  outputDir: string | null;
  /** When it last became the published site (its success or a rollback); null if never. */
  publishedAt: string | null;
}

export function siteBuildView(row: SiteBuildRow): SiteBuildView {
  return {
    buildId: row.id,
    status: row.status,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    pages: row.pages,
    error: row.error,
    outputDir: row.outputDir,
    publishedAt: row.publishedAt?.toISOString() ?? null,
  };
}

export interface SiteRebuilderOptions {
  db: Database;
  logger: Logger;
  dataDir: string;
  /** The editors' content directory that each rebuild snapshots (CONTENT_DIR or src/content). */
  sourceContentDir: string;
  /** Where builds are kept for every process (the object store). */
  objects: ObjectStore;
  publisher: SitePublisher;
  build: BuildCommand;
  /** A build running longer is stopped and recorded as failed. */
  timeoutMs: number;
  /** Loads and validates a content directory (load.ts by default). */
  load?: (dir: string) => SiteContent;
  /**
   * The bucket a CDN serves (CDN_S3_BUCKET, site/cdn.ts): when set, a build's dist/ is uploaded
   * there before it is published, by a rebuild and by a rollback; a failed upload publishes nothing.
   */
  cdn?: ObjectStore | undefined;
}

export interface SiteRebuilder {
  /** Starts a rebuild in the background; 409 while one runs. */
  start(): Promise<SiteBuildView>;
  /** The latest rebuild, or undefined before the first. */
  latest(): Promise<SiteBuildView | undefined>;
  /** Settles when the rebuild running now (if any) has finished, whatever its outcome. */
  idle(): Promise<void>;
  /** The recent builds, newest first, with the one published now marked. */
  history(): Promise<{ published: number | null; builds: SiteBuildView[] }>;
  /** Publishes an earlier successful build again, on every process (404 unknown, 409 no longer kept). */
  rollback(buildId: number): Promise<SiteBuildView>;
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > maxErrorLength ? `…${text.slice(-maxErrorLength)}` : text;
}

export function createSiteRebuilder(options: SiteRebuilderOptions): SiteRebuilder {
  const { db, logger, objects, publisher, build, timeoutMs, cdn } = options;
  const load = options.load ?? loadContent;
  const layout: SiteLayout = siteLayout(options.dataDir);
  let running: Promise<void> | undefined;

  /** Claims the one rebuild slot in a transaction: rows left `running` past the time limit (a crashed process) are closed first. */
  async function claim(): Promise<SiteBuildRow> {
    return db.transaction(async (tx) => {
      // Serialises claims of every process sharing the database (released at commit).
      await tx.execute(sql`select pg_advisory_xact_lock(${rebuildLockKey})`);
      const staleBefore = new Date(Date.now() - timeoutMs);
      await tx
        .update(siteBuilds)
        .set({ status: 'failed', finishedAt: new Date(), error: 'interrupted: the build did not finish within its time limit (server stopped?)' })
        .where(and(eq(siteBuilds.status, 'running'), lt(siteBuilds.startedAt, staleBefore)));
      const [other] = await tx.select({ id: siteBuilds.id }).from(siteBuilds).where(eq(siteBuilds.status, 'running')).limit(1);
      if (other) throw ApiError.conflict('rebuild.running');
      const [row] = await tx.insert(siteBuilds).values({ status: 'running' }).returning();
      if (!row) throw new Error('site_builds insert returned no row');
      return row;
    });
  }

  /** Uploads a build's pages to the CDN bucket (assets first, pages last) and logs the figures. */
  async function uploadForCdn(store: ObjectStore, buildId: number, distDir: string): Promise<void> {
    const figures = await uploadToCdn(store, distDir, { buildId });
    logger.info({ buildId, ...figures, seconds: figures.ms / 1000 }, 'site build uploaded to the CDN bucket');
  }

  async function finish(buildId: number, values: Partial<SiteBuildRow>): Promise<void> {
    await db.update(siteBuilds).set({ finishedAt: new Date(), ...values }).where(eq(siteBuilds.id, buildId));
  }

  async function run(row: SiteBuildRow): Promise<void> {
    const log = logger.child({ buildId: row.id });
    const buildDir = path.join(layout.buildsDir, buildDirName(row.id));
    const contentDir = path.join(buildDir, 'content');
    const outDir = path.join(buildDir, 'dist');
    const started = Date.now();
    try {
      await rm(buildDir, { recursive: true, force: true });
      await mkdir(outDir, { recursive: true });
      // Data files only: the schemas and loader (.ts) stay the server's own.
      await cp(options.sourceContentDir, contentDir, { recursive: true, filter: (source) => !source.endsWith('.ts') });
      const content = load(contentDir);

      const signal = AbortSignal.timeout(timeoutMs);
      await build({ contentDir, outDir, signal });
      const pages = await countPages(outDir);
      if (pages === 0) throw new Error('the build finished but wrote no pages');

      await saveBuild(objects, layout, row.id);
      if (cdn) await uploadForCdn(cdn, row.id, outDir);
      // Every live process fetches the build now, so that the publication is a swap everywhere.
      await publisher.stage(row.id);
      await syncRegions(db, content);
      // Success and publication in one transaction; every process then switches (this one first).
      await publisher.publish(row.id, {
        status: 'succeeded',
        finishedAt: new Date(),
        pages,
        outputDir: path.relative(path.dirname(layout.root), outDir),
      });
      log.info({ pages, seconds: (Date.now() - started) / 1000 }, 'site rebuilt and published');
    } catch (error) {
      const reason = reasonOf(error);
      log.error({ reason }, 'site rebuild failed; the published site is unchanged');
      await rm(buildDir, { recursive: true, force: true }).catch(() => {});
      await finish(row.id, { status: 'failed', error: reason }).catch((dbError: unknown) =>
        log.error({ err: dbError }, 'failed rebuild could not be recorded'),
      );
    }
  }

  return {
    async start() {
      // The slot is the database's (claim: an advisory lock and the `running` row), so one builder
      // runs at a time across every process; a refused claim starts nothing.
      const claimed = await claim();
      const current = run(claimed).finally(() => {
        if (running === current) running = undefined;
      });
      running = current;
      return siteBuildView(claimed);
    },
    async latest() {
      const [row] = await db.select().from(siteBuilds).orderBy(desc(siteBuilds.id)).limit(1);
      return row ? siteBuildView(row) : undefined;
    },
    idle: () => running ?? Promise.resolve(),
    async history() {
      const rows = await db.select().from(siteBuilds).orderBy(desc(siteBuilds.id)).limit(20);
      return { published: (await publisher.published())?.buildId ?? null, builds: rows.map(siteBuildView) };
    },
    async rollback(buildId) {
      const [row] = await db.select().from(siteBuilds).where(and(eq(siteBuilds.id, buildId), eq(siteBuilds.status, 'succeeded'), isNotNull(siteBuilds.publishedAt)));
      if (!row) throw ApiError.notFound('rebuild.unknownBuild');
      if (!(await publisher.keptBuildIds()).has(buildId)) throw ApiError.conflict('rebuild.buildGone');
      const content = await publisher.contentOf(buildId).catch((error: unknown) => {
        logger.error({ err: error, buildId }, 'rollback target unavailable');
        throw ApiError.conflict('rebuild.buildGone');
      });
      if (cdn) {
        // The CDN gets the rolled-back build's pages before any process serves them. Two uploads
        // at once would mix their pages in the bucket: no rollback while a rebuild runs.
        const [rebuilding] = await db.select({ id: siteBuilds.id }).from(siteBuilds).where(eq(siteBuilds.status, 'running')).limit(1);
        if (rebuilding) throw ApiError.conflict('rebuild.running');
        const distDir = path.join(await ensureLocalBuild(objects, layout, buildId), 'dist');
        await uploadForCdn(cdn, buildId, distDir).catch((error: unknown) => {
          logger.error({ buildId, reason: reasonOf(error) }, 'rollback stopped: the CDN upload failed; the published site is unchanged');
          throw Object.assign(ApiError.upstreamUnavailable('rebuild.cdnFailed'), { cause: error });
        });
      }
      await publisher.stage(buildId);
      await syncRegions(db, content);
      await publisher.publish(buildId);
      logger.info({ buildId }, 'site rolled back');
      const [after] = await db.select().from(siteBuilds).where(eq(siteBuilds.id, buildId));
      return siteBuildView(after ?? row);
    },
  };
}
