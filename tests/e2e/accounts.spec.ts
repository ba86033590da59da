import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { notices, users } from '../../src/server/db/schema/index.ts';
import { endResendWait } from './support/accountsServer.ts';
import { apiLogin, expect, registerThroughApi, test } from './support/accountsFixtures.ts';

const zh = dictionaries['zh-CN'];

test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
});

/** A toast (role status or alert) with this text. */
function toast(page: Page, text: string) {
  return page.locator('[data-hgd-toasts] [role="status"], [data-hgd-toasts] [role="alert"]').filter({ hasText: text });
}

async function logOutFromHeader(page: Page): Promise<void> {
  await page.getByRole('button', { name: zh['header.accountMenu'] }).click();
  await page.getByRole('button', { name: zh['header.logout'] }).click();
  await expect(page).toHaveURL(/\/user\/login\?redirect=/);
  // The goodbye outlives the navigation: the login page shows it.
  await expect(toast(page, zh['api.logoutOk'])).toBeVisible();
}

test('register → login by SMS → change password → logout → login by account with captcha', async ({
  page,
  accounts,
}) => {
  test.setTimeout(120_000);
  const phone = `139${String(Date.now()).slice(-8)}`;
  const password = 'Start2025x';
  const newPassword = 'Later2026y';

  await test.step('register with phone, SMS code, name and password', async () => {
    await page.goto('/setting/register');
    await page.getByLabel(zh['field.phone'], { exact: true }).fill(phone);
    await page.getByRole('button', { name: zh['account.sms.send'] }).click();
    await expect(toast(page, zh['sms.sent'])).toBeVisible();
    // The 60 s countdown: the button counts down and cannot be pressed again.
    const countdown = page.getByRole('button', { name: /秒后重新获取/ });
    await expect(countdown).toBeDisabled();
    await expect(countdown).toHaveText(/^(60|59|58) 秒后重新获取$/);

    await page.getByLabel(zh['field.smsCode'], { exact: true }).fill(await accounts.smsCode(phone, 'register'));
    await page.getByLabel(zh['field.name'], { exact: true }).fill('测试用户');
    await page.getByLabel(zh['field.password'], { exact: true }).fill(password);
    await page.getByLabel(zh['account.password.confirm'], { exact: true }).fill('Different1');
    await page.getByRole('button', { name: zh['account.register.submit'], exact: true }).click();
    // The form's own check: nothing is sent while the two passwords differ.
    await expect(page.getByText(zh['account.password.mismatch'])).toBeVisible();
    await expect(page.getByLabel(zh['account.password.confirm'], { exact: true })).toBeFocused();
    await page.getByLabel(zh['account.password.confirm'], { exact: true }).fill(password);
    // The consent starts unticked, and the form will not register without it.
    const consent = page.getByRole('checkbox', { name: /我已阅读并同意《用户协议》和《隐私政策》/ });
    await expect(consent).not.toBeChecked();
    await page.getByRole('button', { name: zh['account.register.submit'], exact: true }).click();
    await expect(page.getByText(zh['legal.consentRequired'])).toBeVisible();
    await expect(consent).toBeFocused();
    // Its links open the documents beside the form.
    const policy = page.waitForEvent('popup');
    await page.getByRole('link', { name: zh['legal.privacyPolicy'], exact: true }).first().click();
    const policyPage = await policy;
    await expect(policyPage.getByRole('heading', { level: 1, name: zh['legal.privacyPolicy'] })).toBeVisible();
    await policyPage.close();
    await expect(consent).not.toBeChecked();
    await consent.check();
    await page.getByRole('button', { name: zh['account.register.submit'], exact: true }).click();

    // Registered and logged in: the overview, with the message kept across the navigation.
    await expect(page).toHaveURL(/\/person\/overview$/);
    await expect(toast(page, zh['auth.registerOk'])).toBeVisible();
    await expect(page.getByRole('region', { name: zh['account.overview.meTitle'] })).toContainText(phone);
    await expect(page.getByRole('region', { name: zh['account.overview.enterpriseTitle'] })).toContainText(
      zh['account.overview.noEnterprise'],
    );
    await expect(page.getByRole('region', { name: zh['account.overview.noticesTitle'] })).toContainText(
      zh['account.overview.noticesEmpty'],
    );
  });

  await test.step('log out, then log in by SMS and come back to the overview', async () => {
    await logOutFromHeader(page);
    await page.getByRole('tab', { name: zh['account.login.modeMobile'] }).click();
    await expect(page.getByRole('tab', { name: zh['account.login.modeMobile'] })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await page.getByLabel(zh['field.phone'], { exact: true }).fill(phone);
    await endResendWait(accounts.db, phone);
    await page.getByRole('button', { name: zh['account.sms.send'] }).click();
    await expect(toast(page, zh['sms.sent'])).toBeVisible();
    await page.getByLabel(zh['field.smsCode'], { exact: true }).fill(await accounts.smsCode(phone, 'login'));
    await page
      .getByRole('tabpanel', { name: zh['account.login.modeMobile'] })
      .getByRole('button', { name: zh['account.login.submit'], exact: true })
      .click();
    await expect(page).toHaveURL(/\/person\/overview$/);
    await expect(toast(page, zh['auth.loginOk'])).toBeVisible();
    await expect(page.getByRole('region', { name: zh['account.overview.meTitle'] })).toContainText('测试用户');
  });

  await test.step('change the password with the old one', async () => {
    await page.goto('/person/account');
    const form = page.getByRole('region', { name: zh['account.changePassword.title'] });
    await form.getByLabel(zh['field.oldPassword'], { exact: true }).fill('Wrong2025x');
    await form.getByLabel(zh['field.newPassword'], { exact: true }).fill(newPassword);
    await form.getByLabel(zh['account.password.confirm'], { exact: true }).fill(newPassword);
    await form.getByRole('button', { name: zh['account.changePassword.submit'] }).click();
    await expect(toast(page, zh['auth.oldPasswordWrong'])).toBeVisible();
    await form.getByLabel(zh['field.oldPassword'], { exact: true }).fill(password);
    await form.getByLabel(zh['field.newPassword'], { exact: true }).fill(newPassword);
    await form.getByLabel(zh['account.password.confirm'], { exact: true }).fill(newPassword);
    await form.getByRole('button', { name: zh['account.changePassword.submit'] }).click();
    await expect(toast(page, zh['auth.passwordChanged'])).toBeVisible();
    // This browser keeps its (renewed) session; it is the only one left.
    const sessions = page.getByRole('region', { name: zh['account.sessions.title'] });
    await expect(sessions.getByRole('listitem')).toHaveCount(1);
    await expect(sessions.getByText(zh['account.sessions.current'])).toBeVisible();
  });

  await test.step('log out, then log in by account with the captcha', async () => {
    await logOutFromHeader(page);
    const captchaButton = page.getByRole('button', { name: zh['account.captcha.refresh'] });
    await expect(captchaButton.locator('img')).toHaveJSProperty('complete', true);

    // The image changes on click (a new captcha each time).
    const refreshed = page.waitForResponse((response) => response.url().includes('/api/front/system/captcha-image?t='));
    await captchaButton.click();
    await refreshed;
    await expect(captchaButton.locator('img')).toHaveAttribute('src', /captcha-image\?t=\d+/);

    const userName = await accounts.userNameOf(phone);
    expect(userName).toBe(phone);
    await page.getByLabel(zh['field.userName'], { exact: true }).fill(phone);
    await page.getByLabel(zh['field.password'], { exact: true }).fill(newPassword);
    await page.getByLabel(zh['field.captcha'], { exact: true }).fill(await accounts.captchaAnswer());
    await page
      .getByRole('tabpanel', { name: zh['account.login.modeAccount'] })
      .getByRole('button', { name: zh['account.login.submit'], exact: true })
      .click();
    await expect(page).toHaveURL(/\/person\/account$/);
    await expect(toast(page, zh['auth.loginOk'])).toBeVisible();
  });
});

test('a session ended during use sends the user to login and back to where they were', async ({
  browser,
  accounts,
}) => {
  test.setTimeout(90_000);
  const origin = accounts.url;
  // Two browsers of the same user: A works in account settings, B ends A's session.
  const contextA = await browser.newContext({ baseURL: origin, locale: 'zh-CN' });
  const contextB = await browser.newContext({ baseURL: origin, locale: 'zh-CN' });
  try {
    await apiLogin(contextA.request, origin, 'demo_person', 'Person2025');
    await apiLogin(contextB.request, origin, 'demo_person', 'Person2025');
    const pageA = await contextA.newPage();
    const pageB = await contextB.newPage();
    await pageA.goto('/person/account?from=test');
    const profile = pageA.getByRole('region', { name: zh['account.profile.title'] });
    await expect(profile.getByLabel(zh['field.name'], { exact: true })).toBeVisible();

    await pageB.goto('/person/account');
    const sessions = pageB.getByRole('region', { name: zh['account.sessions.title'] });
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    const other = sessions.getByRole('listitem').filter({ hasNotText: zh['account.sessions.current'] });
    await other.getByRole('button', { name: /结束/ }).click();
    const dialog = pageB.getByRole('dialog', { name: zh['account.sessions.confirmTitle'] });
    await expect(dialog).toBeVisible();
    // Cancel first: nothing changes.
    await dialog.getByRole('button', { name: zh['account.common.cancel'] }).click();
    await expect(dialog).toBeHidden();
    await expect(sessions.getByRole('listitem')).toHaveCount(2);
    await other.getByRole('button', { name: /结束/ }).click();
    await dialog.getByRole('button', { name: zh['account.sessions.end'] }).click();
    await expect(toast(pageB, zh['auth.sessionEnded'])).toBeVisible();
    await expect(sessions.getByRole('listitem')).toHaveCount(1);

    // A, still on the page, saves its profile: the server answers 901.
    await profile.getByLabel(zh['field.name'], { exact: true }).fill('新名字');
    await profile.getByRole('button', { name: zh['account.common.save'] }).click();
    await expect(pageA).toHaveURL(/\/user\/login\?redirect=/);
    expect(new URL(pageA.url()).searchParams.get('redirect')).toBe(`${origin}/person/account?from=test`);

    await pageA.getByLabel(zh['field.userName'], { exact: true }).fill('demo_person');
    await pageA.getByLabel(zh['field.password'], { exact: true }).fill('Person2025');
    await expect(pageA.getByRole('button', { name: zh['account.captcha.refresh'] }).locator('img')).toHaveJSProperty(
      'complete',
      true,
    );
    await pageA.getByLabel(zh['field.captcha'], { exact: true }).fill(await accounts.captchaAnswer());
    await pageA.getByRole('button', { name: zh['account.login.submit'], exact: true }).first().click();
    await expect(pageA).toHaveURL(`${origin}/person/account?from=test`);
    await expect(toast(pageA, zh['auth.loginOk'])).toBeVisible();
    await expect(pageA.getByRole('region', { name: zh['account.profile.title'] })).toBeVisible();
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

test('the notice bell: unread counts, mark one read, clear a type after confirming', async ({
  page,
  accounts,
  context,
}) => {
  await apiLogin(context.request, accounts.url, 'demo_company', 'Company2025');
  await page.goto('/welcome/home');
  // Closed and static until the visitor reaches for it.
  const bell = page.getByRole('button', { name: /^通知/ });
  await bell.click();
  await expect(bell).toHaveAttribute('aria-expanded', 'true');
  // demo_company: a read notification, an unread message, an unread to-do.
  await expect(bell).toHaveAccessibleName(zh['account.notices.bellUnread'].replace('{count}', '2'));
  const panel = page.getByRole('region', { name: zh['account.notices.panelLabel'] });
  await expect(panel.getByRole('tab')).toHaveCount(3);

  await panel.getByRole('tab', { name: /^消息/ }).click();
  await panel.getByRole('button', { name: zh['account.notices.markRead'] }).click();
  await expect(bell).toHaveAccessibleName(zh['account.notices.bellUnread'].replace('{count}', '1'));
  await expect(panel.getByRole('button', { name: zh['account.notices.markRead'] })).toHaveCount(0);

  await panel.getByRole('tab', { name: /^待办/ }).click();
  await panel.getByRole('button', { name: '清空待办' }).click();
  const dialog = page.getByRole('dialog', { name: '清空待办' });
  await dialog.getByRole('button', { name: zh['account.common.confirm'] }).click();
  await expect(panel).toContainText('暂无待办');
  await expect(bell).toHaveAccessibleName(zh['account.notices.bell']);

  // The server kept both changes: a new page shows the same counts.
  await page.reload();
  await page.getByRole('button', { name: /^通知/ }).click();
  await expect(page.getByRole('button', { name: /^通知/ })).toHaveAccessibleName(zh['account.notices.bell']);
  await page
    .getByRole('region', { name: zh['account.notices.panelLabel'] })
    .getByRole('tab', { name: /^待办/ })
    .click();
  await expect(page.getByRole('region', { name: zh['account.notices.panelLabel'] })).toContainText('暂无待办');
});

test('on a signed-in page the bell shows the unread count without being touched', async ({
  page,
  accounts,
  context,
}) => {
  // A user of its own: the notice-bell test beside it (another worker) reads and clears demo_company's.
  const user = await registerThroughApi(context.request, accounts);
  const [row] = await accounts.db.select({ id: users.id }).from(users).where(eq(users.mobile, user.phone));
  await accounts.db.insert(notices).values([
    { userId: row!.id, type: 'message', title: '未读消息' },
    { userId: row!.id, type: 'event', title: '未读待办' },
  ]);
  await page.goto('/person/overview');
  // The count comes from the notices call after the session check; on a loaded CI machine (two
  // workers, the partner pages' suites beside it) that took longer than the default 5 s once.
  await expect(page.getByRole('button', { name: /^通知/ })).toHaveAccessibleName(
    zh['account.notices.bellUnread'].replace('{count}', '2'),
    { timeout: 15_000 },
  );
});
