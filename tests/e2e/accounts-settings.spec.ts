import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { consents, users } from '../../src/server/db/schema/index.ts';
import { endResendWait } from './support/accountsServer.ts';
import { apiLogin, expect, freshPhone, registerThroughApi, test } from './support/accountsFixtures.ts';

const zh = dictionaries['zh-CN'];
const en = dictionaries['en-US'];

function toast(page: Page, text: string | RegExp) {
  return page.locator('[data-hgd-toasts] [role="status"], [data-hgd-toasts] [role="alert"]').filter({ hasText: text });
}

// Each test registers its own user (argon2 on a shared 2-core machine) before the part it checks.
test.describe.configure({ timeout: 90_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() =>
    window.localStorage.setItem('locale', window.location.pathname.startsWith('/en-US') ? 'en-US' : 'zh-CN'),
  );
});

test('password reset by SMS, then the new password logs in (with the captcha)', async ({ page, accounts, context }) => {
  const user = await registerThroughApi(context.request, accounts);
  await context.clearCookies();
  await endResendWait(accounts.db, user.phone);

  await page.goto('/setting/modify');
  await page.getByLabel(zh['field.phone'], { exact: true }).fill(user.phone);
  await page.getByRole('button', { name: zh['account.sms.send'] }).click();
  await expect(toast(page, zh['sms.sent'])).toBeVisible();
  const code = await accounts.smsCode(user.phone, 'modify');
  await page.getByLabel(zh['field.smsCode'], { exact: true }).fill(code);
  await page.getByLabel(zh['field.newPassword'], { exact: true }).fill('Reset2026z');
  await page.getByLabel(zh['account.password.confirm'], { exact: true }).fill('Reset2026z');
  await page.getByRole('button', { name: zh['account.modify.submit'], exact: true }).click();

  await expect(page).toHaveURL(/\/user\/login$/);
  await expect(toast(page, zh['auth.resetOk'])).toBeVisible();
  await expect(page.getByRole('button', { name: zh['account.captcha.refresh'] }).locator('img')).toHaveJSProperty(
    'complete',
    true,
  );
  await page.getByLabel(zh['field.userName'], { exact: true }).fill(user.phone);
  await page.getByLabel(zh['field.password'], { exact: true }).fill('Reset2026z');
  await page.getByLabel(zh['field.captcha'], { exact: true }).fill(await accounts.captchaAnswer());
  await page
    .getByRole('tabpanel', { name: zh['account.login.modeAccount'] })
    .getByRole('button', { name: zh['account.login.submit'], exact: true })
    .click();
  // No redirect parameter: the home page.
  await expect(page).toHaveURL(/\/welcome\/home$/);
  await expect(toast(page, zh['auth.loginOk'])).toBeVisible();
});

test('a wrong captcha is refused, the image is replaced, and a registered phone cannot register again', async ({
  page,
  accounts,
  context,
}) => {
  const user = await registerThroughApi(context.request, accounts);
  await context.clearCookies();

  await page.goto('/user/login');
  const image = page.getByRole('button', { name: zh['account.captcha.refresh'] }).locator('img');
  await expect(image).toHaveJSProperty('complete', true);
  const firstSrc = await image.getAttribute('src');
  await page.getByLabel(zh['field.userName'], { exact: true }).fill(user.phone);
  await page.getByLabel(zh['field.password'], { exact: true }).fill(user.password);
  const answer = await accounts.captchaAnswer();
  await page.getByLabel(zh['field.captcha'], { exact: true }).fill(answer === 'aaaa' ? 'bbbb' : 'aaaa');
  await page
    .getByRole('tabpanel', { name: zh['account.login.modeAccount'] })
    .getByRole('button', { name: zh['account.login.submit'], exact: true })
    .click();
  await expect(toast(page, zh['auth.captchaInvalid'])).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login$/);
  // One image, one try: a new one is shown and the field is emptied.
  await expect(image).not.toHaveAttribute('src', firstSrc ?? '');
  await expect(page.getByLabel(zh['field.captcha'], { exact: true })).toHaveValue('');

  await page.goto('/setting/register');
  await page.getByLabel(zh['field.phone'], { exact: true }).fill(user.phone);
  await page.getByRole('button', { name: zh['account.sms.send'] }).click();
  // Checked with checkphonenum before any code is sent.
  await expect(page.getByText(zh['account.sms.phoneTaken'])).toBeVisible();
  await expect(page.getByLabel(zh['field.phone'], { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: zh['account.sms.send'] })).toBeEnabled();
});

test('binding links the account to an enterprise; the overview then shows it, not certified', async ({
  page,
  accounts,
  context,
}) => {
  const user = await registerThroughApi(context.request, accounts);
  await endResendWait(accounts.db, user.phone);

  await page.goto('/person/overview');
  const enterprise = page.getByRole('region', { name: zh['account.overview.enterpriseTitle'] });
  await expect(enterprise).toContainText(zh['account.overview.noEnterprise']);
  await enterprise.getByRole('link', { name: zh['account.overview.bind'] }).click();

  await expect(page).toHaveURL(/\/setting\/binding$/);
  await expect(page.getByLabel(zh['field.userName'], { exact: true })).toHaveValue(user.phone);
  await expect(page.getByLabel(zh['field.userName'], { exact: true })).toHaveAttribute('readonly', '');
  await page.getByRole('button', { name: zh['account.binding.submit'] }).click();
  // Required fields first, in the language of the page.
  await expect(page.getByText('请输入短信验证码')).toBeVisible();
  await expect(page.getByLabel(zh['field.smsCode'], { exact: true })).toBeFocused();

  await page.getByRole('button', { name: zh['account.sms.send'] }).click();
  await expect(toast(page, zh['sms.sent'])).toBeVisible();
  await page.getByLabel(zh['field.smsCode'], { exact: true }).fill(await accounts.smsCode(user.phone));
  await page.getByLabel(zh['field.enterpriseName'], { exact: true }).fill('佛山测试照明有限公司');
  await page.getByLabel(zh['field.clearanceAccount'], { exact: true }).fill(`FS${user.phone}`);
  await page.getByRole('button', { name: zh['account.binding.submit'] }).click();

  await expect(page).toHaveURL(/\/person\/overview$/);
  await expect(toast(page, zh['auth.bindOk'])).toBeVisible();
  await expect(enterprise).toContainText('佛山测试照明有限公司');
  await expect(enterprise).toContainText(zh['authStatus.0']);
  await expect(enterprise.getByRole('link', { name: zh['account.overview.certify'] })).toHaveAttribute(
    'href',
    '/certify/enterprise',
  );
  await expect(page.getByRole('region', { name: zh['account.overview.meTitle'] })).toContainText(
    zh['account.role.enterprise'],
  );

  // Binding again is not offered.
  await page.goto('/setting/binding');
  await expect(page.getByText('佛山测试照明有限公司')).toBeVisible();
  await expect(page.getByRole('button', { name: zh['account.binding.submit'] })).toHaveCount(0);
});

test('profile and phone change (verified on the current phone and on the new one)', async ({
  page,
  accounts,
  context,
}) => {
  const user = await registerThroughApi(context.request, accounts);
  await endResendWait(accounts.db, user.phone);
  const newPhone = freshPhone();

  await page.goto('/person/account');
  const profile = page.getByRole('region', { name: zh['account.profile.title'] });
  await profile.getByLabel(zh['field.name'], { exact: true }).fill('王经理');
  await profile.getByLabel(zh['field.email'], { exact: true }).fill('not-an-email');
  await profile.getByRole('button', { name: zh['account.common.save'] }).click();
  await expect(profile.getByText('邮箱不是有效的邮箱地址')).toBeVisible();
  await profile.getByLabel(zh['field.email'], { exact: true }).fill('wang@example.cn');
  await profile.getByRole('button', { name: zh['account.common.save'] }).click();
  await expect(toast(page, zh['auth.infoChanged'])).toBeVisible();

  const phone = page.getByRole('region', { name: zh['account.phone.title'] });
  await expect(phone).toContainText(user.phone);
  await phone.getByRole('button', { name: zh['account.sms.send'] }).first().click();
  await expect(toast(page, zh['sms.sent'])).toBeVisible();
  await phone.getByLabel(zh['account.phone.verifyCode'], { exact: true }).fill(await accounts.smsCode(user.phone));
  await phone.getByLabel(zh['account.phone.newPhone'], { exact: true }).fill(newPhone);
  await phone.getByRole('button', { name: zh['account.sms.send'] }).click();
  // Both buttons now count down: the second code was sent too.
  await expect(phone.getByRole('button', { name: /秒后重新获取/ })).toHaveCount(2);
  await phone.getByLabel(zh['account.phone.newCode'], { exact: true }).fill(await accounts.smsCode(newPhone));
  await phone.getByRole('button', { name: zh['account.phone.submit'] }).click();
  await expect(toast(page, zh['account.phone.changed'].replace('{phone}', newPhone))).toBeVisible();
  await expect(phone).toContainText(newPhone);

  await page.goto('/person/overview');
  const me = page.getByRole('region', { name: zh['account.overview.meTitle'] });
  await expect(me).toContainText('王经理');
  await expect(me).toContainText(newPhone);
  await expect(me).toContainText('wang@example.cn');
});

test('the login page in English, from the keyboard, with no hydration errors', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  await page.goto('/en-US/user/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en['page.login.title']);
  const accountTab = page.getByRole('tab', { name: en['account.login.modeAccount'] });
  // Focus starts hydration (client:intent); keys pressed before the island has mounted are not
  // replayed, so wait for its mount signal (src/islands/useMountedSignal.ts).
  const mounted = page.evaluate(
    () => new Promise<void>((resolve) => document.addEventListener('island:mounted', () => resolve(), { once: true })),
  );
  await accountTab.focus();
  await mounted;
  await expect(accountTab).toBeFocused();
  await page.keyboard.press('ArrowRight');
  const mobileTab = page.getByRole('tab', { name: en['account.login.modeMobile'] });
  await expect(mobileTab).toBeFocused();
  await expect(mobileTab).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Mobile number', { exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  // Nothing typed: the shared schemas' messages, in English, and focus on the first field to fix.
  await expect(page.getByText('Please enter mobile number')).toBeVisible();
  await expect(page.getByText('Please enter SMS code')).toBeVisible();
  await page.keyboard.type('12345');
  await page.getByRole('button', { name: en['account.sms.send'] }).click();
  await expect(page.getByText(/mobile number/i).and(page.locator('.text-error'))).toBeVisible();
  expect(problems).toEqual([]);
});

test('a visitor sent to log in who registers first still ends where they were going', async ({ page, accounts }) => {
  const phone = freshPhone();
  await page.goto('/person/order');
  await expect(page).toHaveURL(/\/user\/login\?redirect=/);
  await page.getByRole('link', { name: zh['account.login.toRegister'] }).click();
  await expect(page).toHaveURL(/\/setting\/register\?redirect=/);

  await page.getByLabel(zh['field.phone'], { exact: true }).fill(phone);
  await page.getByRole('button', { name: zh['account.sms.send'] }).click();
  await page.getByLabel(zh['field.smsCode'], { exact: true }).fill(await accounts.smsCode(phone, 'register'));
  await page.getByLabel(zh['field.name'], { exact: true }).fill('下单用户');
  await page.getByLabel(zh['field.password'], { exact: true }).fill('Order2025x');
  await page.getByLabel(zh['account.password.confirm'], { exact: true }).fill('Order2025x');
  await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
  await page.getByRole('button', { name: zh['account.register.submit'], exact: true }).click();
  await expect(page).toHaveURL(/\/person\/order$/);
  await expect(toast(page, zh['auth.registerOk'])).toBeVisible();
});

test('my personal information: what is held, and a copy downloaded as JSON and as Excel', async ({
  page,
  accounts,
  context,
}) => {
  const user = await registerThroughApi(context.request, accounts);
  await page.goto('/person/account');
  const card = page.getByRole('region', { name: zh['account.data.title'] });
  await expect(card.getByText(zh['account.data.noEnterprise'])).toBeVisible();
  // Registration signed the browser in: one sign-in, one device.
  await expect(card.getByText(zh['account.data.recentSignIns'])).toBeVisible();
  await expect(card.getByRole('listitem').filter({ hasText: zh['account.data.signInOk'] })).toHaveCount(1);

  const json = page.waitForEvent('download');
  await card.getByRole('button', { name: zh['account.data.downloadJson'] }).click();
  const jsonFile = await json;
  expect(jsonFile.suggestedFilename()).toMatch(/^个人信息-\d{8}\.json$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await jsonFile.createReadStream()) chunks.push(chunk as Buffer);
  const copy = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { account: { mobile: string; name: string } };
  expect(copy.account).toMatchObject({ mobile: user.phone, name: user.name });

  const xlsx = page.waitForEvent('download');
  await card.getByRole('button', { name: zh['account.data.downloadXlsx'] }).click();
  const xlsxFile = await xlsx;
  expect(xlsxFile.suggestedFilename()).toMatch(/^个人信息-\d{8}\.xlsx$/);
  const rows = await readSheet(await xlsxFile.createReadStream());
  expect(rows.some((row) => row[0] === zh['account.data.section.account'] && row[2] === user.phone)).toBe(true);
});

test('a version not yet agreed to: the dialog says what changed; agreeing opens the page, declining signs out', async ({
  page,
  accounts,
  context,
}) => {
  const user = await registerThroughApi(context.request, accounts);
  const [row] = await accounts.db.select({ id: users.id }).from(users).where(eq(users.mobile, user.phone));
  // As an account that agreed to nothing yet (one from before the documents, or a new version in effect).
  const forget = async () => {
    await accounts.db.delete(consents).where(eq(consents.userId, row!.id));
    await accounts.db.update(users).set({ agreedVersions: {} }).where(eq(users.id, row!.id));
  };
  await forget();

  await page.goto('/person/account');
  const dialog = page.getByRole('dialog', { name: zh['legal.reconsent.title'] });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: zh['legal.userAgreement'], exact: true })).toBeVisible();
  await expect(dialog.getByRole('heading', { name: zh['legal.privacyPolicy'], exact: true })).toBeVisible();
  await expect(dialog.getByText('首次发布。')).toHaveCount(2);
  await expect(dialog.getByRole('link', { name: zh['legal.reconsent.read'] }).first()).toHaveAttribute(
    'href',
    '/legal/user-agreement',
  );
  // Only a choice closes it, and the page stays hidden behind it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('region', { name: zh['account.profile.title'] })).toBeHidden();

  await dialog.getByRole('button', { name: zh['legal.reconsent.agree'] }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, zh['legal.reconsent.agreed'])).toBeVisible();
  await expect(page.getByRole('region', { name: zh['account.profile.title'] })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: zh['account.profile.title'] })).toBeVisible();
  await expect(dialog).toBeHidden();
  const agreed = await accounts.db.select().from(consents).where(eq(consents.userId, row!.id)).orderBy(consents.id);
  expect(agreed.map((consent) => [consent.document, consent.decision, consent.origin])).toEqual([
    ['user-agreement', 'agreed', 'reconsent'],
    ['privacy-policy', 'agreed', 'reconsent'],
  ]);

  await forget();
  await page.goto('/person/order');
  await dialog.getByRole('button', { name: zh['legal.reconsent.decline'] }).click();
  await expect(page).toHaveURL(/\/welcome\/home$/);
  await page.goto('/person/account');
  await expect(page).toHaveURL(/\/user\/login\?redirect=/);
});

test('closing the account: refused with its reason, then requested, signed out; signing in again withdraws it', async ({
  page,
  accounts,
  context,
}) => {
  const user = await registerThroughApi(context.request, accounts);
  await page.goto('/person/account');
  const card = page.getByRole('region', { name: zh['account.cancel.title'] });
  await card.getByRole('button', { name: zh['account.cancel.start'] }).click();
  const dialog = page.getByRole('dialog', { name: zh['account.cancel.confirmTitle'] });
  await expect(dialog).toBeVisible();
  // A wrong password: said, nothing requested.
  await dialog.getByLabel(zh['field.password'], { exact: true }).fill('Wrong2026x');
  await dialog.getByRole('button', { name: zh['account.cancel.submit'] }).click();
  await expect(dialog.getByRole('alert')).toHaveText(zh['auth.oldPasswordWrong']);
  // Escape closes it without a request.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await card.getByRole('button', { name: zh['account.cancel.start'] }).click();
  await dialog.getByLabel(zh['field.password'], { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: zh['account.cancel.submit'] }).click();
  await expect(page).toHaveURL(/\/welcome\/home$/);
  await expect(toast(page, /注销申请已提交，将于 \d{4}-\d{2}-\d{2} 完成/)).toBeVisible();
  const [row] = await accounts.db.select().from(users).where(eq(users.mobile, user.phone));
  expect(row?.cancellationRequestedAt).not.toBeNull();

  // Signed out everywhere; signing in again withdraws the request, and the bell says so.
  await page.goto('/person/account');
  await expect(page).toHaveURL(/\/user\/login\?redirect=/);
  await apiLogin(context.request, accounts.url, user.phone, user.password);
  await page.goto('/person/overview');
  // The overview's latest notices say so.
  await expect(
    page
      .getByRole('region', { name: zh['account.overview.noticesTitle'] })
      .getByText(zh['account.cancel.notice.withdrawn.title'], { exact: true }),
  ).toBeVisible();
  const [after] = await accounts.db.select().from(users).where(eq(users.mobile, user.phone));
  expect(after?.cancellationRequestedAt).toBeNull();
});
