import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexablePaths, sitemapXml } from '../../src/integrations/sitemap.ts';

const dist = mkdtempSync(join(tmpdir(), 'hgd-sitemap-'));
const page = (path: string, head = '') => {
  mkdirSync(join(dist, path), { recursive: true });
  writeFileSync(join(dist, path, 'index.html'), `<!doctype html><html><head>${head}</head><body></body></html>`);
};
page('welcome/home');
page('en-US/welcome/home');
page('gx/welcome/home');
page('en-US/gx/welcome/home');
page('welcome', '<meta name="robots" content="noindex" />');
page('person/overview');
page('gx/business', '<link rel="canonical" href="https://portal.example/gx/business" />');
page('gx/business/retail-purchase', '<link rel="canonical" href="https://portal.example/gx/business" />');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('sitemap', () => {
  it('lists the indexable pages only: no redirect pages, no signed-in pages, no endpoints', async () => {
    const pathnames = [
      'welcome/home/',
      'en-US/welcome/home/',
      'gx/welcome/home/',
      'en-US/gx/welcome/home/',
      'welcome/',
      'person/overview/',
      'robots.txt',
    ];
    expect(await indexablePaths(dist, pathnames)).toEqual([
      '/en-US/gx/welcome/home',
      '/en-US/welcome/home',
      '/gx/welcome/home',
      '/welcome/home',
    ]);
  });

  it('leaves out a page whose canonical is another page', async () => {
    expect(await indexablePaths(dist, ['gx/business/', 'gx/business/retail-purchase/'])).toEqual(['/gx/business']);
  });

  it('gives each page its built locale alternates and x-default, with absolute addresses', () => {
    const xml = sitemapXml(new URL('https://portal.example'), ['/gx/welcome/home', '/en-US/gx/welcome/home']);
    expect(xml).toContain('<loc>https://portal.example/gx/welcome/home</loc>');
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="en-US" href="https://portal.example/en-US/gx/welcome/home"/>',
    );
    expect(xml).toContain(
      '<xhtml:link rel="alternate" hreflang="x-default" href="https://portal.example/gx/welcome/home"/>',
    );
    // a locale that was not built is not offered
    expect(xml).not.toContain('hreflang="zh-TW"');
  });
});
