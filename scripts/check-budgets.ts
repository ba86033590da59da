/**
 * Page-weight budgets of public pages (foundation issue): HTML ≤ 14 KB gzip, CSS ≤ 17 KB gzip,
 * JavaScript before any interaction ≤ 15 KB gzip. Reads the built dist/ (or the build directory
 * given as its argument); exits 1 on any overrun.
 * Checks the public routes of the route table in every locale, plus every page the sitemap lists
 * (each region × locale page of the public site: details, news pages, help documents…).
 *
 * And every signed-in page of the route table, in every locale: at most `signedInScriptBudget`
 * (100 KB) of JavaScript received with an empty cache before any interaction — module scripts and
 * the islands that hydrate at load, with their static imports, compressed as served plus their
 * response headers (page-weight.ts `signedInScripts`; `npm run bench -- js` measures the same in
 * Chromium).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locales } from '../src/lib/i18n/locales.ts';
import { localePath } from '../src/lib/paths.ts';
import { pageRoutes } from '../src/lib/routes.ts';
import { distDir } from './build-state.ts';
import { kb, measurePage, signedInScriptBudget, signedInScripts } from './page-weight.ts';

/** The build checked: dist/, or a build made elsewhere (`node scripts/check-budgets.ts /tmp/build`). */
const buildDir = process.argv[2] ?? distDir;

export const budgets = { html: 14 * 1024, css: 17 * 1024, js: 15 * 1024 } as const;

const publicPaths = pageRoutes.filter((route) => route.access === 'public').map((route) => route.path);
const sitemapFile = join(buildDir, 'sitemap.xml');
const sitemapPaths = existsSync(sitemapFile)
  ? [...readFileSync(sitemapFile, 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      ([, loc]) => new URL(loc ?? '/').pathname,
    )
  : [];
const pages = new Set([
  ...locales.flatMap((locale) => publicPaths.map((path) => localePath(locale, path))),
  ...sitemapPaths,
]);
const rows = [...pages].map((path) => measurePage(buildDir, path));

let failures = 0;
for (const row of rows) {
  const over = (['html', 'css', 'js'] as const).filter((part) => row[part].gzip > budgets[part]);
  if (over.length) {
    failures += 1;
    console.error(
      `over budget: ${row.page} ${over.map((p) => `${p} ${kb(row[p].gzip)} KB gzip > ${kb(budgets[p])} KB`).join(', ')}`,
    );
  }
}
const max = (part: 'html' | 'css' | 'js') => Math.max(...rows.map((row) => row[part].gzip));
console.log(
  `page budgets: ${rows.length} public pages checked; largest gzip HTML ${kb(max('html'))} KB (≤ ${kb(budgets.html)}), ` +
    `CSS ${kb(max('css'))} KB (≤ ${kb(budgets.css)}), JS before interaction ${kb(max('js'))} KB (≤ ${kb(budgets.js)})`,
);

const signedInPaths = pageRoutes.filter((route) => route.access !== 'public').map((route) => route.path);
const signedInRows = locales.flatMap((locale) =>
  signedInPaths.map((path) => signedInScripts(buildDir, localePath(locale, path))),
);
for (const row of signedInRows) {
  if (row.transferBytes <= signedInScriptBudget) continue;
  failures += 1;
  const largest = [...row.files]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3)
    .map((file) => `${file.href} ${kb(file.bytes)} KB`);
  console.error(
    `over budget: ${row.page} JavaScript ${kb(row.transferBytes)} KB in ${row.files.length} files > ${kb(signedInScriptBudget)} KB (largest: ${largest.join(', ')})`,
  );
}
const heaviest = signedInRows.reduce((a, b) => (b.transferBytes > a.transferBytes ? b : a));
console.log(
  `signed-in budgets: ${signedInRows.length} pages checked; largest JavaScript ${kb(heaviest.transferBytes)} KB ` +
    `(${heaviest.page}, ${heaviest.files.length} files; ≤ ${kb(signedInScriptBudget)})`,
);
console.log(failures ? `${failures} pages over budget` : 'every page is within budget');
process.exitCode = failures ? 1 : 0;
