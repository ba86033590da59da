/**
 * What every way of signing in ends with (account login, mobile login, registration — the new
 * user is logged in): store the login status and the user, keep the success message for the next
 * page, and follow the spec's redirect rules (src/lib/loginRedirect.ts).
 */
import { afterLoginTarget } from '../../lib/loginRedirect.ts';
import { flashOnNextPage } from '../../lib/flash.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { CurrentUserData } from '../../lib/schemas/auth.ts';
import { currentUser, mapCurrentUser, markLoggedIn, type LoginType } from '../../stores/session.ts';

/**
 * Where to go after signing in: the `redirect` parameter when it is allowed; without one, the
 * home page of the page's own language (`/` would lose it) — or, for `fallback`, another page.
 */
export function signInTarget(href: string, locale: Locale, fallback = '/welcome/home'): string {
  const target = afterLoginTarget(href);
  const hasRedirect = new URL(href).searchParams.has('redirect');
  return target === '/' && !hasRedirect ? localePath(locale, fallback) : target;
}

export function completeSignIn(type: LoginType, user: CurrentUserData, successText: string, target: string): void {
  markLoggedIn(type);
  currentUser.set(mapCurrentUser(user));
  // A toast now would die with this page; the next one shows it (FlashMessage.astro).
  flashOnNextPage('success', successText);
  window.location.assign(target);
}

/** Moves focus to the first field with an error, so a keyboard user lands where to fix. */
export function focusFirstError(form: HTMLFormElement | null, errors: Readonly<Record<string, string>>): void {
  if (!form) return;
  // The first in the form's order, whichever check found it first.
  const field = [...form.elements].find(
    (element): element is HTMLElement =>
      element instanceof HTMLElement && 'name' in element && Object.hasOwn(errors, String(element.name)),
  );
  field?.focus();
}

/** `?redirect=…` of an address when it has one, else ''. */
export function redirectQuery(href: string): string {
  const redirect = new URL(href).searchParams.get('redirect');
  return redirect ? `?${new URLSearchParams({ redirect })}` : '';
}
