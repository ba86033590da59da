/**
 * What the partner pages' browser tests share: signing a demo account in for a page, the data
 * table's row count from its summary line, and rows read from the test server's database.
 */
import { sql } from 'drizzle-orm';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import type { AccountsServer } from './accountsServer.ts';
import { apiLogin, expect } from './accountsFixtures.ts';

export const demo = {
  partner: { userName: 'demo_partner', password: 'Partner2025' },
  bank: { userName: 'demo_bank', password: 'Bank2025' },
  operator: { userName: 'demo_operator', password: 'Operator2025' },
  company: { userName: 'demo_company', password: 'Company2025' },
} as const;

/** A new browser context (Chinese pages) signed in as `who`, and a page in it. */
export async function signedInPage(
  browser: { newContext(options: object): Promise<BrowserContext> },
  accounts: AccountsServer,
  who: { userName: string; password: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: accounts.url, locale: 'zh-CN', acceptDownloads: true });
  await context.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  await apiLogin(context.request, accounts.url, who.userName, who.password);
  return { context, page: await context.newPage() };
}

/** The total of the data table's live summary ("第 1–10 条，共 23 条"), once loaded. */
export async function tableTotal(page: Page): Promise<number> {
  const summary = page.getByRole('status').filter({ hasText: /共\s*[\d,]+\s*条/ });
  await expect(summary).toBeVisible();
  const text = (await summary.textContent()) ?? '';
  return Number(/共\s*([\d,]+)\s*条/.exec(text)?.[1]?.replace(/,/g, '') ?? Number.NaN);
}

/** Rows of a SQL query against the test server's database. */
export async function rows<T>(accounts: AccountsServer, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await accounts.db.execute(query);
  // node-postgres answers { rows }, other drivers the array itself.
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A data table at a desktop width (1280 px) fits its frame, every column in view; in a narrower
 * frame that still shows a table (700 px, the menu above the page) its first column is held
 * (sticky) and stays in view when the frame scrolls; on a phone (390 px) each row is a card —
 * nothing to scroll, every cell labelled with its column's header (src/styles/tables.css).
 */
export async function expectTableFitsScrollsThenCards(page: Page, table: Locator): Promise<void> {
  const frame = table.locator('xpath=..');
  const widths = () => frame.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const desktop = await widths();
  expect(desktop.scroll, `the table needs ${desktop.scroll} px in ${desktop.client} px at 1280 px`).toBeLessThanOrEqual(
    desktop.client,
  );

  await page.setViewportSize({ width: 700, height: 900 });
  await expect.poll(async () => (await widths()).client).toBeLessThan(desktop.client);
  const firstCell = table.locator('tbody tr').first().locator('td').first();
  const secondCell = table.locator('tbody tr').first().locator('td').nth(1);
  // The table re-lays out for the new width: its cells read as held once it has.
  await expect.poll(() => firstCell.evaluate((cell) => getComputedStyle(cell).position)).toBe('sticky');
  const narrow = await widths();
  if (narrow.scroll > narrow.client) {
    await frame.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    const frameBox = await frame.boundingBox();
    const [first, second] = [await firstCell.boundingBox(), await secondCell.boundingBox()];
    expect(frameBox && first && second).toBeTruthy();
    // The first column is still at the frame's start edge; the second has moved in under it.
    expect(Math.abs(first!.x - frameBox!.x)).toBeLessThanOrEqual(2);
    expect(second!.x).toBeLessThan(first!.x + first!.width - 1);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(async () =>
      table
        .locator('tbody tr')
        .first()
        .evaluate((row) => getComputedStyle(row).display),
    )
    .toBe('grid');
  const phone = await widths();
  expect(phone.scroll).toBeLessThanOrEqual(phone.client);
  const headers = await table
    .locator('thead th')
    .evaluateAll((cells) => cells.map((cell) => cell.textContent?.replace(/[↕▲▼]/g, '').trim() ?? ''));
  const labels = await table
    .locator('tbody tr')
    .first()
    .locator('td')
    .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-label') ?? ''));
  // Each cell's label is its header's words (a sortable header also holds its arrow and, when sorted, the order in words).
  labels.forEach((label, index) => expect(headers[index]).toContain(label));
  await page.setViewportSize({ width: 1280, height: 900 });
}
