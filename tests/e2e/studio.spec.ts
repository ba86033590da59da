/**
 * The editors' studio, walked by the demo editor in the browser against the real server, which
 * builds the site for real (astro build from the database's content): a news item created with
 * its errors shown in place, previewed (the preview page shows it, the public site does not),
 * published with its progress (then the public page shows it), a publish refused by the
 * content's cross-check (the exact error, the public site unchanged), and a rollback (the item
 * gone from the public page again); the content exported as files and imported back as drafts.
 * One server for the whole file: the tests follow each other.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';

test.describe.configure({ mode: 'serial' });
// Real builds of the whole site (publications and a preview) on a loaded 2-core machine.
chineseSpec(20 * 60_000);

const buildTimeout = 12 * 60_000;
const newsId = 'studio-e2e-tariff';
const newsTitle = '工作台测试：分时电价调整说明';
const badId = 'studio-e2e-unknown-type';

test.beforeEach(async ({ context, accounts }) => {
  await apiLogin(context.request, accounts.url, 'demo_editor', 'Editor2025');
});

/** The pending-changes page's publish, confirmed in its dialog. */
async function publishChosen(page: Page): Promise<void> {
  await page.getByRole('button', { name: zh['studio.changes.publish'], exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: zh['studio.changes.publish'], exact: true }).click();
}

/** While a build runs its step is said in words with a progress bar; then its outcome. */
async function expectProgressThen(page: Page, outcome: string): Promise<void> {
  const status = page.locator('[data-build-status]');
  await expect(status).toBeVisible();
  // A short build may finish before the first poll; when it is seen running, it shows its step and a bar.
  if ((await status.getAttribute('data-build-status')) === 'running') {
    await expect(status.getByText(/当前步骤：/)).toBeVisible();
    await expect(status.getByRole('progressbar', { name: zh['studio.build.progress'] })).toBeVisible();
  }
  await expect(status.getByText(outcome)).toBeVisible({ timeout: buildTimeout });
}

test('an editor creates a news item: errors in place, Markdown preview, saved as a draft, previewed', async ({
  page,
  request,
  accounts,
}) => {
  await page.goto('/studio');
  await expect(page.getByRole('heading', { level: 1, name: zh['page.studio.title'] })).toBeVisible();
  await page
    .getByRole('table', { name: zh['studio.overview.kinds'] })
    .getByRole('link', { name: zh['studio.kind.news'] })
    .click();
  await page.getByRole('link', { name: `新建${zh['studio.kind.news']}` }).click();
  await expect(page).toHaveURL(/\/studio\/edit\?kind=news&new=1$/);

  // Saving the empty form: every problem at its field, in Chinese, focus on the first.
  await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
  await expect(page.getByRole('alert').filter({ hasText: /处需要修改/ })).toBeVisible();
  await expect(page.getByLabel('标识', { exact: true })).toBeFocused();
  await expect(page.getByLabel('标题', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('请输入标题')).toBeVisible();

  await page.getByLabel('标识', { exact: true }).fill(newsId);
  await page.getByLabel(zh['field.newsTypeCode']).selectOption({ label: '市场动态（market）' });
  await page.getByLabel('标题', { exact: true }).fill(newsTitle);
  await page.getByLabel('日期', { exact: true }).fill('2026-11-20');
  await page.getByLabel('来源', { exact: true }).fill('本站');
  await page.getByLabel('摘要', { exact: true }).fill('峰谷时段与价差的调整要点。');
  await page.getByLabel('正文', { exact: true }).fill('## 调整要点\n\n- 高峰时段延长一小时\n- 低谷电价下调 **3%**');
  // The live preview beside the Markdown is the site's renderer.
  const preview = page.getByRole('region', { name: '正文的预览' });
  await expect(preview.getByRole('heading', { level: 2, name: '调整要点' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('3%');

  await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zh['studio.edit.saved'] })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`path=news%2F${newsId}\\.md`));
  await expect(page.getByText(zh['studio.state.new'])).toBeVisible();

  // Preview: the real page, built with the draft; the public site does not have it.
  await page.goto('/studio/changes');
  await expect(page.getByRole('checkbox', { name: `选择 ${newsTitle}` })).toBeChecked();
  await page.getByRole('button', { name: zh['studio.changes.preview'], exact: true }).click();
  await expectProgressThen(page, zh['studio.build.previewReady']);
  const link = page.getByRole('link', { name: `打开预览：${newsTitle}` });
  const href = await link.getAttribute('href');
  expect(href).toMatch(new RegExp(`^/studio-preview/\\d+/infomation/detail/${newsId}$`));
  await page.goto(href ?? '');
  await expect(page.getByRole('heading', { name: newsTitle })).toBeVisible();
  expect((await request.get(`${accounts.url}/infomation/detail/${newsId}`)).status()).toBe(404);

  // The preview is sandboxed: a draft's script could not act as the editor viewing it.
  const reach = await page.evaluate(async () => {
    const user = (init?: RequestInit) =>
      fetch('/api/front/user/getUserInfo', init).then(
        (answer) => answer.text(),
        () => 'refused',
      );
    const attempt = (read: () => unknown) => {
      try {
        read();
        return 'read';
      } catch {
        return 'refused';
      }
    };
    return {
      origin: self.origin,
      user: await user(),
      userWithCookies: await user({ credentials: 'include' }),
      storage: attempt(() => localStorage.getItem('locale')),
      cookies: attempt(() => document.cookie),
    };
  });
  expect(reach).toEqual({
    origin: 'null',
    user: 'refused',
    userWithCookies: 'refused',
    storage: 'refused',
    cookies: 'refused',
  });
  // Yet it looks as it will: the preview build's stylesheet applies (the body is a flex column).
  await expect(page.locator('body')).toHaveCSS('display', 'flex');
});

test('two editors on one item: the later save is told someone else saved, and reloads their version', async ({
  page,
  browser,
  accounts,
}) => {
  await page.goto('/studio/items?kind=notice');
  await page.getByRole('table').getByRole('row').nth(1).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/studio\/edit\?path=notices%2F/);
  const other = await browser.newContext({ baseURL: accounts.url, locale: 'zh-CN' });
  try {
    await other.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    await apiLogin(other.request, accounts.url, 'demo_editor', 'Editor2025');
    const second = await other.newPage();
    await second.goto(page.url());
    await second.getByLabel('来源', { exact: true }).fill('第二位编辑');
    await page.getByLabel('来源', { exact: true }).fill('第一位编辑');
    await second.getByRole('button', { name: zh['studio.edit.save'] }).click();
    await expect(second.getByRole('status').filter({ hasText: zh['studio.edit.saved'] })).toBeVisible();

    await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
    const conflict = page.getByRole('alert').filter({ hasText: zh['studio.edit.changedTitle'] });
    await expect(conflict).toContainText(zh['studio.edit.changedBody']);
    await conflict.getByRole('button', { name: zh['studio.edit.reload'] }).click();
    await expect(page.getByLabel('来源', { exact: true })).toHaveValue('第二位编辑');
    // Back as it was: the draft discarded, after a confirmation.
    await page.getByRole('button', { name: zh['studio.edit.discard'] }).click();
    await page.getByRole('dialog').getByRole('button', { name: zh['studio.edit.discard'] }).click();
    await expect(page.getByRole('status').filter({ hasText: zh['studio.edit.discarded'] })).toBeVisible();
    await expect(page.getByText(zh['studio.state.published'], { exact: true })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('publishing what the editor chose: progress, then the public page shows it', async ({
  page,
  accounts,
  request,
}) => {
  // A first publication the site can later be rolled back to: another item's change alone.
  await page.goto('/studio/edit?path=news%2F20250108-platform-launch.md');
  const summary = page.getByLabel('摘要', { exact: true });
  await summary.fill(`${await summary.inputValue()}（已核对）`);
  await page.getByRole('button', { name: zh['studio.edit.save'] }).click();
  await expect(page.getByRole('status').filter({ hasText: zh['studio.edit.saved'] })).toBeVisible();

  await page.goto('/studio/changes');
  await page.getByRole('checkbox', { name: `选择 ${newsTitle}` }).uncheck();
  await expect(page.getByText('已选 1 / 2 项')).toBeVisible();
  await publishChosen(page);
  await expectProgressThen(page, zh['studio.build.published']);
  expect((await request.get(`${accounts.url}/infomation/detail/${newsId}`)).status()).toBe(404);

  // Now the news item: published in its own build.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: `选择 ${newsTitle}` })).toBeChecked();
  await publishChosen(page);
  await expectProgressThen(page, zh['studio.build.published']);
  await page.goto(`/infomation/detail/${newsId}`);
  await expect(page.getByRole('heading', { name: newsTitle })).toBeVisible();
  await expect(page.getByRole('heading', { name: '调整要点' })).toBeVisible();
});

test('a publish the content check refuses shows the exact error and leaves the public site as it was', async ({
  page,
  accounts,
  request,
}) => {
  // Passes the field schema (any text), fails the build's cross-check (no such news type). The
  // form offers only the dictionary's types, so the draft comes the way an import or a script's
  // would: through the API. The editor shows the unknown type kept and flagged.
  const saved = await page.request.post(`${accounts.url}/api/studio/item`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: accounts.url },
    data: {
      path: `news/${badId}.md`,
      revision: 0,
      data: {
        newsTypeCode: 'no-such-type',
        title: '类型不存在的新闻',
        date: '2026-11-21',
        source: '本站',
        summary: '用于检查发布失败。',
        body: '正文',
      },
    },
  });
  expect(((await saved.json()) as { code: number }).code).toBe(200);
  await page.goto(`/studio/edit?path=news%2F${badId}.md`);
  await expect(page.getByLabel(zh['field.newsTypeCode'])).toHaveValue('no-such-type');
  await expect(page.locator('[data-field="newsTypeCode"] [data-stale-choice]')).toBeVisible();

  await page.goto('/studio/changes');
  await publishChosen(page);
  const refusal = page.getByRole('alert').filter({ hasText: zh['studio.changes.invalid'] });
  await expect(refusal).toBeVisible();
  await expect(refusal.locator('[data-content-error]')).toHaveText(
    `内容未通过检查：news/${badId}.md: newsTypeCode: unknown newsType "no-such-type" (dictionaries.yaml)`,
  );
  // The way to the field at fault, and nothing changed in public.
  await expect(refusal.getByRole('link', { name: /去修改/ })).toHaveAttribute(
    'href',
    `/studio/edit?path=news%2F${badId}.md`,
  );
  expect((await request.get(`${accounts.url}/infomation/detail/${badId}`)).status()).toBe(404);
  await page.goto(`/infomation/detail/${newsId}`);
  await expect(page.getByRole('heading', { name: newsTitle })).toBeVisible();

  // The bad draft is discarded (after a confirmation): it never existed in public.
  await page.goto(`/studio/edit?path=news%2F${badId}.md`);
  await page.getByRole('button', { name: zh['studio.edit.discard'] }).click();
  const dialog = page.getByRole('dialog', { name: zh['studio.edit.discardTitle'] });
  await expect(dialog.getByRole('button', { name: zh['studio.cancel'] })).toBeFocused();
  await dialog.getByRole('button', { name: zh['studio.edit.discard'] }).click();
  await expect(page).toHaveURL(/\/studio\/items\?kind=news$/);
});

test('rolling back to the earlier publication takes the item off the public site again', async ({
  page,
  accounts,
  request,
}) => {
  await page.goto('/studio/publications');
  const table = page.getByRole('table', { name: zh['studio.pub.caption'] });
  // Newest first: our news item's publication (the site now), then the one before it.
  const current = table.getByRole('row').filter({ hasText: zh['studio.pub.current'] });
  await expect(current).toContainText(newsTitle);
  const earlier = table
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /将网站回滚到第 \d+ 次发布/ }) })
    .first();
  const buildId = await earlier.getAttribute('data-build');
  await earlier.getByRole('button', { name: `将网站回滚到第 ${buildId} 次发布` }).click();
  const dialog = page.getByRole('dialog', { name: `将网站回滚到第 ${buildId} 次发布？` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: zh['studio.pub.rollback'] }).click();
  await expect(page.getByRole('status').filter({ hasText: `网站已回滚到第 ${buildId} 次发布。` })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: zh['studio.pub.current'] })).toHaveAttribute(
    'data-build',
    buildId ?? '',
  );

  await expect
    .poll(async () => (await request.get(`${accounts.url}/infomation/detail/${newsId}`)).status(), { timeout: 30_000 })
    .toBe(404);
  await page.goto(`/infomation/detail/${newsId}`);
  await expect(page.getByRole('heading', { name: newsTitle })).toHaveCount(0);
});

test('the content as files: export saves a .zip of the content, an import makes each changed file a draft', async ({
  page,
  accounts,
}) => {
  await page.goto('/studio');
  const section = page.getByRole('region', { name: zh['studio.package.title'] });
  const saved = page.waitForEvent('download');
  await section.getByRole('button', { name: zh['partner.export'], exact: true }).click();
  const download = await saved;
  const files = unzipSync(new Uint8Array(readFileSync((await download.path()) ?? '')));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['business-types.yaml', 'regions/440000.yaml']));
  const notice = Object.keys(files).find((name) => name.startsWith('notices/'));
  expect(notice).toBeDefined();

  // The package with one file changed: that file, and only it, becomes a draft.
  const changed = {
    ...files,
    [notice!]: strToU8(strFromU8(files[notice!]!).replace(/\n$/, '\n\n导入测试补充的一段。\n')),
  };
  await section
    .getByLabel(zh['studio.package.file'])
    .setInputFiles({ name: 'content.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync(changed)) });
  await section.getByRole('button', { name: zh['studio.package.import'], exact: true }).click();
  await expect(section.locator('form').getByRole('status')).toHaveText(
    `导入完成：1 个文件成为草稿，${Object.keys(files).length - 1} 个没有变化。`,
  );

  // A package with a broken file changes nothing and says which file.
  await section.getByLabel(zh['studio.package.file']).setInputFiles({
    name: 'bad.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync({ 'news/broken.md': strToU8('---\ntitle: [\n---\nx') })),
  });
  await section.getByRole('button', { name: zh['studio.package.import'], exact: true }).click();
  await expect(section.locator('form').getByRole('status')).toContainText('news/broken.md');

  const discarded = await page.request.post(`${accounts.url}/api/studio/item/discard`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: accounts.url },
    data: { path: notice },
  });
  expect(((await discarded.json()) as { code: number }).code).toBe(200);
});
