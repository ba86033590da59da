/**
 * The editors' rebuild (POST/GET /api/admin/site/rebuild) with an injected build command: token
 * checks, success publishing pages and content at once, failures keeping the old site and saying
 * why, one rebuild at a time; and the publication helpers (start-up choice, atomic link).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { createLogger } from '../../src/server/logger.ts';
import { siteBuilds } from '../../src/server/db/schema/index.ts';
import { tokenMatches } from '../../src/server/bearerToken.ts';
import { rebuildTokenRule } from '../../src/server/routes/siteAdmin.ts';
import { contentStore } from '../../src/server/services/contentStore.ts';
import type { BuildCommand, BuildRequest } from '../../src/server/site/buildCommand.ts';
import { createBuildRunner } from '../../src/server/site/buildJob.ts';
import { siteBuildView } from '../../src/server/site/rebuild.ts';
import { createContentStore } from '../../src/server/services/contentStore.ts';
import { createPublishedSite, pointCurrentAt, siteLayout } from '../../src/server/site/servedSite.ts';
import { createSitePublisher, keptPublications } from '../../src/server/site/sitePublisher.ts';
import { createLocalStore } from '../../src/server/storage/localStore.ts';
import { discardDraft } from '../../src/server/studio/contentRepo.ts';
import { saveFileDraft } from './contentDrafts.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

const token = 'rebuild-token-0123456789abcdef0123456789';
const auth = { Authorization: `Bearer ${token}` };

let root: string;
let dataDir: string;
let sourceContent: string;
let oldDist: string;
let t: TestApp;

/** What the injected build does; each test sets it. */
let build: (request: BuildRequest) => Promise<void>;
let buildCalls = 0;
const command: BuildCommand = (request) => {
  buildCalls += 1;
  return build(request);
};

/** A build that writes two pages naming how many news items its content snapshot holds. */
async function pagesFromContent({ contentDir, outDir }: BuildRequest): Promise<void> {
  const news = loadContent(contentDir).news.length;
  mkdirSync(path.join(outDir, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(outDir, 'index.html'), `<!doctype html><title>built with ${news} news</title>`);
  writeFileSync(path.join(outDir, 'welcome/home/index.html'), `<!doctype html><title>home, ${news} news</title>`);
}

function writePage(dir: string, title: string): void {
  mkdirSync(path.join(dir, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>${title}</title>`);
  writeFileSync(path.join(dir, 'welcome/home/index.html'), `<!doctype html><title>${title} home</title>`);
}

interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}
interface BuildView {
  buildId: number;
  status: string;
  pages: number | null;
  error: string | null;
  outputDir: string | null;
  finishedAt: string | null;
}

async function post(headers: Record<string, string> = auth): Promise<{ status: number; body: Envelope<BuildView> }> {
  const response = await t.app.request('/api/admin/site/rebuild', { method: 'POST', headers: apiHeaders(headers) });
  return { status: response.status, body: (await response.json()) as Envelope<BuildView> };
}

async function status(headers: Record<string, string> = auth): Promise<Envelope<BuildView>> {
  const response = await t.app.request('/api/admin/site/rebuild', { headers });
  return (await response.json()) as Envelope<BuildView>;
}

/** Polls the status call until the latest rebuild is no longer running. */
async function finished(): Promise<BuildView> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const body = await status();
    if (body.data.status !== 'running') return body.data;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the rebuild did not finish');
}

async function page(url: string): Promise<string> {
  return (await t.app.request(url)).text();
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-rebuild-'));
  dataDir = path.join(root, 'data');
  sourceContent = path.join(root, 'content');
  oldDist = path.join(root, 'dist');
  cpSync(path.resolve('src/content'), sourceContent, { recursive: true, filter: (source) => !source.endsWith('.ts') });
  writePage(oldDist, 'old site');
  t = await createTestApp({
    staticDir: oldDist,
    env: { DATA_DIR: dataDir, REBUILD_TOKEN: token },
    deps: { siteBuild: { command } },
  });
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  build = pagesFromContent;
  buildCalls = 0;
});

describe('the token', () => {
  it('must be at least 32 characters, and a bad one is never echoed', () => {
    const attempt = () => loadConfig({ REBUILD_TOKEN: 'short-secret' });
    expect(attempt).toThrow(ConfigError);
    expect(() => attempt()).toThrow(/REBUILD_TOKEN=\[hidden\]: must be at least 32 characters/);
    try {
      attempt();
    } catch (error) {
      expect(String(error)).not.toContain('short-secret');
    }
    expect(loadConfig({}).rebuildToken).toBeUndefined();
    expect(loadConfig({ REBUILD_TOKEN: token }).rebuildTimeoutMinutes).toBe(20);
  });

  it('is compared in constant time and only an exact match passes', () => {
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
  });

  it('missing or wrong: 403 in the caller’s language, and nothing starts', async () => {
    const missing = await post({});
    expect(missing.status).toBe(200);
    expect(missing.body.code).toBe(403);
    expect(missing.body.message).toBe('重建令牌缺失或不正确。');

    const wrong = await post({ Authorization: 'Bearer not-the-token', 'Accept-Language': 'en-US' });
    expect(wrong.body).toMatchObject({ code: 403, message: 'The rebuild token is missing or wrong.' });
    expect((await status({ Authorization: 'Basic abc' })).code).toBe(403);

    expect(buildCalls).toBe(0);
    expect(await t.db.select().from(siteBuilds)).toEqual([]);
    expect(await status()).toMatchObject({ code: 200, message: '尚未进行过站点重建。', data: {} });
  });

  it('without REBUILD_TOKEN the calls do not exist (HTTP 404)', async () => {
    const bare = await createTestApp({ env: { DATA_DIR: dataDir } });
    try {
      const response = await bare.app.request('/api/admin/site/rebuild', { method: 'POST', headers: apiHeaders(auth) });
      expect(response.status).toBe(404);
      expect(((await response.json()) as Envelope).code).toBe(404);
      expect((await bare.app.request('/api/admin/site/rebuild', { headers: auth })).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('a successful rebuild', () => {
  it('builds from a snapshot in the background, then publishes pages and content at once', async () => {
    const before = contentStore.current();
    const newsBefore = before.news.length;
    await saveFileDraft(
      t.db,
      'news/rebuild-test-item.md',
      '---\nnewsTypeCode: company\ntitle: 重建测试新闻\ndate: 2026-11-20\nsource: 编辑部\nsummary: 用于验证重建后的内容发布。\n---\n正文。\n',
    );

    // While the build runs, visitors and the API still get the old site and the old content.
    let during: { page: string; sameContent: boolean } | undefined;
    build = async (request) => {
      await pagesFromContent(request);
      during = { page: await page('/welcome/home'), sameContent: contentStore.current() === before };
    };

    const started = await post();
    expect(started.body.code).toBe(200);
    expect(started.body.message).toBe('站点重建已开始，完成后将自动发布。');
    expect(started.body.data).toMatchObject({ status: 'running', pages: null, error: null });

    const result = await finished();
    expect(result).toMatchObject({ buildId: started.body.data.buildId, status: 'succeeded', pages: 2, error: null });
    expect(result.finishedAt).not.toBeNull();
    expect(during).toEqual({ page: '<!doctype html><title>old site home</title>', sameContent: true });

    expect(await page('/welcome/home')).toBe(`<!doctype html><title>home, ${newsBefore + 1} news</title>`);
    const after = contentStore.current();
    expect(after.news.map((n) => n.newsId)).toContain('rebuild-test-item');

    // `current` points at the published build; the server would pick it at the next start.
    const layout = siteLayout(dataDir);
    const target = path.resolve(layout.root, readlinkSync(layout.currentLink));
    expect(path.relative(dataDir, path.join(target, 'dist'))).toBe(result.outputDir);
    expect(readFileSync(path.join(target, 'content/news/rebuild-test-item.md'), 'utf8')).toContain('重建测试新闻');
    expect(existsSync(path.join(target, 'content/schemas.ts'))).toBe(false);
  });
});

describe('a failed rebuild', () => {
  it('keeps the published site and content, and records why', async () => {
    const published = await page('/welcome/home');
    const content = contentStore.current();
    build = async ({ outDir }) => {
      writeFileSync(path.join(outDir, 'index.html'), 'half a page');
      throw new Error('[build] src/pages/[...locale]/welcome/home.astro: Unexpected token');
    };

    const started = await post();
    expect(started.body.code).toBe(200);
    const result = await finished();
    expect(result.status).toBe('failed');
    expect(result.error).toContain('welcome/home.astro: Unexpected token');
    expect(result.outputDir).toBeNull();

    expect(await page('/welcome/home')).toBe(published);
    expect(await page('/')).not.toBe('half a page');
    expect(contentStore.current()).toBe(content);
    expect(existsSync(path.join(siteLayout(dataDir).buildsDir, String(result.buildId).padStart(6, '0')))).toBe(false);
  });

  it('stops before building when a content file is bad, naming the file and the field', async () => {
    const file = 'news/rebuild-test-item.md';
    const good = readFileSync(path.join(siteLayout(dataDir).currentLink, 'content', file), 'utf8');
    await saveFileDraft(t.db, file, good.replace('date: 2026-11-20', 'date: 2026-02-30'));
    try {
      await post();
      const result = await finished();
      expect(result.status).toBe('failed');
      expect(result.error).toContain('news/rebuild-test-item.md');
      expect(result.error).toContain('date');
      expect(buildCalls).toBe(0);
    } finally {
      await discardDraft(t.db, file);
    }
  });

  it('an output with no pages is a failure', async () => {
    build = async () => {};
    await post();
    expect(await finished()).toMatchObject({ status: 'failed', error: 'the build finished but wrote no pages' });
  });
});

describe('one rebuild at a time', () => {
  it('a second call while one runs gets 409 and starts nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    build = async (request) => {
      await gate;
      await pagesFromContent(request);
    };
    const first = await post();
    expect(first.body.code).toBe(200);
    const second = await post();
    expect(second.body).toMatchObject({ code: 409, message: '已有一次站点重建正在进行，请在其完成后再试。' });
    expect((await status()).data).toMatchObject({ buildId: first.body.data.buildId, status: 'running' });
    release();
    expect(await finished()).toMatchObject({ buildId: first.body.data.buildId, status: 'succeeded' });
    expect(buildCalls).toBe(1);

    const next = await post();
    expect(next.body.code).toBe(200);
    expect((await finished()).status).toBe('succeeded');
  });

  it('keeps the succeeded builds on disk (with the local store they are the rollback archive), not the failed ones', async () => {
    const latest = (await status()).data;
    const kept = readdirSync(siteLayout(dataDir).buildsDir)
      .filter((name) => /^\d+$/.test(name))
      .sort();
    const succeeded = (await t.db.select().from(siteBuilds)).filter((row) => row.status === 'succeeded');
    expect(kept).toEqual(succeeded.map((row) => String(row.id).padStart(6, '0')).slice(-keptPublications));
    expect(kept.at(-1)).toBe(String(latest.buildId).padStart(6, '0'));
  });
});

describe('history and rollback', () => {
  const call = async (url: string, init: RequestInit = {}) =>
    (await (await t.app.request(url, init)).json()) as Envelope<Record<string, unknown>>;
  const rollback = (buildId: number | string, locale = 'zh-CN') =>
    call('/api/admin/site/rollback', {
      method: 'POST',
      headers: apiHeaders({ ...auth, 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': locale }),
      body: `buildId=${buildId}`,
    });

  it('lists the recent builds and which one is published', async () => {
    const answer = await call('/api/admin/site/builds', { headers: auth });
    const builds = answer.data['builds'] as BuildView[];
    expect(builds[0]?.buildId).toBeGreaterThan(builds.at(-1)?.buildId ?? 0);
    expect(answer.data['published']).toBe(builds.find((build) => build.status === 'succeeded')?.buildId);
    expect((await call('/api/admin/site/builds')).code).toBe(403);
  });

  it('publishes an earlier build again: its pages and its content, at once; then forward again', async () => {
    const builds = (await call('/api/admin/site/builds', { headers: auth })).data['builds'] as (BuildView & {
      publishedAt: string;
    })[];
    const succeeded = builds.filter((build) => build.status === 'succeeded');
    const [latest, earlier] = [succeeded[0]!, succeeded.at(-1)!];
    const latestPage = await page('/welcome/home');

    const answer = await rollback(earlier.buildId);
    expect(answer).toMatchObject({
      code: 200,
      message: '站点已回滚，所有服务节点将随即切换。',
      data: { buildId: earlier.buildId },
    });
    expect((await call('/api/admin/site/builds', { headers: auth })).data['published']).toBe(earlier.buildId);
    const earlierDir = path.join(siteLayout(dataDir).buildsDir, String(earlier.buildId).padStart(6, '0'));
    expect(readFileSync(path.join(earlierDir, 'dist/welcome/home/index.html'), 'utf8')).toBe(
      await page('/welcome/home'),
    );

    expect((await rollback(latest.buildId)).code).toBe(200);
    expect(await page('/welcome/home')).toBe(latestPage);
  });

  it('refuses an unknown or failed build (404) and bad input (400), in the caller’s language', async () => {
    const failed = (await t.db.select().from(siteBuilds)).find((row) => row.status === 'failed');
    expect((await rollback(999_999)).code).toBe(404);
    expect((await rollback(failed!.id, 'en-US')).message).toBe('There is no published build with this id.');
    expect((await rollback('abc')).code).toBe(400);
  });
});

describe('publication helpers', () => {
  it('at start, serves the published build, or STATIC_DIR when that is newer', async () => {
    const publisher = createSitePublisher({
      db: t.db,
      objects: createLocalStore(dataDir),
      dataDir,
      site: createPublishedSite(undefined),
      store: createContentStore(),
      logger: createLogger({ logLevel: 'silent' }),
    });
    const published = await publisher.published();
    const fallback = { staticDir: oldDist, contentDir: sourceContent, buildId: null };
    const past = new Date(Date.now() - 3_600_000);
    const future = new Date(Date.now() + 60_000);

    utimesSync(oldDist, past, past);
    const chosen = await publisher.start(fallback);
    expect(chosen.buildId).toBe(published?.buildId);
    expect(chosen.staticDir).toBe(
      path.join(siteLayout(dataDir).buildsDir, String(published?.buildId).padStart(6, '0'), 'dist'),
    );

    utimesSync(oldDist, future, future);
    const again = createSitePublisher({
      db: t.db,
      objects: createLocalStore(dataDir),
      dataDir,
      site: createPublishedSite(undefined),
      store: createContentStore(),
      logger: createLogger({ logLevel: 'silent' }),
    });
    expect(await again.start(fallback)).toEqual(fallback);
  });

  it('replaces the `current` link in one rename', async () => {
    const layout = siteLayout(path.join(root, 'links'));
    const a = path.join(layout.buildsDir, '000001');
    const b = path.join(layout.buildsDir, '000002');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    await pointCurrentAt(layout, a);
    expect(readlinkSync(layout.currentLink)).toBe(path.join('builds', '000001'));
    await pointCurrentAt(layout, b);
    expect(readlinkSync(layout.currentLink)).toBe(path.join('builds', '000002'));
  });
});

describe('wrong tokens', () => {
  it('are rate limited per IP (429 after the limit)', async () => {
    let last: Envelope<BuildView> | undefined;
    for (let i = 0; i <= rebuildTokenRule.limit; i += 1) last = (await post({ Authorization: 'Bearer guess' })).body;
    expect(last?.code).toBe(429);
    // Even the right token waits until the window ends: a guesser cannot tell when they hit it.
    expect((await post()).body.code).toBe(429);
  });
});

describe('a worker that stops mid-build', () => {
  it('hands the job back: the build is ended, its row stays running, and the job run again publishes it', async () => {
    const logger = createLogger({ logLevel: 'silent' });
    const objects = createLocalStore(dataDir);
    const publisher = createSitePublisher({
      db: t.db,
      objects,
      dataDir,
      site: createPublishedSite(undefined),
      store: createContentStore(() => loadContent(sourceContent)),
      logger,
    });
    let stoppedBuilds = 0;
    let hang = true;
    const runner = createBuildRunner({
      db: t.db,
      logger,
      dataDir,
      objects,
      publisher,
      timeoutMs: 60_000,
      // The first run lasts until it is stopped; the second builds.
      build: (request) =>
        hang
          ? new Promise<void>((_, reject) =>
              request.signal.addEventListener('abort', () => {
                stoppedBuilds += 1;
                reject(new Error(`build stopped: ${String(request.signal.reason)}`));
              }),
            )
          : pagesFromContent(request),
    });
    const [row] = await t.db.insert(siteBuilds).values({ purpose: 'publish' }).returning();
    const job = { buildId: row!.id, order: { purpose: 'publish' as const, drafts: 'none' as const } };

    // The queue aborts a job's signal when the stopping worker's grace is spent.
    const handOver = new AbortController();
    const first = runner.runJob(job, { signal: handOver.signal });
    for (let i = 0; i < 200; i += 1) {
      const [current] = await t.db.select().from(siteBuilds).where(eq(siteBuilds.id, row!.id));
      if (current?.phase === 'build') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    handOver.abort(new Error('pg-boss shut down while the handler was still running'));
    await expect(first).rejects.toThrow(/build stopped/);
    expect(stoppedBuilds).toBe(1);
    const [handedBack] = await t.db.select().from(siteBuilds).where(eq(siteBuilds.id, row!.id));
    expect(handedBack).toMatchObject({ status: 'running', error: null, restarts: 0 });

    hang = false;
    await runner.runJob(job, { retryCount: 1 });
    const [published] = await t.db.select().from(siteBuilds).where(eq(siteBuilds.id, row!.id));
    expect(published).toMatchObject({ status: 'succeeded', error: null });
    expect(published?.publishedAt).not.toBeNull();
    // The editor's view of the build says it started over once.
    expect(siteBuildView(published!)).toMatchObject({ status: 'succeeded', restarts: 1 });
  });
});
