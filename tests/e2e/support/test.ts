/**
 * The `test` every browser spec uses: Playwright's, with one automatic check — a page that breaks
 * the Content-Security-Policy fails its test. Chromium reports each violation (a blocked inline
 * script, style, eval or resource) on the console; they are collected for the whole browser
 * context, every page and popup included, and must be none when the test ends.
 */
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

const cspViolation = /Content Security Policy|Content-Security-Policy/;

export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context }, use, testInfo) => {
      const violations: string[] = [];
      context.on('console', (message) => {
        if (cspViolation.test(message.text())) violations.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
      });
      await use(violations);
      // Also a test expected to fail (test.fail): tests/e2e/csp.spec.ts proves this check that way.
      if (violations.length > 0 && testInfo.expectedStatus !== 'skipped') {
        throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    },
    { auto: true },
  ],
});
