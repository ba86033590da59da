/**
 * Ordering in the browser (docs/orders-ui.md): a certified enterprise orders a package from its
 * set page, the operator accepts and confirms it, and the enterprise sees it in force; cancel and
 * delete follow their rules; a user without an enterprise is told why they cannot order.
 * Each worker runs its own server and database (support/accountsFixtures.ts).
 */
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { chineseSpec, toast, zh } from './support/chinesePages.ts';
import { completeOrder, operatorActs, say, SET_NAME } from './support/ordering.ts';

chineseSpec(150_000);

test('order from the set page → operator accepts and confirms → in force in my orders', async ({
  page,
  context,
  accounts,
  browser,
}) => {
  await apiLogin(context.request, accounts.url, 'demo_company', 'Company2025');

  let orderNo = '';
  await test.step('order the package from its set page', async () => {
    await page.goto('/products/id1/gd-fixed-2027');
    await page.getByRole('link', { name: say('site.set.orderLabel', { orgCom: '粤汇电能', set: SET_NAME }) }).click();
    await expect(page).toHaveURL(/\/handle\/order\?sellingSetId=gd-fixed-2027-yuehui$/);
    orderNo = await completeOrder(page, '8600');
    await expect(page.getByText(zh['orderStatus.10']).first()).toBeVisible();
    await expect(page.getByRole('button', { name: zh['ordering.detail.cancel'] })).toBeVisible();
  });

  await test.step('the operator accepts, then confirms the signed contract', async () => {
    await operatorActs(browser, accounts.url, orderNo, [
      { label: zh['ops.action.accept'], status: zh['orderStatus.20'] },
      { label: zh['ops.action.confirm'], status: zh['orderStatus.30'] },
    ]);
  });

  await test.step('my orders shows it in force, and the filter survives a reload', async () => {
    await page.goto('/person/order');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: orderNo }) });
    await expect(row).toContainText(zh['orderStatus.30']);
    await expect(row).toContainText(SET_NAME);

    const filters = page.getByRole('search', { name: zh['ordering.filter.label'] });
    await filters.getByLabel(zh['ordering.filter.status']).selectOption({ label: zh['orderStatus.30'] });
    await filters.getByRole('button', { name: zh['ordering.filter.search'] }).click();
    await expect(page).toHaveURL(/filter\.status=30/);
    await page.reload();
    await expect(
      page.getByRole('search', { name: zh['ordering.filter.label'] }).getByLabel(zh['ordering.filter.status']),
    ).toHaveValue('30');
    const table = page.getByRole('table', { name: zh['page.order.title'] });
    await expect(table.getByRole('link', { name: orderNo })).toBeVisible();
    // Every row shown is in force (the first row is the header).
    const rows = table.getByRole('row');
    const count = await rows.count();
    for (let index = 1; index < count; index++) await expect(rows.nth(index)).toContainText(zh['orderStatus.30']);

    // Sorting by a header is announced on the header and kept in the address.
    const orderNoHeader = table.getByRole('columnheader', { name: new RegExp(zh['ordering.col.orderNo']) });
    await orderNoHeader.getByRole('button').click();
    await expect(orderNoHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sort=orderNo%3Aasc/);

    // The overview lists it among the latest orders.
    await page.goto('/person/overview');
    const latest = page.getByRole('region', { name: zh['account.overview.ordersTitle'] });
    await expect(latest.getByRole('link', { name: orderNo })).toBeVisible();
    await expect(latest).toContainText(zh['orderStatus.30']);

    await page.goto(`/person/order?filter.status=30`);
    // In force: neither cancel nor delete is offered, and the history lists each step.
    await table.getByRole('link', { name: orderNo }).click();
    await expect(page.getByRole('heading', { name: orderNo, level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: zh['ordering.detail.cancel'] })).toHaveCount(0);
    await expect(page.getByRole('button', { name: zh['ordering.detail.delete'] })).toHaveCount(0);
    const history = page.getByRole('region', { name: zh['ordering.detail.history'] });
    await expect(history).toContainText(`${zh['orderStatus.10']} → ${zh['orderStatus.20']}`);
    await expect(history).toContainText(`${zh['orderStatus.20']} → ${zh['orderStatus.30']}`);
  });
});

test('cancel while submitted, no delete before, delete after cancel', async ({ page, context, accounts }) => {
  await apiLogin(context.request, accounts.url, 'demo_company', 'Company2025');

  // Without a package chosen, the guide lists what is on sale in the enterprise's area.
  await page.goto('/handle/order');
  await expect(page.getByRole('heading', { name: zh['ordering.guide.title'], level: 2 })).toBeVisible();
  await page
    .getByRole('button', { name: say('ordering.guide.chooseLabel', { orgCom: '南方汇能售电有限公司', set: SET_NAME }) })
    .click();
  await expect(page).toHaveURL(/sellingSetId=gd-fixed-2027-nanfang/);
  const orderNo = await completeOrder(page, '2000');

  const cancel = page.getByRole('button', { name: zh['ordering.detail.cancel'] });
  const remove = page.getByRole('button', { name: zh['ordering.detail.delete'] });
  await expect(remove).toHaveCount(0);

  // Changing one's mind in the dialog changes nothing.
  await cancel.click();
  const cancelDialog = page.getByRole('dialog', { name: say('ordering.detail.cancelTitle', { orderNo }) });
  await expect(cancelDialog.getByRole('button', { name: zh['ordering.detail.keep'] })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(cancelDialog).toBeHidden();
  await expect(cancel).toBeFocused();

  await cancel.click();
  await cancelDialog.getByRole('button', { name: zh['ordering.detail.cancelConfirm'] }).click();
  await expect(toast(page, zh['ordering.detail.cancelled'])).toBeVisible();
  await expect(page.getByRole('region', { name: zh['ordering.detail.info'] })).toContainText(zh['orderStatus.90']);
  await expect(cancel).toHaveCount(0);

  await remove.click();
  await page
    .getByRole('dialog', { name: say('ordering.detail.deleteTitle', { orderNo }) })
    .getByRole('button', { name: zh['ordering.detail.deleteConfirm'] })
    .click();
  await expect(page).toHaveURL(/\/person\/order$/);
  await expect(toast(page, zh['ordering.detail.deleted'])).toBeVisible();
  await expect(page.getByRole('table', { name: zh['page.order.title'] })).toBeVisible();
  await expect(page.getByRole('link', { name: orderNo })).toHaveCount(0);

  // The deleted order is gone for its owner: its address answers "not found".
  await page.goto(`/certify/order/detail?orderNo=${orderNo}`);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('button', { name: zh['ordering.retry'] })).toBeVisible();
});

test('a user without an enterprise is told why and where to bind one, when ordering and in my orders', async ({
  page,
  context,
  accounts,
}) => {
  await apiLogin(context.request, accounts.url, 'demo_person', 'Person2025');
  await page.goto('/handle/order?sellingSetId=gd-fixed-2027-yuehui');
  await expect(page.getByRole('alert')).toContainText(zh['ordering.gate.noEnterprise']);
  await expect(page.getByRole('link', { name: zh['ordering.gate.bind'] })).toHaveAttribute('href', '/setting/binding');
  // My orders says the same instead of offering to retry a list that cannot exist.
  await page.goto('/person/order');
  // An empty state with its one next step, not an error.
  const empty = page.getByRole('status').filter({ hasText: zh['ordering.gate.noEnterprise'] });
  await expect(empty.getByRole('link', { name: zh['ordering.gate.bind'] })).toBeVisible();
  await expect(page.getByRole('button', { name: zh['ordering.table.retry'] })).toHaveCount(0);
});

test('a refusal is shown where it happened; the operator must give a reason to cancel', async ({
  page,
  context,
  accounts,
  browser,
}) => {
  const origin = accounts.url;
  const headers = { 'X-Requested-With': 'XMLHttpRequest', Origin: origin };
  await apiLogin(context.request, origin, 'demo_company', 'Company2025');
  const [year, month] = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7).split('-').map(Number) as [
    number,
    number,
  ];
  const nextMonth = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
  const created = (await (
    await context.request.post(`${origin}/api/front/hgdsel/order/createCustomerOrder`, {
      form: {
        sellingSetId: 'gd-green-30-2027-yuehui',
        schemeParamId: 'gd-green-30-2027-10kv',
        contractStart: nextMonth,
        contractMonths: '12',
        estimatedConsumption: '3000',
      },
      headers,
    })
  ).json()) as { code: number; message: string; data: { orderNo: string } };
  expect(created.code, created.message).toBe(200);
  const { orderNo } = created.data;

  await page.goto(`/certify/order/detail?orderNo=${orderNo}`);
  const cancel = page.getByRole('button', { name: zh['ordering.detail.cancel'] });
  await expect(cancel).toBeVisible();
  // An order's detail sits under 我的订单 in the personal menu, not under the certification menu.
  const menu = page.getByRole('navigation', { name: zh['nav.sectionLabel'] });
  await expect(menu.getByRole('link', { name: zh['page.order.title'] })).toHaveAttribute('aria-current', 'page');
  await expect(menu.getByRole('link', { name: zh['page.usbkey.title'] })).toHaveCount(0);

  const operator = await browser.newContext({ baseURL: origin, locale: 'zh-CN' });
  try {
    await apiLogin(operator.request, origin, 'demo_operator', 'Operator2025');
    // The operator accepts while the enterprise still has the page open.
    const accepted = (await (
      await operator.request.post(`${origin}/api/ops/order/transition`, {
        form: { orderNo, action: 'accept' },
        headers,
      })
    ).json()) as { code: number };
    expect(accepted.code).toBe(200);

    await cancel.click();
    await page
      .getByRole('dialog', { name: say('ordering.detail.cancelTitle', { orderNo }) })
      .getByRole('button', { name: zh['ordering.detail.cancelConfirm'] })
      .click();
    const actions = page.getByRole('region', { name: zh['ordering.detail.actions'] });
    await expect(actions.getByRole('alert')).toContainText(zh['orderStatus.20']);
    // The page now shows the order as it is: accepted, nothing for the enterprise to do.
    await expect(cancel).toHaveCount(0);
    await expect(actions).toContainText(say('ordering.detail.noActions', { status: zh['orderStatus.20'] }));

    const ops = await operator.newPage();
    await ops.goto(`/ops/orders?order=${orderNo}`);
    const panel = ops.getByRole('region', { name: say('ops.orders.detailTitle', { orderNo }) });
    // Reject is for submitted orders only: not offered once accepted.
    await expect(panel.getByRole('button', { name: zh['ops.action.confirm'], exact: true })).toBeVisible();
    await expect(panel.getByRole('button', { name: zh['ops.action.reject'], exact: true })).toHaveCount(0);
    await panel.getByRole('button', { name: zh['ops.action.cancel'], exact: true }).click();
    const dialog = ops.getByRole('dialog', {
      name: say('ops.action.title', { action: zh['ops.action.cancel'], orderNo }),
    });
    await expect(dialog).toContainText(`${zh['orderStatus.20']}”变为“${zh['orderStatus.90']}`);
    await dialog.getByRole('button', { name: zh['ops.action.submit'] }).click();
    const reason = dialog.getByRole('textbox', { name: zh['ops.action.reason'] });
    await expect(reason).toHaveAccessibleDescription(zh['ops.action.reasonRequired']);
    await expect(reason).toBeFocused();
    await reason.fill('企业用电计划调整，双方协商取消');
    await dialog.getByRole('button', { name: zh['ops.action.submit'] }).click();
    await expect(toast(ops, say('ops.action.done', { status: zh['orderStatus.90'] }))).toBeVisible();
  } finally {
    await operator.close();
  }

  await page.reload();
  const info = page.getByRole('region', { name: zh['ordering.detail.info'] });
  await expect(info).toContainText(zh['orderStatus.90']);
  await expect(info).toContainText('企业用电计划调整，双方协商取消');
  await expect(page.getByRole('button', { name: zh['ordering.detail.delete'] })).toBeVisible();
});

test('my orders in English, sorted from the keyboard, with no console errors', async ({ page, context, accounts }) => {
  const en = dictionaries['en-US'];
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await apiLogin(context.request, accounts.url, 'demo_company', 'Company2025');
  await page.addInitScript(() => window.localStorage.setItem('locale', 'en-US'));

  await page.goto('/en-US/person/order');
  const table = page.getByRole('table', { name: en['page.order.title'] });
  // The demo enterprise's orders, each status in words of the page's language.
  await expect(table.getByRole('row').filter({ hasText: en['orderStatus.30'] }).first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: en['orderStatus.91'] })).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: /of \d+$/ })).toBeVisible();

  const header = table.getByRole('columnheader', { name: new RegExp(en['ordering.col.createdAt']) });
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  // Tab to the header's button and sort with the keyboard: ascending, then descending again, then the default.
  await header.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=createdAt%3Aasc/);
  await page.goBack();
  await expect(header).toHaveAttribute('aria-sort', 'descending');

  await table.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/en-US\/certify\/order\/detail\?orderNo=HGD\d{14}$/);
  await expect(page.getByRole('region', { name: en['ordering.detail.history'] })).toBeVisible();
  expect(problems).toEqual([]);
});
