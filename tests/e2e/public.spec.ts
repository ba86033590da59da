import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { loadContent } from '../../src/content/load.ts';
import { localizeSiteContent } from '../../src/content/localized.ts';
import {
  bizItemsOfArea,
  firstHelpDocument,
  getAreaSettings,
  getRegion,
  latestNews,
  listCustomerNotices,
  listNewsTypes,
  listSets,
  pageNews,
  pageProblemGuides,
  sellingSetsOfSet,
  tabPanelId,
} from '../../src/content/query.ts';
import { dictionaries, type Locale } from '../../src/lib/i18n/index.ts';
import { localePath, sitePath } from '../../src/lib/paths.ts';
import { regionName } from '../../src/lib/regionNames.ts';

/** The content as written; each locale's pages show it localized (content/translations.ts). */
const written = loadContent();
/** What the zh-CN pages show, and the ids and structure every locale shares. */
const content = localizeSiteContent(written, 'zh-CN');
const scopes = [
  { locale: 'zh-CN', areaCode: '440000' },
  { locale: 'en-US', areaCode: '450000' },
] as const satisfies readonly { locale: Locale; areaCode: string }[];

/** A visitor who already chose this locale and (optionally) this region. */
async function visitor(page: Page, locale: Locale, areaCode?: string) {
  await page.addInitScript(
    ([l, a]) => {
      window.localStorage.setItem('locale', l as string);
      if (a) window.localStorage.setItem('areaCode', a);
    },
    [locale, areaCode ?? ''] as const,
  );
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** The content a test builds on; a missing entry is a broken seed, said plainly. */
function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the content has no ${what}`);
  return value;
}

for (const { locale, areaCode } of scopes) {
  const t = dictionaries[locale];
  const content = localizeSiteContent(written, locale);
  const settings = getAreaSettings(content, areaCode);
  if (!settings) throw new Error(`region ${areaCode} missing from the content`);

  test.describe(`${locale}, region ${areaCode}`, () => {
    test.beforeEach(async ({ page }) => visitor(page, locale, areaCode));

    test('home: banners, text banners, notices, the 2 latest news, business and product tabs', async ({ page }) => {
      await page.goto(sitePath(locale, '/welcome/home', areaCode));
      await expect(page).toHaveURL(new RegExp(`${sitePath(locale, '/welcome/home', areaCode)}$`));
      await expect(heading(page)).toHaveText(t['page.home.title']);
      const carousel = page.getByRole('region', { name: t['site.home.bannersLabel'] });
      const slides = carousel.locator('[aria-roledescription="slide"]');
      await expect(slides).toHaveCount(settings.banners.length);
      await expect(
        carousel.getByRole('group', {
          name: t['site.home.slide'].replace('{n}', '1').replace('{total}', String(settings.banners.length)),
        }),
      ).toBeVisible();
      await carousel.getByRole('button', { name: t['site.home.next'] }).click();
      await expect(slides.nth(1)).toBeVisible();
      await expect(slides.nth(0)).toBeHidden();
      // Hover or focus pauses rotation; the button turns it off for good.
      await expect(carousel.getByRole('button', { name: t['site.home.pause'] })).toBeVisible();
      await carousel.getByRole('button', { name: t['site.home.pause'] }).click();
      await expect(carousel.getByRole('button', { name: t['site.home.play'] })).toBeVisible();

      for (const banner of settings.textBanners) await expect(page.getByText(banner.text)).toBeVisible();
      for (const notice of settings.homeNotices) await expect(page.getByText(notice.title)).toBeVisible();
      const news = page.locator('section[aria-labelledby="home-news"] li');
      await expect(news).toHaveCount(2);
      for (const item of latestNews(content)) await expect(page.getByRole('link', { name: item.title })).toBeVisible();

      const tabs = page.getByRole('tablist');
      await expect(tabs.getByRole('tab', { name: t['site.home.business'] })).toHaveAttribute('aria-selected', 'true');
      await tabs.getByRole('tab', { name: t['site.home.products'] }).click();
      const productsPanel = page.getByRole('tabpanel', { name: t['site.home.products'] });
      await expect(productsPanel.getByRole('heading', { level: 3 })).toHaveCount(settings.products.length);
      // The content is translated: in the page's language, not marked as Chinese.
      await expect(productsPanel.locator('h3').first()).not.toHaveAttribute('lang');
    });

    test('business catalogue by type and an item with its description tabs', async ({ page }) => {
      const firstType = must(settings.bizTypes[0], 'business type');
      const secondType = must(settings.bizTypes[1], 'second business type');
      await page.goto(sitePath(locale, '/business', areaCode));
      await expect(heading(page)).toHaveText(t['page.business.title']);
      const typeNav = page.getByRole('navigation', { name: t['site.business.types'] });
      await expect(typeNav.getByRole('link', { name: firstType.name })).toHaveAttribute('aria-current', 'page');
      await typeNav.getByRole('link', { name: secondType.name }).click();
      await expect(page).toHaveURL(new RegExp(`${sitePath(locale, `/business/${secondType.bizTypeId}`, areaCode)}$`));

      const item = bizItemsOfArea(content, areaCode).find((entry) => entry.descList.length > 1);
      if (!item) throw new Error('no item with two description tabs');
      await page.goto(sitePath(locale, `/business/${item.bizTypeId}/${item.bizItemId}`, areaCode));
      await expect(heading(page)).toHaveText(item.title);
      const firstDesc = must(item.descList[0], 'description tab');
      const secondDesc = must(item.descList[1], 'second description tab');
      const firstPanel = page.locator(`[id="${tabPanelId(firstDesc.tabId, item.bizItemId)}"]`);
      const secondPanel = page.locator(`[id="${tabPanelId(secondDesc.tabId, item.bizItemId)}"]`);
      await expect(firstPanel).toBeVisible();
      await expect(secondPanel).toBeHidden();
      await page.getByRole('tab', { name: secondDesc.title }).click();
      await expect(secondPanel).toBeVisible();
      await expect(firstPanel).toBeHidden();
      // Arrow keys move between tabs (WAI-ARIA tabs pattern).
      await page.keyboard.press('ArrowLeft');
      await expect(page.getByRole('tab', { name: firstDesc.title })).toBeFocused();
      await expect(firstPanel).toBeVisible();
    });

    test("products, a product's sets with scheme parameters and filters, a set with its selling sets", async ({
      page,
    }) => {
      await page.goto(sitePath(locale, '/products', areaCode));
      await expect(heading(page)).toHaveText(t['page.products.title']);
      const sets = listSets(content, areaCode, 'id2');
      await page.goto(sitePath(locale, '/products/id2', areaCode));
      await expect(page.locator('li h3')).toHaveCount(sets.length);
      await expect(page.getByRole('table')).toHaveCount(sets.length);
      const set = sets.find((entry) => entry.online) ?? sets[0];
      if (!set) throw new Error('no set of id2');
      await page.goto(sitePath(locale, `/products/id2/${set.setId}`, areaCode));
      await expect(heading(page)).toHaveText(set.name);
      await expect(heading(page)).not.toHaveAttribute('lang');
      await expect(page.getByRole('heading', { name: t['site.set.schemeParams'] })).toBeVisible();
      await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(set.schemeParams.length);
      const selling = sellingSetsOfSet(content, set.setId);
      for (const entry of selling) await expect(page.getByRole('heading', { name: entry.orgCom.name })).toBeVisible();
      if (set.online && selling.length) {
        const order = page.getByRole('link', {
          name: t['site.set.orderLabel']
            .replace('{orgCom}', selling[0]?.orgCom.shortName ?? '')
            .replace('{set}', set.name),
        });
        await expect(order).toHaveAttribute(
          'href',
          `${localePath(locale, '/handle/order')}?sellingSetId=${selling[0]?.sellingSetId}`,
        );
      }
    });

    test("the spec's query forms land on the path forms", async ({ page }) => {
      await page.goto(`${sitePath(locale, '/products', areaCode)}?id=id3`);
      await expect(page).toHaveURL(new RegExp(`${sitePath(locale, '/products/id3', areaCode)}$`));
      const news = latestNews(content, 1)[0];
      await page.goto(`${localePath(locale, '/infomation/detail')}?newsId=${news?.newsId}`);
      await expect(heading(page)).toHaveText(news?.title ?? '');
      // A static host without rewrite rules: the page's own inline lines do the same.
      await page.goto(`${sitePath(locale, '/products', areaCode).replace(/\/?$/, '/')}index.html?id=id4`);
      await expect(page).toHaveURL(new RegExp(`${sitePath(locale, '/products/id4', areaCode)}$`));
    });
  });
}

for (const locale of ['zh-CN', 'pt-BR'] as const) {
  const content = localizeSiteContent(written, locale);
  const t = dictionaries[locale];
  test.describe(`shared pages (${locale})`, () => {
    test.beforeEach(async ({ page }) => visitor(page, locale));

    test('news centre: first type, page 1 first, 5 a page, pagination, detail', async ({ page }) => {
      const [firstType] = listNewsTypes(content);
      if (!firstType) throw new Error('no news type');
      const pageOne = pageNews(content, { newsTypeCode: firstType.code, pageNo: 1 });
      await page.goto(localePath(locale, '/infomation/list'));
      await expect(heading(page)).toHaveText(t['page.newsList.title']);
      const typeNav = page.getByRole('navigation', { name: t['site.news.types'] });
      await expect(typeNav.getByRole('link', { name: firstType.name })).toHaveAttribute('aria-current', 'page');
      const items = page.locator('main article');
      await expect(items).toHaveCount(Math.min(5, pageOne.recordsTotal));
      await expect(items.first().getByRole('link')).toContainText(pageOne.data[0]?.title ?? '');
      const pager = page.getByRole('navigation', { name: t['site.pagination.label'] });
      await expect(pager.getByRole('link', { name: t['site.pagination.page'].replace('{page}', '1') })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await pager.getByRole('link', { name: t['site.pagination.next'] }).click();
      await expect(page).toHaveURL(new RegExp(`${localePath(locale, `/infomation/list/${firstType.code}/2`)}$`));
      const pageTwo = pageNews(content, { newsTypeCode: firstType.code, pageNo: 2 });
      await expect(items).toHaveCount(pageTwo.data.length);
      await expect(items.first().getByRole('link')).toContainText(pageTwo.data[0]?.title ?? '');
      await items.first().getByRole('link').click();
      await expect(heading(page)).toHaveText(pageTwo.data[0]?.title ?? '');
    });

    test('help: the first document on entry, another from the catalogue, problem guides 5 a page', async ({ page }) => {
      const first = must(firstHelpDocument(content), 'help document');
      await page.goto(localePath(locale, '/assistance'));
      await expect(heading(page)).toHaveText(t['page.help.title']);
      await expect(page.getByRole('heading', { level: 2, name: first.title })).toBeVisible();
      const catalogue = page.getByRole('navigation', { name: t['site.help.catalogue'] });
      await expect(catalogue.getByRole('link', { name: first.title })).toHaveAttribute('aria-current', 'page');
      const other = must(
        content.helpDocuments.find((doc) => doc.documentId !== first.documentId),
        'second help document',
      );
      await catalogue.getByRole('link', { name: other.title }).click();
      await expect(heading(page)).toHaveText(other.title);
      await page.goto(localePath(locale, '/assistance/faq'));
      const guides = pageProblemGuides(content, { pageNo: 1 });
      await expect(page.locator('main details')).toHaveCount(guides.data.length);
      await page.getByText(guides.data[1]?.question ?? '').click();
      await expect(page.locator('main details').nth(1)).toHaveAttribute('open', '');
      await page.getByRole('link', { name: t['site.pagination.next'] }).click();
      await expect(page).toHaveURL(new RegExp(`${localePath(locale, '/assistance/faq/2')}$`));
    });

    test("help: every catalogue entry and the current one's highlight stay inside the catalogue column", async ({
      page,
    }) => {
      // The document with the longest title, opened so that its entry is the highlighted one.
      const longest = [...content.helpDocuments].sort((a, b) => b.title.length - a.title.length)[0];
      const document = must(longest, 'help document');
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(viewport);
        await page.goto(localePath(locale, `/assistance/${document.documentId}`));
        const catalogue = page.getByRole('navigation', { name: t['site.help.catalogue'] });
        await expect(catalogue.getByRole('link', { name: document.title })).toHaveAttribute('aria-current', 'page');
        const column = await catalogue.locator('ul').first().boundingBox();
        const article = await page.locator('main article').boundingBox();
        expect(column && article).toBeTruthy();
        if (!column || !article) continue;
        for (const link of await catalogue.getByRole('link').all()) {
          const box = await link.boundingBox();
          expect(box, await link.innerText()).toBeTruthy();
          if (!box) continue;
          expect(box.x + box.width, `${viewport.width}px: ${await link.innerText()}`).toBeLessThanOrEqual(
            column.x + column.width + 0.5,
          );
          // Beside the content on a desktop, above it on a phone: never over it.
          if (viewport.width >= 768) expect(box.x + box.width).toBeLessThanOrEqual(article.x);
        }
      }
    });

    test('customer notices: the list and a notice', async ({ page }) => {
      const notice = must(listCustomerNotices(content)[0], 'customer notice');
      await page.goto(localePath(locale, '/welcome/detail'));
      await page.getByRole('link', { name: notice.title }).click();
      await expect(heading(page)).toHaveText(notice.title);
      await page.goto(`${localePath(locale, '/welcome/detail')}?noticeId=${notice.noticeId}`);
      await expect(heading(page)).toHaveText(notice.title);
    });
  });
}

test.describe('area selection', () => {
  const shortName = (areaCode: string) => must(getRegion(content, areaCode), `region ${areaCode}`).shortName;
  test("choosing a province moves to that region's page, and the choice survives a reload", async ({ page }) => {
    await visitor(page, 'zh-CN');
    const t = dictionaries['zh-CN'];
    await page.goto('/products/id1');
    const button = page.getByRole('button', { name: new RegExp(t['site.area.button']) });
    await expect(button).toContainText(shortName('440000'));
    await button.click();
    await page.getByRole('button', { name: '云南省' }).click();
    await expect(page).toHaveURL(/\/yn\/products\/id1$/);
    expect(await page.evaluate(() => [localStorage.getItem('areaCode'), localStorage.getItem('areaName')])).toEqual([
      '530000',
      '云南省',
    ]);
    await page.reload();
    await expect(page).toHaveURL(/\/yn\/products\/id1$/);
    await expect(page.getByRole('button', { name: new RegExp(t['site.area.button']) })).toContainText(
      shortName('530000'),
    );
    // Another region's page sends the visitor to their own region before anything is drawn.
    await page.goto('/welcome/home');
    await expect(page).toHaveURL(/\/yn\/welcome\/home$/);
    // A shared page stays, and its selector shows the stored choice.
    await page.goto('/infomation/list');
    await expect(page).toHaveURL(/\/infomation\/list$/);
    await expect(page.getByRole('button', { name: new RegExp(t['site.area.button']) })).toContainText(
      shortName('530000'),
    );
  });

  test('the selector works from the keyboard alone', async ({ page }) => {
    await visitor(page, 'zh-TW', '520000');
    const t = dictionaries['zh-TW'];
    await page.goto('/zh-TW/gz/business');
    const button = page.getByRole('button', { name: new RegExp(t['site.area.button']) });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    // The list opens on the current region, named in the page's language (貴州省).
    await expect(
      page.getByRole('button', { name: regionName('zh-TW', must(getRegion(content, '520000'), 'region 520000')) }),
    ).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
  });

  test('an item that exists only in one region leads to its type page in another', async ({ page }) => {
    const item = bizItemsOfArea(content, '440000')[0];
    await visitor(page, 'en-US', '460000');
    await page.goto(sitePath('en-US', `/business/${item?.bizTypeId}/${item?.bizItemId}`, '440000'));
    const offered = getAreaSettings(content, '460000')?.bizTypes.some((type) => type.bizTypeId === item?.bizTypeId);
    await expect(page).toHaveURL(
      new RegExp(`${sitePath('en-US', offered ? `/business/${item?.bizTypeId}` : '/business', '460000')}$`),
    );
  });
});

test.describe('care mode', () => {
  test('the header switch enlarges the page at once, leaves out the banner and news, and holds on the next page before paint', async ({
    page,
  }) => {
    await visitor(page, 'pt-BR');
    const t = dictionaries['pt-BR'];
    await page.goto(localePath('pt-BR', '/welcome/home'));
    const rootSize = () => page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    expect(await rootSize()).toBe('16px');
    const news = page.getByRole('heading', { name: t['site.home.latestNews'] });
    await expect(news).toBeVisible();
    const careSwitch = page.getByRole('button', { name: t['site.care.label'] });
    await expect(careSwitch).toHaveAttribute('aria-pressed', 'false');
    await careSwitch.click();
    await expect(careSwitch).toHaveAttribute('aria-pressed', 'true');
    expect(await rootSize()).toBe('20px');
    await expect(news).toBeHidden();
    await expect(page.locator('site-carousel')).toBeHidden();
    // The main services stay: notices, business and products, the hotline.
    await expect(page.getByRole('heading', { name: t['site.home.notices'] })).toBeVisible();

    // Another page arrives in care mode: its first paint is already large.
    await page.goto(localePath('pt-BR', '/infomation/list'));
    const firstPaint = await page.evaluate(() => document.documentElement.hasAttribute('data-care'));
    expect(firstPaint).toBe(true);
    expect(await rootSize()).toBe('20px');
    await expect(page.getByRole('button', { name: t['site.care.label'] })).toHaveAttribute('aria-pressed', 'true');

    // On a phone it is in the menu, and nothing is wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(localePath('pt-BR', '/welcome/home'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByLabel(t['nav.mainLabel']).first().click();
    const menuSwitch = page.getByRole('button', { name: t['site.care.label'] });
    await expect(menuSwitch).toBeVisible();
    await menuSwitch.click();
    expect(await rootSize()).toBe('16px');
    expect(await page.evaluate(() => localStorage.getItem('care'))).toBeNull();
  });
});

test.describe('requirement form', () => {
  test("shows field errors in the visitor's language, then a clear success state", async ({ page }) => {
    await visitor(page, 'en-US');
    const t = dictionaries['en-US'];
    await page.goto('/en-US/welcome/form');
    await expect(heading(page)).toHaveText(t['page.welcomeForm.title']);
    await page.getByRole('button', { name: t['site.form.submit'] }).click();
    const summary = page.getByRole('alert');
    await expect(summary).toContainText(t['site.form.errorSummary_other'].split('{count}')[0] ?? '');
    const nameField = page.getByLabel(t['field.contactName']);
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#requirement-contactName-error')).toHaveText(/.+/);
    await nameField.fill('Li Ming');
    await page.getByLabel(t['field.phone']).fill('1380013');
    await page.getByLabel(t['field.content']).fill('We use about 8,000 MWh a year and want a fixed-price package.');
    await page.getByRole('button', { name: t['site.form.submit'] }).click();
    await expect(page.locator('#requirement-phone-error')).toBeVisible();
    await expect(nameField).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel(t['field.phone']).fill('13800138000');
    await page.getByLabel(t['site.area.listLabel']).selectOption('450000');
    await page.getByRole('button', { name: t['site.form.submit'] }).click();
    await expect(page.getByRole('heading', { name: t['site.form.successTitle'] })).toBeFocused();
    await page.getByRole('button', { name: t['site.form.again'] }).click();
    await expect(page.getByLabel(t['field.contactName'])).toBeVisible();
  });
});

test.describe('search engines and scripts', () => {
  test('public pages load no framework code before interaction and carry canonical and hreflang links', async ({
    page,
  }) => {
    await visitor(page, 'zh-CN');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const set = listSets(content, '520000')[0];
    const news = latestNews(content, 1)[0];
    for (const path of [
      '/welcome/home',
      '/business',
      `/products/${set?.productId}`,
      '/infomation/list',
      `/infomation/detail/${news?.newsId}`,
      '/assistance',
      '/welcome/detail',
      '/welcome/form',
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${path}$`));
      await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(6);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{10,}/);
    }
    expect(scripts, 'scripts loaded before any interaction').toEqual([]);
  });

  test("a catalogue's first type names the entry page as canonical, so only the entry is indexed", async ({
    page,
    request,
  }) => {
    await visitor(page, 'en-US');
    const firstNewsType = listNewsTypes(content)[0]?.code;
    await page.goto(`/en-US/infomation/list/${firstNewsType}`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en-US\/infomation\/list$/);
    const sitemap = await (await request.get('/sitemap.xml')).text();
    expect(sitemap).toContain('/en-US/infomation/list</loc>');
    expect(sitemap).not.toContain(`/en-US/infomation/list/${firstNewsType}</loc>`);
  });

  test('sitemap.xml lists the public pages in every locale and region; robots.txt points to it', async ({
    request,
  }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text();
    for (const path of [
      '/welcome/home',
      '/en-US/gx/welcome/home',
      '/pt-BR/yn/products/id5',
      '/zh-TW/infomation/list',
      '/id-ID/assistance',
    ]) {
      expect(sitemap).toContain(`${path}</loc>`);
    }
    expect(sitemap).not.toContain('/person/overview</loc>');
    expect(sitemap).not.toContain('/welcome</loc>');
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  });

  test('with offline mode off, no service worker is registered and the worker removes itself', async ({
    page,
    request,
  }) => {
    await visitor(page, 'zh-CN');
    await page.goto('/welcome/home');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    expect(await (await request.get('/sw.js')).text()).toContain('unregister');
  });
});
