/**
 * The administrator's staff accounts (/ops/staff): the administrator finds a newly registered
 * user by keyword, makes them a content editor (then only the roles of that duty are offered),
 * disables the account after a confirmation, and resets a second factor after a confirmation —
 * the table and the panel showing each change. Its own account's administrator role, status and
 * second factor are not offered. A fresh user, so the demo accounts other specs sign in with stay
 * as they are.
 */
import AxeBuilder from '@axe-core/playwright';
import { eq } from 'drizzle-orm';
import { format } from '../../src/lib/api/messages.ts';
import { findPageKey } from '../../src/lib/routes.ts';
import { secondFactors, users } from '../../src/server/db/schema/index.ts';
import { apiLogin, expect, registerThroughApi, test } from './support/accountsFixtures.ts';
import { chineseSpec, toast, zh } from './support/chinesePages.ts';

chineseSpec(150_000);

test('an administrator grants the editor role, disables an account and resets a second factor, each confirmed', async ({
  page,
  context,
  browser,
  accounts,
}) => {
  // A user of this test's own, registered in another browser.
  const other = await browser.newContext({ baseURL: accounts.url });
  const person = await registerThroughApi(other.request, accounts);
  await other.close();
  const userName = (await accounts.userNameOf(person.phone))!;
  const [row] = await accounts.db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  await accounts.db
    .insert(secondFactors)
    .values({ userId: row!.id, secretEncrypted: 'e2e-only', confirmedAt: new Date() });

  await apiLogin(context.request, accounts.url, 'demo_admin', 'Admin2025');
  await page.goto('/ops/staff');
  const list = page.getByRole('table', { name: zh['page.opsStaff.title'] });
  await expect(list.getByRole('row').filter({ hasText: 'demo_admin' })).toContainText(zh['staff.you']);
  // Staff only until a keyword asks for everyone.
  await expect(list.getByRole('row').filter({ hasText: userName })).toHaveCount(0);

  await page.getByRole('searchbox', { name: zh['staff.keyword'] }).fill(person.phone);
  await page.getByRole('search').getByRole('button', { name: zh['ordering.filter.search'] }).click();
  const found = list.getByRole('row').filter({ hasText: userName });
  await expect(found).toContainText(zh['staff.secondFactor.enrolled']);
  await found.getByRole('button', { name: format(zh['staff.openLabel'], { name: person.name, userName }) }).click();

  const panel = page.getByRole('region', { name: `${person.name}（${userName}）` });
  await expect(panel.getByRole('button', { name: zh['staff.action.grantEditor'] })).toBeVisible();
  // The panel open, as the accessibility sweep checks the pages (it sees the list alone).
  const axe = await new AxeBuilder({ page })
    .options({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
      rules: { 'target-size': { enabled: true } },
    })
    .analyze();
  expect(
    axe.violations.map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
  await panel.getByRole('button', { name: zh['staff.action.grantEditor'] }).click();
  await expect(toast(page, `已更新 ${person.name} 的账户`)).toBeVisible();
  await expect(panel.getByRole('button', { name: zh['staff.action.revokeEditor'] })).toBeVisible();
  await expect(found).toContainText(zh['account.role.editor']);
  // One duty per account: an editor may also operate, never administer or audit.
  await expect(panel.getByRole('button', { name: zh['staff.action.grantOperator'] })).toBeVisible();
  await expect(panel.getByRole('button', { name: zh['staff.action.grantAdmin'] })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: zh['staff.action.grantAuditor'] })).toHaveCount(0);
  await expect(panel).toContainText(zh['staff.panel.dutyHint']);

  // Disabling asks first; "cancel" changes nothing.
  await panel.getByRole('button', { name: zh['staff.action.disable'] }).click();
  let dialog = page.getByRole('dialog', { name: zh['staff.confirm.disableTitle'] });
  await expect(dialog).toContainText(userName);
  await dialog.getByRole('button', { name: zh['staff.confirm.cancel'] }).click();
  await expect(dialog).toBeHidden();
  await expect(found).toContainText(zh['staff.status.active']);
  await panel.getByRole('button', { name: zh['staff.action.disable'] }).click();
  dialog = page.getByRole('dialog', { name: zh['staff.confirm.disableTitle'] });
  await dialog.getByRole('button', { name: zh['staff.confirm.disable'] }).click();
  await expect(dialog).toBeHidden();
  await expect(found).toContainText(zh['staff.status.disabled']);
  await expect(panel.getByRole('button', { name: zh['staff.action.enable'] })).toBeVisible();

  await panel.getByRole('button', { name: zh['staff.action.resetSecondFactor'] }).click();
  dialog = page.getByRole('dialog', { name: zh['staff.confirm.resetTitle'] });
  await expect(dialog).toContainText(userName);
  await dialog.getByRole('button', { name: zh['staff.confirm.reset'] }).click();
  await expect(found).toContainText(zh['staff.secondFactor.none']);
  await expect(panel).toContainText(zh['staff.panel.secondFactorNone']);
  expect(await accounts.db.$count(secondFactors, eq(secondFactors.userId, row!.id))).toBe(0);

  // The administrator's own account: its administrator role, status and second factor are not offered.
  await page.getByRole('button', { name: zh['ordering.filter.reset'] }).click();
  await list
    .getByRole('button', { name: format(zh['staff.openLabel'], { name: '周敏', userName: 'demo_admin' }) })
    .click();
  const own = page.getByRole('region', { name: /demo_admin/ });
  await expect(own).toContainText(zh['staff.panel.selfHint']);
  await expect(own.getByRole('button', { name: zh['staff.action.revokeAdmin'] })).toBeDisabled();
  await expect(own.getByRole('button', { name: zh['staff.action.disable'] })).toBeDisabled();
});

for (const [who, userName, password] of [
  ['a company user', 'demo_company', 'Company2025'],
  ['an operator (another duty)', 'demo_operator', 'Operator2025'],
] as const) {
  test(`${who} is refused on /ops/staff and its table never asks`, async ({ page, context, accounts }) => {
    await apiLogin(context.request, accounts.url, userName, password);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/ops/staff')) calls.push(request.url());
    });
    await page.goto('/ops/staff');
    await expect(page.getByRole('alert').filter({ hasText: zh['session.forbidden'] })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(calls).toEqual([]);
  });
}

test("each duty's console offers its own pages: in the section menu and from the account menu", async ({
  browser,
  accounts,
}) => {
  const duties = [
    {
      userName: 'demo_operator',
      password: 'Operator2025',
      pages: ['opsCertifications', 'opsOrders', 'opsSettlements'],
    },
    { userName: 'demo_auditor', password: 'Auditor2025', pages: ['opsAudit'] },
    { userName: 'demo_admin', password: 'Admin2025', pages: ['opsStaff'] },
  ] as const;
  for (const duty of duties) {
    const context = await browser.newContext({ baseURL: accounts.url });
    const page = await context.newPage();
    await apiLogin(context.request, accounts.url, duty.userName, duty.password);
    await page.goto('/welcome/home');
    await page.getByRole('button', { name: zh['header.account'] }).click();
    await page.getByRole('link', { name: zh['header.console'] }).click();
    await expect(page).toHaveURL(new RegExp(`${findPageKey(duty.pages[0])!.path}$`));
    const menu = page.getByRole('navigation', { name: zh['nav.sectionLabel'] });
    const shortTitle = (key: string) => zh[`page.${key}.title` as keyof typeof zh].replace(/^[^·]+ · /, '');
    await expect(menu.getByRole('link')).toHaveText(duty.pages.map(shortTitle));
    await context.close();
  }
});
