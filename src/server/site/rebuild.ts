/**
 * Site builds (docs/editing-content.md): a snapshot of the content in the database is built into a
 * fresh directory in the background, then published on every API process (publisher.ts) — or,
 * for an editor's preview, kept unpublished for the editor to look at.
 *
 *   start()   records a `site_builds` row (running) and returns it; a second start while one runs
 *             is refused (409 `rebuild.running`), in this process and, through the table and an
 *             advisory lock, in every other process: one builder at a time across the cluster
 *   run       content: the published items with the chosen drafts (studio/contentRepo.ts) written
 *             to builds/<id>/content and loaded (a bad item fails here, naming its file and field);
 *             images: the uploaded images it refers to converted within their budget; build:
 *             `astro build` into builds/<id>/dist (pages counted as it goes, for the progress bar);
 *             store: where every process can fetch it (artifacts.ts); stage: every process fetches
 *             it; publish: success, the drafts it carried becoming published versions and the
 *             publication in one transaction (NOTIFY), after which every process switches
 *   preview   the same up to `store`, zh-CN pages only, never published
 *   CDN       with CDN_S3_BUCKET, the build's dist/ is uploaded to the CDN bucket (cdn.ts) after
 *             it is stored and before it is published; a failed upload fails the rebuild
 *   failure   any step before the publication throws: the old site and content stay published,
 *             the drafts stay drafts, the row records `failed` and why, the half-made build is removed
 *   rollback  an earlier publication becomes the published one again, everywhere, its content
 *             (the items' published versions) with it (its dist/ uploaded to the CDN bucket
 *             first, when there is one)
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import { loadContent } from '../../content/load.ts';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import type { BuildPhase } from '../../lib/studioViews.ts';
import { siteBuilds, type SiteBuildPurpose, type SiteBuildRow } from '../db/schema/index.ts';
import { ApiError } from '../envelope.ts';
import type { Logger } from '../logger.ts';
import { syncRegions } from '../services/regionSync.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { commitPublication, restoreManifest, takeSnapshot, writeSnapshot, type CarriedDraft, type DraftSelection } from '../studio/contentRepo.ts';
import { prepareImages } from '../studio/images.ts';
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
  purpose: SiteBuildPurpose;
  /** What it is doing now: content, images, build, store, stage, publish (null when done). */
  phase: BuildPhase | null;
  /** Pages written so far, of about how many (the last such build's count; null before the first). */
  progressDone: number | null;
  progressTotal: number | null;
}


/** What to build: the public site with the drafts it publishes, or an editor's preview. */
export interface BuildOrder {
  purpose: SiteBuildPurpose;
  /** The drafts it carries: all (the default), some paths, or none (the published content again). */
  drafts?: DraftSelection;
  /** The editor who started it (null: the token call). */
  userId?: number | null;
}

/** Locales a preview builds (the content is written in zh-CN; the interface languages add nothing to check). */
const previewLocales = 'zh-CN';

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
    purpose: row.purpose,
    phase: row.status === 'running' ? ((row.phase as BuildPhase | null) ?? null) : null,
    progressDone: row.progressDone,
    progressTotal: row.progressTotal,
  };
}

export interface SiteRebuilderOptions {
  db: Database;
  logger: Logger;
  dataDir: string;
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
  /** Starts a build in the background (a publication of every draft by default); 409 while one runs. */
  start(order?: BuildOrder): Promise<SiteBuildView>;
  /** One build (404 `rebuild.unknownBuild`). */
  get(buildId: number): Promise<SiteBuildRow>;
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
  async function claim(order: BuildOrder): Promise<SiteBuildRow> {
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
      // The progress bar's total: the pages of the last such build.
      const [last] = await tx
        .select({ pages: siteBuilds.pages })
        .from(siteBuilds)
        .where(and(eq(siteBuilds.status, 'succeeded'), eq(siteBuilds.purpose, order.purpose)))
        .orderBy(desc(siteBuilds.id))
        .limit(1);
      const [row] = await tx
        .insert(siteBuilds)
        .values({ status: 'running', purpose: order.purpose, startedBy: order.userId ?? null, phase: 'content', progressDone: 0, progressTotal: last?.pages ?? null })
        .returning();
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

  async function setPhase(buildId: number, phase: BuildPhase): Promise<void> {
    await db.update(siteBuilds).set({ phase }).where(eq(siteBuilds.id, buildId));
  }

  /** Pages written so far, saved at most once a second (any process answers the progress call). */
  function progressRecorder(buildId: number): (pages: number) => void {
    let savedAt = 0;
    return (pages) => {
      if (Date.now() - savedAt < 1000) return;
      savedAt = Date.now();
      void db
        .update(siteBuilds)
        .set({ progressDone: pages })
        .where(eq(siteBuilds.id, buildId))
        .catch(() => {});
    };
  }

  async function run(row: SiteBuildRow, order: BuildOrder): Promise<void> {
    const log = logger.child({ buildId: row.id, purpose: order.purpose });
    const buildDir = path.join(layout.buildsDir, buildDirName(row.id));
    const contentDir = path.join(buildDir, 'content');
    const outDir = path.join(buildDir, 'dist');
    const started = Date.now();
    const preview = order.purpose === 'preview';
    try {
      await rm(buildDir, { recursive: true, force: true });
      await mkdir(outDir, { recursive: true });
      const snapshot = await takeSnapshot(db, order.drafts ?? 'all');
      await writeSnapshot(snapshot, contentDir);
      const content = load(contentDir);
      const carried: CarriedDraft[] = snapshot.carried;

      await setPhase(row.id, 'images');
      await prepareImages(db, objects, snapshot.files);

      await setPhase(row.id, 'build');
      const signal = AbortSignal.timeout(timeoutMs);
      await build({ contentDir, outDir, signal, onPage: progressRecorder(row.id), env: preview ? { BUILD_LOCALES: previewLocales } : {} });
      const pages = await countPages(outDir);
      if (pages === 0) throw new Error('the build finished but wrote no pages');

      await db.update(siteBuilds).set({ phase: 'store', progressDone: pages }).where(eq(siteBuilds.id, row.id));
      await saveBuild(objects, layout, row.id);
      const outputDir = path.relative(path.dirname(layout.root), outDir);
      if (preview) {
        await finish(row.id, { status: 'succeeded', pages, outputDir });
        log.info({ pages, seconds: (Date.now() - started) / 1000 }, 'preview built');
        return;
      }
      if (cdn) await uploadForCdn(cdn, row.id, outDir);
      // Every live process fetches the build now, so that the publication is a swap everywhere.
      await setPhase(row.id, 'stage');
      await publisher.stage(row.id);
      await setPhase(row.id, 'publish');
      await syncRegions(db, content);
      // Success, the content it was built from, and the publication in one transaction; every
      // process then switches (this one first).
      await publisher.publish(row.id, { status: 'succeeded', finishedAt: new Date(), pages, outputDir }, (tx) =>
        commitPublication(tx, row.id, carried, order.userId ?? null),
      );
      log.info({ pages, drafts: carried.length, seconds: (Date.now() - started) / 1000 }, 'site rebuilt and published');
    } catch (error) {
      const reason = reasonOf(error);
      log.error({ reason }, preview ? 'preview build failed' : 'site rebuild failed; the published site is unchanged');
      await rm(buildDir, { recursive: true, force: true }).catch(() => {});
      await finish(row.id, { status: 'failed', error: reason }).catch((dbError: unknown) =>
        log.error({ err: dbError }, 'failed rebuild could not be recorded'),
      );
    }
  }

  return {
    async start(order = { purpose: 'publish' }) {
      // The slot is the database's (claim: an advisory lock and the `running` row), so one builder
      // runs at a time across every process; a refused claim starts nothing.
      const claimed = await claim(order);
      const current = run(claimed, order).finally(() => {
        if (running === current) running = undefined;
      });
      running = current;
      return siteBuildView(claimed);
    },
    async get(buildId) {
      const [row] = await db.select().from(siteBuilds).where(eq(siteBuilds.id, buildId));
      if (!row) throw ApiError.notFound('rebuild.unknownBuild');
      return row;
    },
    async latest() {
      const [row] = await db.select().from(siteBuilds).where(eq(siteBuilds.purpose, 'publish')).orderBy(desc(siteBuilds.id)).limit(1);
      return row ? siteBuildView(row) : undefined;
    },
    idle: () => running ?? Promise.resolve(),
    async history() {
      const rows = await db.select().from(siteBuilds).where(eq(siteBuilds.purpose, 'publish')).orderBy(desc(siteBuilds.id)).limit(20);
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
      // The items' published versions go back with the pages (drafts stay as they are).
      await publisher.publish(buildId, {}, (tx) => restoreManifest(tx, buildId));
      logger.info({ buildId }, 'site rolled back');
      const [after] = await db.select().from(siteBuilds).where(eq(siteBuilds.id, buildId));
      return siteBuildView(after ?? row);
    },
  };
}
