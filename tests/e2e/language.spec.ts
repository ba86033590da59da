import { expect, test } from '@playwright/test';
import { dictionaries } from '../../src/lib/i18n/index.ts';

test.describe('language rule: stored choice, else browser language, else zh-CN', () => {
  test.use({ locale: 'en-US' });

  test('the browser language picks the locale before first paint', async ({ page }) => {
    await page.goto('/business');
    await expect(page).toHaveURL(/\/en-US\/business$/);
    await expect(page.locator('h1')).toHaveText(dictionaries['en-US']['page.business.title']);
  });

  test('the language switch stores the choice and it persists across pages and reloads', async ({ page }) => {
    await page.goto('/en-US/welcome/home');
    await page.getByRole('group').filter({ hasText: 'English' }).locator('summary').click();
    await page.getByRole('link', { name: '繁體中文' }).click();
    await expect(page).toHaveURL(/\/zh-TW\/welcome\/home$/);
    await expect(page.locator('h1')).toHaveText(dictionaries['zh-TW']['page.home.title']);
    // Another page typed without prefix: the stored choice wins over the browser's en-US.
    await page.goto('/assistance');
    await expect(page).toHaveURL(/\/zh-TW\/assistance$/);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-TW');
    // The server localises its own answers (404 page, API messages) from the cookie.
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'locale')?.value).toBe('zh-TW');
  });
});

test.describe('no stored choice and an unsupported browser language', () => {
  test.use({ locale: 'fr-FR' });

  test('falls back to zh-CN without redirecting', async ({ page }) => {
    await page.goto('/assistance');
    await expect(page).toHaveURL(/\/assistance$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  });
});
