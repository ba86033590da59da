/**
 * Every URL of the site is built here. zh-CN pages have no prefix; the other locales live
 * under `/<locale>` spelled exactly as the locale (`/en-US/…`, never lower-cased).
 */
import { defaultLocale, isLocale, type Locale } from './i18n/locales.ts';
import { queryFormIdPattern, queryForms } from './routes.ts';

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

/*
 * Regions in URLs (public-site issue). Pages whose content varies by region carry the region
 * after the locale: the default region 440000 has no segment, the others their ISO 3166-2 code
 * in lower case (`/gx/welcome/home`, `/en-US/yn/products/id2`). The table covers every
 * province-level code of GB/T 2260, so a region added to the content needs no code change.
 */
export const defaultAreaCode = '440000';

/** GB/T 2260 province code → ISO 3166-2:CN subdivision code, lower case. */
export const regionSlugs: Readonly<Record<string, string>> = {
  '110000': 'bj',
  '120000': 'tj',
  '130000': 'he',
  '140000': 'sx',
  '150000': 'nm',
  '210000': 'ln',
  '220000': 'jl',
  '230000': 'hl',
  '310000': 'sh',
  '320000': 'js',
  '330000': 'zj',
  '340000': 'ah',
  '350000': 'fj',
  '360000': 'jx',
  '370000': 'sd',
  '410000': 'ha',
  '420000': 'hb',
  '430000': 'hn',
  '440000': 'gd',
  '450000': 'gx',
  '460000': 'hi',
  '500000': 'cq',
  '510000': 'sc',
  '520000': 'gz',
  '530000': 'yn',
  '540000': 'xz',
  '610000': 'sn',
  '620000': 'gs',
  '630000': 'qh',
  '640000': 'nx',
  '650000': 'xj',
  '710000': 'tw',
  '810000': 'hk',
  '820000': 'mo',
};

// Pure: a page's bundle that never reads a region path drops the table.
const areaCodeBySlug: Readonly<Record<string, string>> = /* @__PURE__ */ Object.fromEntries(
  Object.entries(regionSlugs)
    .filter(([code]) => code !== defaultAreaCode)
    .map(([code, slug]) => [slug, code]),
);

/** First path segments of the pages whose content varies by region (search finds the region's business, products and sets). */
export const regionSections: readonly string[] = ['/welcome/home', '/business', '/products', '/search'];

/** Whether a route path (no locale, no region) is one of the region-varying pages. */
export function isRegionPath(path: string): boolean {
  return regionSections.some((section) => path === section || path.startsWith(`${section}/`));
}

/** The URL segment of a region: '' for the default region. Throws on a code outside GB/T 2260. */
export function regionSegment(areaCode: string): string {
  if (areaCode === defaultAreaCode) return '';
  const slug = regionSlugs[areaCode];
  if (!slug) throw new Error(`no URL segment for area code ${areaCode}`);
  return slug;
}

/** The area code behind a region segment, or undefined when the segment is no region. */
export function areaCodeOfSegment(segment: string): string | undefined {
  return areaCodeBySlug[segment];
}

/**
 * The URL of a site page in a locale and a region; the region only counts for region-varying
 * paths (the news centre is the same in every region).
 * @example sitePath('en-US', '/products/id2', '530000') === '/en-US/yn/products/id2'
 */
export function sitePath(locale: Locale, path: string, areaCode: string = defaultAreaCode): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  const route = normalized.split(/[?#]/)[0] ?? normalized;
  const segment = isRegionPath(route) ? regionSegment(areaCode) : '';
  return localePath(locale, segment ? `/${segment}${normalized}` : normalized);
}

/** Splits a pathname into locale, region and route path (the inverse of `sitePath`). */
export function splitSitePath(pathname: string): { locale: Locale; areaCode: string; path: string } {
  const { locale, path } = splitLocale(pathname);
  const match = /^\/([^/]+)(\/.*)?$/.exec(path);
  const areaCode = match?.[1] ? areaCodeOfSegment(match[1]) : undefined;
  const rest = match?.[2];
  if (areaCode && rest && isRegionPath(rest)) return { locale, areaCode, path: rest };
  return { locale, areaCode: defaultAreaCode, path };
}

/** The same page in another region (shared pages stay where they are). */
export function switchRegionPath(pathname: string, areaCode: string): string {
  const { locale, path } = splitSitePath(pathname);
  return sitePath(locale, path, areaCode);
}

/**
 * The path form of one of the spec's query forms (`/en-US/gx/products?id=id3&x=1` →
 * `/en-US/gx/products/id3?x=1`), or undefined when the address is no query form.
 */
export function queryFormTarget(pathname: string, search: string): string | undefined {
  const { locale, areaCode, path } = splitSitePath(trimTrailingSlash(pathname));
  const form = queryForms.find((entry) => entry.path === path);
  if (!form) return undefined;
  const params = new URLSearchParams(search);
  const id = params.get(form.param);
  if (!id || !queryFormIdPattern.test(id)) return undefined;
  params.delete(form.param);
  const rest = params.toString();
  return sitePath(locale, `${form.path}/${id}`, areaCode) + (rest ? `?${rest}` : '');
}

/**
 * Where an editor's preview build is served (src/server/routes/studioFiles.ts): its pages are the real
 * pages of a build that is not published, so the pre-paint language and region rules leave them
 * where they are (a move would leave the preview for the live site).
 */
export const previewPathPrefix = '/studio-preview/';
