/**
 * The item editor's errors and choices and the media library, walked by the demo editor in the
 * browser (no site build): errors go as the editor fixes each field, the count above the form
 * with them; a news item's type is chosen from the newsType dictionary, each choice named with
 * its code, and a type no longer in it stays shown and flagged; images are uploaded, seen where
 * they are used (a region's banner, uploaded from the editor), refused deletion while used, and
 * deleted when not — by mouse and by keyboard.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';

test.describe.configure({ mode: 'serial' });
chineseSpec(120_000);

test.beforeEach(async ({ context, accounts }) => {
  await apiLogin(context.request, accounts.url, 'demo_editor', 'Editor2025');
});

const csrf = (origin: string) => ({ 'X-Requested-With': 'XMLHttpRequest', Origin: origin });

/** A studio write through the API, as the editor's own session (for a state the form cannot make). */
async function studioPost(
  request: APIRequestContext,
  origin: string,
  call: string,
  data: unknown,
): Promise<{ code: number; data: unknown }> {
  const answer = await request.post(`${origin}/api/studio/${call}`, { headers: csrf(origin), data });
  return (await answer.json()) as { code: number; data: unknown };
}

/** The number in the form's summary ("有 N 处需要修改"), or 0 when it is gone. */
async function errorCount(page: Page): Promise<number> {
  const summary = page.getByRole('alert').filter({ hasText: /处需要修改/ });
  if ((await summary.count()) === 0) return 0;
  return Number(/有 (\d+) 处/.exec((await summary.textContent()) ?? '')?.[1] ?? NaN);
}

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 800, height: 300, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

test('errors go as each field is fixed, the count with them; the news type is chosen from its dictionary', async ({
  page,
}) => {
  await page.goto('/studio/edit?kind=news&new=1');
  await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
  const summary = page.getByRole('alert').filter({ hasText: /处需要修改/ });
  await expect(summary).toBeVisible();
  const before = await errorCount(page);
  expect(before).toBe(7);

  // The error: red, on its own line right under its field, named by the field; the hint stays a hint below it.
  const title = page.getByLabel('标题', { exact: true });
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  const titleError = page.locator('[data-field="title"] [data-field-error]');
  await expect(titleError).toHaveText('请输入标题');
  await expect(title).toHaveAttribute('aria-describedby', (await titleError.getAttribute('id')) ?? '-');
  await expect(titleError).toHaveCSS('color', 'oklch(0.52 0.2 25)');
  const idInput = page.getByLabel(zh['studio.edit.id']);
  const idError = page.locator('[data-field="path"] [data-field-error]');
  const idHint = page.getByText(zh['studio.edit.idHint']);
  const [inputBox, errorBox, hintBox] = await Promise.all([
    idInput.boundingBox(),
    idError.boundingBox(),
    idHint.boundingBox(),
  ]);
  expect(errorBox!.y).toBeGreaterThanOrEqual(inputBox!.y + inputBox!.height - 1);
  expect(hintBox!.y).toBeGreaterThanOrEqual(errorBox!.y + errorBox!.height - 1);
  expect(errorBox!.x).toBeCloseTo(inputBox!.x, 0);

  // Fixed, the title's error goes at once, and the count drops by one.
  await title.fill('工作台测试：错误随修改消失');
  await expect(titleError).toHaveCount(0);
  await expect(title).not.toHaveAttribute('aria-invalid');
  expect(await errorCount(page)).toBe(before - 1);

  // Still wrong for another reason: the new reason; then right.
  const date = page.getByLabel('日期', { exact: true });
  const dateError = page.locator('[data-field="date"] [data-field-error]');
  const emptyDate = await dateError.textContent();
  await date.fill('2026-11-20');
  await expect(dateError).toHaveCount(0);
  expect(emptyDate).toBeTruthy();

  // The news type: the dictionary's entries, each with its name and code.
  const type = page.getByLabel(zh['field.newsTypeCode']);
  await expect(type.locator('option')).toHaveText([
    zh['studio.edit.choose'],
    '政策法规（policy）',
    '市场动态（market）',
    '平台动态（company）',
  ]);
  await type.selectOption({ label: '市场动态（market）' });
  await expect(page.locator('[data-field="newsTypeCode"] [data-field-error]')).toHaveCount(0);

  await page.getByLabel('来源', { exact: true }).fill('本站');
  await page.getByLabel('摘要', { exact: true }).fill('错误随修改消失的检查。');
  await page.getByLabel('正文', { exact: true }).fill('正文。');
  expect(await errorCount(page)).toBe(1);
  await idInput.fill('studio-e2e-errors');
  await expect(summary).toHaveCount(0);
  await expect(page.locator('[data-field-error]')).toHaveCount(0);

  await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zh['studio.edit.saved'] })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(zh['field.newsTypeCode'])).toHaveValue('market');
});

test('a type no longer in the dictionary stays shown, flagged, until another is chosen', async ({ page, accounts }) => {
  const path = 'news/studio-e2e-errors.md';
  const item = (await (
    await page.request.get(`${accounts.url}/api/studio/item?path=${encodeURIComponent(path)}`)
  ).json()) as { data: { revision: number; draft: Record<string, unknown> } };
  const saved = await studioPost(page.request, accounts.url, 'item', {
    path,
    data: { ...item.data.draft, newsTypeCode: 'retired-type' },
    revision: item.data.revision,
  });
  expect(saved.code).toBe(200);

  await page.goto(`/studio/edit?path=${encodeURIComponent(path)}`);
  const type = page.getByLabel(zh['field.newsTypeCode']);
  await expect(type).toHaveValue('retired-type');
  await expect(type.locator('option:checked')).toHaveText('retired-type（已不在可选项中）');
  const flag = page.locator('[data-field="newsTypeCode"] [data-stale-choice]');
  await expect(flag).toContainText('“retired-type”已不在可选项中');
  await expect(type).toHaveAttribute('aria-describedby', new RegExp((await flag.getAttribute('id')) ?? '-'));
  await type.selectOption('policy');
  await expect(flag).toHaveCount(0);

  // A list of references in no order is a group of checkboxes: a set's voltage levels.
  await page.goto('/studio/edit?path=sets%2F440000%2Fgd-fixed-2027.yaml');
  const filter = page.getByRole('group', { name: zh['field.filter'] });
  const levels = filter.getByRole('group', { name: zh['field.voltageLevels'] });
  await expect(levels.getByRole('checkbox')).toHaveCount(5);
  await expect(levels.getByRole('checkbox', { name: '10千伏（kv10）' })).toBeVisible();

  expect((await studioPost(page.request, accounts.url, 'item/discard', { path })).code).toBe(200);
});

test('the media library: upload, where each image is used, delete refused while used, delete an unused one', async ({
  page,
  accounts,
}) => {
  await page.goto('/studio/media');
  await expect(page.getByRole('heading', { level: 1, name: zh['page.studioMedia.title'] })).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: zh['nav.sectionLabel'] })
      // The section menu drops the section's prefix ("内容工作台 · ") its entries share.
      .getByRole('link', { name: zh['page.studioMedia.title'].replace(/^[^·]+ · /, '') }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText(zh['studio.media.empty'])).toBeVisible();

  // Two uploads in the library.
  const file = page.getByLabel(zh['studio.edit.upload'], { exact: true });
  await file.setInputFiles({ name: 'banner-blue.png', mimeType: 'image/png', buffer: await png(30, 90, 200) });
  await expect(page.getByRole('status').filter({ hasText: '已上传 banner-blue.png：800×300 像素' })).toBeVisible();
  await file.setInputFiles({ name: 'spare-green.png', mimeType: 'image/png', buffer: await png(30, 160, 60) });
  await expect(page.getByRole('status').filter({ hasText: '已上传 spare-green.png' })).toBeVisible();
  const table = page.getByRole('table', { name: zh['studio.media.caption'] });
  const blue = table.getByRole('row').filter({ hasText: 'banner-blue.png' });
  const green = table.getByRole('row').filter({ hasText: 'spare-green.png' });
  await expect(blue).toContainText('800×300 像素');
  await expect(blue).toContainText('陈静');
  await expect(green).toContainText(zh['studio.media.unused']);
  // The thumbnail is the converted web image, loaded.
  const thumbnail = blue.getByRole('img', { name: 'banner-blue.png 的缩略图' });
  await expect(thumbnail).toHaveAttribute('src', /^\/images\/uploads\/[0-9a-f]{32}\.webp$/);
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(800);

  // The same picture uploaded from a region's banner field (one image), saved as a draft.
  await page.goto('/studio/edit?path=regions%2F450000.yaml');
  await page
    .getByLabel('为图片上传图片')
    .first()
    .setInputFiles({ name: 'banner-blue.png', mimeType: 'image/png', buffer: await png(30, 90, 200) });
  await expect(page.getByRole('status').filter({ hasText: '已上传：800×300 像素' })).toBeVisible();
  await expect(page.getByRole('img', { name: '图片的缩略图' }).first()).toHaveAttribute('src', /^\/images\/uploads\//);
  await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zh['studio.edit.saved'] })).toBeVisible();

  await page.goto('/studio/media');
  await expect(table.getByRole('row')).toHaveCount(3);
  const use = blue.getByRole('link', { name: '广西壮族自治区' });
  await expect(use).toHaveAttribute('href', '/studio/edit?path=regions%2F450000.yaml');
  await expect(blue).toContainText(zh['studio.media.in.draft']);

  // Used: the deletion is refused, naming the item; the image stays.
  await blue.getByRole('button', { name: '删除图片 banner-blue.png' }).click();
  const dialog = page.getByRole('dialog', { name: '删除图片“banner-blue.png”？' });
  await expect(dialog.getByRole('button', { name: zh['studio.cancel'] })).toBeFocused();
  await dialog.getByRole('button', { name: zh['studio.media.delete'] }).click();
  const refusal = page.getByRole('alert').filter({ hasText: '仍在使用' });
  await expect(refusal).toContainText('广西壮族自治区 (regions/450000.yaml)');
  await expect(blue).toBeVisible();

  // By keyboard: the unused one goes, after its confirmation.
  const remove = green.getByRole('button', { name: '删除图片 spare-green.png' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: '删除图片“spare-green.png”？' });
  await expect(confirm.getByRole('button', { name: zh['studio.cancel'] })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(confirm.getByRole('button', { name: zh['studio.media.delete'] })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: '图片 spare-green.png 已删除。' })).toBeVisible();
  await expect(green).toHaveCount(0);
  await expect(table.getByRole('row')).toHaveCount(2);

  expect((await studioPost(page.request, accounts.url, 'item/discard', { path: 'regions/450000.yaml' })).code).toBe(
    200,
  );
});
