/**
 * This tab's login status as stored in the browser: JSON in sessionStorage (spec section 3: "login
 * status as JSON in session storage"), `{ "status": "ok", "type": "account" | "mobile" }`, absent
 * when logged out, and the server's signed-in hint cookie for a tab that has no stored status of
 * its own. The store (src/stores/loginStatus.ts) keeps it as an atom for the interface.
 *
 * It sits in src/lib, below the stores, because the request client clears it on a 901 answer and
 * src/lib imports no store: the store registers with `onLoginStatusCleared` to follow.
 *
 * The session id is NOT stored here or anywhere script can read: it lives only in the HttpOnly
 * `hgd_sid` cookie, which the browser sends by itself; the server decides, and answers 901 when
 * the session is missing or expired.
 */
import { signedInHintCookieName } from './apiCodes.ts';

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

/**
 * The server's signed-in hint cookie (set and cleared with the HttpOnly session cookie, see
 * signedInHintCookieName): a tab opened after signing in elsewhere has no sessionStorage of its
 * own, and still knows at once that the browser has a session.
 */
function readSignedInHint(): LoginStatus | null {
  if (typeof document === 'undefined') return null;
  const match = new RegExp(`(?:^|;\\s*)${signedInHintCookieName}=([^;]*)`).exec(document.cookie);
  if (!match) return null;
  return { status: 'ok', type: match[1] === 'mobile' ? 'mobile' : 'account' };
}

/** Reads this tab's stored status, else the server's signed-in hint; anything malformed counts as logged out. */
export function readLoginStatus(): LoginStatus | null {
  try {
    const raw = storage()?.getItem(LOGIN_STATUS_KEY);
    if (!raw) return readSignedInHint();
    const parsed: unknown = JSON.parse(raw);
    return isLoginStatus(parsed) ? { status: parsed.status, type: parsed.type } : readSignedInHint();
  } catch {
    return readSignedInHint();
  }
}

/** Stores the status after a successful login (account or mobile mode). */
export function storeLoginStatus(value: LoginStatus): void {
  try {
    storage()?.setItem(LOGIN_STATUS_KEY, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: the in-memory status still works for this page.
  }
}

const clearedListeners = new Set<() => void>();

/** Called after every `clearLoginStatus` (the store sets its atom to logged out). */
export function onLoginStatusCleared(listener: () => void): void {
  clearedListeners.add(listener);
}

/** After logout or a 901 answer (the server clears the hint too; this covers a hint it never saw again). */
export function clearLoginStatus(): void {
  try {
    storage()?.removeItem(LOGIN_STATUS_KEY);
  } catch {
    // See storeLoginStatus.
  }
  if (typeof document !== 'undefined') document.cookie = `${signedInHintCookieName}=; Path=/; Max-Age=0; SameSite=Lax`;
  for (const listener of clearedListeners) listener();
}
