/**
 * Page-weight budgets of public pages (foundation issue): HTML ≤ 14 KB gzip, CSS ≤ 17 KB gzip,
 * JavaScript before any interaction ≤ 15 KB gzip. Reads the built dist/; exits 1 on any overrun.
 */
import { locales } from '../src/lib/i18n/locales.ts';
import { localePath } from '../src/lib/paths.ts';
import { pageRoutes } from '../src/lib/routes.ts';
import { distDir } from './build-state.ts';
import { kb, measurePage } from './page-weight.ts';

export const budgets = { html: 14 * 1024, css: 17 * 1024, js: 15 * 1024 } as const;

const publicPaths = pageRoutes.filter((route) => route.access === 'public').map((route) => route.path);
const rows = locales.flatMap((locale) => publicPaths.map((path) => measurePage(distDir, localePath(locale, path))));

let failures = 0;
for (const row of rows) {
  const over = (['html', 'css', 'js'] as const).filter((part) => row[part].gzip > budgets[part]);
  if (over.length) {
    failures += 1;
    console.error(`over budget: ${row.page} ${over.map((p) => `${p} ${kb(row[p].gzip)} KB gzip > ${kb(budgets[p])} KB`).join(', ')}`);
  }
}
const max = (part: 'html' | 'css' | 'js') => Math.max(...rows.map((row) => row[part].gzip));
console.log(
  `page budgets: ${rows.length} public pages checked; largest gzip HTML ${kb(max('html'))} KB (≤ ${kb(budgets.html)}), ` +
    `CSS ${kb(max('css'))} KB (≤ ${kb(budgets.css)}), JS before interaction ${kb(max('js'))} KB (≤ ${kb(budgets.js)})`,
);
console.log(failures ? `${failures} pages over budget` : 'every public page is within budget');
process.exitCode = failures ? 1 : 0;
