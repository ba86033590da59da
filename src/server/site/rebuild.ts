/**
 * Site builds, as the API starts them and answers for them (docs/editing-content.md): a build is
 * a `site-build` job on the job queue (jobs/queue.ts), run by the worker (buildJob.ts) — inside
 * this process with SITE_WORKER=embedded, else by `npm run worker`.
 *
 *   start()   records a `site_builds` row (running, step `queued`) and sends its job; a second
 *             start while one is queued or runs is refused (409 `rebuild.running`), across every
 *             process (an advisory lock and the `running` row)
 *   reads     a running row whose job the queue has given up on (its worker died and the retries
 *             ran out, or it ran past its time) is closed as failed when read: publishing goes on
 *             within a minute of a worker's death, never after a fixed lock time
 *   rollback  an earlier publication becomes the published one again, everywhere, its content
 *             (the items' published versions) with it (its dist/ uploaded to the CDN bucket
 *             first, when there is one)
 */
import path from 'node:path';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { BuildPhase, SiteBuildView } from '../../lib/studio/answers.ts';
import { siteBuilds, type SiteBuildRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { siteBuildQueue, type JobQueue } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import { syncRegions } from '../services/regionSync.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { restoreManifest } from '../studio/contentRepo.ts';
import { ensureLocalBuild } from './artifacts.ts';
import { reasonOf, type BuildJobData, type BuildOrder } from './buildJob.ts';
import { uploadToCdn } from './cdn.ts';
import { siteLayout, type SiteLayout } from './servedSite.ts';
import type { SitePublisher } from './sitePublisher.ts';

/** Advisory lock id of the rebuild claim (any constant unique within this database). */
const rebuildLockKey = 4_400_003;

/** A build as the rebuild calls and the studio answer it (declared in src/lib/studio/answers.ts). */
export type { SiteBuildView } from '../../lib/studio/answers.ts';

/** A queued build whose job was never sent (the process stopped in between) is closed after this. */
const unsentJobMs = 60_000;

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
    mode: row.mode,
    restarts: row.restarts,
  };
}

export interface SiteRebuilderOptions {
  db: Database;
  logger: Logger;
  dataDir: string;
  /** Where builds are kept for every process (the object store). */
  objects: ObjectStore;
  publisher: SitePublisher;
  /** The queue builds run on. */
  jobs: JobQueue;
  /**
   * The bucket a CDN serves (CDN_S3_BUCKET, site/cdn.ts): a rollback uploads the build's dist/
   * there before it is published; a failed upload publishes nothing.
   */
  cdn?: ObjectStore | undefined;
}

export interface SiteRebuilder {
  /** Queues a build (a publication of every draft by default); 409 while one is queued or runs. */
  start(order?: BuildOrder): Promise<SiteBuildView>;
  /** One build (404 `rebuild.unknownBuild`). */
  get(buildId: number): Promise<SiteBuildRow>;
  /** The latest rebuild, or undefined before the first. */
  latest(): Promise<SiteBuildView | undefined>;
  /** The recent builds, newest first, with the one published now marked. */
  history(): Promise<{ published: number | null; builds: SiteBuildView[] }>;
  /** Publishes an earlier successful build again, on every process (404 unknown, 409 no longer kept). */
  rollback(buildId: number): Promise<SiteBuildView>;
}

export function createSiteRebuilder(options: SiteRebuilderOptions): SiteRebuilder {
  const { db, logger, objects, publisher, jobs, cdn } = options;
  const layout: SiteLayout = siteLayout(options.dataDir);

  async function fail(buildId: number, error: string): Promise<void> {
    await db
      .update(siteBuilds)
      .set({ status: 'failed', finishedAt: new Date(), error })
      .where(and(eq(siteBuilds.id, buildId), eq(siteBuilds.status, 'running')));
  }

  /** Closes running rows the queue no longer runs (see the header); answers whether it closed any. */
  async function reconcile(
    rows: readonly Pick<SiteBuildRow, 'id' | 'status' | 'jobId' | 'startedAt'>[],
  ): Promise<boolean> {
    let closed = false;
    for (const row of rows) {
      if (row.status !== 'running') continue;
      if (row.jobId === null) {
        if (Date.now() - row.startedAt.getTime() < unsentJobMs) continue;
        await fail(row.id, 'interrupted: the build was never queued (the server stopped while starting it)');
        closed = true;
        continue;
      }
      const job = await jobs.job(siteBuildQueue, row.jobId);
      if (job && !['failed', 'cancelled', 'completed'].includes(job.state)) continue;
      const why =
        job?.state === 'failed'
          ? `: ${reasonOf((job.output as { message?: string } | null)?.message ?? 'its worker stopped')}`
          : '';
      await fail(row.id, `interrupted: the worker running the build stopped${why}`);
      closed = true;
    }
    return closed;
  }

  /** Claims the one build slot in a transaction (after closing rows whose worker is gone). */
  async function claim(order: BuildOrder): Promise<SiteBuildRow> {
    await reconcile(await db.select().from(siteBuilds).where(eq(siteBuilds.status, 'running')));
    return db.transaction(async (tx) => {
      // Serialises claims of every process sharing the database (released at commit).
      await tx.execute(sql`select pg_advisory_xact_lock(${rebuildLockKey})`);
      const [other] = await tx
        .select({ id: siteBuilds.id })
        .from(siteBuilds)
        .where(eq(siteBuilds.status, 'running'))
        .limit(1);
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
        .values({
          status: 'running',
          purpose: order.purpose,
          startedBy: order.userId ?? null,
          phase: 'queued',
          progressDone: 0,
          progressTotal: last?.pages ?? null,
        })
        .returning();
      if (!row) throw new Error('site_builds insert returned no row');
      return row;
    });
  }

  /** A row as read, with a running build whose worker is gone closed first. */
  async function current(row: SiteBuildRow): Promise<SiteBuildRow> {
    if (!(await reconcile([row]))) return row;
    const [after] = await db.select().from(siteBuilds).where(eq(siteBuilds.id, row.id));
    return after ?? row;
  }

  return {
    async start(order = { purpose: 'publish' }) {
      const claimed = await claim(order);
      const data: BuildJobData = { buildId: claimed.id, order };
      try {
        const jobId = await jobs.send(siteBuildQueue, data);
        await db.update(siteBuilds).set({ jobId }).where(eq(siteBuilds.id, claimed.id));
        return siteBuildView({ ...claimed, jobId });
      } catch (error) {
        await fail(claimed.id, `the build could not be queued: ${reasonOf(error)}`);
        throw error;
      }
    },
    async get(buildId) {
      const [row] = await db.select().from(siteBuilds).where(eq(siteBuilds.id, buildId));
      if (!row) throw ApiError.notFound('rebuild.unknownBuild');
      return current(row);
    },
    async latest() {
      const [row] = await db
        .select()
        .from(siteBuilds)
        .where(eq(siteBuilds.purpose, 'publish'))
        .orderBy(desc(siteBuilds.id))
        .limit(1);
      return row ? siteBuildView(await current(row)) : undefined;
    },
    async history() {
      const rows = await db
        .select()
        .from(siteBuilds)
        .where(eq(siteBuilds.purpose, 'publish'))
        .orderBy(desc(siteBuilds.id))
        .limit(20);
      return { published: (await publisher.published())?.buildId ?? null, builds: rows.map(siteBuildView) };
    },
    async rollback(buildId) {
      const [row] = await db
        .select()
        .from(siteBuilds)
        .where(and(eq(siteBuilds.id, buildId), eq(siteBuilds.status, 'succeeded'), isNotNull(siteBuilds.publishedAt)));
      if (!row) throw ApiError.notFound('rebuild.unknownBuild');
      if (!(await publisher.keptBuildIds()).has(buildId)) throw ApiError.conflict('rebuild.buildGone');
      const content = await publisher.contentOf(buildId).catch((error: unknown) => {
        logger.error({ err: error, buildId }, 'rollback target unavailable');
        throw ApiError.conflict('rebuild.buildGone');
      });
      if (cdn) {
        // The CDN gets the rolled-back build's pages before any process serves them. Two uploads
        // at once would mix their pages in the bucket: no rollback while a rebuild runs.
        const [rebuilding] = await db
          .select({ id: siteBuilds.id })
          .from(siteBuilds)
          .where(eq(siteBuilds.status, 'running'))
          .limit(1);
        if (rebuilding) throw ApiError.conflict('rebuild.running');
        const distDir = path.join(await ensureLocalBuild(objects, layout, buildId), 'dist');
        await uploadToCdn(cdn, distDir, { buildId }).then(
          (figures) =>
            logger.info(
              { buildId, ...figures, seconds: figures.ms / 1000 },
              'rolled-back build uploaded to the CDN bucket',
            ),
          (error: unknown) => {
            logger.error(
              { buildId, reason: reasonOf(error) },
              'rollback stopped: the CDN upload failed; the published site is unchanged',
            );
            throw Object.assign(ApiError.upstreamUnavailable('rebuild.cdnFailed'), { cause: error });
          },
        );
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
