/**
 * The site's search index (docs/public-site.md, "Search"): after every build, full or
 * incremental, Pagefind reads every page of the output whose body is marked searchable
 * (`data-pagefind-body`, src/lib/search.ts) and writes one bundle per locale under
 * `pagefind/<locale>/`. The whole output is indexed each time — an incremental build's unchanged
 * pages are in place by then (incremental.ts runs first) — because Pagefind cannot add pages to an
 * index it wrote before (the figures: docs/public-site.md, "Search").
 *
 * Every bundle is indexed as Chinese: the content is zh-CN on the pages of every locale (only the
 * interface around it is translated), and Pagefind cuts Chinese into words only in an index it
 * builds as Chinese. Only what the search island loads is kept: Pagefind's own interfaces are not.
 */
import { readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { locales, type Locale } from '../lib/i18n/locales.ts';
import { splitLocale } from '../lib/paths.ts';
import { searchBodyAttribute, searchBundlePath } from '../lib/search.ts';

/** The language every bundle is indexed in (see the header). */
const indexLanguage = 'zh-cn';

/** The files of a bundle the search island uses; the rest (Pagefind's ready-made interfaces) is removed. */
const keptBundleFile = /^(pagefind\.js|pagefind-entry\.json|pagefind\.[\w-]+\.pf_meta|wasm\.[\w-]+\.pagefind)$/;

export interface SearchIndexFigures {
  /** Pages indexed per locale. */
  pages: Record<Locale, number>;
  /** Every file of the bundles written (absolute). */
  files: string[];
  ms: number;
}

export interface SearchIndexOptions {
  /** Told the pages indexed so far of how many, as it goes. */
  onProgress?: (done: number, total: number) => void;
}

interface SearchablePage {
  url: string;
  html: string;
}

/**
 * The searchable pages of a build, per locale: their site path and HTML, sorted (the same input
 * gives the same bundle). Read synchronously: the build compresses its files meanwhile on libuv's
 * pool, and reads queued behind that work held the index back by seconds in a full build.
 */
async function searchablePages(outDir: string): Promise<Map<Locale, SearchablePage[]>> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name === 'index.html')
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const byLocale = new Map<Locale, SearchablePage[]>(locales.map((locale) => [locale, []]));
  for (const file of files) {
    const html = readFileSync(file, 'utf8');
    if (!html.includes(searchBodyAttribute)) continue;
    const url = `/${path.relative(outDir, path.dirname(file)).split(path.sep).join('/')}`;
    byLocale.get(splitLocale(url).locale)?.push({ url, html });
  }
  return byLocale;
}

/** Where the bundles of every locale are under `outDir`. */
export function searchBundlesDir(outDir: string): string {
  return path.dirname(path.join(outDir, ...searchBundlePath(locales[0]).split('/').filter(Boolean)));
}

/** Writes `pagefind/<locale>/` under `outDir` for every locale with searchable pages. */
export async function writeSearchIndex(outDir: string, options: SearchIndexOptions = {}): Promise<SearchIndexFigures> {
  const started = performance.now();
  const pagefind = await import('pagefind');
  const byLocale = await searchablePages(outDir);
  const total = [...byLocale.values()].reduce((sum, pages) => sum + pages.length, 0);
  const pages = Object.fromEntries(locales.map((locale) => [locale, 0])) as Record<Locale, number>;
  const written: string[] = [];
  let done = 0;
  options.onProgress?.(0, total);
  // The locales' indexes are built side by side: Pagefind's service works on them in parallel,
  // which shortens the step (docs/public-site.md, "Search").
  const indexLocale = async (locale: Locale, localePages: SearchablePage[]) => {
    const { index, errors } = await pagefind.createIndex({ forceLanguage: indexLanguage });
    if (!index) throw new Error(`search index (${locale}): ${errors.join('; ')}`);
    for (const page of localePages) {
      const added = await index.addHTMLFile({ url: page.url, content: page.html });
      if (added.errors.length > 0) throw new Error(`search index: ${page.url}: ${added.errors.join('; ')}`);
      done += 1;
      options.onProgress?.(done, total);
    }
    pages[locale] = localePages.length;
    const bundleDir = path.join(outDir, ...searchBundlePath(locale).split('/').filter(Boolean));
    await rm(bundleDir, { recursive: true, force: true });
    const output = await index.writeFiles({ outputPath: bundleDir });
    if (output.errors.length > 0) throw new Error(`search index (${locale}): ${output.errors.join('; ')}`);
    await index.deleteIndex();
    for (const entry of await readdir(bundleDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (entry.parentPath === bundleDir && !keptBundleFile.test(entry.name)) await rm(file);
      else written.push(file);
    }
  };
  try {
    await Promise.all(
      [...byLocale]
        .filter(([, localePages]) => localePages.length > 0)
        .map(([locale, localePages]) => indexLocale(locale, localePages)),
    );
  } finally {
    await pagefind.close();
  }
  return { pages, files: written.sort(), ms: Math.round(performance.now() - started) };
}
