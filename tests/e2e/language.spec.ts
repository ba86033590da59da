import { expect, test } from './support/test.ts';
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

test.describe('an address that names its locale is a choice', () => {
  test.describe('zh-CN browser', () => {
    test.use({ locale: 'zh-CN' });

    test('a shared English or Indonesian link opens as itself and the choice is kept', async ({ page }) => {
      await page.goto('/en-US/business');
      await expect(page).toHaveURL(/\/en-US\/business$/);
      await expect(page.locator('h1')).toHaveText(dictionaries['en-US']['page.business.title']);
      expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en-US');
      // An unprefixed address now follows the choice the shared link made.
      await page.goto('/assistance');
      await expect(page).toHaveURL(/\/en-US\/assistance$/);
      await page.goto('/id-ID/infomation/list');
      await expect(page).toHaveURL(/\/id-ID\/infomation\/list$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'id-ID');
      expect((await page.context().cookies()).find((c) => c.name === 'locale')?.value).toBe('id-ID');
    });
  });

  test.describe('en-US browser', () => {
    test.use({ locale: 'en-US' });

    test('an Indonesian link stays Indonesian', async ({ page }) => {
      await page.goto('/id-ID/assistance');
      await expect(page).toHaveURL(/\/id-ID\/assistance$/);
      await expect(page.locator('h1')).toHaveText(dictionaries['id-ID']['page.help.title']);
    });
  });

  test.describe('a crawler', () => {
    test.use({
      locale: 'en-US',
      userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });

    test('is never moved: the zh-CN address stays zh-CN', async ({ page }) => {
      await page.goto('/business');
      await expect(page).toHaveURL(/\/business$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    });
  });
});
