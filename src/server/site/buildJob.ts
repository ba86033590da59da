/**
 * A site build, as the worker runs it (a `site-build` job: jobs/worker.ts). The API side that
 * starts builds and answers for them is rebuild.ts.
 *
 *   content   the published items with the chosen drafts (studio/contentRepo.ts) written to
 *             builds/<id>/content and loaded (a bad item fails here, naming its file and field)
 *   images    the uploaded images it refers to, converted within their budget
 *   build     `astro build` into builds/<id>/dist: incremental over the published build when it can
 *             (incremental.ts), else every page; pages counted as they are written
 *   index     the search index of every page, whichever were rendered (integrations/searchIndex.ts),
 *             pages counted
 *   compress  the `.br` and `.gz` of every new file, counted
 *   store     the content as served (site_contents), and the build where every process can fetch it
 *   upload    with CDN_S3_BUCKET, the pages to the CDN bucket, counted (a failed upload fails it)
 *   stage     every live process fetches the build, counted
 *   publish   success, the drafts it carried becoming published versions and the publication, in
 *             one transaction (NOTIFY); every process then switches
 *
 * A preview stops after `store` (built as a publication is, never published). Any failure before the
 * publication leaves the published site, its content and the drafts as they were; the row records
 * `failed` and why. A job whose worker died is run again from the start by the queue.
 *
 * Measured (metrics/instruments.ts `siteBuildMetrics`): builds by purpose and outcome, the time of
 * the successful ones, and when each purpose last succeeded on any worker.
 */
import { writeFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq, max } from 'drizzle-orm';
import { loadContent } from '../../content/load.ts';
import { incrementalPlanVariable } from '../../content/pageGraph.ts';
import type { SiteContent } from '../../content/schemas.ts';
import type { BuildPhase } from '../../lib/studio/views.ts';
import type { Database } from '../db/client.ts';
import { siteBuilds, siteContents, type SiteBuildPurpose, type SiteBuildRow } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import { siteBuildMetrics } from '../metrics/instruments.ts';
import { syncRegions } from '../services/regionSync.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import {
  commitPublication,
  takeSnapshot,
  writeSnapshot,
  type CarriedDraft,
  type DraftSelection,
} from '../studio/contentRepo.ts';
import { prepareImages } from '../studio/images.ts';
import { ensureLocalBuild, markBuilding, markBuilt, saveBuild } from './artifacts.ts';
import { countPages, type BuildCommand, type BuildStep } from './buildCommand.ts';
import { uploadToCdn } from './cdn.ts';
import { planBuild } from './incremental.ts';
import { buildDirName, siteLayout } from './servedSite.ts';
import type { SitePublisher } from './sitePublisher.ts';

/** Longest failure reason kept in the table. */
const maxErrorLength = 4000;
/** Progress is saved at most this often (the last figure of a step always). */
const progressEveryMs = 500;

/** What to build: the public site with the drafts it publishes, or an editor's preview. */
export interface BuildOrder {
  purpose: SiteBuildPurpose;
  /** The drafts it carries: all (the default), some paths, or none (the published content again). */
  drafts?: DraftSelection;
  /** The editor who started it (null: the token call). */
  userId?: number | null;
  /** Every page, even when an incremental build could do (an operator's choice). */
  full?: boolean;
}

/** What a `site-build` job carries. */
export interface BuildJobData {
  buildId: number;
  order: BuildOrder;
}

export interface BuildRunnerOptions {
  db: Database;
  logger: Logger;
  dataDir: string;
  objects: ObjectStore;
  /** Publishes on every process (this process's own, in the embedded worker). */
  publisher: SitePublisher;
  build: BuildCommand;
  timeoutMs: number;
  load?: (dir: string) => SiteContent;
  /** The CDN bucket (CDN_S3_BUCKET), when there is one. */
  cdn?: ObjectStore | undefined;
  /** The project `astro build` runs in (its code decides whether a base can be reused). */
  projectRoot?: string;
}

export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > maxErrorLength ? `…${text.slice(-maxErrorLength)}` : text;
}

/** A build's step and its progress in its row, for the progress call of any process. */
function progressOf(db: Database, buildId: number) {
  let savedAt = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const save = (values: Partial<SiteBuildRow>) => {
    pending = pending.then(() => db.update(siteBuilds).set(values).where(eq(siteBuilds.id, buildId))).catch(() => {});
  };
  /** Milliseconds each step took, for the log. */
  const steps: Partial<Record<BuildPhase, number>> = {};
  let current: { phase: BuildPhase; since: number } | undefined;
  const closeStep = () => {
    if (current) steps[current.phase] = Math.round(performance.now() - current.since);
  };
  return {
    /** A new step, its total when known (null: unknown). */
    step(phase: BuildPhase, total: number | null = null) {
      closeStep();
      current = { phase, since: performance.now() };
      savedAt = Date.now();
      save({ phase, progressDone: 0, progressTotal: total });
    },
    /** The steps' durations so far (ms). */
    timings() {
      closeStep();
      return steps;
    },
    /** Work done in the step; saved at most twice a second, and always when it reaches its total. */
    tick(done: number, total?: number) {
      const last = total !== undefined && done >= total;
      if (!last && Date.now() - savedAt < progressEveryMs) return;
      savedAt = Date.now();
      save(total === undefined ? { progressDone: done } : { progressDone: done, progressTotal: total });
    },
    settled: () => pending,
  };
}

/** When each purpose's last successful build finished (unix seconds), over every worker. */
async function lastSuccesses(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ purpose: siteBuilds.purpose, at: max(siteBuilds.finishedAt) })
    .from(siteBuilds)
    .where(eq(siteBuilds.status, 'succeeded'))
    .groupBy(siteBuilds.purpose);
  return new Map(rows.flatMap((row) => (row.at ? [[row.purpose, new Date(row.at).getTime() / 1000] as const] : [])));
}

export function createBuildRunner(options: BuildRunnerOptions) {
  const { db, logger, objects, publisher, build, timeoutMs, cdn } = options;
  const measured = siteBuildMetrics(() => lastSuccesses(db));
  const load = options.load ?? loadContent;
  const layout = siteLayout(options.dataDir);
  const projectRoot = options.projectRoot ?? process.cwd();

  async function finish(buildId: number, values: Partial<SiteBuildRow>): Promise<void> {
    await db
      .update(siteBuilds)
      .set({ finishedAt: new Date(), ...values })
      .where(eq(siteBuilds.id, buildId));
  }

  /** The published build and its directory here, when there is one to build on. */
  async function publishedBase(): Promise<{ buildId: number; dir: string } | undefined> {
    const published = await publisher.published();
    if (!published) return undefined;
    try {
      return { buildId: published.buildId, dir: await ensureLocalBuild(objects, layout, published.buildId) };
    } catch (error) {
      logger.warn(
        { buildId: published.buildId, reason: reasonOf(error) },
        'published build unavailable here: building every page',
      );
      return undefined;
    }
  }

  async function run(row: SiteBuildRow, order: BuildOrder, handOver: AbortSignal | undefined): Promise<void> {
    const log = logger.child({ buildId: row.id, purpose: order.purpose });
    const buildDir = path.join(layout.buildsDir, buildDirName(row.id));
    const contentDir = path.join(buildDir, 'content');
    const outDir = path.join(buildDir, 'dist');
    const started = Date.now();
    const preview = order.purpose === 'preview';
    const progress = progressOf(db, row.id);
    const { promise: jobEnded, resolve: endJob } = Promise.withResolvers<void>();
    try {
      progress.step('content');
      await rm(buildDir, { recursive: true, force: true });
      await mkdir(outDir, { recursive: true });
      await markBuilding(buildDir);
      const snapshot = await takeSnapshot(db, order.drafts ?? 'all');
      await writeSnapshot(snapshot, contentDir);
      const content = load(contentDir);
      const carried: CarriedDraft[] = snapshot.carried;

      progress.step('images');
      await prepareImages(db, objects, snapshot.files);

      // A preview is planned as a publication is: the pages its drafts change, over the published build.
      const plan = planBuild({ base: await publishedBase(), content, load, projectRoot, full: order.full ?? false });
      const env: Record<string, string> = {};
      if (plan.mode === 'incremental') {
        const planFile = path.join(buildDir, 'incremental-plan.json');
        await writeFile(planFile, JSON.stringify(plan.plan));
        env[incrementalPlanVariable] = planFile;
        log.info({ base: plan.baseBuildId, changedKeys: plan.plan.changed.length }, 'incremental build');
      } else log.info({ reason: plan.reason }, 'full build');
      await db
        .update(siteBuilds)
        .set({ mode: plan.mode, baseBuildId: plan.mode === 'incremental' ? plan.baseBuildId : null })
        .where(eq(siteBuilds.id, row.id));

      progress.step('build', row.progressTotal);
      // The steps `astro build` reports after its pages (search index, compression), each its own.
      let buildStep: BuildStep = 'build';
      await build({
        contentDir,
        outDir,
        signal: handOver ? AbortSignal.any([AbortSignal.timeout(timeoutMs), handOver]) : AbortSignal.timeout(timeoutMs),
        env,
        jobEnded,
        onProgress: (step, done, total) => {
          if (step !== buildStep) {
            buildStep = step;
            progress.step(step, total ?? null);
          }
          progress.tick(done, total);
        },
      });
      const pages = await countPages(outDir);
      if (pages === 0) throw new Error('the build finished but wrote no pages');
      await markBuilt(buildDir);

      progress.step('store');
      if (!preview)
        await db
          .insert(siteContents)
          .values({ buildId: row.id, content: JSON.stringify(content) })
          .onConflictDoUpdate({ target: siteContents.buildId, set: { content: JSON.stringify(content) } });
      await saveBuild(objects, layout, row.id, plan.mode === 'incremental' ? plan.baseBuildId : undefined);
      const outputDir = path.relative(path.dirname(layout.root), outDir);
      if (preview) {
        await progress.settled();
        await finish(row.id, { status: 'succeeded', pages, outputDir });
        measured.finished(order.purpose, 'succeeded', (Date.now() - started) / 1000);
        log.info({ pages, seconds: (Date.now() - started) / 1000, stepMs: progress.timings() }, 'preview built');
        return;
      }
      if (cdn) {
        progress.step('upload');
        const figures = await uploadToCdn(cdn, outDir, {
          buildId: row.id,
          onProgress: (done, total) => progress.tick(done, total),
        });
        log.info({ ...figures, seconds: figures.ms / 1000 }, 'site build uploaded to the CDN bucket');
      }
      // Every live process fetches the build now, so that the publication is a swap everywhere.
      progress.step('stage');
      await publisher.stage(row.id, undefined, (staged, live) => progress.tick(staged, live));
      progress.step('publish');
      await progress.settled();
      await syncRegions(db, content);
      // Success, the content it was built from, and the publication in one transaction; every
      // process then switches (this one first).
      await publisher.publish(
        row.id,
        { status: 'succeeded', finishedAt: new Date(), pages, outputDir, phase: null },
        (tx) => commitPublication(tx, row.id, carried, order.userId ?? null),
      );
      measured.finished(order.purpose, 'succeeded', (Date.now() - started) / 1000);
      log.info(
        {
          pages,
          mode: plan.mode,
          drafts: carried.length,
          seconds: (Date.now() - started) / 1000,
          stepMs: progress.timings(),
        },
        'site built and published',
      );
    } catch (error) {
      if (handOver?.aborted) {
        // The worker is stopping and its grace is spent: the queue has failed the job already and
        // runs it again (on another worker, or this one restarted). The row stays `running` for it.
        log.warn(
          { reason: reasonOf(error) },
          'site build handed back to the queue: the worker stopped before it finished',
        );
        await progress.settled();
        await rm(buildDir, { recursive: true, force: true }).catch(() => {});
        throw error;
      }
      measured.finished(order.purpose, 'failed', (Date.now() - started) / 1000);
      const reason = reasonOf(error);
      log.error({ reason }, preview ? 'preview build failed' : 'site build failed; the published site is unchanged');
      await progress.settled();
      await rm(buildDir, { recursive: true, force: true }).catch(() => {});
      await db
        .delete(siteContents)
        .where(eq(siteContents.buildId, row.id))
        .catch(() => {});
      await finish(row.id, { status: 'failed', error: reason }).catch((dbError: unknown) =>
        log.error({ err: dbError }, 'failed build could not be recorded'),
      );
    } finally {
      endJob();
    }
  }

  return {
    metrics: measured.metrics,
    /**
     * Runs a `site-build` job: the build its row names, unless that row is no longer running.
     * `attempt.signal` aborts when the worker stops and may wait no longer: the build then ends and
     * the job goes back to the queue, its row still running (a job is never lost to a stop).
     */
    async runJob(
      { buildId, order }: BuildJobData,
      attempt: { signal?: AbortSignal; retryCount?: number } = {},
    ): Promise<void> {
      const [row] = await db.select().from(siteBuilds).where(eq(siteBuilds.id, buildId));
      if (!row || row.status !== 'running') {
        logger.warn({ buildId, status: row?.status }, 'site build job skipped: its build is not running');
        return;
      }
      if (attempt.retryCount) {
        logger.info({ buildId, retry: attempt.retryCount }, 'site build run again: its worker stopped or died');
        // The editor's progress view says it started over, and that nothing needs publishing again.
        await db.update(siteBuilds).set({ restarts: attempt.retryCount }).where(eq(siteBuilds.id, buildId));
      }
      await run(row, order, attempt.signal);
    },
  };
}

export type BuildRunner = ReturnType<typeof createBuildRunner>;
