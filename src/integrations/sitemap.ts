/**
 * `sitemap.xml`, written after the build from the pages actually built: every page a search
 * engine may index — not the redirect and not-found pages (they say `noindex`), not a page whose
 * canonical is another page, not the signed-in pages (static shells that show nothing without a session). Each entry lists its
 * locale alternates, as the pages' own `hreflang` links do. An incremental build's pages carried
 * from its base are the base's bytes: each is indexable exactly when the base's sitemap lists it,
 * so they are not read again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultLocale, locales } from '../lib/i18n/locales.ts';
import { localePath, splitLocale, trimTrailingSlash } from '../lib/paths.ts';
import { pageRoutes } from '../lib/routes.ts';

const sessionPaths = pageRoutes.filter((route) => route.access === 'session').map((route) => route.path);

function isSessionPage(path: string): boolean {
  return sessionPaths.some((session) => path === session || path.startsWith(`${session}/`));
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The site paths a sitemap lists (its `<loc>`s, as sitemapXml wrote them). */
export function listedPaths(xml: string): Set<string> {
  const unescape = (value: string) => value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return new Set(
    [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => decodeURI(new URL(unescape(loc!)).pathname)),
  );
}

/** Pages whose bytes are a base build's, and the paths its sitemap lists. */
export interface CarriedPages {
  paths: ReadonlySet<string>;
  baseListed: ReadonlySet<string>;
}

/** Site paths (`/en-US/gx/welcome/home`) of the indexable pages under `distDir`, sorted. */
export async function indexablePaths(
  distDir: string,
  pathnames: readonly string[],
  carried?: CarriedPages,
): Promise<string[]> {
  const paths: string[] = [];
  for (const pathname of pathnames) {
    const path = `/${pathname.replace(/^\/+|\/+$/g, '')}`;
    if (isSessionPage(splitLocale(path).path)) continue;
    if (carried?.paths.has(path)) {
      if (carried.baseListed.has(path)) paths.push(path);
      continue;
    }
    let html: string;
    try {
      html = await readFile(join(distDir, path, 'index.html'), 'utf8');
    } catch {
      continue; // not an HTML page (an endpoint such as robots.txt)
    }
    if (/<meta name="robots" content="[^"]*noindex/.test(html)) continue;
    // A page that names another as its canonical (a catalogue's first type) is left to that one.
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    if (canonical && trimTrailingSlash(new URL(canonical).pathname) !== path) continue;
    paths.push(path);
  }
  return paths.sort();
}

export function sitemapXml(site: URL, paths: readonly string[]): string {
  const known = new Set(paths);
  const entries = paths.map((path) => {
    const route = splitLocale(path).path;
    const alternates = locales
      .map((locale) => ({ locale, href: localePath(locale, route) }))
      .filter((alternate) => known.has(alternate.href));
    const links = [...alternates, { locale: 'x-default', href: localePath(defaultLocale, route) }]
      .filter((alternate) => known.has(alternate.href))
      .map(
        (alternate) =>
          `<xhtml:link rel="alternate" hreflang="${alternate.locale}" href="${escapeXml(new URL(alternate.href, site).href)}"/>`,
      )
      .join('');
    return `<url><loc>${escapeXml(new URL(path, site).href)}</loc>${links}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join('\n')}\n</urlset>\n`;
}

export async function writeSitemap(
  distDir: string,
  site: URL,
  pathnames: readonly string[],
  carried?: CarriedPages,
): Promise<number> {
  const paths = await indexablePaths(distDir, pathnames, carried);
  await writeFile(join(distDir, 'sitemap.xml'), sitemapXml(site, paths));
  return paths.length;
}
