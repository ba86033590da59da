/**
 * Ordering steps the browser tests share: placing an order in /handle/order once a package on
 * sale is chosen, and the operator moving it on from /ops/orders (orders.spec.ts, and the whole
 * journey of enterprise.spec.ts).
 */
import type { Browser, Page } from '@playwright/test';
import type { MessageKey } from '../../../src/lib/i18n/index.ts';
import { apiLogin, expect } from './accountsFixtures.ts';
import { toast, zh } from './chinesePages.ts';

export function say(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return zh[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export const SET_NAME = '2027 年度固定价格套餐';

/**
 * Steps 1–3 of /handle/order once a package on sale is chosen; returns the new order's number
 * from the detail page the wizard lands on.
 */
export async function completeOrder(page: Page, consumption: string): Promise<string> {
  await expect(page.getByRole('heading', { name: zh['ordering.step.set'], level: 2 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: zh['ordering.steps.label'] })).toContainText(
    zh['ordering.step.confirm'],
  );
  await page.getByRole('radio', { name: /10千伏用户/ }).check();
  await page.getByRole('button', { name: zh['ordering.next'] }).click();

  await expect(page.getByRole('heading', { name: zh['ordering.step.contract'], level: 2 })).toBeFocused();
  const consumptionField = page.getByLabel(/预计年用电量/);
  // The shared schema's rule, checked before anything is sent.
  await consumptionField.fill('12.3456');
  await page.getByRole('button', { name: zh['ordering.next'] }).click();
  await expect(
    page.getByText(say('order.consumptionDecimals', { label: zh['field.estimatedConsumption'] })),
  ).toBeVisible();
  await expect(consumptionField).toBeFocused();
  await consumptionField.fill(consumption);
  await expect(page.getByLabel(zh['field.contractMonths'])).toHaveValue('12');
  await page.getByRole('button', { name: zh['ordering.next'] }).click();

  await expect(page.getByRole('heading', { name: zh['ordering.step.confirm'], level: 2 })).toBeVisible();
  // Back keeps what was entered (the steps live in the address).
  await page.goBack();
  await expect(page.getByLabel(/预计年用电量/)).toHaveValue(consumption);
  await page.goForward();
  await expect(page.getByText(SET_NAME)).toBeVisible();
  await page.getByRole('button', { name: zh['ordering.submit'] }).click();

  await expect(page).toHaveURL(/\/certify\/order\/detail\?orderNo=HGD\d{14}$/);
  await expect(toast(page, zh['ordering.created'])).toBeVisible();
  const orderNo = new URL(page.url()).searchParams.get('orderNo') ?? '';
  await expect(page.getByRole('heading', { name: orderNo, level: 2 })).toBeVisible();
  return orderNo;
}

/** The operator moves an order on from /ops/orders, in their own browser context. */
export async function operatorActs(
  browser: Browser,
  origin: string,
  orderNo: string,
  actions: { label: string; status: string }[],
): Promise<void> {
  const context = await browser.newContext({ baseURL: origin, locale: 'zh-CN' });
  try {
    await apiLogin(context.request, origin, 'demo_operator', 'Operator2025');
    const ops = await context.newPage();
    await ops.goto(`/ops/orders?q=${orderNo}`);
    await ops.getByRole('button', { name: say('ops.orders.openLabel', { orderNo }) }).click();
    const panel = ops.getByRole('region', { name: say('ops.orders.detailTitle', { orderNo }) });
    await expect(panel.getByRole('heading', { name: zh['ordering.detail.history'] })).toBeVisible();
    for (const { label, status } of actions) {
      await panel.getByRole('button', { name: label, exact: true }).click();
      const dialog = ops.getByRole('dialog', { name: say('ops.action.title', { action: label, orderNo }) });
      await expect(dialog.getByRole('textbox', { name: zh['ops.action.reason'] })).toBeFocused();
      await dialog.getByRole('button', { name: zh['ops.action.submit'] }).click();
      await expect(toast(ops, say('ops.action.done', { status }))).toBeVisible();
      await expect(dialog).toBeHidden();
    }
    // Nothing is left to do with an order in force but wait for its end.
    await expect(panel.getByRole('button', { name: zh['ops.action.accept'], exact: true })).toHaveCount(0);

    // The audit trail has each step, found by the order as its target — by the auditor, whose
    // duty it is (the operator may not read it).
    await apiLogin(context.request, origin, 'demo_auditor', 'Auditor2025');
    await ops.goto('/ops/audit');
    const search = ops.getByRole('search', { name: zh['ops.audit.filterLabel'] });
    await search.getByLabel(zh['ops.audit.target']).fill(`order:${orderNo}`);
    await search.getByRole('button', { name: zh['ordering.filter.search'] }).click();
    await expect(ops).toHaveURL(/q=order%3AHGD\d{14}/);
    const trail = ops.getByRole('table', { name: zh['page.opsAudit.title'] });
    // In words: the action, the order as the target, the states it went between.
    for (const action of ['order.create', 'order.accept', 'order.confirm'] as const) {
      await expect(trail.getByRole('row').filter({ hasText: zh[`audit.action.${action}`] })).toHaveCount(1);
    }
    await expect(trail.getByRole('row').filter({ hasText: zh['audit.action.order.accept'] })).toContainText(
      `${say('audit.target.order', { id: orderNo })}`,
    );
    await expect(trail.getByRole('row').filter({ hasText: zh['audit.action.order.accept'] })).toContainText(
      `原状态：${zh['orderStatus.10']}；新状态：${zh['orderStatus.20']}`,
    );
    // The action filter lists the actions by name.
    await search.getByLabel(zh['ops.audit.action']).selectOption({ label: zh['audit.action.order.confirm'] });
    await search.getByRole('button', { name: zh['ordering.filter.search'] }).click();
    await expect(trail.getByRole('row').filter({ hasText: zh['audit.action.order.accept'] })).toHaveCount(0);
    await expect(trail.getByRole('row').filter({ hasText: zh['audit.action.order.confirm'] })).toHaveCount(1);
  } finally {
    await context.close();
  }
}
