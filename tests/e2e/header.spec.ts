/**
 * The header in every locale: one line at the common desktop width (1280 px), the products entry
 * with its sub-entries reachable from the keyboard, and the region named in the page's language.
 */
import { expect, test } from './support/test.ts';
import { dictionaries, locales } from '../../src/lib/i18n/index.ts';
import { loginPath } from '../../src/lib/loginRedirect.ts';
import { localePath } from '../../src/lib/paths.ts';

test.use({ viewport: { width: 1280, height: 800 } });

for (const locale of locales) {
  test(`the header fits one line at 1280 px (${locale})`, async ({ page }) => {
    await page.addInitScript((l) => window.localStorage.setItem('locale', l), locale);
    // A visitor's partner page sends them to the login page once its call answers 401: measured there.
    for (const [path, landing] of [
      ['/welcome/home', '/welcome/home'],
      ['/partner/query/settlement', loginPath],
    ] as const) {
      await page.goto(localePath(locale, path));
      await page.waitForURL((url) => url.pathname === localePath(locale, landing));
      const bar = page.locator('header > div').first();
      const barBox = await bar.boundingBox();
      expect(barBox?.height, `${locale} ${path}`).toBeLessThanOrEqual(64);
      // Every control of the bar sits inside it, on one row: no entry wrapped onto a second line.
      const boxes = await page
        .locator(
          'header nav a, header nav summary, header [data-area-button], header [data-language-switch] > summary, header button',
        )
        .evaluateAll((elements) =>
          elements
            .filter((el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
            .map((el) => {
              const r = el.getBoundingClientRect();
              return { text: el.textContent?.trim() ?? '', top: r.top, bottom: r.bottom, height: r.height };
            }),
        );
      expect(boxes.length).toBeGreaterThan(6);
      for (const box of boxes) {
        expect(box.top, `${locale} ${path} "${box.text}"`).toBeGreaterThanOrEqual(barBox!.y);
        expect(box.bottom, `${locale} ${path} "${box.text}"`).toBeLessThanOrEqual(barBox!.y + barBox!.height);
        expect(box.height, `${locale} ${path} "${box.text}" wraps`).toBeLessThanOrEqual(40);
      }
    }
  });
}

test('on a tablet or a small laptop the header fits the screen in every locale: the entries are in the menu', async ({
  browser,
  baseURL,
}) => {
  for (const width of [768, 1024]) {
    const context = await browser.newContext({ baseURL: baseURL!, viewport: { width, height: 800 } });
    const page = await context.newPage();
    for (const locale of locales) {
      await page.goto(localePath(locale, '/products/id1'));
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${locale} at ${width}`,
      ).toBeLessThanOrEqual(width);
      await expect(page.getByRole('navigation', { name: dictionaries[locale]['nav.mainLabel'] })).toBeHidden();
    }
    await context.close();
  }
});

for (const locale of locales) {
  test(`the header fits a phone's width (${locale})`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL: baseURL!,
      locale,
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await context.addInitScript((l) => window.localStorage.setItem('locale', l), locale);
    const page = await context.newPage();
    await page.goto(localePath(locale, '/welcome/home'));
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${locale}: the page scrolls sideways`,
    ).toBeLessThanOrEqual(360);
    const rights = await page
      .locator('header button, header summary, header a')
      .evaluateAll((elements) =>
        elements
          .filter((el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
          .map((el) => el.getBoundingClientRect().right),
      );
    for (const right of rights) expect(right, locale).toBeLessThanOrEqual(360);
    await context.close();
  });
}

test("产品与服务 opens onto the region's products from the keyboard, and Escape closes it", async ({ page }) => {
  const zh = dictionaries['zh-CN'];
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  await page.goto('/welcome/home');
  const toggle = page.getByRole('navigation', { name: zh['nav.mainLabel'] }).getByRole('group').locator('summary');
  await expect(toggle).toHaveAccessibleName(zh['nav.productsSubmenu']);
  await page
    .getByRole('navigation', { name: zh['nav.mainLabel'] })
    .getByRole('link', { name: zh['nav.products'], exact: true })
    .focus();
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  const entries = page.getByRole('navigation', { name: zh['nav.mainLabel'] }).locator('[data-nav-submenu] a');
  await expect(entries).toHaveCount(5);
  await expect(entries.first()).toHaveAttribute('href', '/products/id1');
  await page.keyboard.press('Tab');
  await expect(entries.first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(entries.first()).toBeHidden();
  await expect(toggle).toBeFocused();
  // Enter on a sub-entry opens that product.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/products\/id2$/);
});

test("the region button and list name the region in the page's language", async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'en-US'));
  await page.goto('/en-US/gx/welcome/home');
  await expect(page.locator('[data-area-name]')).toHaveText('Guangxi');
  await page.goto('/en-US/assistance');
  await expect(page.locator('[data-area-name]')).toHaveText('Guangdong');
  await page.locator('[data-area-button]').click();
  await expect(page.getByRole('button', { name: 'Yunnan', exact: true })).toBeVisible();
  await page.goto('/zh-TW/welcome/home');
  await expect(page.locator('[data-area-name]')).toHaveText('廣東');
});
