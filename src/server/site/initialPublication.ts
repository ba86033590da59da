/**
 * The site first served (STATIC_DIR, the output of `npm run build`) becomes a publication like any
 * other at the first start of a database that has none: copied into builds/<id>, its content
 * snapshot and manifest recorded, stored for every process and published. So the first editor's
 * publication can be rolled back to the site as it was, and the first incremental build has a base.
 */
import { cp, mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { SiteContent } from '../../content/schemas.ts';
import type { Database } from '../db/client.ts';
import { siteBuilds, siteContents } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { commitPublication, takeSnapshot, writeSnapshot } from '../studio/contentRepo.ts';
import { saveBuild } from './artifacts.ts';
import { countPages } from './buildCommand.ts';
import { buildDirName, siteLayout } from './servedSite.ts';
import type { SitePublisher } from './sitePublisher.ts';

/** Advisory lock id of the first publication's claim. */
const initialLockKey = 4_400_005;

export interface InitialPublicationOptions {
  db: Database;
  objects: ObjectStore;
  publisher: SitePublisher;
  logger: Logger;
  dataDir: string;
  /** The built site served so far. */
  staticDir: string;
  load: (dir: string) => SiteContent;
}

/** Records STATIC_DIR as the first publication unless there is one (or another process is recording it); answers its id. */
export async function recordInitialPublication(options: InitialPublicationOptions): Promise<number | undefined> {
  const { db, objects, publisher, logger } = options;
  const layout = siteLayout(options.dataDir);
  const buildId = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${initialLockKey})`);
    const [existing] = await tx
      .select({ id: siteBuilds.id })
      .from(siteBuilds)
      .where(
        or(isNotNull(siteBuilds.publishedAt), and(eq(siteBuilds.mode, 'initial'), eq(siteBuilds.status, 'running'))),
      )
      .limit(1);
    if (existing) return undefined;
    const [row] = await tx
      .insert(siteBuilds)
      .values({ status: 'running', purpose: 'publish', mode: 'initial', phase: 'store' })
      .returning({ id: siteBuilds.id });
    return row?.id;
  });
  if (buildId === undefined) return undefined;
  const buildDir = path.join(layout.buildsDir, buildDirName(buildId));
  try {
    await rm(buildDir, { recursive: true, force: true });
    await mkdir(buildDir, { recursive: true });
    // STATIC_DIR is often a link to the release's build (`npm run build`): its files are copied.
    await cp(await realpath(options.staticDir), path.join(buildDir, 'dist'), { recursive: true, dereference: true });
    const contentDir = path.join(buildDir, 'content');
    await writeSnapshot(await takeSnapshot(db, 'none'), contentDir);
    const content = options.load(contentDir);
    await db.insert(siteContents).values({ buildId, content: JSON.stringify(content) });
    await saveBuild(objects, layout, buildId);
    const pages = await countPages(path.join(buildDir, 'dist'));
    const outputDir = path.relative(path.dirname(layout.root), path.join(buildDir, 'dist'));
    await publisher.publish(
      buildId,
      { status: 'succeeded', finishedAt: new Date(), pages, outputDir, phase: null },
      (tx) => commitPublication(tx, buildId, [], null),
    );
    logger.info({ buildId, pages }, 'the site first served is recorded as a publication');
    return buildId;
  } catch (error) {
    await rm(buildDir, { recursive: true, force: true }).catch(() => {});
    await db
      .update(siteBuilds)
      .set({
        status: 'failed',
        finishedAt: new Date(),
        error: `the site first served could not be recorded: ${error instanceof Error ? error.message : String(error)}`,
      })
      .where(eq(siteBuilds.id, buildId));
    throw error;
  }
}
