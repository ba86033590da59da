/**
 * What the enterprise browser tests share: certification files that pass the server's content
 * check, valid credit codes and clearance accounts no other test uses, and binding a freshly
 * registered account to a new enterprise through the binding page.
 */
import type { Page } from '@playwright/test';
import { expect } from './test.ts';
import { creditCodeAlphabet, creditCodeCheckChar } from '../../../src/lib/creditCode.ts';
import { dictionaries } from '../../../src/lib/i18n/index.ts';
import { endResendWait, type AccountsServer } from './accountsServer.ts';
import type { RegisteredUser } from './accountsFixtures.ts';

const zh = dictionaries['zh-CN'];

/** A one-page PDF: the smallest file a PDF reader opens. */
export const samplePdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A 1×1 PNG. */
export const samplePng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let sequence = 0;

/** A unified social credit code with a valid check character, different on every call. */
export function freshCreditCode(): string {
  sequence += 1;
  const seed = `${Date.now()}${sequence}`.slice(-9);
  const body = `91440101${[...seed].map((digit) => creditCodeAlphabet.charAt(Number(digit) + 10)).join('')}`;
  return `${body}${creditCodeCheckChar(body)}`;
}

/** A clearance account (6–32 letters or digits) no other test uses. */
export function freshClearanceAccount(): string {
  sequence += 1;
  return `CA${Date.now()}${sequence}`;
}

/** Binds the logged-in (fresh) account to a new enterprise on /setting/binding, as a user would. */
export async function bindOnPage(
  page: Page,
  accounts: AccountsServer,
  user: RegisteredUser,
  enterpriseName: string,
): Promise<string> {
  const clearanceAccount = freshClearanceAccount();
  await page.goto('/setting/binding');
  // Registration just sent a code to this phone: end the 60 s wait as a minute passing would.
  await endResendWait(accounts.db, user.phone);
  await page.getByRole('button', { name: zh['account.sms.send'] }).click();
  await page.getByLabel(zh['field.smsCode'], { exact: true }).fill(await accounts.smsCode(user.phone, 'binding'));
  await page.getByLabel(zh['field.enterpriseName'], { exact: true }).fill(enterpriseName);
  await page.getByLabel(zh['field.clearanceAccount'], { exact: true }).fill(clearanceAccount);
  await page.getByRole('button', { name: zh['account.binding.submit'] }).click();
  await expect(page).toHaveURL(/\/person\/overview$/);
  return clearanceAccount;
}
