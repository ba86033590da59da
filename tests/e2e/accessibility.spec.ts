/**
 * axe-core (WCAG 2.2 A and AA rules) over every page shape of the site (support/sitePages.ts: the
 * route table plus one built page of each deeper shape), in all five locales, signed out and
 * signed in: public pages signed out and signed in (the header differs), each signed-in page as
 * the demo user it is for. Any violation fails the test, listed with its page and elements, and so
 * does any error a page throws (a hydration mismatch among them).
 * One browser context per locale and user, pages visited in sequence.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { locales, type Locale } from '../../src/lib/i18n/locales.ts';
import { localePath } from '../../src/lib/paths.ts';
import type { PageRoute } from '../../src/lib/routes.ts';
import { apiLogin } from './support/accountsFixtures.ts';
import { sitePages, type SitePage } from './support/sitePages.ts';

/**
 * The WCAG 2.2 A/AA rules, including the two axe leaves off by default: target-size (2.5.8) and
 * label-content-name-mismatch (2.5.3, still "experimental" in axe).
 */
const axeOptions = {
  runOnly: { type: 'tag' as const, values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
  rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
};

const users = {
  person: { userName: 'demo_person', password: 'Person2025' },
  company: { userName: 'demo_company', password: 'Company2025' },
  partner: { userName: 'demo_partner', password: 'Partner2025' },
  operator: { userName: 'demo_operator', password: 'Operator2025' },
  editor: { userName: 'demo_editor', password: 'Editor2025' },
} as const;
type Who = keyof typeof users;

/** The demo user a signed-in page is for: its role, else enterprise pages for the enterprise user. */
function userFor(route: PageRoute): Who {
  const roles: readonly string[] = route.role === undefined ? [] : typeof route.role === 'string' ? [route.role] : route.role;
  if (roles.includes('partner')) return 'partner';
  if (roles.includes('editor')) return 'editor';
  if (roles.includes('operator')) return 'operator';
  if (route.layout === 'certify' || route.layout === 'handle' || route.key === 'enterprise' || route.key === 'order') return 'company';
  return 'person';
}

const pages = sitePages();

interface Finding {
  page: string;
  rule: string;
  impact: string;
  targets: string[];
}

async function audit(page: Page, address: string, settle: 'load' | 'networkidle'): Promise<Finding[]> {
  // A page that throws (a hydration mismatch is React error #418) fails as well.
  const errors: string[] = [];
  const onError = (error: Error) => errors.push(error.message.split('\n')[0] ?? '');
  page.on('pageerror', onError);
  // Signed in, islands load their data after the first paint: check the page as the user sees it.
  // A visitor's public page loads no script until used: its load is the page.
  await page.goto(address, { waitUntil: settle });
  const { pathname } = new URL(page.url());
  expect(pathname, `${address} stayed on its page`).toBe(address.split('?')[0]);
  const result = await new AxeBuilder({ page }).options(axeOptions).analyze();
  // An open tree item (the institution tree) is named by its own line, as the WAI-ARIA tree
  // pattern asks, not by its content, which holds its whole open group: axe's text check does not
  // apply to it. Every other name is checked.
  for (const violation of result.violations) {
    if (violation.id === 'label-content-name-mismatch') violation.nodes = violation.nodes.filter((node) => !/^<li[^>]*role="treeitem"[^>]*aria-expanded="true"/.test(node.html));
  }
  result.violations = result.violations.filter((violation) => violation.nodes.length > 0);
  page.off('pageerror', onError);
  const thrown = errors.map((message) => ({ page: address, rule: 'page error', impact: 'critical', targets: [message] }));
  return thrown.concat(result.violations.map((violation) => ({
    page: address,
    rule: violation.id,
    impact: violation.impact ?? '',
    targets: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
  })));
}

async function auditAs(browser: Browser, baseURL: string, locale: Locale, who: Who | undefined, list: SitePage[]): Promise<Finding[]> {
  const context = await browser.newContext({ baseURL, locale });
  try {
    // The address names the locale: keep the visit there whatever the browser language.
    await context.addInitScript((l) => window.localStorage.setItem('locale', l), locale);
    if (who) await apiLogin(context.request, baseURL, users[who].userName, users[who].password);
    const page = await context.newPage();
    const findings: Finding[] = [];
    for (const { path } of list) findings.push(...(await audit(page, localePath(locale, path), who ? 'networkidle' : 'load')));
    return findings;
  } finally {
    await context.close();
  }
}

function report(findings: Finding[]): string {
  return findings.map((f) => `${f.page}: ${f.rule} (${f.impact})\n    ${f.targets.join('\n    ')}`).join('\n');
}

const publicPages = pages.filter((p) => p.route.access === 'public');
const sessionPages = pages.filter((p) => p.route.access === 'session');

test.describe.configure({ timeout: 240_000 });

for (const locale of locales) {
  test(`axe: every public page signed out (${locale})`, async ({ browser, baseURL }) => {
    const findings = await auditAs(browser, baseURL!, locale, undefined, publicPages);
    console.log(`axe ${locale} signed out: ${publicPages.length} pages, ${findings.length} violations`);
    expect(findings, report(findings)).toEqual([]);
  });

  test(`axe: every public page and every signed-in page signed in (${locale})`, async ({ browser, baseURL }) => {
    const findings: Finding[] = [];
    const byUser = new Map<Who, SitePage[]>([['person', [...publicPages]]]);
    for (const page of sessionPages) byUser.set(userFor(page.route), [...(byUser.get(userFor(page.route)) ?? []), page]);
    let count = 0;
    for (const [who, list] of byUser) {
      findings.push(...(await auditAs(browser, baseURL!, locale, who, list)));
      count += list.length;
    }
    console.log(`axe ${locale} signed in: ${count} pages, ${findings.length} violations`);
    expect(findings, report(findings)).toEqual([]);
  });
}
