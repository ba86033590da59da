/**
 * Addresses of the news centre: `/infomation/list` is the first type's page 1,
 * `/infomation/list/{type}` a type's page 1, `/infomation/list/{type}/{n}` its page n ≥ 2.
 */
import type { Locale } from '../i18n/locales.ts';
import { localePath } from '../paths.ts';

export function newsListPath(locale: Locale, newsTypeCode: string, pageNo: number): string {
  const typePath = `/infomation/list/${encodeURIComponent(newsTypeCode)}`;
  return localePath(locale, pageNo > 1 ? `${typePath}/${pageNo}` : typePath);
}
