/**
 * A locale's search bundle of a build, asked from Node as the search island asks it in the
 * browser: Pagefind's own `pagefind.js` of the bundle, asked through `searchSite` with the
 * visitor's region (src/lib/search.ts). For the build test of search
 * (tests/build/search.test.ts) and the relevance benchmark (bench/search.ts).
 *
 * `pagefind.js` fetches its files next to itself; Node's fetch cannot read `file:` addresses, so
 * those are read from disk here (every other address goes to the real fetch).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Locale } from '../src/lib/i18n/locales.ts';
import {
  loadHits,
  pagefindOptions,
  searchScriptPath,
  searchSite,
  type PagefindApi,
  type SearchHit,
} from '../src/lib/search.ts';
import { loadQueryScripts } from '../src/lib/queryScripts.ts';

let fileFetchInstalled = false;
/** Told every bundle file Pagefind fetches (`recordFiles`). */
const fileListeners = new Set<(file: string) => void>();

function installFileFetch(): void {
  if (fileFetchInstalled) return;
  fileFetchInstalled = true;
  const networkFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const address = input instanceof Request ? input.url : String(input);
    if (!address.startsWith('file:')) return networkFetch(input, init);
    const file = fileURLToPath(new URL(address));
    for (const listener of fileListeners) listener(file);
    return new Response(await readFile(file));
  };
}

/** The bundle files Pagefind fetched while `work` ran (each once), beside its answer. */
export async function recordFiles<T>(work: () => Promise<T>): Promise<{ result: T; files: string[] }> {
  const files = new Set<string>();
  const listener = (file: string) => void files.add(file);
  fileListeners.add(listener);
  try {
    return { result: await work(), files: [...files] };
  } finally {
    fileListeners.delete(listener);
  }
}

/** The file of `locale`'s `pagefind.js` in the build in `distDir`. */
export function searchScriptFile(distDir: string, locale: Locale): string {
  return path.join(distDir, ...searchScriptPath(locale).split('/').filter(Boolean));
}

/** Opens `locale`'s bundle of the build in `distDir`; `search` answers the hits of one page of results, best first. */
export async function openSearchBundle(distDir: string, locale: Locale) {
  installFileFetch();
  const pagefind = (await import(pathToFileURL(searchScriptFile(distDir, locale)).href)) as PagefindApi;
  await pagefind.options(pagefindOptions);
  await pagefind.init();
  return {
    async search(query: string, areaCode: string, limit = 10): Promise<{ count: number; hits: SearchHit[] }> {
      const results = await searchSite(pagefind, query, areaCode, await loadQueryScripts(locale));
      return { count: results.length, hits: await loadHits(results.slice(0, limit)) };
    },
    close: () => pagefind.destroy(),
  };
}
