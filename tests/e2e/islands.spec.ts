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
  await expect(page.getByRole('link', { name: zh['header.login'] })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: zh['header.accountMenu'] })).toHaveAttribute('aria-expanded', 'true');

  // Escape closes it and gives focus back to the button.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: zh['header.login'] })).toBeHidden();
  await expect(page.getByRole('button', { name: zh['header.accountMenu'] })).toBeFocused();
});

test('the account menu works from the keyboard alone', async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  await page.goto('/assistance');
  await page.getByRole('button', { name: zh['header.accountMenu'] }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: zh['header.register'] })).toBeVisible();
});
