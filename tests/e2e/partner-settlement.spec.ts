/**
 * The settlement query (/partner/query/settlement) as demo_partner, who is related to ICBC's
 * 广东省分行: the institution picker offers only that branch's subtree; the filters, the sort and
 * the page survive a reload; the export saves an .xlsx with exactly the filtered rows; a user
 * without the partner role is refused.
 */
import path from 'node:path';
import { readSheet } from 'read-excel-file/node';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';
import { demo, expectTableFitsScrollsThenCards, signedInPage, tableTotal } from './support/partnerPages.ts';

chineseSpec(180_000);

const pageUrl = '/partner/query/settlement';

test('demo_partner sees only 广东省分行 and below; filters, sort and paging survive a reload', async ({
  browser,
  accounts,
}) => {
  const { context, page } = await signedInPage(browser, accounts, demo.partner);
  try {
    await page.goto(pageUrl);
    const table = page.getByRole('table', { name: zh['page.settlement.title'] });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    const allTotal = await tableTotal(page);
    expect(allTotal).toBeGreaterThan(0);

    // The picker: a tree of the visible institutions only, driven from the keyboard.
    const picker = page.getByRole('button', { name: new RegExp(`^${zh['settlement.filter.partner']}\\s`) });
    await picker.click();
    const tree = page.getByRole('tree', { name: zh['settlement.tree.label'] });
    await expect(tree).toBeVisible();
    const branch = tree.getByRole('treeitem', { name: /广东省分行/ }).first();
    await expect(branch).toHaveAttribute('aria-level', '1');
    await expect(branch).toBeFocused();
    await expect(tree).not.toContainText('广西区分行');
    await expect(tree).not.toContainText('中国工商银行股份有限公司');
    await expect(tree).not.toContainText('中国建设银行股份有限公司');
    // Every sub-branch shown is a child of the one branch.
    const subBranches = tree.locator('[role="treeitem"][aria-level="2"]');
    expect(await subBranches.count()).toBeGreaterThanOrEqual(3);
    // ↓ to the first sub-branch, Enter chooses it and closes the tree; focus is back on the picker.
    await page.keyboard.press('ArrowDown');
    const first = subBranches.first();
    await expect(first).toBeFocused();
    const firstName = ((await first.locator('span.truncate').textContent()) ?? '').trim();
    await page.keyboard.press('Enter');
    await expect(tree).toBeHidden();
    await expect(picker).toBeFocused();
    await expect(picker).toContainText(firstName);
    await expect(page).toHaveURL(/filter\.subtree=\d+/);
    // Rows of that sub-branch only (a sub-branch has no institutions below it).
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    const partnerCells = table.locator('tbody tr td:nth-child(4)');
    for (const text of await partnerCells.allTextContents()) expect(text).toBe(firstName);

    // Back to every visible institution, then: final results only, most settled amount first, page 2.
    await picker.click();
    await page.getByRole('button', { name: zh['settlement.filter.allPartners'] }).click();
    await expect(page).not.toHaveURL(/filter\.subtree/);
    const filters = page.getByRole('search', { name: zh['settlement.filter.label'] });
    // A year of months, so that there is a second page of final results.
    const from = monthsBefore(12);
    await filters.getByLabel(zh['settlement.filter.from']).fill(from);
    await filters.getByLabel(zh['settlement.filter.status']).selectOption({ label: zh['partner.settlementStatus.2'] });
    await filters.getByRole('button', { name: zh['settlement.filter.search'] }).click();
    await expect(page).toHaveURL(/filter\.status=2/);
    await expect(page).toHaveURL(new RegExp(`from\\.settleMonth=${from}`));
    const amountHeader = table.getByRole('columnheader', {
      name: new RegExp(zh['settlement.col.settledAmount'].replace(/[()（）]/g, '.')),
    });
    await amountHeader.getByRole('button').click();
    await expect(amountHeader).toHaveAttribute('aria-sort', 'ascending');
    await amountHeader.getByRole('button').click();
    await expect(amountHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(page).toHaveURL(/sort=settledAmount%3Adesc|sort=settledAmount:desc/);
    const finalTotal = await tableTotal(page);
    expect(finalTotal).toBeGreaterThan(10);
    for (const text of await table.locator('tbody tr td:last-child').allTextContents())
      expect(text).toBe(zh['partner.settlementStatus.2']);
    await page
      .getByRole('navigation', { name: zh['ordering.table.pagination'] })
      .getByRole('button', { name: zh['ordering.table.next'] })
      .click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole('status').filter({ hasText: /第 11–/ })).toBeVisible();
    const pageTwo = await table.locator('tbody tr').allTextContents();
    // Descending by amount: each amount is at most the one above it.
    const amounts = (await table.locator('tbody tr td:nth-child(9)').allTextContents()).map((text) =>
      Number(text.replace(/,/g, '')),
    );
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: /第 11–/ })).toBeVisible();
    await expect(
      table.getByRole('columnheader', {
        name: new RegExp(zh['settlement.col.settledAmount'].replace(/[()（）]/g, '.')),
      }),
    ).toHaveAttribute('aria-sort', 'descending');
    await expect(
      page.getByRole('search', { name: zh['settlement.filter.label'] }).getByLabel(zh['settlement.filter.status']),
    ).toHaveValue('2');
    await expect(
      page.getByRole('search', { name: zh['settlement.filter.label'] }).getByLabel(zh['settlement.filter.from']),
    ).toHaveValue(from);
    expect(await table.locator('tbody tr').allTextContents()).toEqual(pageTwo);
  } finally {
    await context.close();
  }
});

test('the export saves an .xlsx holding exactly the filtered rows', async ({ browser, accounts }, testInfo) => {
  const { context, page } = await signedInPage(browser, accounts, demo.partner);
  try {
    await page.goto(`${pageUrl}?filter.status=1`);
    const table = page.getByRole('table', { name: zh['page.settlement.title'] });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    const total = await tableTotal(page);
    expect(total).toBeGreaterThan(0);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: zh['partner.export'], exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^结算结果-\d{8}\.xlsx$/);
    const file = path.join(testInfo.outputDir, 'settlement.xlsx');
    await download.saveAs(file);
    await expect(page.getByRole('status').filter({ hasText: zh['partner.export.done'] })).toBeVisible();

    const sheet = await readSheet(file);
    // Header, one line per row, the 合计 line.
    expect(sheet[0]).toContain('订单号');
    expect(sheet.at(-1)?.[0]).toBe('合计');
    expect(sheet.length - 2).toBe(total);
    // Provisional rows only, as filtered.
    const statusColumn = (sheet[0] ?? []).indexOf('状态');
    expect(statusColumn).toBeGreaterThan(0);
    for (const line of sheet.slice(1, -1)) expect(line[statusColumn]).toBe(zh['partner.settlementStatus.1']);
  } finally {
    await context.close();
  }
});

test('the settlement table fits 1280 px in Chinese and English; its first column held when narrower, on a phone its rows are cards', async ({
  browser,
  accounts,
}) => {
  const { context, page } = await signedInPage(browser, accounts, demo.partner);
  try {
    await page.goto(pageUrl);
    await expectTableFitsScrollsThenCards(page, page.getByRole('table', { name: zh['page.settlement.title'] }));
    await context.addInitScript(() => window.localStorage.setItem('locale', 'en-US'));
    await page.goto(`/en-US${pageUrl}`);
    await expectTableFitsScrollsThenCards(
      page,
      page.getByRole('table', { name: dictionaries['en-US']['page.settlement.title'] }),
    );
  } finally {
    await context.close();
  }
});

test('a user without the partner role gets the refusal and no settlement call', async ({ browser, accounts }) => {
  const { context, page } = await signedInPage(browser, accounts, demo.company);
  try {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/settlementbuyresult/') || request.url().includes('/partner/getAllPartnersByEmpId'))
        calls.push(request.url());
    });
    for (const target of [pageUrl, '/partner/organization']) {
      await page.goto(target);
      await expect(page.getByRole('alert').filter({ hasText: '你的账户无权使用此页面。' })).toBeVisible();
      // The refusal stands alone: no partner menu beside it.
      await expect(page.getByRole('navigation', { name: zh['nav.sectionLabel'] })).toBeHidden();
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('table')).toHaveCount(0);
    }
    expect(calls).toEqual([]);
  } finally {
    await context.close();
  }
});

/** The month `count` months before the current one in China time, YYYY-MM. */
function monthsBefore(count: number): string {
  const china = new Date(Date.now() + 8 * 3600_000);
  const index = china.getUTCFullYear() * 12 + china.getUTCMonth() - count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
