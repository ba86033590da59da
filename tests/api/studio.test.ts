/**
 * The editors' studio (/api/studio/*) on a real database with an injected build command: who may
 * edit, drafts checked with the build's own schema (errors at the field, in the caller's locale),
 * revisions, the content check before a build, previews that change nothing public, publications
 * that publish exactly the drafts they built (versions, manifest, audit), rollback of pages and
 * content together, images within their weight budget, and the zip export/import.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { auditLog, contentItems, siteBuilds } from '../../src/server/db/schema/index.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import { filesMatchPublished } from '../../src/server/studio/contentRepo.ts';
import { createApp } from '../../src/server/app.ts';
import { createLogger } from '../../src/server/logger.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}
interface Build {
  buildId: number;
  purpose: string;
  status: string;
  phase: string | null;
  error: string | null;
  paths: string[];
  previewUrl: string | null;
  progressTotal: number | null;
}
interface Item {
  path: string;
  state: string;
  revision: number;
  publishedVersion: number;
  draft: unknown;
  published: unknown;
  title: string;
  draftBy: string | null;
  draftAt: string | null;
  publishedBy: string | null;
  publishedAt: string | null;
}

let root: string;
let t: TestApp;
let editor: string;
/** What the injected build does; each test may replace it. */
let build: (request: BuildRequest) => Promise<void>;

/** A build that writes the home page and one page per news item, from its content snapshot. */
async function pagesFromContent({ contentDir, outDir }: BuildRequest): Promise<void> {
  const content = loadContent(contentDir);
  mkdirSync(path.join(outDir, 'welcome/home'), { recursive: true });
  writeFileSync(
    path.join(outDir, 'index.html'),
    `<!doctype html><title>${content.news.length} news</title><link rel="stylesheet" href="/_astro/site.css">`,
  );
  mkdirSync(path.join(outDir, '_astro'), { recursive: true });
  writeFileSync(path.join(outDir, '_astro/site.css'), 'body{color:#111}');
  writeFileSync(
    path.join(outDir, 'welcome/home/index.html'),
    `<!doctype html><title>home: ${content.news.map((n) => n.title).join('|')}</title>`,
  );
  for (const news of content.news) {
    mkdirSync(path.join(outDir, 'infomation/detail', news.newsId), { recursive: true });
    writeFileSync(
      path.join(outDir, 'infomation/detail', news.newsId, 'index.html'),
      `<!doctype html><title>${news.title}</title>${news.body}`,
    );
  }
}

async function call<T = Record<string, unknown>>(
  url: string,
  options: { body?: unknown; cookie?: string; locale?: string } = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = {
    cookie: options.cookie ?? editor,
    'Accept-Language': options.locale ?? 'zh-CN',
  };
  const response =
    options.body === undefined
      ? await t.app.request(url, { headers })
      : await t.app.request(url, {
          method: 'POST',
          headers: apiHeaders({ ...headers, 'Content-Type': 'application/json' }),
          body: JSON.stringify(options.body),
        });
  return (await response.json()) as Envelope<T>;
}

async function upload<T>(url: string, name: string, bytes: Uint8Array, type: string): Promise<Envelope<T>> {
  const form = new FormData();
  form.set('file', new File([Buffer.from(bytes)], name, { type }));
  const response = await t.app.request(url, { method: 'POST', headers: apiHeaders({ cookie: editor }), body: form });
  return (await response.json()) as Envelope<T>;
}

async function finished(buildId: number): Promise<Build> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { data } = await call<Build>(`/api/studio/build?buildId=${buildId}`);
    if (data.status !== 'running') return data;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the build did not finish');
}

async function page(url: string, cookie?: string): Promise<{ status: number; text: string }> {
  const response = await t.app.request(url, cookie ? { headers: { cookie } } : {});
  return { status: response.status, text: await response.text() };
}

const newsData = (title: string, extra: Record<string, unknown> = {}) => ({
  newsTypeCode: 'company',
  title,
  date: '2026-11-24',
  source: '编辑部',
  summary: '工作室测试新闻摘要。',
  body: `## ${title}\n\n正文段落，**加粗**。`,
  ...extra,
});

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-studio-'));
  const oldDist = path.join(root, 'dist');
  mkdirSync(path.join(oldDist, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(oldDist, 'welcome/home/index.html'), '<!doctype html><title>old site</title>');
  t = await createTestApp({
    staticDir: oldDist,
    env: { DATA_DIR: path.join(root, 'data') },
    deps: { siteBuild: { command: (request) => build(request) } },
  });
  editor = await t.login('demo_editor');
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  build = pagesFromContent;
});

describe('who may edit', () => {
  it('signed out: session expired (901); an individual or partner: forbidden; editors and operators: allowed', async () => {
    expect((await call('/api/studio/overview', { cookie: '' })).code).toBe(901);
    expect((await call('/api/studio/overview', { cookie: await t.login('demo_person') })).code).toBe(403);
    expect((await call('/api/studio/overview', { cookie: await t.login('demo_partner') })).code).toBe(403);
    expect((await call('/api/studio/overview', { cookie: await t.login('demo_operator') })).code).toBe(200);
    const overview = await call<{
      kinds: Record<string, { items: number }>;
      regions: { areaCode: string; prefix: string }[];
    }>('/api/studio/overview');
    expect(overview.code).toBe(200);
    expect(overview.data.kinds['news']?.items).toBeGreaterThan(3);
    expect(overview.data.regions).toContainEqual(expect.objectContaining({ areaCode: '440000', prefix: '' }));
    expect(overview.data.regions).toContainEqual(expect.objectContaining({ areaCode: '450000', prefix: '/gx' }));
  });

  it('the content was seeded from src/content: one published version of each file', async () => {
    const { data } = await call<{ items: Item[] }>('/api/studio/items?kind=news');
    expect(data.items.length).toBeGreaterThan(3);
    expect(data.items.every((item) => item.state === 'published' && item.publishedVersion === 1)).toBe(true);
    const single = await call<Item>('/api/studio/item?path=business-types.yaml');
    expect(Array.isArray(single.data.published)).toBe(true);
  });
});

describe('drafts', () => {
  it('are checked with the build’s own schema: every problem at its field, in the caller’s locale, and nothing saved', async () => {
    const bad = newsData('', { date: '2026-02-30', pinned: 'yes' });
    const zh = await call<{ errors: { field: string; message: string }[] }>('/api/studio/item', {
      body: { path: 'news/studio-bad.md', data: bad, revision: 0 },
    });
    expect(zh.code).toBe(400);
    const fields = zh.data.errors.map((error) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['title', 'date', 'pinned']));
    const en = await call<{ errors: { field: string; message: string }[] }>('/api/studio/item', {
      body: { path: 'news/studio-bad.md', data: bad, revision: 0 },
      locale: 'en-US',
    });
    expect(en.data.errors.find((error) => error.field === 'title')?.message).toMatch(/^[A-Z][a-z]/);
    expect(zh.data.errors.find((error) => error.field === 'title')?.message).toMatch(/[\u4e00-\u9fff]/);
    // Fields are named as the editor's form names them: a content item's `name` is 名称, not a person's 姓名.
    const region = await call<{ errors: { field: string; message: string }[] }>('/api/studio/item', {
      body: { path: 'regions/450000.yaml', data: { name: '', shortName: '广西' }, revision: 1 },
    });
    expect(region.data.errors.find((error) => error.field === 'name')?.message).toContain('名称');
    expect(region.data.errors.find((error) => error.field === 'name')?.message).not.toContain('姓名');
    expect((await call('/api/studio/item?path=news/studio-bad.md')).code).toBe(404);

    const badPath = await call<{ errors: { field: string }[] }>('/api/studio/item', {
      body: { path: 'news/../../etc/passwd', data: newsData('x'), revision: 0 },
    });
    expect(badPath.code).toBe(400);
    expect(badPath.data.errors[0]?.field).toBe('path');
  });

  it('save, conflict on a stale revision, refuse a taken id, discard', async () => {
    const saved = await call<Item>('/api/studio/item', {
      body: { path: 'news/studio-draft.md', data: newsData('草稿新闻'), revision: 0 },
    });
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({
      state: 'new',
      revision: 1,
      publishedVersion: 0,
      title: '草稿新闻',
      draftBy: '陈静',
    });
    expect(
      (
        await call('/api/studio/item', {
          body: { path: 'news/studio-draft.md', data: newsData('又一篇'), revision: 0 },
        })
      ).code,
    ).toBe(409);
    const second = await call<Item>('/api/studio/item', {
      body: { path: 'news/studio-draft.md', data: newsData('草稿新闻 2'), revision: 1 },
    });
    expect(second.data.revision).toBe(2);
    const stale = await call('/api/studio/item', {
      body: { path: 'news/studio-draft.md', data: newsData('过期的修改'), revision: 1 },
    });
    expect(stale.code).toBe(409);
    expect(stale.message).toContain('其他编辑');
    expect((await call<{ items: Item[] }>('/api/studio/drafts')).data.items.map((item) => item.path)).toContain(
      'news/studio-draft.md',
    );
    // A never-published item is gone with its draft: no item in the answer.
    expect((await call('/api/studio/item/discard', { body: { path: 'news/studio-draft.md' } })).data).toEqual({});
    expect((await call('/api/studio/item?path=news/studio-draft.md')).code).toBe(404);
    const audited = await t.db.select().from(auditLog).where(eq(auditLog.target, 'news/studio-draft.md'));
    expect(audited.map((row) => row.action).sort()).toEqual(['content.create', 'content.discard', 'content.save']);
    expect(audited.find((row) => row.action === 'content.save')?.detail).toMatchObject({
      revision: 2,
      fields: ['body', 'title'],
    });
  });
});

describe('preview and publication', () => {
  it('a content error found by the build’s cross-checks stops before anything starts, naming the item and field', async () => {
    await call('/api/studio/item', {
      body: {
        path: 'news/studio-orphan.md',
        data: newsData('无类型新闻', { newsTypeCode: 'no-such-type' }),
        revision: 0,
      },
    });
    const builds = (await t.db.select().from(siteBuilds)).length;
    const refused = await call<{ path: string; field: string; message: string }>('/api/studio/publish', { body: {} });
    expect(refused.code).toBe(400);
    expect(refused.data).toMatchObject({ path: 'news/studio-orphan.md', field: 'newsTypeCode' });
    expect(refused.message).toContain('news/studio-orphan.md');
    expect((await t.db.select().from(siteBuilds)).length).toBe(builds);
    await call('/api/studio/item/discard', { body: { path: 'news/studio-orphan.md' } });
  });

  let firstPublication = 0;

  it('a preview builds the drafts for editors only and publishes nothing', async () => {
    await call('/api/studio/item', {
      body: { path: 'news/studio-launch.md', data: newsData('工作室上线'), revision: 0 },
    });
    const started = await call<Build>('/api/studio/preview', { body: { paths: ['news/studio-launch.md'] } });
    expect(started.code).toBe(200);
    expect(started.data).toMatchObject({ purpose: 'preview', status: 'running', paths: ['news/studio-launch.md'] });
    const done = await finished(started.data.buildId);
    expect(done).toMatchObject({ status: 'succeeded', previewUrl: `/studio-preview/${started.data.buildId}` });

    const preview = await page(`${done.previewUrl}/infomation/detail/studio-launch/`, editor);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<title>工作室上线</title>');
    expect(preview.text).toContain('<strong>加粗</strong>');
    expect((await page(`${done.previewUrl}/infomation/detail/studio-launch/`)).status).toBe(403);
    // Its styles and scripts are its own build's.
    expect((await page(`${done.previewUrl}/`, editor)).text).toContain(`href="${done.previewUrl}/_astro/site.css"`);
    expect((await page(`${done.previewUrl}/_astro/site.css`, editor)).text).toBe('body{color:#111}');
    expect((await page(`${done.previewUrl}/../../../etc/passwd`, editor)).status).not.toBe(200);

    expect((await page('/welcome/home')).text).toBe('<!doctype html><title>old site</title>');
    expect((await call('/api/front/external/hnyData/getNewsById?newsId=studio-launch')).code).toBe(404);
    expect((await call<Item>('/api/studio/item?path=news/studio-launch.md')).data.state).toBe('new');
  });

  it('publishing builds every draft in one build, then the site, the content API and the versions change together', async () => {
    await call('/api/studio/item', { body: { path: 'news/studio-second.md', data: newsData('第二篇'), revision: 0 } });
    const started = await call<Build>('/api/studio/publish', { body: {} });
    expect(started.data.paths.sort()).toEqual(['news/studio-launch.md', 'news/studio-second.md']);
    const done = await finished(started.data.buildId);
    expect(done).toMatchObject({ status: 'succeeded', purpose: 'publish', error: null });
    firstPublication = done.buildId;

    expect((await page('/infomation/detail/studio-launch/')).text).toContain('工作室上线');
    expect((await call('/api/front/external/hnyData/getNewsById?newsId=studio-second')).code).toBe(200);
    const item = await call<Item>('/api/studio/item?path=news/studio-launch.md');
    expect(item.data).toMatchObject({ state: 'published', publishedVersion: 1, draft: null, draftBy: null });
    // The lists' last change is now the publication: who published it, and when.
    const listed = (await call<{ items: Item[] }>('/api/studio/items?kind=news')).data.items;
    const launch = listed.find((entry) => entry.path === 'news/studio-launch.md');
    expect(launch).toMatchObject({ publishedBy: '陈静', draftAt: null });
    expect(Date.parse(launch?.publishedAt ?? '')).toBeGreaterThan(Date.now() - 10 * 60_000);
    // A seeded item was put on the site by no one: its time, no name.
    const seeded = listed.find(
      (entry) => entry.path !== 'news/studio-launch.md' && entry.path !== 'news/studio-second.md',
    );
    expect(seeded).toMatchObject({ publishedBy: null, draftBy: null });
    expect(seeded?.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const versions = await call<{ versions: { version: number; buildId: number; publishedBy: string }[] }>(
      '/api/studio/versions?path=news/studio-launch.md',
    );
    expect(versions.data.versions).toEqual([
      expect.objectContaining({ version: 1, buildId: done.buildId, publishedBy: '陈静' }),
    ]);
    expect((await call<{ items: Item[] }>('/api/studio/drafts')).data.items).toEqual([]);
    const publications = await call<{
      published: number;
      builds: { buildId: number; items: { path: string }[]; kept: boolean }[];
    }>('/api/studio/publications');
    expect(publications.data.published).toBe(done.buildId);
    expect(publications.data.builds[0]?.items.map((entry) => entry.path).sort()).toEqual([
      'news/studio-launch.md',
      'news/studio-second.md',
    ]);
  });

  it('a failing build keeps the public site and the drafts, and says why', async () => {
    const launch = await call<Item>('/api/studio/item?path=news/studio-launch.md');
    await call('/api/studio/item', {
      body: { path: 'news/studio-launch.md', data: newsData('工作室上线（改）'), revision: launch.data.revision },
    });
    build = async () => {
      throw new Error('astro build exited with 1:\n[ERROR] something broke');
    };
    const started = await call<Build>('/api/studio/publish', { body: {} });
    const done = await finished(started.data.buildId);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('something broke');
    expect((await page('/infomation/detail/studio-launch/')).text).toContain('<title>工作室上线</title>');
    expect((await call<Item>('/api/studio/item?path=news/studio-launch.md')).data.state).toBe('changed');
  });

  it('a second publication, then a rollback: pages and content go back together, drafts untouched', async () => {
    const started = await call<Build>('/api/studio/publish', { body: {} });
    const done = await finished(started.data.buildId);
    expect(done.status).toBe('succeeded');
    expect((await page('/infomation/detail/studio-launch/')).text).toContain('工作室上线（改）');
    expect((await call<Item>('/api/studio/item?path=news/studio-launch.md')).data.publishedVersion).toBe(2);

    await call('/api/studio/item', {
      body: { path: 'news/studio-third.md', data: newsData('第三篇（草稿）'), revision: 0 },
    });
    const rolled = await call<Build>('/api/studio/rollback', { body: { buildId: firstPublication } });
    expect(rolled.code).toBe(200);
    expect((await page('/infomation/detail/studio-launch/')).text).toContain('<title>工作室上线</title>');
    const item = await call<Item>('/api/studio/item?path=news/studio-launch.md');
    expect(item.data.publishedVersion).toBe(1);
    expect((item.data.published as { title: string }).title).toBe('工作室上线');
    expect((await call<Item>('/api/studio/item?path=news/studio-third.md')).data.state).toBe('new');
    const detail = await call<{ title: string }>('/api/front/external/hnyData/getNewsById?newsId=studio-launch');
    expect(detail.data.title).toBe('工作室上线');
    const [rollback] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'content.rollback')));
    expect(rollback?.detail).toMatchObject({ buildId: firstPublication });
    await call('/api/studio/item/discard', { body: { path: 'news/studio-third.md' } });
  });
});

describe('a new release', () => {
  it('the content files match the published content until a publication changes it; then a release rebuilds the published content, drafts untouched', async () => {
    const fresh = await createTestApp({ env: { DATA_DIR: path.join(root, 'fresh') } });
    try {
      expect(await filesMatchPublished(fresh.db, 'src/content')).toBe(true);
    } finally {
      await fresh.close();
    }
    expect(await filesMatchPublished(t.db, 'src/content')).toBe(false);

    await call('/api/studio/item', { body: { path: 'news/studio-pending.md', data: newsData('未发布'), revision: 0 } });
    const before = (await t.db.select().from(siteBuilds)).length;
    // A second process on the same database starting with a new release.
    createApp({
      db: t.db,
      config: t.config,
      logger: createLogger({ logLevel: 'silent' }),
      siteBuild: { command: (request) => build(request) },
      rebuildAtStart: true,
    });
    let rows = await t.db.select().from(siteBuilds);
    for (let attempt = 0; rows.length === before && attempt < 100; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await t.db.select().from(siteBuilds);
    }
    expect(rows.length).toBe(before + 1);
    const done = await finished(rows.at(-1)!.id);
    expect(done).toMatchObject({ status: 'succeeded', purpose: 'publish', paths: [] });
    expect((await call<Item>('/api/studio/item?path=news/studio-pending.md')).data.state).toBe('new');
    await call('/api/studio/item/discard', { body: { path: 'news/studio-pending.md' } });
  });
});

describe('images', () => {
  const regionPath = 'regions/450000.yaml';

  async function bannerWith(image: string) {
    const region = await call<Item>(`/api/studio/item?path=${regionPath}`);
    const data = structuredClone(region.data.published) as { banners: { image: string }[] };
    data.banners[0]!.image = image;
    return call<Item>('/api/studio/item', { body: { path: regionPath, data, revision: region.data.revision } });
  }

  it('an upload is checked by its bytes, converted for the web at once within the budget, and served by every process', async () => {
    const notImage = await upload<{ errors: { field: string }[] }>(
      '/api/studio/image',
      'photo.png',
      strToU8('not a picture'),
      'image/png',
    );
    expect(notImage.code).toBe(400);
    expect(notImage.data.errors[0]?.field).toBe('file');

    const png = await sharp({
      create: { width: 2400, height: 800, channels: 3, background: { r: 20, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const stored = await upload<{ url: string; width: number; height: number }>(
      '/api/studio/image',
      'banner.png',
      png,
      'image/png',
    );
    expect(stored.code).toBe(200);
    expect(stored.data).toMatchObject({ width: 2400, height: 800 });
    expect(stored.data.url).toMatch(/^\/images\/uploads\/[0-9a-f]{32}\.webp$/);
    // Its web version is there at once (the editor's thumbnail, the media library); the build reuses it.
    const early = await t.app.request(stored.data.url);
    expect(early.status).toBe(200);
    expect(await sharp(Buffer.from(await early.arrayBuffer())).metadata()).toMatchObject({
      format: 'webp',
      width: 1200,
      height: 400,
    });

    expect((await bannerWith(stored.data.url)).code).toBe(200);
    const done = await finished((await call<Build>('/api/studio/publish', { body: {} })).data.buildId);
    expect(done.status).toBe('succeeded');
    const served = await t.app.request(stored.data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 400 });
  });

  it('a photo too heavy for the budget fails the build, naming the item and the field; the site is unchanged', async () => {
    // Random noise does not compress: 1200 px wide it stays far above 150 KB at any quality tried.
    const noise = await sharp(randomBytes(2000 * 1500 * 3), { raw: { width: 2000, height: 1500, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const stored = await upload<{ url: string }>('/api/studio/image', 'noise.jpg', noise, 'image/jpeg');
    expect(stored.code).toBe(200);
    await bannerWith(stored.data.url);
    const done = await finished((await call<Build>('/api/studio/publish', { body: {} })).data.buildId);
    expect(done.status).toBe('failed');
    expect(done.error).toContain(regionPath);
    expect(done.error).toContain('image');
    expect(done.error).toMatch(/KB budget/);
    expect((await page(stored.data.url)).status).toBe(404);
    await call('/api/studio/item/discard', { body: { path: regionPath } });
  });
});

describe('export and import', () => {
  it('exports the published files; an import turns every changed file into a draft, and a bad file refuses the package', async () => {
    // A download is a state-free GET, but like every export it needs the same proof as a POST (CSRF).
    const unproven = await t.app.request('/api/studio/export', { headers: { cookie: editor } });
    expect(((await unproven.json()) as Envelope).code).toBe(403);
    const response = await t.app.request('/api/studio/export', { headers: apiHeaders({ cookie: editor }) });
    expect(response.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['business-types.yaml', 'news/studio-launch.md', 'regions/440000.yaml']),
    );
    expect(strFromU8(files['news/studio-launch.md']!)).toMatch(
      /^---\n[\s\S]*title: 工作室上线\n[\s\S]*---\n## 工作室上线/,
    );

    const changed = {
      ...files,
      'news/studio-launch.md': strToU8(
        strFromU8(files['news/studio-launch.md']!).replace('title: 工作室上线', 'title: 导入的标题'),
      ),
    };
    const imported = await upload<{ changed: number; unchanged: number }>(
      '/api/studio/import',
      'content.zip',
      zipSync(changed),
      'application/zip',
    );
    expect(imported.code).toBe(200);
    expect(imported.data.changed).toBe(1);
    expect(imported.data.unchanged).toBe(Object.keys(files).length - 1);
    expect((await call<Item>('/api/studio/item?path=news/studio-launch.md')).data).toMatchObject({
      state: 'changed',
      title: '导入的标题',
    });

    const bad = { 'news/broken.md': strToU8('---\ntitle: [unclosed\n---\nbody') };
    const refused = await upload<{ path: string }>(
      '/api/studio/import',
      'content.zip',
      zipSync(bad),
      'application/zip',
    );
    expect(refused.code).toBe(400);
    expect(refused.data.path).toBe('news/broken.md');
    expect(await t.db.select().from(contentItems).where(eq(contentItems.path, 'news/broken.md'))).toEqual([]);
    expect((await upload('/api/studio/import', 'content.zip', strToU8('not a zip'), 'application/zip')).code).toBe(400);
  });
});
