/**
 * The login status of this tab, kept as JSON in sessionStorage (spec section 3: "login status as
 * JSON in session storage"): `{ "status": "ok", "type": "account" | "mobile" }`, absent when
 * logged out.
 *
 * The session id is NOT stored here or anywhere script can read: it lives only in the HttpOnly
 * `hgd_sid` cookie, which the browser sends by itself. This status is a hint for the interface
 * (how this tab logged in, whether to show the user menu before the current user has loaded);
 * the server decides, and answers 901 when the session is missing or expired.
 *
 * Kept apart from session.ts so that the request client can clear it on 901 without importing
 * the stores that themselves call the client.
 */
import { atom } from 'nanostores';

export const LOGIN_STATUS_KEY = 'loginStatus';

export type LoginType = 'account' | 'mobile';

export interface LoginStatus {
  status: 'ok';
  type: LoginType;
}

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage disabled by the browser's privacy settings
  }
}

function isLoginStatus(value: unknown): value is LoginStatus {
  if (value === null || typeof value !== 'object') return false;
  const { status, type } = value as Record<string, unknown>;
  return status === 'ok' && (type === 'account' || type === 'mobile');
}

/** Reads the stored status; anything malformed counts as logged out. */
export function readLoginStatus(): LoginStatus | null {
  try {
    const raw = storage()?.getItem(LOGIN_STATUS_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isLoginStatus(parsed) ? { status: parsed.status, type: parsed.type } : null;
  } catch {
    return null;
  }
}

/** null when logged out. */
export const loginStatus = atom<LoginStatus | null>(readLoginStatus());

/** After a successful login (account or mobile mode). */
export function markLoggedIn(type: LoginType): void {
  const value: LoginStatus = { status: 'ok', type };
  try {
    storage()?.setItem(LOGIN_STATUS_KEY, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: the in-memory status still works for this page.
  }
  loginStatus.set(value);
}

/** After logout or a 901 answer. */
export function markLoggedOut(): void {
  try {
    storage()?.removeItem(LOGIN_STATUS_KEY);
  } catch {
    // See markLoggedIn.
  }
  loginStatus.set(null);
}
