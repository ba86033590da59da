/**
 * Scheduled publishing in the browser, by the demo editor on a machine far from China (Los
 * Angeles): on the pending changes the chosen draft is scheduled for a China time (a past time
 * refused at the field first), listed under "已计划" with its time in China time, what, which item,
 * who and its state, and cancelled after a confirmation; from the item editor a published item is
 * scheduled for removal and cancelled too. The dialog is used with the keyboard, and axe checks
 * the page with the dialog open and with a schedule listed.
 */
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { chinaDate, formatChinaDateTime, instantOfChinaDateTime } from '../../src/lib/chinaTime.ts';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';

test.describe.configure({ mode: 'serial' });
chineseSpec(120_000);
// 16 hours behind China in November: what the editor types and sees is China time all the same.
test.use({ timezoneId: 'America/Los_Angeles' });

const axeOptions = {
  runOnly: { type: 'tag' as const, values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
  rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
};

const newsId = 'schedule-e2e-news';
const newsTitle = '定时发布测试：春节服务安排';
const removed = 'news/20250318-policy-green-cert.md';

/** Tomorrow in China at this hour and minute: the form's wall clock and what the list shows. */
function tomorrowInChina(time: string): { value: string; shown: string } {
  const value = `${chinaDate(Date.now() + 86_400_000)}T${time}`;
  return { value, shown: formatChinaDateTime(instantOfChinaDateTime(value)!, 'zh-CN') };
}

async function saveDraft(request: APIRequestContext, origin: string): Promise<void> {
  const response = await request.post(`${origin}/api/studio/item`, {
    data: {
      path: `news/${newsId}.md`,
      revision: 0,
      data: {
        newsTypeCode: 'company',
        title: newsTitle,
        date: '2026-11-20',
        source: '本站',
        summary: '春节期间的服务安排。',
        body: '## 服务安排\n\n热线照常。',
      },
    },
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  const body = (await response.json()) as { code: number; message: string };
  if (body.code !== 200 && body.code !== 409) throw new Error(`draft not saved: ${body.code} ${body.message}`);
}

async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).options(axeOptions).analyze();
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

test.beforeEach(async ({ context, accounts }) => {
  await apiLogin(context.request, accounts.url, 'demo_editor', 'Editor2025');
});

test('the editor schedules a chosen draft for a China time, sees it listed and cancels it', async ({
  page,
  context,
  accounts,
}) => {
  await saveDraft(context.request, accounts.url);
  await page.goto('/studio/changes');
  const scheduled = page.getByRole('region', { name: zh['studio.schedules.title'] });
  await expect(scheduled.getByText(zh['studio.schedules.empty'])).toBeVisible();

  // Only this draft chosen.
  const drafts = page.getByRole('table', { name: zh['studio.changes.caption'] });
  const all = drafts.getByRole('checkbox', { name: zh['studio.changes.selectAll'] });
  await all.check();
  await all.uncheck();
  await drafts.getByRole('checkbox', { name: `选择 ${newsTitle}` }).check();

  // Opened with the keyboard; Escape closes it and gives the focus back.
  const open = page.getByRole('button', { name: zh['studio.schedule.open'], exact: true });
  await open.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: '定时发布所选的 1 项修改' });
  await expect(dialog).toBeVisible();
  const runAt = dialog.getByLabel(zh['studio.schedule.runAtLabel']);
  await expect(runAt).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();

  await open.click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/^按北京时间填写，与你的电脑所在的时区无关。现在是北京时间 /)).toBeVisible();
  expect(await axe(page)).toEqual([]);

  // A time already past (yesterday in China) is refused at the field, in Chinese.
  await runAt.fill(`${chinaDate(Date.now() - 86_400_000)}T09:00`);
  await dialog.getByRole('button', { name: zh['studio.schedule.confirm'] }).click();
  await expect(dialog.getByText('执行时间必须晚于现在（北京时间）。')).toBeVisible();
  await expect(runAt).toHaveAttribute('aria-invalid', 'true');

  const when = tomorrowInChina('09:30');
  await runAt.fill(when.value);
  await runAt.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `已计划：将于北京时间 ${when.shown} 执行。` })).toBeVisible();

  // Listed: time in China time (not the browser's), what, which item, who, state.
  const row = scheduled.getByRole('row').filter({ hasText: newsTitle });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(0)).toHaveText(when.shown);
  await expect(row.getByRole('cell').nth(1)).toHaveText(zh['studio.schedules.action.publish']);
  await expect(row.getByRole('link', { name: newsTitle })).toHaveAttribute(
    'href',
    `/studio/edit?path=news%2F${newsId}.md`,
  );
  await expect(row.getByText(/^陈静（/)).toBeVisible();
  await expect(row.getByText(zh['studio.schedules.status.scheduled'])).toBeVisible();
  expect(await axe(page)).toEqual([]);

  // Still listed after a reload (it is in the database, not the page).
  await page.reload();
  await expect(row).toHaveCount(1);

  // Cancelled after a confirmation; keeping it first changes nothing.
  const cancel = row.getByRole('button', { name: `取消计划：北京时间 ${when.shown}` });
  await cancel.click();
  const confirm = page.getByRole('dialog', { name: `取消北京时间 ${when.shown} 的计划？` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: zh['studio.schedules.keep'] }).click();
  await expect(row.getByText(zh['studio.schedules.status.scheduled'])).toBeVisible();
  await cancel.click();
  await confirm.getByRole('button', { name: zh['studio.schedules.cancel'] }).click();
  await expect(scheduled.getByRole('status').filter({ hasText: zh['studio.schedules.cancelled'] })).toBeVisible();
  await expect(scheduled.getByText(zh['studio.schedules.empty'])).toBeVisible();
  await scheduled.locator('summary').click();
  const recent = scheduled
    .getByRole('table', { name: zh['studio.schedules.recent'] })
    .getByRole('row')
    .filter({ hasText: newsTitle });
  await expect(recent.getByText(zh['studio.schedules.status.cancelled'])).toBeVisible();
  // The draft is still a draft.
  await expect(drafts.getByRole('link', { name: newsTitle })).toBeVisible();
});

test('from the item editor a published item is scheduled for removal, then cancelled', async ({ page }) => {
  await page.goto(`/studio/edit?path=${encodeURIComponent(removed)}`);
  const state = page.locator('span.badge[data-state]');
  await expect(state).toHaveAttribute('data-state', 'published');
  await page.getByRole('button', { name: zh['studio.schedule.openUnpublish'] }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(/^定时将“.+”从网站移除$/);
  await expect(dialog.getByText(zh['studio.schedule.unpublishBody'])).toBeVisible();
  const when = tomorrowInChina('18:00');
  await dialog.getByLabel(zh['studio.schedule.runAtLabel']).fill(when.value);
  await dialog.getByRole('button', { name: zh['studio.schedule.confirm'] }).click();
  await expect(page.getByRole('status').filter({ hasText: `已计划：将于北京时间 ${when.shown} 执行。` })).toBeVisible();
  // Nothing saved or marked in the editor: the item is still published, its form untouched.
  await expect(page.getByText(zh['studio.edit.unsaved'])).toHaveCount(0);
  await expect(state).toHaveAttribute('data-state', 'published');

  await page.goto('/studio/changes');
  const row = page
    .getByRole('region', { name: zh['studio.schedules.title'] })
    .getByRole('row')
    .filter({ hasText: removed });
  await expect(row.getByRole('cell').nth(1)).toHaveText(zh['studio.schedules.action.unpublish']);
  await row.getByRole('button', { name: `取消计划：北京时间 ${when.shown}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: zh['studio.schedules.cancel'] }).click();
  await expect(row).toHaveCount(0);
});
