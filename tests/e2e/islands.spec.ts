import { expect, test } from '@playwright/test';
import { dictionaries } from '../../src/lib/i18n/index.ts';

const zh = dictionaries['zh-CN'];

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

  test('a business error shows the server\'s message in a toast', async ({ page }) => {
    await page.route('**/api/front/user/currentUser', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 403, message: '没有权限执行此操作', data: {} }) }),
    );
    await page.goto('/person/overview');
    await expect(page.getByRole('alert').filter({ hasText: '没有权限执行此操作' })).toBeVisible();
  });

  test('no response at all shows the service-verification message', async ({ page }) => {
    await page.route('**/api/front/user/currentUser', (route) => route.abort('connectionrefused'));
    await page.goto('/person/account');
    await expect(page.getByRole('alert').filter({ hasText: zh['request.noResponse'] })).toBeVisible();
  });
});
