/**
 * The setup the signed-in area's browser tests share: their pages in Chinese (the texts they look
 * for are the zh-CN dictionary's), a timeout that suits the loaded test machine, and the toast
 * finder.
 */
import type { Page } from '@playwright/test';
import { dictionaries } from '../../../src/lib/i18n/index.ts';
import { test } from './accountsFixtures.ts';

export const zh = dictionaries['zh-CN'];

/** Call at the top of a spec: every test of the file gets `timeout` and opens its pages in Chinese. */
export function chineseSpec(timeout: number): void {
  test.describe.configure({ timeout });
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  });
}

/** A toast (role status or alert) with this text. */
export function toast(page: Page, text: string) {
  return page.locator('[data-hgd-toasts] [role="status"], [data-hgd-toasts] [role="alert"]').filter({ hasText: text });
}
