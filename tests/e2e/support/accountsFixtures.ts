/**
 * Playwright fixtures of the account tests: one real server per worker (accountsServer.ts), the
 * pages' base URL pointing at it, and a login through the API for tests whose subject is not
 * the login form.
 */
import { loadContentOnce } from '../../../src/content/load.ts';
import { getLegalDocument } from '../../../src/content/query.ts';
import type { APIRequestContext } from '@playwright/test';
import { startAccountsServer, type AccountsServer } from './accountsServer.ts';
// Every test of the suite fails on a Content-Security-Policy violation (test.ts).
import { test as base } from './test.ts';

export { expect } from './test.ts';

export const test = base.extend<{ newVisitor: void }, { accounts: AccountsServer }>({
  accounts: [
    async ({}, use) => {
      const server = await startAccountsServer();
      await use(server);
      await server.close();
    },
    // A new embedded database (migrate + seed with argon2 hashes) on a busy 2-core machine.
    { scope: 'worker', timeout: 180_000 },
  ],
  // Each test is a visitor of its own: the per-address limits (30 login tries in 15 minutes, 120
  // captcha images in 10) count this test's requests, not those of every test the worker ran
  // before it on the same server (the axe sweep alone signs in 25 times).
  newVisitor: [
    async ({ accounts }, use) => {
      await accounts.forgetAddressLimits();
      await use();
    },
    { auto: true },
  ],
  baseURL: async ({ accounts }, use) => {
    await use(accounts.url);
  },
});

/** Logs a demo account in through the API with the browser context's cookies (a fresh session). */
export async function apiLogin(
  request: APIRequestContext,
  origin: string,
  userName: string,
  password: string,
): Promise<void> {
  const response = await request.post(`${origin}/api/front/system/login`, {
    form: { userName, password, deviceId: 'hgdweb', appCode: 'hgd' },
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  const body = (await response.json()) as { code: number; message: string };
  if (body.code !== 200) throw new Error(`login of ${userName} refused: ${body.code} ${body.message}`);
}

export interface RegisteredUser {
  phone: string;
  password: string;
  name: string;
}

let phoneSequence = 0;

/** A mobile number no other test of this run uses. */
export function freshPhone(): string {
  phoneSequence += 1;
  return `137${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSequence % 100).padStart(2, '0')}`;
}

/**
 * Registers a new account through the API (sendSMS, the outbox, register), which also logs the
 * request context in: tests that are not about registration get a user of their own.
 */
/** The versions the registration form's checkbox agrees to: the published (seed) content's. */
export function consentVersions(): { userAgreementVersion: string; privacyPolicyVersion: string } {
  const content = loadContentOnce();
  return {
    userAgreementVersion: getLegalDocument(content, 'user-agreement').version,
    privacyPolicyVersion: getLegalDocument(content, 'privacy-policy').version,
  };
}

export async function registerThroughApi(
  request: APIRequestContext,
  accounts: AccountsServer,
): Promise<RegisteredUser> {
  const origin = accounts.url;
  const headers = { 'X-Requested-With': 'XMLHttpRequest', Origin: origin };
  const user = { phone: freshPhone(), password: 'Fresh2025x', name: '测试企业联系人' };
  const sent = (await (
    await request.post(`${origin}/api/front/system/sendSMS`, { form: { phone: user.phone, type: 'register' }, headers })
  ).json()) as { code: number };
  if (sent.code !== 200) throw new Error(`sendSMS refused: ${sent.code}`);
  const code = await accounts.smsCode(user.phone);
  const registered = (await (
    await request.post(`${origin}/api/front/system/register`, {
      form: { phone: user.phone, code, name: user.name, password: user.password, ...consentVersions() },
      headers,
    })
  ).json()) as { code: number; message: string };
  if (registered.code !== 200) throw new Error(`register refused: ${registered.code} ${registered.message}`);
  return user;
}
