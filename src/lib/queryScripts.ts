/**
 * The other Chinese script of a search query: OpenCC's dictionaries, the tables only, loaded with
 * the search bundle and never with a page. Content is written in simplified characters and the
 * zh-TW pages show it translated into traditional ones (or its simplified original, not
 * translated yet), so a query is also asked in the script the pages of its locale may hold:
 *
 * - every locale: traditional → simplified (Taiwan's variants and phrases first): 電價 finds the
 *   pages of 电价 (about 14 KB compressed);
 * - zh-TW also: simplified → traditional with Taiwan's phrases: 电价 finds 電價 (larger tables,
 *   loaded by zh-TW's search page only).
 */
import type { Locale } from './i18n/locales.ts';
import type { QueryScript } from './search.ts';

const loaded = new Map<Locale, Promise<readonly QueryScript[]>>();

/** The converters a query of `locale`'s search page is asked through, the pages' likelier script first. */
export function loadQueryScripts(locale: Locale): Promise<readonly QueryScript[]> {
  let scripts = loaded.get(locale);
  if (!scripts) {
    scripts = (async () => {
      const { ConverterFactory } = await import('opencc-js/core');
      const [{ default: fromTaiwan }, { default: toMainland }] = await Promise.all([
        import('opencc-js/from/tw'),
        import('opencc-js/to/cn'),
      ]);
      const toSimplified = ConverterFactory(fromTaiwan, toMainland);
      if (locale !== 'zh-TW') return [toSimplified];
      const [{ default: fromMainland }, { default: toTaiwan }] = await Promise.all([
        import('opencc-js/from/cn'),
        import('opencc-js/to/twp'),
      ]);
      return [ConverterFactory(fromMainland, toTaiwan), toSimplified];
    })();
    scripts.catch(() => loaded.delete(locale));
    loaded.set(locale, scripts);
  }
  return scripts;
}
