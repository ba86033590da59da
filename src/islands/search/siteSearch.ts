/**
 * The search island's logic apart from its React shell: the messages it needs, and its locale's
 * Pagefind bundle, loaded once — when the island mounts, that is when the visitor first reaches
 * for the search box (the island hydrates on intent), never with the page.
 */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { countKeys } from '../../lib/i18n/plural.ts';
import { pagefindOptions, searchScriptPath, searchTypes, type PagefindApi, type SearchType } from '../../lib/search.ts';

export const searchMessageKeys = [
  'site.search.label',
  'site.search.placeholder',
  'site.search.submit',
  'site.search.hint',
  'site.search.loading',
  ...countKeys('site.search.count'),
  'site.search.results',
  'site.search.more',
  'site.search.empty',
  'site.search.emptyHint',
  'site.search.failed',
  'site.search.retry',
  'nav.help',
  ...searchTypes.map((type) => `site.search.type.${type}` as const),
] as const satisfies readonly MessageKey[];

export type SearchMessages = Record<(typeof searchMessageKeys)[number], string>;

export function typeLabel(messages: SearchMessages, type: SearchType): string {
  return messages[`site.search.type.${type}`];
}

/** Results shown at first, and added by each "more". */
export const resultsPerPage = 10;
/** Typing pauses this long before a search runs (each keystroke would otherwise search). */
export const typingPauseMs = 150;

const bundles = new Map<Locale, Promise<PagefindApi>>();

/** The locale's Pagefind bundle, loading it on first use; a failed load is tried again on the next call. */
export function loadSearchBundle(locale: Locale): Promise<PagefindApi> {
  let bundle = bundles.get(locale);
  if (!bundle) {
    bundle = (async () => {
      // The bundle is written after the build has bundled the site's scripts: an address at run time.
      const pagefind = (await import(/* @vite-ignore */ searchScriptPath(locale))) as PagefindApi;
      await pagefind.options(pagefindOptions);
      await pagefind.init();
      return pagefind;
    })();
    bundles.set(locale, bundle);
    bundle.catch(() => bundles.delete(locale));
  }
  return bundle;
}
