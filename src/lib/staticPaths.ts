/** Static paths of a page that exists once per locale, under `src/pages/[...locale]/`. */
import { builtLocales, defaultLocale, isLocale, type Locale } from './i18n/locales.ts';

export function localeStaticPaths() {
  return builtLocales().map((locale) => ({
    params: { locale: locale === defaultLocale ? undefined : locale },
  }));
}

export function localeOf(params: { locale?: string | undefined }): Locale {
  return isLocale(params.locale) ? params.locale : defaultLocale;
}
