/**
 * The interface language of the page. The page itself is rendered in one locale (its URL and
 * `<html lang>` say which); choosing another one stores the choice and returns the URL of the same
 * page in that locale for the caller to navigate to.
 */
import { atom } from 'nanostores';
import { localeStorageKey, type Locale } from '../lib/i18n/locales.ts';
import { switchLocalePath } from '../lib/paths.ts';
import { pageLocale } from '../lib/api/messages.ts';

/** One year, in seconds. */
const COOKIE_MAX_AGE = 31_536_000;

/** The page's locale: `<html lang>` when supported, else zh-CN. */
export const locale = atom<Locale>(pageLocale());

/**
 * Stores the choice — localStorage `locale` (read by the pre-paint rule on every page) and the
 * cookie `locale` (so the server localises downloads and the 404 page) — and returns the same
 * page in that locale, query and hash kept.
 */
export function chooseLocale(next: Locale): string {
  try {
    localStorage.setItem(localeStorageKey, next);
  } catch {
    // Storage disabled: the cookie and the URL still carry the choice.
  }
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${localeStorageKey}=${next}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax${secure}`;
  locale.set(next);
  const { pathname, search, hash } = window.location;
  return `${switchLocalePath(pathname, next)}${search}${hash}`;
}
