/**
 * The `test` every browser spec uses: Playwright's, with one automatic check — a page that breaks
 * the Content-Security-Policy fails its test. Chromium reports each violation (a blocked inline
 * script, style, eval or resource) on the console; they are collected for every browser context
 * of the test — its own and those it opens with `browser.newContext()` or `browser.newPage()` (the
 * accessibility sweep's one per locale) — every page and popup included, and must be none when
 * the test ends.
 */
import type { BrowserContext } from '@playwright/test';
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

const cspViolation = /Content Security Policy|Content-Security-Policy/;

export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context, browser }, use, testInfo) => {
      const violations: string[] = [];
      const watch = (watched: BrowserContext) =>
        watched.on('console', (message) => {
          if (cspViolation.test(message.text())) violations.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
        });
      watch(context);
      // browser.newPage() opens its context through newContext() too.
      const newContext = browser.newContext;
      browser.newContext = async (...options) => {
        const opened = await newContext.apply(browser, options);
        watch(opened);
        return opened;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
      }
      // Also a test expected to fail (test.fail): tests/e2e/csp.spec.ts proves this check that way.
      if (violations.length > 0 && testInfo.expectedStatus !== 'skipped') {
        throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    },
    { auto: true },
  ],
});
