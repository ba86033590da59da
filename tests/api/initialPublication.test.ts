/**
 * The site first served is a publication (site/initialPublication.ts): recorded once, at the first
 * start of a database that has none, so that rolling back an editor's first publication takes the
 * item it made public off the site again — pages and content API together.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { siteBuilds } from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createContentStore } from '../../src/server/services/contentStore.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import { recordInitialPublication } from '../../src/server/site/initialPublication.ts';
import { createPublishedSite } from '../../src/server/site/servedSite.ts';
import { createSitePublisher, type SitePublisher } from '../../src/server/site/sitePublisher.ts';
import { createLocalStore } from '../../src/server/storage/localStore.ts';
import { saveFileDraft } from './contentDrafts.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

const token = 'initial-publication-token-0123456789abcdef';
const auth = { Authorization: `Bearer ${token}` };
let root: string;
let dataDir: string;
let staticDir: string;
let publisher: SitePublisher;
let store: ReturnType<typeof createContentStore>;
let t: TestApp;

/** A build writing a home page that counts the news of its content. */
async function build({ contentDir, outDir }: BuildRequest): Promise<void> {
  mkdirSync(path.join(outDir, 'welcome/home'), { recursive: true });
  writeFileSync(
    path.join(outDir, 'welcome/home/index.html'),
    `<!doctype html><title>${loadContent(contentDir).news.length} news</title>`,
  );
}

async function latest(): Promise<{ buildId: number; status: string; error: string | null }> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const answer = (await (await t.app.request('/api/admin/site/rebuild', { headers: auth })).json()) as {
      data: { buildId: number; status: string; error: string | null };
    };
    if (answer.data.status !== 'running') return answer.data;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the build did not finish');
}

const home = async () => (await t.app.request('/welcome/home')).text();

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-initial-'));
  dataDir = path.join(root, 'data');
  staticDir = path.join(root, 'dist');
  mkdirSync(path.join(staticDir, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(staticDir, 'welcome/home/index.html'), '<!doctype html><title>the site first served</title>');
  const objects = createLocalStore(path.join(dataDir, 'files'));
  store = createContentStore();
  // The app serves what this publisher publishes, as the server's does.
  t = await createTestApp({
    env: { DATA_DIR: dataDir, REBUILD_TOKEN: token },
    staticDir,
    deps: (db) => {
      const site = createPublishedSite({ staticDir, contentDir: path.resolve('src/content'), buildId: null });
      publisher = createSitePublisher({
        db,
        objects,
        dataDir,
        site,
        store,
        logger: createLogger({ logLevel: 'silent' }),
      });
      return { siteBuild: { command: build }, objects, publisher };
    },
  });
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

describe('the site first served', () => {
  it('is recorded once as a publication, and rolling back to it removes what an editor published since', async () => {
    const logger = createLogger({ logLevel: 'silent' });
    const initial = await recordInitialPublication({
      db: t.db,
      objects: createLocalStore(path.join(dataDir, 'files')),
      publisher,
      logger,
      dataDir,
      staticDir,
      load: loadContent,
    });
    expect(initial).toBeTypeOf('number');
    expect(await publisher.published()).toMatchObject({ buildId: initial });
    expect(await home()).toBe('<!doctype html><title>the site first served</title>');
    const [row] = await t.db.select().from(siteBuilds);
    expect(row).toMatchObject({ id: initial, mode: 'initial', status: 'succeeded', pages: 1 });
    // Another process starting later finds it and records nothing.
    expect(
      await recordInitialPublication({
        db: t.db,
        objects: createLocalStore(path.join(dataDir, 'files')),
        publisher,
        logger,
        dataDir,
        staticDir,
        load: loadContent,
      }),
    ).toBeUndefined();

    const newsBefore = store.current().news.length;
    await saveFileDraft(
      t.db,
      'news/first-publication.md',
      '---\nnewsTypeCode: company\ntitle: 首次发布的新闻\ndate: 2026-11-26\nsource: 编辑部\nsummary: 编辑的第一次发布。\n---\n正文。\n',
    );
    const started = await t.app.request('/api/admin/site/rebuild', { method: 'POST', headers: apiHeaders(auth) });
    expect(((await started.json()) as { code: number }).code).toBe(200);
    expect(await latest()).toMatchObject({ status: 'succeeded', error: null });
    expect(await home()).toBe(`<!doctype html><title>${newsBefore + 1} news</title>`);
    expect(store.current().news.map((news) => news.newsId)).toContain('first-publication');

    const rollback = await t.app.request('/api/admin/site/rollback', {
      method: 'POST',
      headers: apiHeaders({ ...auth, 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: `buildId=${initial}`,
    });
    expect(((await rollback.json()) as { code: number }).code).toBe(200);
    expect(await home()).toBe('<!doctype html><title>the site first served</title>');
    expect(store.current().news.map((news) => news.newsId)).not.toContain('first-publication');
    expect(store.current().news).toHaveLength(newsBefore);
  });
});
