/**
 * The institution information page (/partner/organization) as demo_partner (广东省分行): the tree
 * from the keyboard (WAI-ARIA tree: arrows, Enter), the chosen institution's details kept in the
 * address, and a staff relation added (with field errors in place first) and removed after a
 * confirmation that Escape can dismiss.
 */
import { expect, test, registerThroughApi } from './support/accountsFixtures.ts';
import { chineseSpec, zh } from './support/chinesePages.ts';
import { demo, signedInPage } from './support/partnerPages.ts';

chineseSpec(180_000);

test('the tree works from the keyboard and the chosen institution survives a reload', async ({ browser, accounts }) => {
  const { context, page } = await signedInPage(browser, accounts, demo.partner);
  try {
    await page.goto('/partner/organization');
    const tree = page.getByRole('tree', { name: zh['settlement.tree.label'] });
    const branch = tree.getByRole('treeitem', { name: /广东省分行/ }).first();
    await expect(branch).toHaveAttribute('aria-selected', 'true');
    await expect(branch).toHaveAttribute('aria-expanded', 'true');
    await expect(tree).not.toContainText('广西区分行');
    // The first root is shown: its details and the user's own relation, which cannot be removed.
    await expect(page.getByRole('heading', { level: 2, name: /广东省分行/ })).toBeVisible();
    await expect(page.locator('dd').filter({ hasText: new RegExp(`^${zh['partner.level.2']}$`) })).toBeVisible();
    const staff = page.getByRole('table', { name: /员工关系/ });
    const own = staff.getByRole('row').filter({ hasText: 'demo_partner' });
    await expect(own).toContainText(zh['settlement.staff.self']);
    await expect(own.getByRole('button')).toHaveCount(0);

    // On the chosen item: ← closes it, → opens it, → again enters it.
    await branch.focus();
    await page.keyboard.press('ArrowLeft');
    await expect(branch).toHaveAttribute('aria-expanded', 'false');
    await expect(tree.locator('[role="treeitem"][aria-level="2"]')).toHaveCount(0);
    await page.keyboard.press('ArrowRight');
    await expect(branch).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowRight');
    const children = tree.locator('[role="treeitem"][aria-level="2"]');
    await expect(children.first()).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(children.nth(1)).toBeFocused();
    const name = ((await children.nth(1).locator('span.truncate').textContent()) ?? '').trim();
    await page.keyboard.press('Enter');
    await expect(children.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(name) })).toBeVisible();
    // Its parent institution, and its level in words.
    await expect(page.locator('dd').filter({ hasText: /^广东省分行$/ })).toBeVisible();
    await expect(page.locator('dd').filter({ hasText: new RegExp(`^${zh['partner.level.3']}$`) })).toBeVisible();
    await expect(page).toHaveURL(/partnerId=\d+/);
    // Only one item is in the tab order.
    await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
    // ← from a sub-branch goes to its parent without choosing it.
    await page.keyboard.press('ArrowLeft');
    await expect(branch).toBeFocused();

    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(name) })).toBeVisible();
    await expect(page.getByRole('tree').getByRole('treeitem', { name: new RegExp(name) })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // Back returns to the first institution.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 2, name: /广东省分行/ })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a staff relation is added (errors beside the fields first) and removed after confirming', async ({
  browser,
  accounts,
  playwright,
}) => {
  // A fresh user of its own, registered in a separate request context.
  const api = await playwright.request.newContext();
  const user = await registerThroughApi(api, accounts);
  await api.dispose();
  const userName = await accounts.userNameOf(user.phone);
  expect(userName).toBeTruthy();

  const { context, page } = await signedInPage(browser, accounts, demo.partner);
  try {
    await page.goto('/partner/organization');
    await expect(page.getByRole('heading', { level: 2, name: /广东省分行/ })).toBeVisible();
    const form = page.getByRole('form', { name: zh['settlement.staff.add'] });
    const userField = form.getByLabel(zh['settlement.staff.userName'], { exact: true });
    const empField = form.getByLabel(zh['settlement.staff.empId'], { exact: true });
    const submit = form.getByRole('button', { name: zh['settlement.staff.submit'] });

    // Checked here first: both empty.
    await submit.click();
    await expect(userField).toHaveAttribute('aria-invalid', 'true');
    await expect(userField).toBeFocused();
    await expect(empField).toHaveAttribute('aria-invalid', 'true');
    // The 工号's own rule.
    await userField.fill(userName ?? '');
    await empField.fill('GD 01!');
    await submit.click();
    await expect(form.getByText(zh['settlement.staff.empIdInvalid'])).toBeVisible();
    // The server's verdict beside its field: no such user.
    await userField.fill('nobody_here_2025');
    await empField.fill('GDE2E01');
    await submit.click();
    await expect(userField).toHaveAttribute('aria-invalid', 'true');
    await expect(userField).toBeFocused();

    await userField.fill(userName ?? '');
    await submit.click();
    const staff = page.getByRole('table', { name: /员工关系/ });
    const row = staff.getByRole('row').filter({ hasText: 'GDE2E01' });
    await expect(row).toContainText(userName ?? '');
    await expect(row).toContainText(user.name);
    await expect(page.getByRole('status').filter({ hasText: user.name })).toBeVisible();

    // The same 工号 again at this institution: refused, nothing added.
    await userField.fill(userName ?? '');
    await empField.fill('GDE2E01');
    await submit.click();
    await expect(form.locator('[aria-invalid="true"], [role="alert"]').first()).toBeVisible();
    await expect(staff.getByRole('row').filter({ hasText: 'GDE2E01' })).toHaveCount(1);

    // Remove: the dialog names the person; Escape (and "not now", focused first) changes nothing.
    const remove = row.getByRole('button', { name: new RegExp(zh['settlement.staff.remove']) });
    await remove.click();
    const dialog = page.getByRole('dialog', { name: zh['settlement.staff.removeTitle'] });
    await expect(dialog).toContainText(user.name);
    await expect(dialog.getByRole('button', { name: zh['settlement.staff.cancel'] })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();
    await remove.click();
    await dialog.getByRole('button', { name: zh['settlement.staff.removeConfirm'], exact: true }).click();
    await expect(staff.getByRole('row').filter({ hasText: 'GDE2E01' })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: user.name })).toBeVisible();
    // Still gone after a reload.
    await page.reload();
    await expect(
      page
        .getByRole('table', { name: /员工关系/ })
        .getByRole('row')
        .filter({ hasText: 'demo_partner' }),
    ).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: /员工关系/ })
        .getByRole('row')
        .filter({ hasText: 'GDE2E01' }),
    ).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('demo_bank, related to the ICBC head office, sees its whole tree and not the other bank', async ({
  browser,
  accounts,
}) => {
  const { context, page } = await signedInPage(browser, accounts, demo.bank);
  try {
    await page.goto('/partner/organization');
    const tree = page.getByRole('tree', { name: zh['settlement.tree.label'] });
    const head = tree.getByRole('treeitem', { name: /中国工商银行股份有限公司/ });
    await expect(head).toHaveAttribute('aria-level', '1');
    await expect(head).toHaveAttribute('aria-selected', 'true');
    await expect(tree.locator('[role="treeitem"][aria-level="1"]')).toHaveCount(1);
    // Its five provincial branches, and nothing of 中国建设银行.
    await expect(tree.locator('[role="treeitem"][aria-level="2"]')).toHaveCount(5);
    await expect(tree).toContainText('广西区分行');
    await expect(tree).not.toContainText('中国建设银行');
    await expect(page.locator('dd').filter({ hasText: new RegExp(`^${zh['partner.level.1']}$`) })).toBeVisible();
  } finally {
    await context.close();
  }
});
