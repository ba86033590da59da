/**
 * The spec's login redirect rules (section 2), as pure functions of the current address so they
 * can be tested without a browser.
 */
import { localePath, splitLocale } from './paths.ts';

export const loginPath = '/user/login';

/**
 * Where to send a user who logs out or whose session ended (901): the login page of the same
 * locale, carrying the current full address as `redirect` — unless they are already on it.
 * Returns null when no navigation is needed.
 */
export function loginUrlFor(currentHref: string): string | null {
  const current = new URL(currentHref);
  const { locale, path } = splitLocale(current.pathname);
  if (path === loginPath) return null;
  return `${localePath(locale, loginPath)}?${new URLSearchParams({ redirect: current.href })}`;
}

/**
 * Where to go after a successful login. The `redirect` parameter is followed only when it is on
 * the same origin as the current page; a redirect with a hash is reduced to the path after `#`
 * (old hash-routed links); anything else, or no redirect, goes to `/`.
 */
export function afterLoginTarget(currentHref: string): string {
  const current = new URL(currentHref);
  const redirect = current.searchParams.get('redirect');
  if (!redirect) return '/';
  let target: URL;
  try {
    target = new URL(redirect, current.origin);
  } catch {
    return '/';
  }
  if (target.origin !== current.origin) return '/';
  const hashPath = target.hash.slice(1);
  if (hashPath.startsWith('/')) return hashPath;
  return `${target.pathname}${target.search}${target.hash}`;
}
