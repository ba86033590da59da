/**
 * Static paths of the public pages (build time only). Region-varying pages exist once per
 * locale × enabled region; their `[...locale]` parameter carries both prefixes (`en-US/gx`,
 * `gx`, `en-US`, or nothing for zh-CN in Guangdong), exactly as `sitePath` builds them.
 * Shared pages exist once per locale (src/lib/staticPaths.ts).
 */
import { loadContentOnce, loadLocalizedContentOnce } from '../../content/load.ts';
import { getRegion, listRegions } from '../../content/query.ts';
import type { Region, SiteContent } from '../../content/schemas.ts';
import { builtLocales, defaultLocale, locales, type Locale } from '../i18n/locales.ts';
import { areaCodeOfSegment, defaultAreaCode, regionSegment, sitePath } from '../paths.ts';

export interface Scope {
  locale: Locale;
  areaCode: string;
}

/**
 * The content a page reads, loaded and validated once per build: in the page's locale when given
 * (translated where a translation exists, else the Chinese original marked as such:
 * content/translations.ts), else as written, for what does not depend on the language (ids,
 * structure, dates).
 */
export function siteContent(locale?: Locale): SiteContent {
  return locale === undefined ? loadContentOnce() : loadLocalizedContentOnce(locale);
}

/** The `[...locale]` parameter of a page in a locale and region. */
export function scopeParam({ locale, areaCode }: Scope): string | undefined {
  const parts = [locale === defaultLocale ? '' : locale, regionSegment(areaCode)].filter(Boolean);
  return parts.length ? parts.join('/') : undefined;
}

/** The locale and region of a page from its `[...locale]` parameter. */
export function scopeOf(param: string | undefined): Scope {
  const parts = (param ?? '').split('/').filter(Boolean);
  const locale = (locales as readonly string[]).includes(parts[0] ?? '') ? (parts.shift() as Locale) : defaultLocale;
  const areaCode = parts[0] ? (areaCodeOfSegment(parts[0]) ?? defaultAreaCode) : defaultAreaCode;
  return { locale, areaCode };
}

/** Every locale × enabled region, default first. */
export function regionScopes(content: SiteContent = siteContent()): Scope[] {
  return builtLocales().flatMap((locale) =>
    listRegions(content).map((region) => ({ locale, areaCode: region.areaCode })),
  );
}

/**
 * Static paths of a region-varying page: `expand` lists, for one scope, the page's own
 * parameters and props (an empty list when the region has no such page), given the content in
 * the scope's locale.
 */
export function regionStaticPaths<P extends Record<string, string>, T extends object>(
  expand: (scope: Scope, region: Region, content: SiteContent) => { params: P; props: T }[],
) {
  return regionScopes().flatMap((scope) => {
    const content = siteContent(scope.locale);
    const region = getRegion(content, scope.areaCode) as Region;
    return expand(scope, region, content).map(({ params, props }) => ({
      params: { ...params, locale: scopeParam(scope) },
      props: { ...props, scope },
    }));
  });
}

/**
 * A page's counterpart in every enabled region: `pathIn` answers the route path there (the same
 * page where it exists, else its nearest existing parent). Used by the pre-paint region rule and
 * the area selector.
 */
export function regionLinksFor(
  locale: Locale,
  pathIn: (areaCode: string) => string,
  content: SiteContent = siteContent(),
): Record<string, string> {
  return Object.fromEntries(
    listRegions(content).map((region) => [region.areaCode, sitePath(locale, pathIn(region.areaCode), region.areaCode)]),
  );
}
