/**
 * The login status of this tab as an atom for the interface (how this tab logged in, whether to
 * show the user menu before the current user has loaded). What is stored in the browser, and how
 * it is read, is src/lib/storedLoginStatus.ts; this store follows it, including when the request
 * client clears it on a 901 answer.
 *
 * Kept apart from session.ts so that the stores that call the request client do not have to be
 * loaded for the status to be kept.
 */
import { atom } from 'nanostores';
import {
  clearLoginStatus,
  onLoginStatusCleared,
  readLoginStatus,
  storeLoginStatus,
  type LoginStatus,
  type LoginType,
} from '../lib/storedLoginStatus.ts';

/** null when logged out. */
export const loginStatus = atom<LoginStatus | null>(readLoginStatus());

onLoginStatusCleared(() => loginStatus.set(null));

/** After a successful login (account or mobile mode). */
export function markLoggedIn(type: LoginType): void {
  const value: LoginStatus = { status: 'ok', type };
  storeLoginStatus(value);
  loginStatus.set(value);
}

/** After logout or a 901 answer. */
export function markLoggedOut(): void {
  clearLoginStatus();
}
