import { parseQualityList } from '../qualityValues.ts';

/** The interface languages, zh-CN first: it is the default and the only unprefixed one. */
export const locales = ['zh-CN', 'en-US', 'zh-TW', 'id-ID', 'pt-BR'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'zh-CN';

/**
 * The locales a build writes pages for: all, or the BUILD_LOCALES list (the tests' builds of one
 * or two locales). Read at build time; browsers never see the variable.
 */
export function builtLocales(): readonly Locale[] {
  const wanted = typeof process === 'undefined' ? undefined : process.env['BUILD_LOCALES'];
  if (!wanted) return locales;
  const chosen = locales.filter((locale) =>
    wanted
      .split(',')
      .map((part) => part.trim())
      .includes(locale),
  );
  return chosen.length ? chosen : locales;
}

/** Key under which the visitor's explicit language choice is kept (localStorage and cookie). */
export const localeStorageKey = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/**
 * Maps one BCP 47 tag to a supported locale, or undefined.
 * @example matchLocale('zh-Hant-HK') // 'zh-TW'; matchLocale('pt') // 'pt-BR'
 */
export function matchLocale(tag: string): Locale | undefined {
  const lower = tag.trim().toLowerCase();
  if (!lower) return undefined;
  const exact = locales.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const [language, ...rest] = lower.split(/[-_]/);
  if (language === 'zh') {
    return rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part)) ? 'zh-TW' : 'zh-CN';
  }
  if (language === 'en') return 'en-US';
  if (language === 'id' || language === 'in') return 'id-ID';
  if (language === 'pt') return 'pt-BR';
  return undefined;
}

/** First supported locale among the tags, in order; the spec's fallback is zh-CN. */
export function pickLocale(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return defaultLocale;
}

/** Parses an Accept-Language header by its q-values and picks the best supported locale. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  const tags = parseQualityList(acceptLanguage)
    .filter((entry) => entry.token !== '*' && entry.q > 0)
    .map((entry) => entry.token);
  return pickLocale(tags);
}
