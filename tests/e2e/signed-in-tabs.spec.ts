/**
 * The header reflects the server's session in every tab: a tab that never saw the login (no
 * sessionStorage status of its own) reads the server's signed-in hint cookie, set and cleared with
 * the HttpOnly session cookie. A visitor's public page still loads no framework code.
 */
import { expect, test } from './support/test.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { signedInHintCookieName } from '../../src/lib/apiCodes.ts';
import { apiLogin } from './support/accountsFixtures.ts';

const zh = dictionaries['zh-CN'];

test('a tab opened after signing in shows the signed-in menu and the unread count; logging out ends both', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL: baseURL!, locale: 'zh-CN' });
  await context.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  // Signed in without any page of this context: no tab has a sessionStorage status.
  await apiLogin(context.request, baseURL!, 'demo_person', 'Person2025');
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'hgd_sid')?.httpOnly).toBe(true);
  expect(cookies.find((c) => c.name === signedInHintCookieName)).toMatchObject({ value: 'account', httpOnly: false });

  const page = await context.newPage();
  await page.goto('/welcome/home');
  // The bell hydrates by itself for a signed-in browser and shows the unread count.
  await expect(
    page.getByRole('button', { name: new RegExp(zh['account.notices.bellUnread'].replace('{count}', '\\d+')) }),
  ).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('loginStatus'))).toBeNull();
  await page.getByRole('button', { name: zh['header.accountMenu'] }).click();
  await expect(page.getByRole('link', { name: zh['header.person'], exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: zh['header.login'], exact: true })).toHaveCount(0);

  // Logging out (here through the API, as another tab would) clears the hint with the session.
  const origin = new URL(baseURL!).origin;
  await context.request.post('/api/front/system/logout', {
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  expect((await context.cookies()).find((c) => c.name === signedInHintCookieName)).toBeUndefined();
  await page.reload();
  await page.getByRole('button', { name: zh['header.accountMenu'] }).click();
  await expect(page.getByRole('link', { name: zh['header.login'], exact: true })).toBeVisible();
  await context.close();
});

test('a stale hint without a session is cleared by the first call, and the header says signed out', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL: baseURL!, locale: 'zh-CN' });
  await context.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  await context.addCookies([{ name: signedInHintCookieName, value: 'account', url: baseURL! }]);
  const page = await context.newPage();
  await page.goto('/assistance');
  await expect(page.getByRole('button', { name: zh['account.notices.bell'], exact: true })).toBeVisible();
  await expect.poll(async () => (await context.cookies()).some((c) => c.name === signedInHintCookieName)).toBe(false);
  await page.getByRole('button', { name: zh['header.accountMenu'] }).click();
  await expect(page.getByRole('link', { name: zh['header.login'], exact: true })).toBeVisible();
  await context.close();
});
