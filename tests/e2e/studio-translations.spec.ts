/**
 * An editor translates content in the studio: each object that takes translations shows, per
 * locale, how much of it is translated, and each field its Chinese original above the
 * translation's control; a field emptied says the pages will show the original. Nothing is saved
 * (the other studio specs count the pending changes).
 */
import type { Page } from '@playwright/test';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { format } from '../../src/lib/api/messages.ts';
import { expect, test } from './support/test.ts';

const zh = dictionaries['zh-CN'];

async function signInAsEditor(page: Page, baseURL: string | undefined): Promise<void> {
  const origin = baseURL ?? '';
  const login = await page.context().request.post(`${origin}/api/front/system/login`, {
    form: { userName: 'demo_editor', password: 'Editor2025', deviceId: 'hgdweb', appCode: 'hgd' },
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  expect(((await login.json()) as { code: number }).code).toBe(200);
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
}

test('a product’s English translation beside its Chinese original, and its state as fields are emptied', async ({
  page,
  baseURL,
}) => {
  await signInAsEditor(page, baseURL);
  await page.goto('/studio/edit?path=products.yaml');
  const english = page.locator('details[data-field="0.translations.en-US"]');
  await expect(english.locator('summary')).toContainText(zh['studio.translation.done']);
  await english.locator('summary').click();

  const name = english.getByRole('textbox', { name: /名称 · English/ });
  await expect(name).toHaveValue('Fixed-price package');
  await expect(english.getByText('固定价格套餐', { exact: true })).toBeVisible();

  await name.fill('');
  await expect(name).toHaveAttribute('placeholder', zh['studio.translation.placeholder']);
  await expect(english.locator('summary')).toContainText(
    format(zh['studio.translation.partly'], { done: 2, total: 3 }),
  );
});

test('a help document’s body is translated under its own name, its original read from the body', async ({
  page,
  baseURL,
}) => {
  await signInAsEditor(page, baseURL);
  await page.goto('/studio/edit?path=help%2Fplace-an-order.md');
  const portuguese = page.locator('details[data-field="translations.pt-BR"]');
  await expect(portuguese.locator('summary')).toContainText(zh['studio.translation.done']);
  await portuguese.locator('summary').click();
  // Title and body: two originals, the body's from the document's Markdown.
  await expect(portuguese.locator('[data-original]')).toHaveCount(2);
  await expect(portuguese.getByRole('textbox', { name: /· Português/ }).last()).toHaveValue(/\S/);
});
