/**
 * The suite's own check (support/test.ts): a Content-Security-Policy violation anywhere in a
 * test's browser context fails the test. Proven on a page served here under a strict policy with
 * one inline script the policy does not list.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test.ts';

const probe = 'http://csp-probe.test/';

async function openProbe(page: Page): Promise<void> {
  await page.route(probe, (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: { 'Content-Security-Policy': "script-src 'self'" },
      body: '<!doctype html><title>probe</title><script>document.title = "ran"</script>',
    }),
  );
  await page.goto(probe);
}

test('collects what a policy blocked, with the page it happened on', async ({ page, cspViolations }) => {
  await openProbe(page);
  await expect(page).toHaveTitle('probe');
  await expect.poll(() => cspViolations.length).toBe(1);
  expect(cspViolations[0]).toContain(probe);
  expect(cspViolations[0]).toMatch(/inline script violates .*script-src 'self'/);
  // Made on purpose: the next test shows what it does to a test that keeps it.
  cspViolations.length = 0;
});

test('fails a test whose page broke its policy', async ({ page }) => {
  test.fail(true, 'support/test.ts fails this test at its end: the inline script was blocked');
  const reported = page.waitForEvent('console', (message) => message.text().includes('Content Security Policy'));
  await openProbe(page);
  await reported;
  await expect(page).toHaveTitle('probe');
});

test('fails a test whose violation happened in a context it opened itself', async ({ browser }) => {
  test.fail(
    true,
    'support/test.ts watches the contexts of browser.newContext() too (the accessibility sweep opens its own)',
  );
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const reported = page.waitForEvent('console', (message) => message.text().includes('Content Security Policy'));
    await openProbe(page);
    await reported;
  } finally {
    await context.close();
  }
});
