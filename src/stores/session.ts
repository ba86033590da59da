/**
 * The session as the browser sees it: the login status of this tab (sessionStorage, see
 * src/lib/storedLoginStatus.ts) and the current user. The session id itself lives only in the HttpOnly
 * `hgd_sid` cookie — no script can read it, so no script can leak it.
 */
import { atom } from 'nanostores';
import { OK, SESSION_EXPIRED } from '../lib/apiCodes.ts';
import { get, goToLogin, post } from '../lib/api/client.ts';
import { message } from '../lib/api/notify.ts';
import { flashOnNextPage } from '../lib/flash.ts';
import { loginUrlFor } from '../lib/loginRedirect.ts';
import type { ConsentOwed } from '../lib/schemas/consent.ts';
import type { SecondFactorDemand } from '../lib/schemas/secondFactor.ts';
import { loginStatus, markLoggedOut } from './loginStatus.ts';

export { loginStatus, markLoggedIn, markLoggedOut } from './loginStatus.ts';
export { readLoginStatus, LOGIN_STATUS_KEY, type LoginStatus, type LoginType } from '../lib/storedLoginStatus.ts';

export const CURRENT_USER_URL = '/api/front/user/currentUser';
export const LOGOUT_URL = '/api/front/system/logout';

/** The current-user response (GET /api/front/user/currentUser). */
export interface CurrentUserResponse {
  orgId?: string | number | null;
  orgName?: string | null;
  userName?: string | null;
  telephone?: string | null;
  enterpriseName?: string | null;
  avatar?: string | null;
  email?: string | null;
  roles?: readonly string[] | null;
  /** Only when the account's role requires a second factor this session has not proved. */
  secondFactorRequired?: SecondFactorDemand | null;
  /** Only when a new version of the user agreement or privacy policy awaits this account's agreement. */
  consentOwed?: ConsentOwed | null;
}

/** A second user-info response (getUserInfo); only `mobile` is used here. */
export interface UserInfoResponse {
  mobile?: string | null;
}

export interface NoticeCounts {
  totalCount: number;
  unreadCount: number;
}

/** The current user (spec section 3); `{}` until loaded and when nobody is logged in. */
export interface CurrentUser {
  /** from orgId */
  id?: string | number;
  /** from orgName */
  name?: string;
  userName?: string;
  /** from telephone */
  phone?: string;
  /** the current-user telephone, later the user-info mobile */
  telephone?: string;
  /** from enterpriseName */
  group?: string;
  avatar?: string;
  email?: string;
  roles?: string[];
  /** The session must enrol or verify a second factor before the role's pages (SessionGate). */
  secondFactorRequired?: SecondFactorDemand;
  /** The account must agree to new versions before its pages (ConsentGate). */
  consentOwed?: ConsentOwed;
  /** number of notices (totalCount) */
  notifyCount?: number;
  unreadCount?: number;
}

export const currentUser = atom<CurrentUser>({});

/**
 * What the page's session gate (src/components/SessionGate.astro) decided: still checking, the
 * user may see the page, they are signed in without the role the page needs (the operator
 * console), or they have the role but this session owes a second factor (it stays pending while the
 * account must first agree to a new user agreement or privacy policy). Islands wait for
 * `ready` before their own calls.
 */
export const sessionGate = atom<'pending' | 'ready' | 'forbidden' | 'secondFactor'>('pending');

/** Maps the current-user response; an empty (or missing) response gives `{}`. */
export function mapCurrentUser(resp: CurrentUserResponse | null | undefined): CurrentUser {
  if (!resp) return {};
  const user: CurrentUser = {};
  if (resp.orgId !== undefined && resp.orgId !== null) user.id = resp.orgId;
  if (typeof resp.orgName === 'string') user.name = resp.orgName;
  if (typeof resp.userName === 'string') user.userName = resp.userName;
  if (typeof resp.telephone === 'string') {
    user.phone = resp.telephone;
    user.telephone = resp.telephone;
  }
  if (typeof resp.enterpriseName === 'string') user.group = resp.enterpriseName;
  if (typeof resp.avatar === 'string') user.avatar = resp.avatar;
  if (typeof resp.email === 'string') user.email = resp.email;
  if (Array.isArray(resp.roles)) user.roles = [...resp.roles];
  if (resp.secondFactorRequired === 'enrol' || resp.secondFactorRequired === 'verify')
    user.secondFactorRequired = resp.secondFactorRequired;
  // Sent only when something is owed (src/server/services/consent.ts consentOwed).
  if (resp.consentOwed) user.consentOwed = resp.consentOwed;
  return user;
}

/**
 * Applies a user-info response: its `mobile` is copied into `telephone` (spec section 3), and
 * into `phone`, the field the interface shows, so the two never disagree.
 */
export function applyUserInfo(user: CurrentUser, info: UserInfoResponse | null | undefined): CurrentUser {
  if (!info || typeof info.mobile !== 'string') return user;
  return { ...user, telephone: info.mobile, phone: info.mobile };
}

/** Stores notice counts on the user: notifyCount from totalCount, and unreadCount. */
export function applyNoticeCounts(user: CurrentUser, counts: NoticeCounts): CurrentUser {
  return { ...user, notifyCount: counts.totalCount, unreadCount: counts.unreadCount };
}

/**
 * Loads the current user. By default a visitor without a session is fine (the header asks on
 * every page): 901 stores `{}` and stays on the page. With `{ required: true }` (protected pages)
 * 901 goes to the login page as any call does. Resolves the stored user, or undefined when the
 * call failed (the client has already shown why) or nobody is logged in.
 */
export async function loadCurrentUser(options: { required?: boolean } = {}): Promise<CurrentUser | undefined> {
  const answer = await get<CurrentUserResponse>(CURRENT_USER_URL, undefined, {
    quiet: true,
    allowAnonymous: !options.required,
  });
  if (!answer) return undefined;
  if (answer.code === SESSION_EXPIRED) {
    currentUser.set({});
    return undefined;
  }
  if (answer.code !== OK) {
    message.error(answer.message || String(answer.code));
    return undefined;
  }
  const user = mapCurrentUser(answer.data);
  currentUser.set(user);
  return user;
}

/**
 * Logs out: posts to logout, clears the login status and the current user, then goes to the
 * login page (with the current address as `redirect`, unless already there), which shows the
 * server's message (安全退出！) as a success toast. Resolves true when logged out.
 */
export async function logout(): Promise<boolean> {
  const answer = await post(LOGOUT_URL, undefined, { quiet: true });
  if (!answer) return false;
  if (answer.code === SESSION_EXPIRED) {
    // Already logged out on the server; the client has cleared the status and left the page.
    currentUser.set({});
    return true;
  }
  if (answer.code !== OK) {
    message.error(answer.message || String(answer.code));
    return false;
  }
  markLoggedOut();
  currentUser.set({});
  if (answer.message) {
    // A toast shown now would die with this page: the login page shows it instead (flash.ts).
    if (loginUrlFor(window.location.href) === null) message.success(answer.message);
    else flashOnNextPage('success', answer.message);
  }
  goToLogin();
  return true;
}

// Whoever clears the login status (logout, or any call answered 901) also clears the user.
loginStatus.listen((status) => {
  if (status === null) currentUser.set({});
});
