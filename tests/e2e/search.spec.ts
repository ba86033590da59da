/**
 * Site search in Chromium (docs/public-site.md, "Search"): the page loads no script until the
 * visitor reaches for the box; typed words show results with the matched words highlighted, a
 * count and each result's kind; the keyboard moves through them and opens one; nothing found
 * suggests the help centre; English pages find their own pages; a region finds its own business;
 * an address with `?q=` searches at once; the page with results passes axe. That a publication's
 * new page is found is proven on real builds in tests/build/search.test.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { dictionaries, type Locale } from '../../src/lib/i18n/index.ts';
import { sitePath } from '../../src/lib/paths.ts';

/** A visitor who already chose this locale and region (the pre-paint rules then leave the page be). */
async function visitor(page: Page, locale: Locale, areaCode = '440000') {
  await page.addInitScript(
    ([l, a]) => {
      window.localStorage.setItem('locale', l as string);
      window.localStorage.setItem('areaCode', a as string);
    },
    [locale, areaCode] as const,
  );
}

const results = (page: Page) => page.locator('a[data-search-hit]');

test.describe('site search', () => {
  test('loads no script before the visitor reaches for the box, then finds 电价 with its words highlighted', async ({
    page,
  }) => {
    const t = dictionaries['zh-CN'];
    await visitor(page, 'zh-CN');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/search');
    await page.waitForLoadState('networkidle');
    expect(scripts, 'scripts loaded before any interaction').toEqual([]);

    // The header's entry leads here from any page, with no script.
    await expect(page.getByRole('banner').getByRole('link', { name: t['nav.search'] })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const box = page.getByRole('searchbox', { name: t['site.search.label'] });
    await box.click();
    await box.pressSequentially('电价');
    await expect(results(page).first()).toBeVisible();
    expect(
      scripts.some((path) => path === '/pagefind/zh-CN/pagefind.js'),
      'the zh-CN bundle loaded on interaction',
    ).toBe(true);
    await expect(page.getByRole('status')).toHaveText(/找到 \d+ 条结果/);
    const first = page.getByRole('list', { name: t['site.search.results'] }).getByRole('listitem').first();
    await expect(first.locator('mark').first()).toHaveText(/^(电|价|电价)$/);
    await expect(
      first.getByText(
        new RegExp(
          `^(${['news', 'help', 'faq', 'business', 'product', 'set'].map((type) => t[`site.search.type.${type}` as 'site.search.type.news']).join('|')})$`,
        ),
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\?q=%E7%94%B5%E4%BB%B7$/);

    const axe = await new AxeBuilder({ page })
      .options({
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
        rules: { 'target-size': { enabled: true } },
      })
      .setLegacyMode(true)
      .analyze();
    expect(
      axe.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
  });

  test('the keyboard moves through the results and opens one; Escape clears the search', async ({ page }) => {
    await visitor(page, 'zh-CN');
    await page.goto('/search');
    const box = page.getByRole('searchbox');
    await box.focus();
    await page.keyboard.type('企业认证');
    await page.keyboard.press('Enter');
    await expect(results(page).nth(1)).toBeVisible();

    await page.keyboard.press('ArrowDown');
    await expect(results(page).first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(results(page).nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(box).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('');
    await expect(results(page)).toHaveCount(0);

    await page.keyboard.type('企业认证说明');
    await expect(results(page).first()).toBeVisible();
    await page.keyboard.press('ArrowDown');
    const target = await results(page).first().getAttribute('href');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${target}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('企业认证说明');
  });

  test('nothing found suggests the help centre', async ({ page }) => {
    const t = dictionaries['zh-CN'];
    await visitor(page, 'zh-CN');
    await page.goto('/search');
    const box = page.getByRole('searchbox');
    await box.focus();
    await page.keyboard.type('zzqqxx');
    await expect(page.getByText('没有找到与“zzqqxx”相关的内容。')).toBeVisible();
    await expect(page.getByRole('link', { name: t['nav.help'] }).last()).toHaveAttribute('href', '/assistance');
    await expect(results(page)).toHaveCount(0);
  });

  test('an English page finds its own pages, in their English words', async ({ page }) => {
    const t = dictionaries['en-US'];
    await visitor(page, 'en-US');
    await page.goto('/en-US/search');
    const box = page.getByRole('searchbox', { name: t['site.search.label'] });
    await box.focus();
    await page.keyboard.type('USB key');
    await expect(results(page).first()).toHaveAttribute('href', /^\/en-US\/(assistance|infomation)\//);
    await expect(page.getByRole('status')).toHaveText(/^\d+ results?$/);
    await box.fill('frequently asked questions');
    await expect(results(page).first()).toHaveAttribute('href', /^\/en-US\/assistance\/faq/);
  });

  test('a query in traditional characters finds the content written in simplified ones', async ({ page }) => {
    const t = dictionaries['zh-TW'];
    await visitor(page, 'zh-TW');
    await page.goto('/zh-TW/search');
    const box = page.getByRole('searchbox', { name: t['site.search.label'] });
    await box.focus();
    await page.keyboard.type('企業認證');
    await expect(results(page).first()).toHaveAttribute('href', '/zh-TW/assistance/certification-overview');
    await box.fill('電價');
    await expect(results(page).first()).toHaveAttribute('href', /^\/zh-TW\/(products|infomation)\//);
  });

  test('a region finds its own business, and an address with ?q= searches at once', async ({ page }) => {
    await visitor(page, 'zh-CN', '450000');
    await page.goto(`${sitePath('zh-CN', '/search', '450000')}?q=${encodeURIComponent('零售购电')}`);
    await expect(page.getByRole('searchbox')).toHaveValue('零售购电');
    await expect(results(page).first()).toBeVisible();
    const hrefs = await results(page).evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(
      hrefs.filter((href) => href.startsWith('/business/')),
      'no Guangdong business in Guangxi',
    ).toEqual([]);
    expect(
      hrefs.some((href) => href.startsWith('/gx/business/retail-purchase/')),
      hrefs.join(', '),
    ).toBe(true);
  });
});
