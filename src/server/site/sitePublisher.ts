/**
 * Which build every API process serves, agreed through the database, so that
 * every process of a cluster serves the same pages:
 *
 *   the published build = the succeeded `site_builds` row with the latest `published_at`
 *
 * `publish(id)` switches the calling process, then sets that time and sends NOTIFY
 * `site_publication` in one transaction (a rebuild's success, or an operator's rollback). Every process listens (`watch`), and also polls every
 * `SITE_POLL_SECONDS` in case a notification was missed (a dropped listening connection). On a
 * change it fetches the build when this machine lacks it (artifacts.ts), loads its content
 * snapshot, and then switches the content store and the served directory in one synchronous step,
 * so no request sees new pages with old content or back. Switches run one at a time; a change
 * that arrives during one is looked at right after.
 *
 * A process that starts later serves the current publication, not whatever its disk has — except
 * that `npm run build`'s STATIC_DIR wins when it is newer than the last publication (a developer's
 * fresh build, or a new release whose image carries a newer site).
 *
 * Measured (metrics/instruments.ts `publicationMetrics`): this process's switches by outcome,
 * their time, when it last switched, and which build it serves.
 */
import { statSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, ne, notInArray, sql } from 'drizzle-orm';
import { loadContent } from '../../content/load.ts';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database, DatabaseHandle } from '../db/client.ts';
import { listenToChannel, notify } from '../db/changeNotifications.ts';
import { siteBuilds, siteContents, siteNodes, type SiteBuildRow } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import { publicationMetrics, type Instrumented } from '../metrics/instruments.ts';
import type { ContentStore } from '../services/contentStore.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { buildDirOf, deltaChain, ensureLocalBuild, removeBuildArtifacts } from './artifacts.ts';
import { pointCurrentAt, siteLayout, type PublishedSite, type Publication, type SiteLayout } from './servedSite.ts';

export const publicationChannel = 'site_publication';
/** A build is stored and about to be published: every process fetches it now (phase one). */
export const stagingChannel = 'site_build_stored';

/** Publications kept for rollback (in the object store, or on disk with the local store). */
export const keptPublications = 5;

export interface PublishedBuild {
  buildId: number;
  publishedAt: Date;
}

export interface SitePublisher extends Instrumented {
  readonly site: PublishedSite;
  /** The published build according to the database, or undefined before the first. */
  published(): Promise<PublishedBuild | undefined>;
  /**
   * Makes a succeeded build the published one for every process (with `values`, e.g. a rebuild's
   * own success, in the same transaction), then switches this process.
   */
  /** `inTransaction` runs in the publication's transaction (the studio commits the content it was built from). */
  publish(
    buildId: number,
    values?: Partial<SiteBuildRow>,
    inTransaction?: (tx: Database) => Promise<void>,
  ): Promise<void>;
  /** Looks at the database's publication now and switches to it when it changed. */
  sync(): Promise<void>;
  /**
   * At start: serve the published build, or `fallback` when it is newer (see above) — unless
   * `preferPublished` (the fallback was built from other content than the database publishes).
   */
  start(fallback: Publication, options?: { preferPublished?: boolean }): Promise<Publication>;
  /** Listens for publications and polls; resolves to a function that stops both. */
  watch(handle: DatabaseHandle, pollMs: number): Promise<() => Promise<void>>;
  /** Loads a build's content snapshot (fetching the build if needed), for checks before publishing it. */
  contentOf(buildId: number): Promise<SiteContent>;
  /** The builds kept for rollback: the last `keptPublications` publications. */
  keptBuildIds(): Promise<Set<number>>;
  /**
   * Phase one of a publication: asks every live process to fetch the build now, and waits until all
   * of them have it (or `maxWaitMs` passed: the late ones fetch it when it is published). Then
   * `publish` is only a swap everywhere, not a download and unpack.
   */
  stage(buildId: number, maxWaitMs?: number, onProgress?: (staged: number, live: number) => void): Promise<void>;
}

export interface SitePublisherOptions {
  db: Database;
  objects: ObjectStore;
  dataDir: string;
  site: PublishedSite;
  store: ContentStore;
  logger: Logger;
  load?: (dir: string) => SiteContent;
}

/** How long a builder waits at most for every process to fetch a build before publishing it. */
export const stageWaitMs = 120_000;
/** How often a watching process says it is alive in `site_nodes`, whatever its poll. */
export const heartbeatMs = 3_000;
/** A process not heard from for this long is gone: a build waits for it no longer (three beats missed). */
export const liveWindowSeconds = 10;

const keyOf = (build: PublishedBuild) => `${build.buildId}@${build.publishedAt.toISOString()}`;

export function createSitePublisher(options: SitePublisherOptions): SitePublisher {
  const { db, objects, site, store, logger } = options;
  const load = options.load ?? loadContent;
  const layout: SiteLayout = siteLayout(options.dataDir);
  /** The publication this process last acted on (served, or chose not to at start). */
  let seen: string | undefined;
  let switching: Promise<void> | undefined;
  let again = false;
  /** This process in `site_nodes` (set while it watches). */
  const nodeId = randomUUID();
  /** Fetches under way, so a staging and a publication of one build share one download. */
  const fetching = new Map<number, Promise<string>>();
  const measured = publicationMetrics(() => site.current()?.buildId ?? null);

  function localBuild(buildId: number): Promise<string> {
    let pending = fetching.get(buildId);
    if (!pending) {
      pending = ensureLocalBuild(objects, layout, buildId).finally(() => fetching.delete(buildId));
      fetching.set(buildId, pending);
    }
    return pending;
  }

  async function heartbeat(stagedBuildId?: number): Promise<void> {
    const values = { nodeId, seenAt: new Date(), ...(stagedBuildId === undefined ? {} : { stagedBuildId }) };
    await db
      .insert(siteNodes)
      .values(values)
      .onConflictDoUpdate({
        target: siteNodes.nodeId,
        set: { seenAt: values.seenAt, ...(stagedBuildId === undefined ? {} : { stagedBuildId }) },
      });
  }

  async function prefetch(buildId: number): Promise<void> {
    const started = performance.now();
    await localBuild(buildId);
    await heartbeat(buildId);
    logger.info({ buildId, ms: Math.round(performance.now() - started) }, 'site build staged');
  }

  async function published(): Promise<PublishedBuild | undefined> {
    const [row] = await db
      .select({ buildId: siteBuilds.id, publishedAt: siteBuilds.publishedAt })
      .from(siteBuilds)
      .where(and(eq(siteBuilds.status, 'succeeded'), isNotNull(siteBuilds.publishedAt)))
      .orderBy(desc(siteBuilds.publishedAt), desc(siteBuilds.id))
      .limit(1);
    return row?.publishedAt ? { buildId: row.buildId, publishedAt: row.publishedAt } : undefined;
  }

  /**
   * The content a build was made from: as the builder stored it in the database (site_contents),
   * or, for a build made before it did, loaded from the build's content files.
   */
  async function contentOfBuild(buildId: number, buildDir: string): Promise<SiteContent> {
    const [row] = await db
      .select({ content: siteContents.content })
      .from(siteContents)
      .where(eq(siteContents.buildId, buildId));
    return row ? (JSON.parse(row.content) as SiteContent) : load(path.join(buildDir, 'content'));
  }

  /** Serves a build here: fetched if missing, content read, then pages and content swapped in one step. */
  async function activate(build: PublishedBuild): Promise<void> {
    const started = performance.now();
    let buildDir: string;
    let content: SiteContent;
    try {
      buildDir = await localBuild(build.buildId);
      content = await contentOfBuild(build.buildId, buildDir);
    } catch (error) {
      measured.switched('failed', (performance.now() - started) / 1000);
      throw error;
    }
    const contentDir = path.join(buildDir, 'content');
    // One synchronous step: pages and content change together.
    store.replace(content);
    site.publish({ staticDir: path.join(buildDir, 'dist'), contentDir, buildId: build.buildId });
    seen = keyOf(build);
    measured.switched('succeeded', (performance.now() - started) / 1000);
    await pointCurrentAt(layout, buildDir).catch(() => {});
    logger.info({ buildId: build.buildId, ms: Math.round(performance.now() - started) }, 'site publication switched');
  }

  async function switchTo(build: PublishedBuild): Promise<void> {
    await activate(build);
    await pruneLocal();
  }

  async function syncOnce(): Promise<void> {
    const build = await published();
    if (!build || keyOf(build) === seen) return;
    await switchTo(build);
  }

  function sync(): Promise<void> {
    if (switching) {
      again = true;
      return switching;
    }
    switching = (async () => {
      try {
        do {
          again = false;
          await syncOnce().catch((error: unknown) =>
            logger.error({ err: error }, 'site publication could not be switched; the previous one stays'),
          );
        } while (again);
      } finally {
        switching = undefined;
      }
    })();
    return switching;
  }

  /** Keeps on disk the served build, the one before it, and (local store: they are the rollback archive) the kept publications. */
  async function pruneLocal(): Promise<void> {
    const keep = await keptBuildIds();
    const served = site.current()?.buildId;
    if (served != null) keep.add(served);
    // The newest editors' preview stays viewable (it is never published).
    const [preview] = await db
      .select({ id: siteBuilds.id })
      .from(siteBuilds)
      .where(and(eq(siteBuilds.purpose, 'preview'), eq(siteBuilds.status, 'succeeded')))
      .orderBy(desc(siteBuilds.id))
      .limit(1);
    if (preview) keep.add(preview.id);
    const names = await readdir(layout.buildsDir).catch(() => [] as string[]);
    const local = objects.kind === 'local';
    const onDisk = names
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    // With an object store, disk is only a cache: the served build and its predecessor.
    const cached = new Set(local ? keep : [served, ...onDisk.filter((id) => id !== served).slice(-1)]);
    const running = new Set(
      (await db.select({ id: siteBuilds.id }).from(siteBuilds).where(eq(siteBuilds.status, 'running'))).map(
        (row) => row.id,
      ),
    );
    for (const id of onDisk) {
      if (!cached.has(id) && !running.has(id)) await rm(buildDirOf(layout, id), { recursive: true, force: true });
    }
    if (!local) {
      // A kept build archived as a delta needs its bases' archives too.
      const succeeded = await db
        .select({ id: siteBuilds.id, base: siteBuilds.baseBuildId })
        .from(siteBuilds)
        .where(eq(siteBuilds.status, 'succeeded'));
      const bases = new Map(succeeded.map((row) => [row.id, row.base]));
      const needed = new Set([...keep, ...running].flatMap((id) => [id, ...deltaChain(bases, id)]));
      const dropped = succeeded.filter((row) => !needed.has(row.id));
      await removeBuildArtifacts(
        objects,
        dropped.map((row) => row.id),
      ).catch((error: unknown) => logger.warn({ err: error }, 'old build archives not removed'));
    }
    // A build no longer kept cannot be published again: its stored content goes with it.
    await db
      .delete(siteContents)
      .where(notInArray(siteContents.buildId, [...keep, ...running, 0]))
      .catch((error: unknown) => logger.warn({ err: error }, "old builds' content not removed"));
  }

  /** The last `keptPublications` publications (by when they were published). */
  async function keptBuildIds(): Promise<Set<number>> {
    const rows = await db
      .select({ id: siteBuilds.id })
      .from(siteBuilds)
      .where(and(eq(siteBuilds.status, 'succeeded'), isNotNull(siteBuilds.publishedAt)))
      .orderBy(desc(siteBuilds.publishedAt))
      .limit(keptPublications);
    return new Set(rows.map((row) => row.id));
  }

  return {
    metrics: measured.metrics,
    site,
    published,
    keptBuildIds,
    async publish(buildId, values = {}, inTransaction) {
      // This process switches first and the publication is committed after, so that once the
      // database says "published" (a status call, another process) this process already serves
      // it; a failed commit switches back.
      const build = { buildId, publishedAt: new Date() };
      const before = { publication: site.current(), content: store.version() > 0 ? store.current() : undefined, seen };
      await activate(build);
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(siteBuilds)
            .set({ ...values, publishedAt: build.publishedAt })
            .where(eq(siteBuilds.id, buildId));
          await inTransaction?.(tx);
          await notify(tx, publicationChannel, String(buildId));
        });
      } catch (error) {
        if (before.content) store.replace(before.content);
        if (before.publication) site.publish(before.publication);
        seen = before.seen;
        throw error;
      }
      await pruneLocal().catch((error: unknown) => logger.warn({ err: error }, 'old builds not removed'));
    },
    sync,
    async start(fallback, options = {}) {
      const build = await published();
      if (!build) {
        site.publish(fallback);
        return fallback;
      }
      if (options.preferPublished) {
        try {
          await switchTo(build);
          return site.current() ?? fallback;
        } catch (error) {
          logger.error(
            { err: error, buildId: build.buildId },
            'published build unavailable at start; serving STATIC_DIR',
          );
          seen = keyOf(build);
          site.publish(fallback);
          return fallback;
        }
      }
      const builtAt = (() => {
        try {
          return statSync(fallback.staticDir).mtimeMs;
        } catch {
          return Number.NEGATIVE_INFINITY;
        }
      })();
      if (builtAt > build.publishedAt.getTime()) {
        seen = keyOf(build);
        site.publish(fallback);
        return fallback;
      }
      try {
        await switchTo(build);
      } catch (error) {
        logger.error(
          { err: error, buildId: build.buildId },
          'published build unavailable at start; serving STATIC_DIR',
        );
        seen = keyOf(build);
        site.publish(fallback);
      }
      return site.current() ?? fallback;
    },
    async watch(handle, everyMs) {
      await heartbeat();
      const unlisten = await listenToChannel(handle, publicationChannel, () => void sync());
      const unlistenStaging = await listenToChannel(handle, stagingChannel, (payload) => {
        const buildId = Number(payload);
        if (Number.isSafeInteger(buildId))
          void prefetch(buildId).catch((error: unknown) =>
            logger.warn({ err: error, buildId }, 'site build not staged'),
          );
      });
      const timer = setInterval(() => void sync(), everyMs);
      timer.unref();
      // Liveness by a short heartbeat, not by the poll: a dead process holds a staging back for at most liveWindowSeconds.
      const beat = setInterval(
        () => void heartbeat().catch((error: unknown) => logger.warn({ err: error }, 'site heartbeat failed')),
        heartbeatMs,
      );
      beat.unref();
      return async () => {
        clearInterval(timer);
        clearInterval(beat);
        await unlisten();
        await unlistenStaging();
        await db
          .delete(siteNodes)
          .where(eq(siteNodes.nodeId, nodeId))
          .catch(() => {});
      };
    },
    async stage(buildId, maxWaitMs = stageWaitMs, onProgress) {
      await localBuild(buildId);
      await notify(db, stagingChannel, String(buildId));
      const started = Date.now();
      // Live: heard from within liveWindowSeconds. This process has the build already.
      for (;;) {
        const [row] = await db
          .select({
            live: sql<number>`count(*)::int`,
            staged: sql<number>`(count(*) filter (where ${siteNodes.stagedBuildId} = ${buildId}))::int`,
          })
          .from(siteNodes)
          .where(
            and(
              ne(siteNodes.nodeId, nodeId),
              gt(siteNodes.seenAt, sql`now() - make_interval(secs => ${liveWindowSeconds})`),
            ),
          );
        const live = Number(row?.live ?? 0);
        const staged = Number(row?.staged ?? 0);
        onProgress?.(staged, live);
        if (staged >= live) return;
        if (Date.now() - started > maxWaitMs) {
          logger.warn({ buildId, missing: live - staged }, 'publishing before every process staged the build');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async contentOf(buildId) {
      return contentOfBuild(buildId, await localBuild(buildId));
    },
  };
}
