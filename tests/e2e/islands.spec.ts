import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';

const zh = dictionaries['zh-CN'];

/** The toast's box overlaps neither the header nor any navigation landmark on screen. */
async function expectNoNavigationUnder(page: Page, toast: Locator): Promise<void> {
  const box = await toast.boundingBox();
  expect(box).not.toBeNull();
  const landmarks = page.locator('header, nav');
  const count = await landmarks.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index++) {
    const other = await landmarks.nth(index).boundingBox();
    if (!box || !other || other.width === 0 || other.height === 0) continue;
    const overlaps =
      box.x < other.x + other.width &&
      other.x < box.x + box.width &&
      box.y < other.y + other.height &&
      other.y < box.y + box.height;
    expect(overlaps, `toast over ${await landmarks.nth(index).evaluate((el) => el.outerHTML.slice(0, 80))}`).toBe(
      false,
    );
  }
}

test('a public page loads no framework code until the visitor reaches for an island', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/welcome/home');
  await page.waitForLoadState('networkidle');
  expect(scripts, 'scripts loaded before any interaction').toEqual([]);

  // One click on the closed account menu: it hydrates and the held click opens it.
  await page.getByRole('button', { name: zh['header.accountMenu'] }).click();
  await expect(page.getByRole('link', { name: zh['header.login'], exact: true })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: zh['header.accountMenu'] })).toHaveAttribute('aria-expanded', 'true');

  // Escape closes it and gives focus back to the button.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: zh['header.login'], exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: zh['header.accountMenu'] })).toBeFocused();
});

test('the account menu works from the keyboard alone', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  await page.goto('/assistance');
  await page.getByRole('button', { name: zh['header.accountMenu'] }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: zh['header.register'], exact: true })).toBeVisible();
});

test.describe('request client in the browser', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  });

  test('an HTTP error shows a notification titled with the status and the address', async ({ page }) => {
    await page.route('**/api/front/user/currentUser', (route) =>
      route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad Gateway' }),
    );
    await page.goto('/person/overview');
    const alert = page.getByRole('alert').filter({ hasText: '请求错误 502: /api/front/user/currentUser' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(zh['http.502']);
    // The page stays put and keeps saying it is waiting for the session.
    await expect(page).toHaveURL(/\/person\/overview$/);
  });

  test("a business error shows the server's message in a toast", async ({ page }) => {
    await page.route('**/api/front/user/currentUser', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 403, message: '没有权限执行此操作', data: {} }),
      }),
    );
    await page.goto('/person/overview');
    const toast = page.getByRole('alert').filter({ hasText: '没有权限执行此操作' });
    await expect(toast).toBeVisible();
    await expectNoNavigationUnder(page, toast);
  });

  test('a toast never covers the header or a menu, on a desktop or a phone', async ({ page }) => {
    await page.route('**/api/front/user/currentUser', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 500, message: '服务器开小差了', data: {} }),
      }),
    );
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/person/order');
      const toast = page.getByRole('alert').filter({ hasText: '服务器开小差了' }).first();
      await expect(toast).toBeVisible();
      await expectNoNavigationUnder(page, toast);
    }
  });

  test('no response at all shows the service-verification message', async ({ page }) => {
    await page.route('**/api/front/user/currentUser', (route) => route.abort('connectionrefused'));
    await page.goto('/person/account');
    await expect(page.getByRole('alert').filter({ hasText: zh['request.noResponse'] })).toBeVisible();
  });
});
