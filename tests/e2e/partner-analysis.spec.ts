/**
 * The partner analysis pages as demo_partner (related to ICBC 广东省分行: sees that branch and its
 * five sub-branches, never the other branches): each page loads a chart and its table, the
 * granularity switch changes the period's format and the rows, the state survives a reload, the
 * comparison waits for two institutions, an export downloads an .xlsx whose rows are the table's,
 * the pickers work from the keyboard, and one page in English.
 */
import type { Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { rowsOf } from '../../src/server/db/client.ts';
import { currentPeriod } from '../../src/lib/partner.ts';
import { shiftPeriod } from '../../src/islands/partner/analysis/analysisQuery.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';
import { expectTableFitsScrollsThenCards } from './support/partnerPages.ts';

chineseSpec(120_000);

const visible = ['广东省分行', '广州天河支行', '广州越秀支行', '深圳南山支行', '佛山禅城支行', '东莞南城支行'];
const hidden = ['广西区分行', '南宁青秀支行', '中国工商银行股份有限公司', '广州海珠支行'];

test.beforeEach(async ({ context, accounts }) => {
  await apiLogin(context.request, accounts.url, 'demo_partner', 'Partner2025');
});

function statisticsTable(page: Page) {
  return page.getByRole('table', { name: zh['analysis.table.statistics'] });
}

/** The table's data rows (not the header), once loaded. */
function dataRows(page: Page, name: string) {
  return page.getByRole('table', { name, exact: true }).locator('tbody tr');
}

/** The answer of the next call to `path` whose form body satisfies `match`. */
function nextCall(page: Page, path: string, match: (body: URLSearchParams) => boolean = () => true) {
  return page.waitForResponse((response) => {
    if (!response.url().includes(path)) return false;
    const body = new URLSearchParams(response.request().postData() ?? '');
    return match(body);
  });
}

/** The demo's newest settlements are last month's (China time): where a page with no period opens. */
const newestSettled = shiftPeriod(2, currentPeriod(2), -1);

test('statistics: chart and table of the visible subtree, granularity, reload, keyboard pickers', async ({ page }) => {
  const yearly = nextCall(page, '/getStaDataAntTable', (body) => body.get('yearType') === '1');
  await page.goto('/partner/analysis/statistics');
  await yearly;
  const table = statisticsTable(page);
  await expect(dataRows(page, zh['analysis.table.statistics'])).toHaveCount(visible.length);
  for (const name of visible) await expect(table.getByRole('cell', { name, exact: true })).toBeVisible();
  for (const name of hidden) await expect(table.getByRole('cell', { name, exact: true })).toHaveCount(0);
  // The chart: an image named by its metric and period, described by its data table.
  const year = newestSettled.slice(0, 4);
  const chart = page.getByRole('img', {
    name: new RegExp(`^${zh['partner.metric.settledEnergy'].replace(/[()（）]/g, '.')}.*${year}`),
  });
  await expect(chart).toBeVisible();
  await page.getByText(zh['analysis.chart.data']).click();
  const described = page.locator(`[id="${await chart.getAttribute('aria-describedby')}"]`);
  await expect(described.getByRole('rowheader', { name: '广东省分行' })).toBeVisible();
  const yearEnergy = await table
    .getByRole('row', { name: /广东省分行/ })
    .getByRole('cell')
    .nth(8)
    .textContent();

  // 按月 from the keyboard: the radio group takes the arrow keys.
  const byYear = page.getByRole('radio', { name: zh['partner.yearType.1'] });
  await byYear.focus();
  const monthly = nextCall(page, '/getStaDataAntTable', (body) => body.get('yearType') === '2');
  await page.keyboard.press('ArrowRight');
  await monthly;
  await expect(page.getByRole('radio', { name: zh['partner.yearType.2'] })).toBeChecked();
  await expect(page).toHaveURL(/[?&]yt=2(&|$)/);
  const monthField = page.getByLabel(zh['analysis.periodLabel.2']);
  await expect(monthField).toHaveAttribute('type', 'month');
  // The current month has no settlement yet: the month opens on last month, the newest with
  // settlements, so the chart has bars to draw; its figure is the month's, not the year's.
  await expect(monthField).toHaveValue(newestSettled);
  await expect(page.getByText(`统计期间：${newestSettled}`)).toBeVisible();
  const monthEnergy = table
    .getByRole('row', { name: /广东省分行/ })
    .getByRole('cell')
    .nth(8);
  await expect(monthEnergy).not.toHaveText(yearEnergy ?? '');
  await expect(monthEnergy).not.toHaveText(/^0(\.0+)?$/);
  await expect(page.getByRole('img', { name: new RegExp(newestSettled) })).toBeVisible();

  // The institution picker from the keyboard (ArrowDown opens Chromium's list, End goes to the
  // last institution, Enter takes it): a sub-branch's subtree is itself.
  const picker = page.getByLabel(zh['analysis.institution'], { exact: true });
  await picker.focus();
  const narrowed = nextCall(page, '/getStaDataAntTable', (body) => body.has('partnerId'));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await narrowed;
  await expect(picker.locator('option:checked')).toHaveText(/东莞南城支行/);
  await expect(page).toHaveURL(/[?&]partner=\d+/);
  await expect(dataRows(page, zh['analysis.table.statistics'])).toHaveCount(1);
  await expect(table.getByRole('cell', { name: '东莞南城支行', exact: true })).toBeVisible();

  // Reload: the same granularity, period, institution and rows.
  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole('radio', { name: zh['partner.yearType.2'] })).toBeChecked();
  await expect(page.getByLabel(zh['analysis.periodLabel.2'])).toHaveValue(newestSettled);
  await expect(dataRows(page, zh['analysis.table.statistics'])).toHaveCount(1);
  await expect(table.getByRole('cell', { name: '东莞南城支行', exact: true })).toBeVisible();

  // A year typed from the keyboard; a wrong one is explained in place and asks nothing.
  await page.getByRole('radio', { name: zh['partner.yearType.2'] }).focus();
  await page.keyboard.press('ArrowLeft');
  const yearField = page.getByLabel(zh['analysis.periodLabel.1']);
  await expect(yearField).toHaveValue(newestSettled.slice(0, 4));
  await yearField.fill('20');
  await expect(page.getByText(zh['partner.period.1'])).toBeVisible();
  const lastYear = String(Number(year) - 1);
  const previous = nextCall(page, '/getStaDataAntTable', (body) => body.get('period') === lastYear);
  await yearField.fill(lastYear);
  await previous;
  await expect(page).toHaveURL(new RegExp(`[?&]period=${lastYear}(&|$)`));
  await expect(page.getByText(zh['partner.period.1'])).toBeHidden();
});

test('the monthly statistics table fits 1280 px in Chinese and English; its first column held when narrower, on a phone its rows are cards', async ({
  page,
  context,
}) => {
  await page.goto('/partner/analysis/statistics?yt=2');
  await expectTableFitsScrollsThenCards(page, statisticsTable(page));
  await context.addInitScript(() => window.localStorage.setItem('locale', 'en-US'));
  await page.goto('/en-US/partner/analysis/statistics?yt=2');
  await expectTableFitsScrollsThenCards(
    page,
    page.getByRole('table', { name: dictionaries['en-US']['analysis.table.statistics'] }),
  );
});

test('statistics: sorting by a metric and the chart’s metric are kept in the address', async ({ page }) => {
  await page.goto('/partner/analysis/statistics');
  const table = statisticsTable(page);
  await expect(dataRows(page, zh['analysis.table.statistics'])).toHaveCount(visible.length);
  const sorted = nextCall(page, '/getStaDataAntTable', (body) => (body.get('antTable') ?? '').includes('"saving"'));
  await table.getByRole('button', { name: zh['partner.metric.saving'] }).click();
  await sorted;
  await page.getByLabel(zh['analysis.metric']).selectOption('saving');
  await expect(page).toHaveURL(/sort=saving%3Aasc/);
  await expect(page).toHaveURL(/metric=saving/);
  await page.reload();
  await expect(page.getByLabel(zh['analysis.metric'])).toHaveValue('saving');
  await expect(
    page.getByRole('img', { name: new RegExp(`^${zh['partner.metric.saving'].replace(/[()（）]/g, '.')}`) }),
  ).toBeVisible();
  await expect(
    table.getByRole('columnheader', { name: new RegExp(zh['partner.metric.saving'].replace(/[()（）]/g, '.')) }),
  ).toHaveAttribute('aria-sort', 'ascending');
});

test('statistics export: an .xlsx whose rows are the table’s', async ({ page }) => {
  await page.goto('/partner/analysis/statistics');
  const table = statisticsTable(page);
  await expect(dataRows(page, zh['analysis.table.statistics'])).toHaveCount(visible.length);
  const names = await table.locator('tbody tr td:nth-child(2)').allTextContents();
  const codes = await table.locator('tbody tr td:nth-child(1)').allTextContents();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: zh['partner.export'], exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  await expect(page.getByText(zh['partner.export.done'])).toBeVisible();
  const rows = await readSheet(await file.createReadStream());
  // Row 1 is the header; the columns are found by the first institution's code and name.
  const codeColumn = rows[1]!.findIndex((cell) => String(cell) === codes[0]);
  const nameColumn = rows[1]!.findIndex((cell) => String(cell) === names[0]);
  expect(codeColumn).toBeGreaterThanOrEqual(0);
  expect(nameColumn).toBeGreaterThanOrEqual(0);
  const totals = (row: readonly unknown[]) => row.some((cell) => String(cell).includes('合计'));
  const body = rows.slice(1).filter((row) => !totals(row));
  expect(body.map((row) => String(row[codeColumn]))).toEqual(codes);
  expect(body.map((row) => String(row[nameColumn]))).toEqual(names);
  // The totals row follows the institutions.
  expect(rows.slice(1).filter(totals)).toHaveLength(1);
});

test('an institution outside the user’s scope, on every partner page: said as such, their own offered, no retry, no export', async ({
  page,
  accounts,
}) => {
  // ICBC's head office exists but is above demo_partner's branch: the server refuses it like a missing one.
  const [office] = rowsOf(
    await accounts.db.execute(sql`select id from partner_institutions where code = '0102000000'`),
  );
  const [branch] = rowsOf(
    await accounts.db.execute(sql`select id from partner_institutions where code = '0102440000'`),
  );
  expect(office && branch).toBeTruthy();
  const officeId = String(office!['id']);
  const branchId = String(branch!['id']);
  const own = zh['partner.scope.own'].replace('{name}', '广东省分行');
  const pages = [
    { path: `/partner/query/settlement?filter.subtree=${officeId}`, key: 'filter\\.subtree', exported: true },
    { path: `/partner/analysis/statistics?partner=${officeId}`, key: 'partner', exported: true },
    { path: `/partner/analysis/trend?partner=${officeId}`, key: 'partner', exported: true },
    { path: `/partner/analysis/institution?ids=${officeId},${branchId}`, key: 'ids', exported: true },
    { path: `/partner/organization?partnerId=${officeId}`, key: 'partnerId', exported: false },
  ];
  for (const target of pages) {
    await page.goto(target.path);
    const notice = page.getByRole('alert').filter({ hasText: zh['partner.scope.outside'] });
    await expect(notice, target.path).toBeVisible();
    await expect(page.getByText(zh['partner.notFound'])).toHaveCount(0);
    await expect(page.getByRole('button', { name: /重试/ })).toHaveCount(0);
    if (target.exported)
      await expect(page.getByRole('button', { name: zh['partner.export'], exact: true })).toBeDisabled();
    // Their own institution, one click away: the address names it and the page shows it.
    await notice.getByRole('button', { name: own }).click();
    await expect(notice).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`[?&]${target.key}=[^&]*${branchId}(&|$|%2C|,)`));
    await expect(page).not.toHaveURL(new RegExp(`[=,]${officeId}(&|$|,)`));
  }
  // The organization page shows the branch's details, not silently someone else's.
  await expect(page.getByRole('heading', { name: /广东省分行/ }).first()).toBeVisible();
});

test('institution comparison: needs two institutions, grouped chart and table, reload, keyboard', async ({ page }) => {
  await page.goto('/partner/analysis/institution');
  await expect(page.getByText('请至少选择 2 家机构进行对比').first()).toBeVisible();
  await expect(page.getByRole('table', { name: zh['analysis.table.compare'] })).toHaveCount(0);
  // Only the visible subtree is offered.
  const group = page.getByRole('group', { name: zh['analysis.compare.institutions'] });
  await expect(group.getByRole('checkbox')).toHaveCount(visible.length);
  for (const name of hidden) await expect(group.getByText(name, { exact: true })).toHaveCount(0);

  // Keyboard: Space ticks the focused box, Tab moves to the next.
  await group.getByRole('checkbox', { name: /广州天河支行/ }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('请至少选择 2 家机构进行对比').first()).toBeVisible();
  const compared = nextCall(page, '/getCompareDataAntTable');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await compared;
  await expect(group.getByRole('checkbox', { name: /广州越秀支行/ })).toBeChecked();
  await expect(page).toHaveURL(/[?&]ids=\d+%2C\d+/);

  const table = page.getByRole('table', { name: zh['analysis.table.compare'] });
  await expect(table).toBeVisible();
  await expect(table.getByRole('cell', { name: '广州天河支行', exact: true }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: '广州越秀支行', exact: true }).first()).toBeVisible();
  await expect(page.getByRole('img', { name: /机构对比/ })).toBeVisible();

  // By province; state survives the reload.
  const byArea = nextCall(page, '/getCompareDataAntTable', (body) => body.get('classification') === 'area');
  await page.getByLabel(zh['analysis.classification']).selectOption('area');
  await byArea;
  await expect(table.getByRole('cell', { name: '广东省', exact: true }).first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(zh['analysis.classification'])).toHaveValue('area');
  await expect(group.getByRole('checkbox', { name: /广州天河支行/ })).toBeChecked();
  await expect(group.getByRole('checkbox', { name: /广州越秀支行/ })).toBeChecked();
  await expect(table.getByRole('cell', { name: '广东省', exact: true }).first()).toBeVisible();

  // Back to one: nothing is asked, the page says why.
  await group.getByRole('checkbox', { name: /广州越秀支行/ }).uncheck();
  await expect(page.getByText('请至少选择 2 家机构进行对比').first()).toBeVisible();
  await expect(table).toHaveCount(0);
});

test('institution comparison export: an .xlsx with the table’s rows', async ({ page }) => {
  await page.goto('/partner/analysis/institution');
  const group = page.getByRole('group', { name: zh['analysis.compare.institutions'] });
  await group.getByRole('checkbox', { name: /广东省分行/ }).check();
  await group.getByRole('checkbox', { name: /深圳南山支行/ }).check();
  const table = page.getByRole('table', { name: zh['analysis.table.compare'] });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const summary = await page
    .getByRole('status')
    .filter({ hasText: /^第 .* 条，共 \d+ 条$/ })
    .textContent();
  const total = Number(summary?.match(/共 (\d+) 条/)?.[1]);
  expect(total).toBeGreaterThanOrEqual(2);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: zh['partner.export'], exact: true }).click();
  const rows = await readSheet(await (await download).createReadStream());
  const body = rows.slice(1).filter((row) => !row.some((cell) => String(cell).includes('合计')));
  expect(body).toHaveLength(total);
  const names = new Set(
    body.map((row) => row.map(String).find((cell) => cell === '广东省分行' || cell === '深圳南山支行')),
  );
  expect([...names].sort()).toEqual(['广东省分行', '深圳南山支行']);
});

test('trend: line chart over the span, granularity changes the periods, metrics and reload', async ({ page }) => {
  await page.goto('/partner/analysis/trend');
  const table = page.getByRole('table', { name: zh['analysis.table.trend'] });
  const year = Number(currentPeriod(1));
  await expect(table.locator('tbody tr')).toHaveCount(5);
  await expect(table.getByRole('cell', { name: String(year), exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: String(year - 4), exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: /趋势/ })).toBeVisible();

  const monthly = nextCall(page, '/getTrendDataAntTable', (body) => body.get('yearType') === '2');
  await page.getByRole('radio', { name: zh['partner.yearType.2'] }).check();
  await monthly;
  await expect(page.getByLabel(zh['analysis.from'])).toHaveAttribute('type', 'month');
  await expect(page.getByLabel(zh['analysis.to'])).toHaveValue(currentPeriod(2));
  // Oldest first: the twelfth month back opens the first page, the current month the second.
  const month = currentPeriod(2);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const yearAgo = `${m === 12 ? y : y - 1}-${String((m % 12) + 1).padStart(2, '0')}`;
  await expect(table.locator('tbody tr').first().getByRole('cell').first()).toHaveText(yearAgo);
  await expect(page.getByRole('status').filter({ hasText: '第 1–10 条，共 12 条' })).toBeVisible();
  await page.getByRole('button', { name: zh['ordering.table.next'] }).click();
  await expect(table.getByRole('cell', { name: month, exact: true })).toBeVisible();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);

  // An end before the start is explained in place and not asked; a good span is.
  const previousMonth = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
  let asked = 0;
  page.on('request', (request) => {
    const body = new URLSearchParams(request.postData() ?? '');
    if (
      request.url().includes('/getTrendDataAntTable') &&
      body.get('from') === month &&
      body.get('to') === previousMonth
    )
      asked += 1;
  });
  const single = nextCall(
    page,
    '/getTrendDataAntTable',
    (body) => body.get('from') === month && body.get('to') === month,
  );
  await page.getByLabel(zh['analysis.from']).fill(month);
  await single;
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await page.getByLabel(zh['analysis.to']).fill(previousMonth);
  await expect(page.getByRole('alert').filter({ hasText: zh['partner.trendOrder'] })).toBeVisible();
  await page.getByLabel(zh['analysis.from']).fill(previousMonth);
  await expect(page.getByRole('alert').filter({ hasText: zh['partner.trendOrder'] })).toBeHidden();
  const two = nextCall(
    page,
    '/getTrendDataAntTable',
    (body) => body.get('from') === previousMonth && body.get('to') === month,
  );
  await page.getByLabel(zh['analysis.to']).fill(month);
  await two;
  await expect(table.locator('tbody tr')).toHaveCount(2);
  expect(asked).toBe(0);

  await page.getByRole('checkbox', { name: zh['partner.metric.saving'] }).check();
  await expect(page).toHaveURL(/metrics=settledEnergy%2Csaving/);
  await page.reload();
  await expect(page.getByRole('radio', { name: zh['partner.yearType.2'] })).toBeChecked();
  await expect(page.getByLabel(zh['analysis.from'])).toHaveValue(previousMonth);
  await expect(page.getByRole('checkbox', { name: zh['partner.metric.saving'] })).toBeChecked();
  await expect(table.locator('tbody tr')).toHaveCount(2);
});

test.describe('in English', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('locale', 'en-US'));
  });

  test('the trend page speaks English, numbers included', async ({ page }) => {
    const en = dictionaries['en-US'];
    await page.goto('/en-US/partner/analysis/trend');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    const table = page.getByRole('table', { name: en['analysis.table.trend'] });
    await expect(table.locator('tbody tr')).toHaveCount(5);
    await expect(page.getByRole('radio', { name: en['partner.yearType.1'] })).toBeChecked();
    await expect(page.getByRole('button', { name: en['partner.export'], exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: /trend from/ })).toBeVisible();
    // Energy with three decimals and English grouping.
    await expect(
      table
        .locator('tbody td')
        .filter({ hasText: /^\d{1,3}(,\d{3})*\.\d{3}$/ })
        .first(),
    ).toBeVisible();
    // The export is the table's periods, with English headers.
    const periods = await table.locator('tbody tr td:first-child').allTextContents();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: en['partner.export'], exact: true }).click();
    const rows = await readSheet(await (await download).createReadStream());
    const body = rows.slice(1).filter((row) => periods.includes(String(row[0])));
    expect(body.map((row) => String(row[0]))).toEqual(periods);
    expect(rows[0]!.map(String).some((header) => /[A-Za-z]/.test(header))).toBe(true);
  });
});
