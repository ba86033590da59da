/**
 * An editor types script payloads into a news body in the studio: the live preview (rendered by
 * the site's renderer on the server) shows the legitimate Markdown, lists what was removed and
 * why, and nothing runs — no dialog opens, no handler fires. The editor page ships no Markdown
 * renderer or sanitizer of its own.
 */
import type { Page, Response } from '@playwright/test';
import { labelCase } from '../../src/islands/auth/formValidation.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { expect, test } from './support/test.ts';

const zh = dictionaries['zh-CN'];
const en = dictionaries['en-US'];

const payload = [
  '## 调整要点',
  '',
  '低谷电价下调 **3%**。',
  '',
  '<img src="/no-such-image.png" onerror="window.__xss = \'img\'; alert(1)">',
  '',
  '<script>window.__xss = "script"; alert(2)</script>',
  '',
  '<svg onload="window.__xss = \'svg\'; alert(3)"></svg>',
  '',
  "[点这里查看](javascript:window.__xss='link';alert(4))",
].join('\n');

/** Signs the demo editor in with the page's cookies; every script the page loads is kept for a look. */
async function editorPage(
  page: Page,
  baseURL: string | undefined,
  locale: 'zh-CN' | 'en-US',
): Promise<{ dialogs: string[]; scripts: Promise<string>[] }> {
  const origin = baseURL ?? '';
  const login = await page.context().request.post(`${origin}/api/front/system/login`, {
    form: { userName: 'demo_editor', password: 'Editor2025', deviceId: 'hgdweb', appCode: 'hgd' },
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  expect(((await login.json()) as { code: number }).code).toBe(200);
  await page.addInitScript((value) => window.localStorage.setItem('locale', value), locale);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const scripts: Promise<string>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text());
  });
  return { dialogs, scripts };
}

test('an editor types script payloads into a news body: the preview says what was removed, and nothing runs', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { dialogs, scripts } = await editorPage(page, baseURL, 'zh-CN');
  await page.goto('/studio/edit?kind=news&new=1');
  const body = page.getByLabel('正文', { exact: true });
  await expect(body).toBeVisible();
  await body.fill(payload);

  const preview = page.getByRole('region', { name: '正文的预览' });
  await expect(preview.getByRole('heading', { level: 2, name: '调整要点' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('3%');
  const notice = page.locator('[data-dropped]');
  await expect(notice).toContainText(zh['studio.edit.droppedTitle']);
  await expect(notice.getByRole('listitem')).toHaveText([
    '移除了 <img> 的 onerror 属性',
    '移除了 <script> 标签',
    '移除了 <svg> 标签',
    "移除了一个 javascript: 链接（javascript:window.__xss='link';alert(4)）",
  ]);
  // The notice is read with the field.
  const noticeId = await notice.getAttribute('id');
  expect(await body.getAttribute('aria-describedby')).toContain(noticeId);

  // What is left is inert: the link goes nowhere, the image has no handler.
  const link = preview.getByText('点这里查看');
  await expect(link).toBeVisible();
  expect(await link.getAttribute('href')).toBeNull();
  await link.click();
  await expect(preview.locator('img')).toHaveAttribute('src', '/no-such-image.png');
  await expect(preview.locator('script, svg, [onerror], [onload]')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);

  // Fixing the body clears the notice.
  await body.fill('## 调整要点\n\n低谷电价下调 **3%**。');
  await expect(notice).toHaveCount(0);
  await expect(preview.locator('strong')).toHaveText('3%');

  // The page carries no Markdown renderer or sanitizer: the server renders.
  const loaded = await Promise.all(scripts);
  expect(loaded.length).toBeGreaterThan(0);
  for (const text of loaded) {
    expect(text).not.toContain('markedjs/marked');
    expect(text).not.toContain('allowedSchemesAppliedToAttributes');
  }
});

test('the notice in English, and a preview the server refuses shows its reason in place', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const { dialogs } = await editorPage(page, baseURL, 'en-US');
  await page.goto('/en-US/studio/edit?kind=news&new=1');
  const bodyLabel = labelCase(en['field.body']);
  const body = page.getByLabel(bodyLabel, { exact: true });
  await body.fill('<p onclick="alert(1)">Hello</p>');
  const notice = page.locator('[data-dropped]');
  await expect(notice.getByRole('listitem')).toHaveText(['removed the onclick attribute of <p>']);

  await body.fill(`${'>'.repeat(19_000)} deep`);
  await expect(page.getByRole('region', { name: `Preview of ${bodyLabel}` }).getByRole('alert')).toHaveText(
    en['studio.edit.markdownUnrenderable'],
  );
  expect(dialogs).toEqual([]);
});
