/**
 * Publication across a cluster, in one process: three "nodes" — each with its own DATA_DIR, served directory
 * and content store — on one database and one S3-compatible bucket (s3rver on 127.0.0.1, no mock).
 * A build published by node A is fetched and served by B after the NOTIFY (the nodes poll only
 * once a minute, so only the notification can be what moves them); a rollback reaches both; a node that
 * starts later serves the current publication from the bucket, not its own disk.
 * The same over real processes: the cluster test.
 */
import { cpSync, existsSync, linkSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { siteBuilds, siteNodes } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createContentStore, type ContentStore } from '../../src/server/services/contentStore.ts';
import { artifactKey, buildDirOf, markBuilding, saveBuild } from '../../src/server/site/artifacts.ts';
import { createPublishedSite, siteLayout, type PublishedSite } from '../../src/server/site/servedSite.ts';
import { createSitePublisher, type SitePublisher } from '../../src/server/site/sitePublisher.ts';
import { createS3Store } from '../../src/server/storage/s3Store.ts';
import type { ObjectStore } from '../../src/server/storage/objectStore.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { startS3Server, type TestS3Server } from './s3Server.ts';

interface Node {
  dataDir: string;
  site: PublishedSite;
  store: ContentStore;
  publisher: SitePublisher;
}

let root: string;
let s3: TestS3Server;
let objects: ObjectStore;
let t: TestApp;
const stops: (() => Promise<void>)[] = [];
const logger = createLogger({ logLevel: 'silent' });

function node(name: string): Node {
  const dataDir = path.join(root, name);
  const site = createPublishedSite(undefined);
  const store = createContentStore(() => {
    throw new Error(`${name} has no content yet`);
  });
  return { dataDir, site, store, publisher: createSitePublisher({ db: t.db, objects, dataDir, site, store, logger }) };
}

/** A finished build in `builder`'s DATA_DIR: a home page saying `title`, and content with `extraNews` more items. */
async function makeBuild(builder: Node, title: string, extraNews: number): Promise<number> {
  const [row] = await t.db.insert(siteBuilds).values({ status: 'running' }).returning();
  const buildDir = buildDirOf(siteLayout(builder.dataDir), row!.id);
  mkdirSync(path.join(buildDir, 'dist/welcome/home'), { recursive: true });
  writeFileSync(path.join(buildDir, 'dist/welcome/home/index.html'), `<title>${title}</title>`);
  cpSync(path.resolve('src/content'), path.join(buildDir, 'content'), {
    recursive: true,
    filter: (source) => !source.endsWith('.ts'),
  });
  for (let i = 0; i < extraNews; i += 1) {
    writeFileSync(
      path.join(buildDir, `content/news/publication-test-${i}.md`),
      `---\nnewsTypeCode: company\ntitle: 发布测试 ${i}\ndate: 2026-11-20\nsource: 编辑部\nsummary: 集群发布测试。\n---\n正文。\n`,
    );
  }
  await saveBuild(objects, siteLayout(builder.dataDir), row!.id);
  return row!.id;
}

const homeOf = (served: Node) => readFileSync(path.join(served.site.staticDir()!, 'welcome/home/index.html'), 'utf8');

/** Waits until `served` serves `buildId`; answers the milliseconds it took. */
async function servedWithin(served: Node, buildId: number, limitMs = 5_000): Promise<number> {
  const started = performance.now();
  while (served.site.current()?.buildId !== buildId) {
    if (performance.now() - started > limitMs) throw new Error(`build ${buildId} not served within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

let a: Node;
let b: Node;
let baseNews: number;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-publication-'));
  s3 = await startS3Server('hgd-publication');
  objects = createS3Store(s3.options);
  t = await createTestApp();
  a = node('a');
  b = node('b');
  stops.push(await a.publisher.watch(t.handle, 60_000), await b.publisher.watch(t.handle, 60_000));
  baseNews = createContentStore().current().news.length;
}, 60_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  await t?.close();
  await s3?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('one publication, every node', () => {
  let first: number;
  let second: number;

  it('a build published by A is fetched from the bucket and served by B, pages and content together', async () => {
    first = await makeBuild(a, 'first build', 1);
    await a.publisher.publish(first, { status: 'succeeded', finishedAt: new Date(), pages: 1 });
    expect(a.site.current()?.buildId).toBe(first);
    const ms = await servedWithin(b, first);
    expect(ms).toBeLessThan(5_000);
    expect(homeOf(b)).toBe('<title>first build</title>');
    expect(b.store.current().news.length).toBe(baseNews + 1);
    expect(b.store.current().news.map((n) => n.newsId)).toContain('publication-test-0');
  });

  it('staged first, as a rebuild does: B has the build on its disk before it is published, and then only swaps', async () => {
    second = await makeBuild(a, 'second build', 2);
    await a.publisher.stage(second, 10_000);
    expect(existsSync(path.join(buildDirOf(siteLayout(b.dataDir), second), 'dist/welcome/home/index.html'))).toBe(true);
    expect(b.site.current()?.buildId).toBe(first);
    const [row] = await t.db.select().from(siteNodes).where(eq(siteNodes.stagedBuildId, second));
    expect(row).toBeDefined();
    await a.publisher.publish(second, { status: 'succeeded', finishedAt: new Date(), pages: 1 });
    expect(await servedWithin(b, second)).toBeLessThan(2_000);
  });

  it('the next one too; then a rollback reaches both, and forward again', async () => {
    await servedWithin(b, second);
    expect(homeOf(b)).toBe('<title>second build</title>');
    expect(b.store.current().news.length).toBe(baseNews + 2);

    // The rollback is published by B this time: any node may.
    await b.publisher.publish(first);
    await servedWithin(a, first);
    expect(homeOf(a)).toBe('<title>first build</title>');
    expect(b.site.current()?.buildId).toBe(first);
    expect(b.store.current().news.length).toBe(baseNews + 1);
    expect((await a.publisher.published())?.buildId).toBe(first);
  });

  it('a node that starts later serves the current publication from the bucket, not what its disk has', async () => {
    const c = node('c');
    const stale = path.join(root, 'c-static');
    mkdirSync(stale, { recursive: true });
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(stale, past, past);
    const chosen = await c.publisher.start({
      staticDir: stale,
      contentDir: path.resolve('src/content'),
      buildId: null,
    });
    expect(chosen.buildId).toBe(first);
    expect(homeOf(c)).toBe('<title>first build</title>');
    expect(c.store.current().news.length).toBe(baseNews + 1);
  });

  it('a directory a build killed mid-way left is not taken for the build: the node fetches the published one', async () => {
    const d = node('d');
    // D's worker was killed while it built `first`; another worker built and published it since.
    const halfWritten = buildDirOf(siteLayout(d.dataDir), first);
    mkdirSync(path.join(halfWritten, 'dist/welcome/home'), { recursive: true });
    mkdirSync(path.join(halfWritten, 'content'), { recursive: true });
    writeFileSync(path.join(halfWritten, 'dist/welcome/home/index.html'), '<title>half a build</title>');
    await markBuilding(halfWritten);
    const chosen = await d.publisher.start({
      staticDir: path.join(root, 'none'),
      contentDir: path.resolve('src/content'),
      buildId: null,
    });
    expect(chosen.buildId).toBe(first);
    expect(homeOf(d)).toBe('<title>first build</title>');
    expect(d.store.current().news.length).toBe(baseNews + 1);
  });

  it('a process that died holds a staging back for at most ten seconds (its heartbeat stops), whatever the poll', async () => {
    // A row the dead process's last heartbeat left 11 s ago; the nodes here poll once a minute.
    const dead = '00000000-0000-4000-8000-000000000dead';
    await t.db.insert(siteNodes).values({ nodeId: dead, seenAt: new Date(Date.now() - 11_000) });
    try {
      const buildId = await makeBuild(a, 'staged past the dead', 0);
      const started = performance.now();
      await a.publisher.stage(buildId, 20_000);
      expect(performance.now() - started).toBeLessThan(5_000);
      // And a live one is waited for: B beats every few seconds and stages it.
      const [row] = await t.db.select().from(siteNodes).where(eq(siteNodes.stagedBuildId, buildId));
      expect(row).toBeDefined();
    } finally {
      await t.db.delete(siteNodes).where(eq(siteNodes.nodeId, dead));
    }
  });

  it("keeps every kept publication's archive in the bucket", async () => {
    const keys = await objects.list('site/builds/');
    expect(keys).toEqual(expect.arrayContaining([artifactKey(first), artifactKey(second)]));
  });

  it('an incremental build travels as a delta: its archive holds only its own files, and B rebuilds the whole build from the base it serves', async () => {
    const base = await makeBuild(a, 'delta base', 0);
    const layoutA = siteLayout(a.dataDir);
    const baseDir = buildDirOf(layoutA, base);
    mkdirSync(path.join(baseDir, 'dist/kept'), { recursive: true });
    writeFileSync(path.join(baseDir, 'dist/kept/index.html'), '<title>kept page</title>');
    await saveBuild(objects, layoutA, base);
    await a.publisher.publish(base, { status: 'succeeded', finishedAt: new Date(), pages: 2 });
    await servedWithin(b, base);

    // As the incremental integration leaves it: the base's files linked, the changed ones new.
    const [row] = await t.db
      .insert(siteBuilds)
      .values({ status: 'running', mode: 'incremental', baseBuildId: base })
      .returning();
    const delta = row!.id;
    const deltaDir = buildDirOf(layoutA, delta);
    mkdirSync(path.join(deltaDir, 'dist/kept'), { recursive: true });
    mkdirSync(path.join(deltaDir, 'dist/welcome/home'), { recursive: true });
    mkdirSync(path.join(deltaDir, 'dist/added'), { recursive: true });
    linkSync(path.join(baseDir, 'dist/kept/index.html'), path.join(deltaDir, 'dist/kept/index.html'));
    writeFileSync(path.join(deltaDir, 'dist/welcome/home/index.html'), '<title>delta build</title>');
    writeFileSync(path.join(deltaDir, 'dist/added/index.html'), '<title>added page</title>');
    cpSync(path.join(baseDir, 'content'), path.join(deltaDir, 'content'), { recursive: true });
    await saveBuild(objects, layoutA, delta, base);

    const archived: string[] = [];
    const archive = await objects.get(artifactKey(delta));
    await pipeline(
      Readable.fromWeb(archive!.body as never),
      tar.list({ onReadEntry: (entry) => void archived.push(entry.path) }),
    );
    expect(archived).toContain('delta.json');
    expect(archived).toContain('dist/welcome/home/index.html');
    expect(archived).toContain('dist/added/index.html');
    expect(archived).not.toContain('dist/kept/index.html');

    await t.db.update(siteBuilds).set({ status: 'succeeded', pages: 3 }).where(eq(siteBuilds.id, delta));
    await a.publisher.publish(delta);
    await servedWithin(b, delta);
    const served = b.site.staticDir()!;
    expect(homeOf(b)).toBe('<title>delta build</title>');
    expect(readFileSync(path.join(served, 'added/index.html'), 'utf8')).toBe('<title>added page</title>');
    expect(readFileSync(path.join(served, 'kept/index.html'), 'utf8')).toBe('<title>kept page</title>');
    // B's base stays, so does its archive: the delta needs it.
    expect(await objects.list('site/builds/')).toEqual(expect.arrayContaining([artifactKey(base), artifactKey(delta)]));
  });
});
