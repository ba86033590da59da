/**
 * Who a whole-site browser check looks at the pages as: a visitor, and every demo account of the
 * seed (one per role, two partner staff: a branch's and the head office's), with the pages of the
 * route table each of them may open. Read from the seed and the route table, so a new demo account
 * or a new route is covered without touching the tests.
 */
import type { APIRequestContext } from '@playwright/test';
import type { PageRoute } from '../../../src/lib/routes.ts';
import { demoAccounts, type DemoAccount } from '../../../src/server/seed/seed.ts';
import { apiLogin } from './accountsFixtures.ts';

export interface Viewer {
  /** `visitor`, or the demo account's user name. */
  name: string;
  /** Absent for the visitor (no session). */
  account?: DemoAccount;
}

export const visitor: Viewer = { name: 'visitor' };

/** The visitor, then each demo account in the seed's order. */
export const viewers: readonly Viewer[] = [
  visitor,
  ...demoAccounts.map((account) => ({ name: account.userName, account })),
];

/** Whether `viewer` may open a page of `route`: public pages everyone; the others a session, and the route's role when it names one. */
export function canOpen(viewer: Viewer, route: PageRoute): boolean {
  if (route.access === 'public') return true;
  if (!viewer.account) return false;
  if (route.role === undefined) return true;
  const roles: readonly string[] = typeof route.role === 'string' ? [route.role] : route.role;
  return roles.includes(viewer.account.role);
}

/** Signs `viewer` in with the request context's cookies (its browser context's); nothing for the visitor. */
export async function signIn(request: APIRequestContext, origin: string, viewer: Viewer): Promise<void> {
  if (viewer.account) await apiLogin(request, origin, viewer.account.userName, viewer.account.password);
}
