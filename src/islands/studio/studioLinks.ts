/** The studio's own addresses, in the page's locale. */
import type { ContentKind } from '../../content/paths.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';

const withQuery = (locale: Locale, path: string, query: Record<string, string>) =>
  `${localePath(locale, path)}?${new URLSearchParams(query)}`;

export const studioHome = (locale: Locale) => localePath(locale, '/studio');
export const changesUrl = (locale: Locale) => localePath(locale, '/studio/changes');
export const publicationsUrl = (locale: Locale) => localePath(locale, '/studio/publications');
export const itemsUrl = (locale: Locale, kind: ContentKind) => withQuery(locale, '/studio/items', { kind });
export const editUrl = (locale: Locale, path: string) => withQuery(locale, '/studio/edit', { path });
export const newItemUrl = (locale: Locale, kind: ContentKind) => withQuery(locale, '/studio/edit', { kind, new: '1' });
export const historyUrl = (locale: Locale, path: string) => withQuery(locale, '/studio/history', { path });
