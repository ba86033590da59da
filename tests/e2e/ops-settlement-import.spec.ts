/**
 * The operator's settlement import (/ops/settlements): a file with wrong rows shows the report of
 * every rejected row and writes nothing; the corrected file is imported (rows, months shown) and
 * its result is in the database; the templates download; others are refused.
 */
import { sql } from 'drizzle-orm';
import { expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';
import { demo, rows, signedInPage } from './support/partnerPages.ts';

chineseSpec(180_000);

interface OrderRow {
  id: number;
  order_no: string;
  month: string;
}

test('a file with wrong rows is reported and imports nothing; the corrected file is imported', async ({
  browser,
  accounts,
}) => {
  const { context, page } = await signedInPage(browser, accounts, demo.operator);
  try {
    // An order in force or completed, and its contract's first month.
    const [order] = await rows<OrderRow>(
      accounts,
      sql`select id, order_no, to_char(contract_start, 'YYYY-MM') as month from orders where status in (30, 40) order by id limit 1`,
    );
    expect(order).toBeTruthy();
    if (!order) return;
    const before = await rows<{ n: number }>(accounts, sql`select count(*)::int as n from settlement_results`);

    // The header as the template writes it (the server's own column names).
    const template = await context.request.get(`${accounts.url}/api/ops/settlement/template?format=csv`);
    expect(template.ok()).toBe(true);
    const header = (await template.text()).replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
    expect(header).toContain('订单号');
    const columns = header.split(',');
    const line = (values: Record<string, string>) =>
      columns.map((column) => values[column.replace(/[（(].*$/, '')] ?? '').join(',');
    const good = {
      订单号: order.order_no,
      结算月份: order.month,
      结算电量: '123.456',
      合同电价: '0.41230',
      市场参考价: '0.45000',
      状态: '正式结算',
    };

    await page.goto('/ops/settlements');
    const file = page.getByLabel(zh['settlement.import.file']);
    // The Excel template downloads (the CSV one was read above through the same call).
    const templateDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: zh['settlement.import.templateXlsx'] }).click();
    expect((await templateDownload).suggestedFilename()).toMatch(/\.xlsx$/);

    const bad = [
      header,
      line(good),
      line({ ...good, 订单号: 'HGD00000000000000' }),
      line({ ...good, 结算月份: '2025-13' }),
      line({ ...good, 状态: '已作废' }),
    ].join('\n');
    await file.setInputFiles({ name: '结算-有误.csv', mimeType: 'text/csv', buffer: Buffer.from(bad, 'utf8') });
    await page.getByRole('button', { name: zh['settlement.import.submit'] }).click();
    await expect(page.getByRole('alert').filter({ hasText: '未导入任何数据' })).toBeVisible();
    const report = page.getByRole('table', { name: /未导入任何数据/ });
    const reported = await report.locator('tbody tr td:first-child').allTextContents();
    // Rows as a spreadsheet numbers them: the header is row 1, so the wrong lines are 3, 4 and 5.
    expect(new Set(reported.map(Number))).toEqual(new Set([3, 4, 5]));
    const after = await rows<{ n: number }>(accounts, sql`select count(*)::int as n from settlement_results`);
    expect(after[0]?.n).toBe(before[0]?.n);

    // The corrected file: one row (with a BOM, as Excel saves UTF-8 CSV).
    await file.setInputFiles({
      name: '结算.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${header}\n${line(good)}\n`, 'utf8'),
    });
    await page.getByRole('button', { name: zh['settlement.import.submit'] }).click();
    const success = page.getByRole('status').filter({ hasText: '导入成功' });
    await expect(success).toContainText('1 条');
    await expect(success).toContainText(order.month);
    const saved = await rows<{ energy: string; status: number }>(
      accounts,
      sql`select settled_energy::text as energy, status from settlement_results where order_id = ${order.id} and to_char(settle_month, 'YYYY-MM') = ${order.month}`,
    );
    expect(saved).toEqual([{ energy: '123.456', status: 2 }]);

    // A file of another kind is stopped before it is sent.
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.getByRole('button', { name: zh['settlement.import.submit'] }).click();
    await expect(page.getByText(zh['settlement.import.badType'])).toBeVisible();
    await expect(file).toBeFocused();
  } finally {
    await context.close();
  }
});

test("the import page is the operator's: a partner user is refused", async ({ browser, accounts }) => {
  const { context, page } = await signedInPage(browser, accounts, demo.partner);
  try {
    await page.goto('/ops/settlements');
    await expect(page.getByRole('alert').filter({ hasText: '你的账户无权使用此页面。' })).toBeVisible();
    await expect(page.getByLabel(zh['settlement.import.file'])).toBeHidden();
  } finally {
    await context.close();
  }
});
