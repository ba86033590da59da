/**
 * Every URL of the site is built here. zh-CN pages have no prefix; the other locales live
 * under `/<locale>` spelled exactly as the locale (`/en-US/…`, never lower-cased).
 */
import { defaultLocale, isLocale, type Locale } from './i18n/locales.ts';

/** Prefixes a site path with the locale, keeping query and hash. */
export function localePath(locale: Locale, path: string): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  if (locale === defaultLocale) return normalized;
  return normalized === '/' ? `/${locale}` : `/${locale}${normalized}`;
}

/** Splits a pathname into its locale and the path the route table knows. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const first = match?.[1];
  if (first && isLocale(first) && first !== defaultLocale) {
    return { locale: first, path: trimTrailingSlash(match?.[2] ?? '/') };
  }
  return { locale: defaultLocale, path: trimTrailingSlash(pathname || '/') };
}

/** The same page in another locale. */
export function switchLocalePath(pathname: string, target: Locale): string {
  return localePath(target, splitLocale(pathname).path);
}

export function trimTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}
