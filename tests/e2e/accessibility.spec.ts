/**
 * axe-core (WCAG 2.2 A and AA rules) over every page shape of the site (support/sitePages.ts: the
 * route table plus one built page of each deeper shape), in all five locales, as every viewer who
 * may open it (support/viewers.ts: a visitor and each demo account — person, enterprise, branch and
 * head-office partner staff, operator, editor): a page differs by who looks at it (the header's
 * bell, a partner's institution tree, what a role may do on a page). Any violation fails the test,
 * listed with its locale, page and elements, and so does any error a page throws (a hydration
 * mismatch among them).
 *
 * Every page is checked in every locale as each viewer who may open it, except the public pages:
 * they are checked as the visitor and once signed in (by each role in turn, see visitsOf), since
 * a signed-in viewer's public page differs from the visitor's only by the header its own pages show.
 *
 * One test per viewer, so the two workers sweep viewers side by side: one browser context signed
 * in once, two pages in it taking the viewer's pages in turn, locale after locale. A page whose
 * rendered HTML is exactly one already checked in this run (a public page looks the same to most
 * signed-in viewers) takes that check's result instead of running axe again.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './support/test.ts';
import { defaultLocale, locales, type Locale } from '../../src/lib/i18n/locales.ts';
import { localePath } from '../../src/lib/paths.ts';
import { sitePages, type SitePage } from './support/sitePages.ts';
import { canOpen, signIn, viewers, type Viewer } from './support/viewers.ts';

/**
 * The WCAG 2.2 A/AA rules, including the two axe leaves off by default: target-size (2.5.8) and
 * label-content-name-mismatch (2.5.3, still "experimental" in axe).
 */
const axeOptions = {
  runOnly: { type: 'tag' as const, values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
  rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
};

/** Pages open at once per viewer: one waits for the network while the other runs axe. */
const lanes = 2;

/** Time allowed per page visit, for the test's timeout: about 1 s, several on a busy machine. */
const budgetPerVisitMs = 6_000;

interface Violation {
  rule: string;
  impact: string;
  targets: string[];
}

interface Finding extends Violation {
  page: string;
}

/**
 * The results of pages already checked in this run, by the SHA-256 of their rendered HTML: axe
 * reads the DOM and the styles, and the styles are the build's, so the same HTML gives the same
 * result. A file per page in a folder of the run's output directory (Playwright empties it at each
 * start), so the workers share them; a result not written yet is simply worked out again.
 */
class CheckedPages {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  get(fingerprint: string): Violation[] | undefined {
    try {
      return JSON.parse(readFileSync(join(this.dir, fingerprint), 'utf8')) as Violation[];
    } catch {
      return undefined;
    }
  }

  put(fingerprint: string, violations: Violation[]): void {
    // Written whole, then renamed into place: another worker never reads half a file.
    const partial = join(this.dir, `${fingerprint}.${process.pid}.partial`);
    writeFileSync(partial, JSON.stringify(violations));
    renameSync(partial, join(this.dir, fingerprint));
  }
}

async function audit(
  page: Page,
  address: string,
  settle: 'load' | 'networkidle',
  checked: CheckedPages,
): Promise<{ findings: Finding[]; reused: boolean }> {
  // A page that throws (a hydration mismatch is React error #418) fails as well.
  const errors: string[] = [];
  const onError = (error: Error) => errors.push(error.message.split('\n')[0] ?? '');
  page.on('pageerror', onError);
  // Signed in, islands load their data after the first paint: check the page as the user sees it.
  // A visitor's public page loads no script until used: its load is the page.
  await page.goto(address, { waitUntil: settle });
  if (new URL(page.url()).pathname !== address.split('?')[0]) {
    page.off('pageerror', onError);
    return {
      findings: [{ page: address, rule: 'left its page', impact: 'critical', targets: [page.url()] }],
      reused: false,
    };
  }
  const html = await page.evaluate(() => document.documentElement.outerHTML);
  const fingerprint = createHash('sha256').update(JSON.stringify(page.viewportSize())).update(html).digest('hex');
  let violations = checked.get(fingerprint);
  const reused = violations !== undefined;
  if (!violations) {
    // A control enabled as its data arrived still fades from its disabled colours (daisyUI's
    // transitions): axe would read the colours half-way. Transitions end within their duration.
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
    );
    // Legacy mode runs axe in the page itself; the default mode opens a blank page per run to
    // merge frames' results, three times slower, and these pages have no frames.
    const result = await new AxeBuilder({ page }).options(axeOptions).setLegacyMode(true).analyze();
    violations = result.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      targets: violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    }));
    checked.put(fingerprint, violations);
  }
  page.off('pageerror', onError);
  const thrown = errors.map((message) => ({
    page: address,
    rule: 'page error',
    impact: 'critical',
    targets: [message],
  }));
  return { findings: thrown.concat(violations.map((violation) => ({ page: address, ...violation }))), reused };
}

/** Runs `work` over `items` with `pages.length` pages, each taking the next item when free. */
async function inTurn<T>(
  pages: Page[],
  items: readonly T[],
  work: (page: Page, item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    pages.map(async (page) => {
      for (let index = next++; index < items.length; index = next++) await work(page, items[index]!);
    }),
  );
}

function report(findings: Finding[]): string {
  return findings.map((f) => `${f.page}: ${f.rule} (${f.impact})\n    ${f.targets.join('\n    ')}`).join('\n');
}

/** Keeps each visit in the locale its address names (see the init script). */
async function keepAddressedLocale(context: BrowserContext): Promise<void> {
  // The language rule would send an unprefixed address to the locale stored by an earlier visit;
  // the cookie lets the API answer in the page's language too.
  await context.addInitScript(
    ({ known, fallback }) => {
      const first = window.location.pathname.split('/')[1] ?? '';
      const locale = (known as readonly string[]).includes(first) ? first : fallback;
      window.localStorage.setItem('locale', locale);
      document.cookie = `locale=${locale}; Path=/`;
    },
    { known: [...locales], fallback: defaultLocale },
  );
}

const pages = sitePages();
const signedInViewers = viewers.filter((viewer) => viewer.account);
const publicPages = pages.filter((page) => page.route.access === 'public');

/**
 * What each viewer visits, per locale. The visitor: every public page. A signed-in viewer: every
 * other page it may open (its role's pages, account settings), and a share of the public pages: a
 * public page differs from the visitor's only by the signed-in header, which every role's own pages
 * show too, so each public page is checked signed in once per locale, by each role in turn.
 */
function visitsOf(viewer: Viewer): Map<Locale, SitePage[]> {
  if (!viewer.account) return new Map(locales.map((locale) => [locale, publicPages]));
  const turn = signedInViewers.indexOf(viewer);
  const own = pages.filter((page) => page.route.access !== 'public' && canOpen(viewer, page.route));
  return new Map(
    locales.map((locale, localeIndex) => [
      locale,
      [...own, ...publicPages.filter((_, index) => (index + localeIndex) % signedInViewers.length === turn)],
    ]),
  );
}

const count = (visits: Map<Locale, SitePage[]>) => [...visits.values()].reduce((sum, list) => sum + list.length, 0);
// The viewer with most visits first, so that the two workers finish about together.
const sweeps = viewers
  .map((viewer) => ({ viewer, visits: visitsOf(viewer) }))
  .sort((a, b) => count(b.visits) - count(a.visits));

test('the accessibility sweep checks every page in every locale as a visitor or signed in', () => {
  for (const locale of locales) {
    for (const page of pages) {
      const seenBy = sweeps.filter(({ visits }) => visits.get(locale)?.includes(page)).map(({ viewer }) => viewer);
      const expected =
        page.route.access === 'public'
          ? 2 // the visitor and one signed-in viewer
          : viewers.filter((viewer) => canOpen(viewer, page.route)).length;
      expect(seenBy.length, `${locale} ${page.path}`).toBe(expected);
    }
  }
});

for (const { viewer, visits } of sweeps) {
  test(`axe: the pages of ${viewer.name}, in every locale`, async ({ browser, baseURL }, testInfo) => {
    test.setTimeout(count(visits) * budgetPerVisitMs);
    const checked = new CheckedPages(join(testInfo.project.outputDir, 'axe-checked-pages'));
    const context = await browser.newContext({ baseURL: baseURL!, locale: defaultLocale });
    try {
      await keepAddressedLocale(context);
      await signIn(context.request, baseURL!, viewer);
      const open = await Promise.all(Array.from({ length: lanes }, () => context.newPage()));
      const findings: Finding[] = [];
      let reused = 0;
      const started = Date.now();
      // Locale after locale: an unprefixed (zh-CN) address is never open while another locale is stored.
      for (const [locale, list] of visits) {
        await inTurn(open, list, async (page, { path }) => {
          const result = await audit(page, localePath(locale, path), viewer.account ? 'networkidle' : 'load', checked);
          findings.push(...result.findings);
          if (result.reused) reused += 1;
        });
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(
        `axe as ${viewer.name}: ${count(visits)} visits in ${locales.length} locales in ${seconds} s (${reused} the same as one checked before), ${findings.length} violations`,
      );
      expect(findings, report(findings)).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
