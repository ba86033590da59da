/**
 * The operator console is for operators (src/components/SessionGate.astro with the page's `role`,
 * src/lib/routes.ts): a signed-in company user gets a plain refusal on its pages, no table and no
 * table call; the operator gets the tables, and the footer names the release the API runs.
 */
import type { Request } from '@playwright/test';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';

chineseSpec(120_000);

const consoles = [
  { path: '/ops/orders', table: zh['page.opsOrders.title'] },
  { path: '/ops/certifications', table: zh['certify.ops.queueLabel'] },
];

test('a company user is refused on the operator pages and sees no table; the operator sees the tables', async ({
  page,
  context,
  browser,
  accounts,
}) => {
  await apiLogin(context.request, accounts.url, 'demo_company', 'Company2025');
  const tableCalls: string[] = [];
  const onRequest = (request: Request) => {
    if (request.url().includes('/getAntTable')) tableCalls.push(request.url());
  };
  page.on('request', onRequest);
  for (const { path } of consoles) {
    await page.goto(path);
    await expect(page.getByRole('alert').filter({ hasText: '你的账户无权使用此页面。' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('table')).toHaveCount(0);
  }
  // The islands behind the refusal never asked for the rows either.
  expect(tableCalls).toEqual([]);

  const operator = await browser.newContext({ baseURL: accounts.url, locale: 'zh-CN' });
  try {
    await operator.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    await apiLogin(operator.request, accounts.url, 'demo_operator', 'Operator2025');
    const ops = await operator.newPage();
    for (const { path, table } of consoles) {
      await ops.goto(path);
      await expect(ops.getByRole('table', { name: table })).toBeVisible();
      await expect(ops.getByText(zh['session.forbidden'])).toBeHidden();
    }
    // The orders queue lists the demo enterprise's orders.
    await ops.goto('/ops/orders');
    const queue = ops.getByRole('table', { name: zh['page.opsOrders.title'] });
    await expect(queue.getByRole('row').nth(1)).toContainText(/HGD\d{14}/);
    // 处理 only where the state machine leaves the operator an action; a cancelled order is 查看.
    const submitted = queue.getByRole('row').filter({ hasText: zh['orderStatus.10'] }).first();
    await expect(submitted.getByRole('button', { name: new RegExp(`^${zh['ops.orders.open']}`) })).toBeVisible();
    const cancelled = queue.getByRole('row').filter({ hasText: zh['orderStatus.90'] }).first();
    await expect(cancelled.getByRole('button', { name: new RegExp(`^${zh['ops.orders.view']}`) })).toBeVisible();
    await expect(cancelled.getByRole('button', { name: new RegExp(`^${zh['ops.orders.open']}`) })).toHaveCount(0);
  } finally {
    await operator.close();
  }
});

test("the operator console's footer names the release the API runs, in the page's language", async ({
  browser,
  accounts,
}) => {
  const operator = await browser.newContext({ baseURL: accounts.url, locale: 'zh-CN' });
  try {
    await operator.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    await apiLogin(operator.request, accounts.url, 'demo_operator', 'Operator2025');
    const live = (await (await operator.request.get('/api/health/live')).json()) as {
      data: { version: string; commit: string };
    };
    const { version, commit } = live.data;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const short = commit.slice(0, 7);
    const page = await operator.newPage();
    await page.goto('/ops/orders');
    await expect(
      page.getByRole('contentinfo').getByText(`版本 ${version} · 提交 ${short}`, { exact: true }),
    ).toBeVisible();
    await page.goto('/en-US/ops/settlements');
    await expect(
      page.getByRole('contentinfo').getByText(`Version ${version} · commit ${short}`, { exact: true }),
    ).toBeVisible();
    // Only the console's pages say it.
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(page.getByRole('contentinfo').getByText(version)).toHaveCount(0);
  } finally {
    await operator.close();
  }
});
