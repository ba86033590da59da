/**
 * The editors' studio under axe with content in it: the whole-site sweep (accessibility.spec.ts)
 * opens each studio page bare (no kind, no item), so here each is opened as an editor uses it —
 * a kind's list, an existing per-region item with lists and Markdown, a new item with its errors
 * shown, the history with a diff, the pending changes and the publications — in zh-CN and en-US,
 * at 1280 px and on a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import { apiLogin, expect, test } from './support/accountsFixtures.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';

test.describe.configure({ timeout: 240_000 });

/** The sweep's rules: WCAG 2.0–2.2 A and AA, with target size and label-in-name. */
const axeOptions = {
  runOnly: { type: 'tag' as const, values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
  rules: { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } },
};

const pages = [
  '/studio',
  '/studio/items?kind=set',
  '/studio/edit?path=sets%2F440000%2Fgd-fixed-2027.yaml',
  '/studio/edit?path=regions%2F440000.yaml',
  '/studio/edit?kind=news&new=1',
  '/studio/history?path=news%2F20250108-platform-launch.md',
  '/studio/changes',
  '/studio/publications',
  '/studio/media',
];

for (const [locale, prefix] of [
  ['zh-CN', ''],
  ['en-US', '/en-US'],
] as const) {
  for (const [device, viewport] of [
    ['1280 px', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`axe: the studio's pages with content, ${locale}, ${device}`, async ({ browser, accounts }) => {
      const context = await browser.newContext({ baseURL: accounts.url, locale, viewport });
      await context.addInitScript((l) => window.localStorage.setItem('locale', l), locale);
      await apiLogin(context.request, accounts.url, 'demo_editor', 'Editor2025');
      const page = await context.newPage();
      const thrown: string[] = [];
      page.on('pageerror', (error) => thrown.push(error.message.split('\n')[0] ?? ''));
      const findings: string[] = [];
      for (const path of pages) {
        await page.goto(`${prefix}${path}`, { waitUntil: 'networkidle' });
        await expect(page.locator('[data-session-content]')).toBeVisible();
        await expect(
          page
            .locator('[data-session-content] [role="status"]')
            .filter({ hasText: dictionaries[locale]['studio.loading'] }),
        ).toHaveCount(0);
        if (path.endsWith('new=1')) {
          // The form with every error shown: messages tied to their fields.
          await page.getByRole('button', { name: dictionaries[locale]['studio.edit.save'] }).click();
          await expect(page.locator('[data-field-error]').first()).toBeVisible();
        }
        const result = await new AxeBuilder({ page }).options(axeOptions).analyze();
        for (const violation of result.violations) {
          findings.push(
            `${path}: ${violation.id} (${violation.impact ?? ''})\n    ${violation.nodes
              .slice(0, 5)
              .map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
              .join('\n    ')}`,
          );
        }
      }
      await context.close();
      expect(thrown).toEqual([]);
      expect(findings, findings.join('\n')).toEqual([]);
    });
  }
}
