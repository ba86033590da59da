/**
 * The Content-Security-Policy header of every kind of answer (middleware/secureHeaders.ts): a
 * page's own policy from its build, the strict file policy, nothing at all for the API, and the
 * editors' previews sandboxed in an opaque origin whose resources still load.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspHash, parsePolicy } from '../../src/lib/contentSecurityPolicy.ts';
import { answerPolicy, filePolicy, securityHeaders } from '../../src/server/middleware/secureHeaders.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import { createStaticHandler } from '../../src/server/static.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

const script = 'document.documentElement.dataset.ready = "1"';
const imageHash = 'a'.repeat(32);
const policyOf = (text: string) =>
  `default-src 'self';img-src 'self' data:; script-src 'self' '${cspHash(text)}'; style-src 'self';`;
/** A page as Astro writes it: inline script first, its policy at the end of the head. */
const pageHtml = (title: string, text = script) =>
  `<!DOCTYPE html><html><head><script>${text}</script><title>${title}</title>` +
  `<meta http-equiv="content-security-policy" content="${policyOf(text)}"><link rel="stylesheet" href="/_astro/site.css"><link rel="icon" href="/favicon.svg"></head>` +
  `<body><h1>${title}</h1><img src="/images/banners/a.svg" alt=""><img src="/images/uploads/${imageHash}.webp" alt=""></body></html>`;
/** The header a page with `pageHtml`'s policy gets. */
const headerOf = (text: string) =>
  `default-src 'self'; img-src 'self' data:; script-src 'self' '${cspHash(text)}'; style-src 'self'; frame-ancestors 'none'`;

function writeSite(dir: string, title: string, text = script): void {
  const files: Record<string, string> = {
    'welcome/home/index.html': pageHtml(title, text),
    '404.html': pageHtml('页面不存在', text),
    'plain/index.html': '<!doctype html><title>no policy</title>',
    '_astro/site.css': 'body{color:#111}',
    '_astro/island.js': 'export const a = 1;',
    'sw.js': 'self.addEventListener("fetch", () => {});',
    'images/banners/a.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'sitemap.xml': '<urlset><url><loc>/infomation/detail/draft-only</loc></url></urlset>',
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

let root: string;
let t: TestApp;
let editor: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-csp-'));
  const dist = path.join(root, 'dist');
  writeSite(dist, '首页');
  const dataDir = path.join(root, 'data');
  mkdirSync(path.join(dataDir, 'content-images/web'), { recursive: true });
  writeFileSync(path.join(dataDir, 'content-images/web', `${imageHash}.webp`), 'RIFF-not-really-webp');
  t = await createTestApp({
    staticDir: dist,
    env: { DATA_DIR: dataDir },
    deps: { siteBuild: { command: async ({ outDir }: BuildRequest) => writeSite(outDir, '预览页') } },
  });
  editor = await t.login('demo_editor');
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  t.app.request(url, { method, headers });
const policyHeader = (response: Response) => response.headers.get('content-security-policy') ?? '';

describe('pages and files of the site', () => {
  it('a page is sent with the policy of its own <meta>, and no framing, on every kind of answer', async () => {
    const page = await get('/welcome/home');
    expect(page.status).toBe(200);
    expect(policyHeader(page)).toBe(headerOf(script));
    const etag = page.headers.get('etag') ?? '';
    // A 304 carries it too: a browser replaces the stored page's headers with those of a 304.
    const revalidated = await get('/welcome/home', { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(policyHeader(revalidated)).toBe(headerOf(script));
    expect(policyHeader(await get('/welcome/home', {}, 'HEAD'))).toBe(headerOf(script));
    const missing = await get('/no/such/page');
    expect(missing.status).toBe(404);
    expect(policyHeader(missing)).toBe(headerOf(script));
  });

  it('a page without a policy of its own, and every other file, get the file policy: this origin, nothing inline', async () => {
    for (const url of ['/plain', '/favicon.svg', '/sitemap.xml', '/sw.js']) {
      expect(policyHeader(await get(url)), url).toBe(filePolicy);
    }
    const directives = parsePolicy(filePolicy);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('a bundle’s script or style carries no header that governs only a document', async () => {
    for (const url of ['/_astro/site.css', '/_astro/island.js']) {
      const answer = await get(url);
      expect(answer.status, url).toBe(200);
      for (const name of [
        'content-security-policy',
        'x-frame-options',
        'cross-origin-opener-policy',
        'x-xss-protection',
      ]) {
        expect(answer.headers.get(name), `${url} ${name}`).toBeNull();
      }
      expect(answer.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(answer.headers.get('cross-origin-resource-policy'), url).toBe('same-origin');
    }
    // A page and the service worker keep them.
    expect((await get('/welcome/home')).headers.get('x-frame-options')).toBe('DENY');
    expect((await get('/sw.js')).headers.get('x-frame-options')).toBe('DENY');
  });

  it('a page’s policy follows the published directory', async () => {
    const next = path.join(root, 'next');
    writeSite(next, '新首页', 'document.title = "new build"');
    let current = path.join(root, 'dist');
    const app = new Hono();
    app.use('*', securityHeaders());
    app.use('*', createStaticHandler({ root: () => current }));
    expect(policyHeader(await app.request('/welcome/home'))).toBe(headerOf(script));
    current = next;
    const switched = await app.request('/welcome/home');
    expect(await switched.text()).toContain('新首页');
    expect(policyHeader(switched)).toBe(headerOf('document.title = "new build"'));
  });
});

describe('answers that are no page', () => {
  it('the API, its errors and the server’s redirects allow nothing', async () => {
    expect(answerPolicy).toBe("default-src 'none'; frame-ancestors 'none'");
    for (const url of ['/api/health', '/api/no-such-call', '/welcome', '/welcome/home/%2e%2e%5c']) {
      expect(policyHeader(await get(url)), url).toBe(answerPolicy);
    }
  });
});

describe('an editor’s preview', () => {
  let preview = '';

  beforeAll(async () => {
    const draft = {
      newsTypeCode: 'company',
      title: '预览新闻',
      date: '2026-11-24',
      source: '编辑部',
      summary: '摘要。',
      body: '正文。',
    };
    const saved = await t.app.request('/api/studio/item', {
      method: 'POST',
      headers: apiHeaders({ cookie: editor, 'Content-Type': 'application/json' }),
      body: JSON.stringify({ path: 'news/csp-preview.md', data: draft, revision: 0 }),
    });
    expect(((await saved.json()) as { code: number }).code).toBe(200);
    const started = await t.app.request('/api/studio/preview', {
      method: 'POST',
      headers: apiHeaders({ cookie: editor, 'Content-Type': 'application/json' }),
      body: JSON.stringify({ paths: ['news/csp-preview.md'] }),
    });
    const { buildId } = ((await started.json()) as { data: { buildId: number } }).data;
    for (let attempt = 0; attempt < 400 && !preview; attempt += 1) {
      const answer = await t.app.request(`/api/studio/build?buildId=${buildId}`, { headers: { cookie: editor } });
      const { data } = (await answer.json()) as { data: { status: string; previewUrl: string | null } };
      if (data.status === 'failed') throw new Error('the preview build failed');
      if (data.status === 'succeeded') preview = data.previewUrl ?? '';
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(preview).toMatch(/^\/studio-preview\/\d+$/);
  });

  it('is sandboxed without allow-same-origin, under its own page policy', async () => {
    const page = await get(`${preview}/welcome/home`, { cookie: editor });
    expect(page.status).toBe(200);
    const directives = parsePolicy(policyHeader(page));
    expect(directives.get('sandbox')).toEqual(['allow-scripts']);
    expect(directives.get('script-src')).toEqual(["'self'", `'${cspHash(script)}'`]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    // Its page still needs a staff session.
    expect((await get(`${preview}/welcome/home`)).status).toBe(403);
    expect((await get(`${preview}/welcome/home`, { cookie: await t.login('demo_person') })).status).toBe(403);
  });

  it('points what the page loads into the preview, and serves that to the sandbox: no session, cross-origin readable', async () => {
    const html = await (await get(`${preview}/welcome/home`, { cookie: editor })).text();
    for (const reference of [
      '/_astro/site.css',
      '/favicon.svg',
      '/images/banners/a.svg',
      `/images/uploads/${imageHash}.webp`,
    ]) {
      expect(html).toContain(`"${preview}${reference}"`);
      // Asked for as the sandboxed page asks: no cookie, Origin null.
      const resource = await get(`${preview}${reference}`, { Origin: 'null' });
      expect(resource.status, reference).toBe(200);
      expect(resource.headers.get('cross-origin-resource-policy'), reference).toBe('cross-origin');
      expect(resource.headers.get('access-control-allow-origin'), reference).toBe('*');
    }
    expect(html).toContain(`<script>${script}</script>`);
    // What the page does not load stays behind the session (a preview's sitemap names its drafts).
    expect((await get(`${preview}/sitemap.xml`)).status).toBe(403);
    expect((await get('/studio-preview/999999/_astro/site.css')).status).toBe(404);
  });

  it('its scripts cannot act for the editor: a call from its opaque origin fails the CSRF check', async () => {
    const answer = await t.app.request('/api/studio/item/discard', {
      method: 'POST',
      headers: {
        cookie: editor,
        'X-Requested-With': 'XMLHttpRequest',
        Origin: 'null',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ path: 'news/csp-preview.md' }),
    });
    expect(((await answer.json()) as { code: number }).code).toBe(403);
  });
});
