/**
 * Playwright fixtures of the account tests: one real server per worker (accountsServer.ts), the
 * pages' base URL pointing at it, and a login through the API for tests whose subject is not
 * the login form.
 */
import { test as base, type APIRequestContext } from '@playwright/test';
import { startAccountsServer, type AccountsServer } from './accountsServer.ts';

export { expect } from '@playwright/test';

export const test = base.extend<object, { accounts: AccountsServer }>({
  accounts: [
    async ({}, use) => {
      const server = await startAccountsServer();
      await use(server);
      await server.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ accounts }, use) => {
    await use(accounts.url);
  },
});

/** Logs a demo account in through the API with the browser context's cookies (a fresh session). */
export async function apiLogin(request: APIRequestContext, origin: string, userName: string, password: string): Promise<void> {
  const response = await request.post(`${origin}/api/front/system/login`, {
    form: { userName, password, deviceId: 'hgdweb', appCode: 'hgd' },
    headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin },
  });
  const body = (await response.json()) as { code: number; message: string };
  if (body.code !== 200) throw new Error(`login of ${userName} refused: ${body.code} ${body.message}`);
}
