/**
 * Two-step verification as a user meets it (docs/accounts-ui.md): turning it on in account
 * settings — password, the manual key read from the page into an authenticator (otpauth here, as
 * the phone's app), the first code, ten recovery codes shown once — then logging out and in with
 * password and code, and once more with a recovery code.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { expect, registerThroughApi, test } from './support/accountsFixtures.ts';

const zh = dictionaries['zh-CN'];

test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
});

function toast(page: Page, text: string) {
  return page.locator('[data-hgd-toasts] [role="status"], [data-hgd-toasts] [role="alert"]').filter({ hasText: text });
}

/** WCAG 2.2 AA on the page as it is now (the accessibility sweep sees the card before any step). */
async function expectAccessible(page: Page): Promise<void> {
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
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: zh['header.accountMenu'] }).click();
  await page.getByRole('button', { name: zh['header.logout'] }).click();
  await expect(page).toHaveURL(/\/user\/login\?redirect=/);
}

test('enrol in account settings, then log in with password + code, and with a recovery code', async ({
  page,
  request,
  accounts,
}) => {
  const user = await registerThroughApi(request, accounts);
  // Registered through the API (its own cookies); the page signs in through the form.
  await page.goto('/user/login?redirect=%2Fperson%2Faccount');
  await page.getByLabel(zh['field.userName'], { exact: true }).fill(user.phone);
  await page.getByLabel(zh['field.password'], { exact: true }).fill(user.password);
  await page.getByLabel(zh['field.captcha'], { exact: true }).fill(await accounts.captchaAnswer());
  await page
    .getByRole('tabpanel', { name: zh['account.login.modeAccount'] })
    .getByRole('button', { name: zh['account.login.submit'], exact: true })
    .click();
  await expect(page).toHaveURL(/\/person\/account$/);

  // Turn it on: the password again, then the QR code and the key.
  const card = page.getByRole('region', { name: zh['account.secondFactor.title'] });
  await expect(card.getByText(zh['account.secondFactor.off'], { exact: true })).toBeVisible();
  await card.getByRole('button', { name: zh['account.secondFactor.enable'] }).click();
  await card.getByLabel(zh['field.password'], { exact: true }).fill('Wrong2025x');
  await card.getByRole('button', { name: zh['account.secondFactor.continue'] }).click();
  await expect(card.getByText(zh['auth.passwordWrong'], { exact: true })).toBeVisible();
  await card.getByLabel(zh['field.password'], { exact: true }).fill(user.password);
  await card.getByRole('button', { name: zh['account.secondFactor.continue'] }).click();
  await expect(card.getByRole('img', { name: zh['account.secondFactor.qrAlt'] })).toBeVisible();
  await expectAccessible(page);
  const manualKey = (await card.locator('[data-manual-key]').textContent()) ?? '';
  expect(manualKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{4})+$/);
  const app = new TOTP({
    secret: Secret.fromBase32(manualKey.replace(/ /g, '')),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  });
  const codeField = card.getByLabel(zh['field.totpCode'], { exact: true });
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  const enrolledAt = Date.now();
  await codeField.fill(app.generate({ timestamp: enrolledAt }));
  await card.getByRole('button', { name: zh['account.secondFactor.confirm'] }).click();

  // Ten recovery codes, once; downloadable as a .txt file.
  const codes = card.getByRole('list', { name: zh['account.secondFactor.codesTitle'] }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expectAccessible(page);
  const recoveryCodes = await codes.allTextContents();
  for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: zh['account.secondFactor.download'] }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('hgd-recovery-codes.txt');
  const saved = await file.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  for (const code of recoveryCodes) expect(saved).toContain(code);
  await card.getByRole('button', { name: zh['account.secondFactor.saved'] }).click();
  await expect(codes).toHaveCount(0);
  await expect(card.getByText(zh['account.secondFactor.on'], { exact: true })).toBeVisible();

  // Log out; log in with the password, then the code (the next time step: the first one is used).
  await logOut(page);
  await page.getByLabel(zh['field.userName'], { exact: true }).fill(user.phone);
  await page.getByLabel(zh['field.password'], { exact: true }).fill(user.password);
  await page.getByLabel(zh['field.captcha'], { exact: true }).fill(await accounts.captchaAnswer());
  await page
    .getByRole('tabpanel', { name: zh['account.login.modeAccount'] })
    .getByRole('button', { name: zh['account.login.submit'], exact: true })
    .click();
  const step = page.getByRole('region', { name: zh['account.secondFactor.stepTitle'] });
  const loginCode = step.getByLabel(zh['field.totpCode'], { exact: true });
  await expect(loginCode).toBeFocused();
  await expectAccessible(page);
  await expect(loginCode).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(loginCode).toHaveAttribute('inputmode', 'numeric');
  // The code already used at enrolment is refused: a step is accepted once.
  await loginCode.fill(app.generate({ timestamp: enrolledAt }));
  await step.getByRole('button', { name: zh['account.secondFactor.submit'] }).click();
  await expect(step.getByText(zh['auth.secondFactorInvalid'], { exact: true })).toBeVisible();
  await loginCode.fill(app.generate({ timestamp: enrolledAt + 30_000 }));
  await step.getByRole('button', { name: zh['account.secondFactor.submit'] }).click();
  // The login's redirect is kept: back to account settings.
  await expect(page).toHaveURL(/\/person\/account$/);
  await expect(toast(page, zh['auth.loginOk'])).toBeVisible();

  // Once more with a recovery code instead of the app.
  await logOut(page);
  await page.getByLabel(zh['field.userName'], { exact: true }).fill(user.phone);
  await page.getByLabel(zh['field.password'], { exact: true }).fill(user.password);
  await page.getByLabel(zh['field.captcha'], { exact: true }).fill(await accounts.captchaAnswer());
  await page
    .getByRole('tabpanel', { name: zh['account.login.modeAccount'] })
    .getByRole('button', { name: zh['account.login.submit'], exact: true })
    .click();
  await step.getByRole('button', { name: zh['account.secondFactor.useRecovery'] }).click();
  await step.getByLabel(zh['field.recoveryCode'], { exact: true }).fill(recoveryCodes[0]!.toUpperCase());
  await step.getByRole('button', { name: zh['account.secondFactor.submit'] }).click();
  await expect(page).toHaveURL(/\/person\/account$/);
  await expect(card.getByText('剩余恢复码 9 个')).toBeVisible();
});
