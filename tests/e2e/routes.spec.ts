import { expect, test } from './support/test.ts';
import { readFileSync } from 'node:fs';
import { htmlFileFor } from '../../scripts/page-weight.ts';
import { dictionaries, locales, type Locale } from '../../src/lib/i18n/index.ts';
import { localePath } from '../../src/lib/paths.ts';
import { pageRoutes, redirects, serverOnlyRedirects } from '../../src/lib/routes.ts';

/** Keep each visit in the page's own locale: the pre-paint rule would otherwise follow the browser. */
async function storeLocale(page: import('@playwright/test').Page, locale: Locale) {
  await page.addInitScript((l) => window.localStorage.setItem('locale', l), locale);
}

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`every public route renders its heading (${locale})`, async ({ page }) => {
    await storeLocale(page, locale);
    for (const route of pageRoutes.filter((r) => r.access === 'public')) {
      const response = await page.goto(localePath(locale, route.path));
      expect(response?.status(), route.path).toBe(200);
      await expect(page.locator('h1'), route.path).toHaveText(dictionaries[locale][`page.${route.key}.title`]);
      await expect(page).toHaveTitle(new RegExp(dictionaries[locale]['site.name']));
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
    }
  });
}

test('every route exists in all five locales', async ({ request }) => {
  for (const locale of locales) {
    for (const route of pageRoutes) {
      const response = await request.get(localePath(locale, route.path), { maxRedirects: 0 });
      expect(response.status(), `${locale} ${route.path}`).toBe(200);
      // As Astro writes text into HTML ("Editors' studio" → Editors&#39; studio).
      const title = dictionaries[locale][`page.${route.key}.title`]
        .replaceAll('&', '&amp;')
        .replaceAll("'", '&#39;')
        .replaceAll('"', '&quot;')
        .replaceAll('<', '&lt;')
        .replaceAll('>', '&gt;');
      expect(await response.text(), `${locale} ${route.path}`).toContain(`>${title}</h1>`);
    }
  }
});

test('signed-in routes send a visitor without a session to login, carrying the full address', async ({ page }) => {
  // One page load and one redirect per signed-in route (30 of them): about 1 s each on a busy machine.
  test.setTimeout(90_000);
  await storeLocale(page, 'zh-CN');
  for (const route of pageRoutes.filter((r) => r.access === 'session')) {
    const address = `${route.path}?from=test`;
    await page.goto(address);
    await page.waitForURL(/\/user\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect, route.path).toBe(new URL(address, page.url()).href);
    await expect(page.locator('h1')).toHaveText(dictionaries['zh-CN']['page.login.title']);
  }
});

test('the server redirects every source of the route table, in every locale, keeping the query', async ({
  request,
}) => {
  for (const locale of locales) {
    for (const [source, target] of Object.entries({ ...redirects, ...serverOnlyRedirects })) {
      const response = await request.get(`${localePath(locale, source)}?q=1`, { maxRedirects: 0 });
      expect(response.status(), `${locale} ${source}`).toBe(301);
      expect(response.headers()['location']).toBe(`${localePath(locale, target)}?q=1`);
    }
  }
});

test('the chain / → /welcome → /welcome/home ends on the home page', async ({ page }) => {
  await storeLocale(page, 'zh-CN');
  await page.goto('/');
  await expect(page).toHaveURL(/\/welcome\/home$/);
  await page.goto('/index.html');
  await expect(page).toHaveURL(/\/welcome\/home$/);
  await page.goto('/partner/analysis?x=1');
  // a session route: the login page follows, with the final address in `redirect`
  await page.waitForURL(/\/user\/login/);
  expect(new URL(page.url()).searchParams.get('redirect')).toMatch(/\/partner\/analysis\/statistics\?x=1$/);
});

test('the built redirect pages work on a static host with no rewrite rules', async ({ page }) => {
  await storeLocale(page, 'zh-CN');
  // The file a static host would serve for /infomation (our server answers 301 before reading it).
  await page.goto('/infomation/index.html?newsTypeCode=1');
  await expect(page).toHaveURL(/\/infomation\/list\?newsTypeCode=1$/);
  await expect(page.locator('h1')).toHaveText(dictionaries['zh-CN']['page.newsList.title']);
});

test("a region's root leads to that region's home page, like / does", async ({ page }) => {
  await storeLocale(page, 'en-US');
  await page.goto('/en-US/gx');
  await expect(page).toHaveURL(/\/en-US\/gx\/welcome\/home$/);
  await page.goto('/en-US/gx/welcome');
  await expect(page).toHaveURL(/\/en-US\/gx\/welcome\/home$/);
});

test('every redirect source has a built redirect page for static hosts, in every locale', () => {
  for (const locale of locales) {
    for (const [source, target] of Object.entries(redirects)) {
      const html = readFileSync(htmlFileFor('dist', localePath(locale, source)), 'utf8');
      const to = localePath(locale, target);
      expect(html, `${locale} ${source}`).toContain(`<meta http-equiv="refresh" content="0;url=${to}">`);
      expect(html, `${locale} ${source}`).toContain(
        `<script>location.replace(${JSON.stringify(to)}+location.search+location.hash)</script>`,
      );
      expect(html).toContain(`lang="${locale}"`);
    }
  }
});

test("an unmatched path shows the not-found page with status 404, in the path's locale", async ({ page }) => {
  await storeLocale(page, 'zh-CN');
  const zh = await page.goto('/no/such/page');
  expect(zh?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText(dictionaries['zh-CN']['notFound.title']);
  await storeLocale(page, 'en-US');
  const en = await page.goto('/en-US/no/such/page');
  expect(en?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText(dictionaries['en-US']['notFound.title']);
});
