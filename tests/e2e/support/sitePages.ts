/**
 * The pages a whole-site browser check visits, read from the route table and the built site
 * (dist/) rather than kept by hand: every route of `pageRoutes`, plus one built page of each
 * further shape under it (a business type and a business, a product type and a package, a news
 * category and its page 2, a news article, a notice, a help document, an FAQ page). Regions are the same
 * templates with other content, so only the default region's pages are taken; the spec's
 * redirect pages (`/person` → `/person/overview`) are not pages.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { locales } from '../../../src/lib/i18n/locales.ts';
import { areaCodeOfSegment } from '../../../src/lib/paths.ts';
import { pageRoutes, type PageRoute } from '../../../src/lib/routes.ts';

export interface SitePage {
  /** Path without locale, default region. */
  path: string;
  /** The route it belongs to (longest route path that prefixes it). */
  route: PageRoute;
}

const distDir = join(import.meta.dirname, '../../../dist');

/** Every built page of the default locale and region, as paths without trailing slash. */
function builtPaths(dir = distDir, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (!statSync(full).isDirectory()) continue;
    // Top level: other locales, region segments and build assets are not default-region pages.
    if (
      prefix === '' &&
      ((locales as readonly string[]).includes(entry) || areaCodeOfSegment(entry) || entry.startsWith('_'))
    )
      continue;
    const path = `${prefix}/${entry}`;
    try {
      const html = readFileSync(join(full, 'index.html'), 'utf8');
      if (!html.includes('http-equiv="refresh"')) found.push(path);
    } catch {
      // a folder without a page of its own (e.g. /images)
    }
    found.push(...builtPaths(full, path));
  }
  return found;
}

function routeOf(path: string): PageRoute | undefined {
  return [...pageRoutes]
    .sort((a, b) => b.path.length - a.path.length)
    .find((route) => path === route.path || path.startsWith(`${route.path}/`));
}

/** The pages to visit, one per shape, routes first in route-table order. */
export function sitePages(): SitePage[] {
  const shapes = new Map<string, SitePage>();
  for (const route of pageRoutes) shapes.set(route.path, { path: route.path, route });
  for (const path of builtPaths().sort()) {
    const route = routeOf(path);
    if (!route) continue;
    // The shape: the route and how many segments follow it (/business/x and /business/x/y differ).
    const depth = path.slice(route.path.length).split('/').filter(Boolean).length;
    const shape = `${route.path}#${depth}`;
    if (depth > 0 && !shapes.has(shape)) shapes.set(shape, { path, route });
  }
  if (shapes.size === pageRoutes.length) throw new Error(`no built pages under ${distDir}: build the site first`);
  return [...shapes.values()];
}
