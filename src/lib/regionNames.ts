/**
 * A region's name in the interface's language. The content files name regions in Chinese (the
 * editors' words, still used for zh-CN when a region has no dictionary entry); the dictionaries
 * (`site.region.<areaCode>.name` / `.short`) hold every province-level code of GB/T 2260 in all
 * five locales, so an English page says "Guangdong", not 广东, and a region added to the content
 * needs no code change.
 */
import { dictionaries, type Locale, type MessageKey } from './i18n/index.ts';

function lookup(locale: Locale, key: string): string | undefined {
  return (dictionaries[locale] as Record<string, string | undefined>)[key as MessageKey];
}

/** The full name: 广东省, 廣東省, Guangdong. */
export function regionName(locale: Locale, region: { areaCode: string; name: string }): string {
  return lookup(locale, `site.region.${region.areaCode}.name`) ?? region.name;
}

/** The short name the header's button shows: 广东, 廣東, Guangdong. */
export function regionShortName(locale: Locale, region: { areaCode: string; shortName: string }): string {
  return lookup(locale, `site.region.${region.areaCode}.short`) ?? region.shortName;
}
