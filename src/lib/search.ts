/**
 * Site search (docs/public-site.md, "Search"): what the build's index and the search island agree
 * on. The build (src/integrations/searchIndex.ts) writes one Pagefind bundle per locale from the
 * pages whose body is marked searchable, each page carrying its kind and region as filters; the
 * island (src/islands/search/) loads its locale's bundle and asks it with the visitor's region.
 * Browser-safe: no Node module here.
 */
import type { Locale } from './i18n/locales.ts';

/** The kinds of page search finds, as the `type` filter names them (the island names them per locale). */
export const searchTypes = ['news', 'help', 'faq', 'business', 'product', 'set'] as const;
export type SearchType = (typeof searchTypes)[number];

/** The filter values a page carries: its kind and its region (`regionShared` on pages the same in every region). */
export const searchFilterNames = { type: 'type', region: 'region' } as const;
export const regionShared = 'all';

/** The searchable part of a page: `data-pagefind-body` on it, so headers, menus and footers stay out. */
export const searchBodyAttribute = 'data-pagefind-body';

/** Where a locale's bundle sits in the build, and its script (loaded only once the visitor reaches for search). */
export function searchBundlePath(locale: Locale): string {
  return `/pagefind/${locale}/`;
}
export function searchScriptPath(locale: Locale): string {
  return `${searchBundlePath(locale)}pagefind.js`;
}

/** What the search island and the Node tools use of Pagefind's `pagefind.js` (its JS API). */
export interface PagefindApi {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(query: string, options?: { filters?: unknown }): Promise<{ results: PagefindResult[] } | null>;
  destroy(): Promise<void>;
}
export interface PagefindResult {
  id: string;
  data(): Promise<PagefindResultData>;
}
export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
  sub_results?: { url: string; title: string; excerpt: string; locations?: number[] }[];
}

/**
 * Pagefind's options for a bundle: on this thread, not in a worker (a worker's WebAssembly would
 * need its own Content-Security-Policy; a search here takes milliseconds), and result addresses
 * as the index holds them (the bundle sits deeper than Pagefind assumes).
 */
export const pagefindOptions = { noWorker: true, baseUrl: '/' } as const;

/** One result as the island shows it. */
export interface SearchHit {
  /** The page's address as the site links it (no trailing slash), with the section's `#id` when the match is in one. */
  path: string;
  title: string;
  /** The section of the page the best match is in (a question of the problem guides), when it has its own heading. */
  section: string | undefined;
  type: SearchType | undefined;
  excerpt: string;
  /** The page's text is shown in its Chinese original (not translated yet): `'zh-CN'`, from the page's `lang` meta. */
  lang: string | undefined;
}

function isSearchType(value: string | undefined): value is SearchType {
  return (searchTypes as readonly (string | undefined)[]).includes(value);
}

/** A Pagefind result as a hit: its best-matching section when that has a heading of its own. */
export function searchHit(data: PagefindResultData): SearchHit {
  const title = data.meta['title'] ?? '';
  const best = [...(data.sub_results ?? [])].sort((a, b) => (b.locations?.length ?? 0) - (a.locations?.length ?? 0))[0];
  const section = best && best.url.includes('#') && best.title !== title ? best : undefined;
  const type = data.filters[searchFilterNames.type]?.[0];
  return {
    path: resultPath(section ? section.url : data.url),
    title,
    section: section?.title,
    type: isSearchType(type) ? type : undefined,
    excerpt: section ? section.excerpt : data.excerpt,
    lang: data.meta['lang'],
  };
}

/** The filters of a search from a page of `areaCode`: pages of that region and pages shared by all. */
export function regionFilter(areaCode: string): Record<string, { any: string[] }> {
  return { [searchFilterNames.region]: { any: [areaCode, regionShared] } };
}

/**
 * The attributes that mark a page's searchable part (Pagefind's `data-pagefind-*`): `body` on the
 * element holding it, with its kind; `region` on an element inside it (Pagefind reads one filter
 * per attribute).
 */
export function searchBodyAttributes(
  type: SearchType,
  areaCode: string | undefined,
): { body: Record<string, string>; region: Record<string, string> } {
  return {
    body: { [searchBodyAttribute]: '', 'data-pagefind-filter': `${searchFilterNames.type}:${type}` },
    region: { 'data-pagefind-filter': `${searchFilterNames.region}:${areaCode ?? regionShared}` },
  };
}

const han = /\p{Script=Han}/u;

/** Words as `Intl.Segmenter` cuts Chinese (the browser's and Node's ICU), Latin words whole; null where it is missing. */
function segmentWords(text: string): string[] | null {
  if (typeof Intl.Segmenter === 'undefined') return null;
  const segmenter = new Intl.Segmenter('zh-CN', { granularity: 'word' });
  return [...segmenter.segment(text)].filter((part) => part.isWordLike).map((part) => part.segment);
}

/**
 * The visitor's words as the index holds them. Every bundle is indexed as Chinese (the content is
 * zh-CN on every locale's pages), and Pagefind cuts a Chinese query into words only on a Chinese
 * page: here the query is cut the same way on every page (words apart, Chinese cut by
 * `Intl.Segmenter`), so 电价 typed on an English page finds what it finds on a Chinese one.
 * @example prepareQuery('峰谷电价 U盾') === '峰 谷 电 价 U 盾'
 */
export function prepareQuery(query: string): string {
  const trimmed = query.trim().replace(/\s+/g, ' ');
  return segmentWords(trimmed)?.join(' ') ?? trimmed;
}

/**
 * The Chinese words of the query as exact phrases (`"电 价"`), or undefined when it has none.
 * Pagefind matches every word as the start of a word of the index, and Chinese is indexed in short
 * words, often single characters: 电价 also finds every page with 电压 and 价格 somewhere. The
 * pages where the characters stand together, as typed, are the better answers.
 */
export function phraseQuery(query: string): string | undefined {
  const phrases = query
    .trim()
    .split(/\s+/)
    .filter((word) => han.test(word))
    .map((word) => segmentWords(word)?.join(' ') ?? word)
    .filter((words) => words.includes(' '));
  return phrases.length ? phrases.map((words) => `"${words}"`).join(' ') : undefined;
}

/** One piece of a result's excerpt: text, highlighted where it matched. */
export interface ExcerptPart {
  text: string;
  marked: boolean;
}

const entities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  '#39': "'",
  '#x27': "'",
};

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39|#x27);/g, (_, name: string) => entities[name] ?? '');
}

/**
 * A Pagefind excerpt (text with `<mark>` around the matched words, the rest escaped) as parts to
 * render as text: only the highlights become markup, so no page content is ever parsed as HTML.
 */
export function excerptParts(excerpt: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let marked = false;
  for (const piece of excerpt.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece) {
      const text = decodeEntities(piece.replace(/<[^>]*>/g, ''));
      const last = parts.at(-1);
      if (last && last.marked === marked) last.text += text;
      else if (text) parts.push({ text, marked });
    }
  }
  return parts;
}

/** A result's address as the site writes its links: Pagefind's ends with the directory's slash. */
export function resultPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  const rest = end === -1 ? '' : url.slice(end);
  return `${path.length > 1 ? path.replace(/\/+$/, '') : path}${rest}`;
}

/** Chinese text written in another script (queryScripts.ts: traditional ↔ simplified). */
export type QueryScript = (text: string) => string;

/**
 * The results of `query` among the pages of `areaCode` and the shared ones, best first (none for
 * an empty query): Pagefind's ranking, with the pages that hold the query's Chinese words as
 * typed (`phraseQuery`) moved to the front. A query with Chinese characters is also asked in the
 * forms `scripts` write it in (the likelier first), since a page may hold content in another
 * script than the visitor types: 電價 finds the pages of 电价, 电价 on a zh-TW page finds 電價.
 */
export async function searchSite(
  pagefind: PagefindApi,
  query: string,
  areaCode: string,
  scripts: readonly QueryScript[] = [],
): Promise<PagefindResult[]> {
  const words = prepareQuery(query);
  if (!words) return [];
  const filters = regionFilter(areaCode);
  const variants = han.test(query) ? [...new Set([...scripts.map((script) => script(query)), query])] : [query];
  const found = await Promise.all(
    variants.map(async (variant) => {
      const phrases = phraseQuery(variant);
      const [ranked, exact] = await Promise.all([
        pagefind.search(prepareQuery(variant), { filters }),
        phrases ? pagefind.search(phrases, { filters }) : null,
      ]);
      return { ranked: ranked?.results ?? [], exact: exact?.results ?? [] };
    }),
  );
  const ranked = unique(found.flatMap((variant) => variant.ranked));
  const exact = unique(found.flatMap((variant) => variant.exact));
  if (!exact.length) return ranked;
  const rank = new Map(ranked.map((result, index) => [result.id, index]));
  const front = exact.sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
  const inFront = new Set(front.map((result) => result.id));
  return [...front, ...ranked.filter((result) => !inFront.has(result.id))];
}

/** Results in their first order, each page once. */
function unique(results: readonly PagefindResult[]): PagefindResult[] {
  const seen = new Set<string>();
  return results.filter((result) => !seen.has(result.id) && seen.add(result.id));
}

/** The hits of some results (Pagefind loads each result's page fragment on asking). */
export async function loadHits(results: readonly PagefindResult[]): Promise<SearchHit[]> {
  return (await Promise.all(results.map((result) => result.data()))).map(searchHit);
}
