/**
 * Every time the portal shows is China time (src/lib/chinaTime.ts), whatever the viewer's clock:
 * a browser in Los Angeles (16 hours behind China) sees a notice's time as a browser in China does.
 */
import { expect, test } from './support/test.ts';
import { formatChinaDateTime } from '../../src/lib/chinaTime.ts';
import { apiLogin } from './support/accountsFixtures.ts';

test('a viewer outside China sees China time on the overview and in the bell', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL: baseURL!, locale: 'zh-CN', timezoneId: 'America/Los_Angeles' });
  await context.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
  await apiLogin(context.request, baseURL!, 'demo_person', 'Person2025');
  const origin = new URL(baseURL!).origin;
  const answer = (await (
    await context.request.get('/api/notices', { headers: { 'X-Requested-With': 'XMLHttpRequest', Origin: origin } })
  ).json()) as { data: { datetime: string }[] };
  const first = answer.data[0];
  expect(first, 'demo_person has notices').toBeDefined();
  const china = formatChinaDateTime(first!.datetime, 'zh-CN');
  // What the browser's own clock would have said: a different hour, here 16 hours earlier.
  const local = new Intl.DateTimeFormat('zh-CN', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Los_Angeles',
  }).format(new Date(first!.datetime));
  expect(local).not.toBe(china);

  const page = await context.newPage();
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/Los_Angeles');
  await page.goto('/person/overview');
  await expect(page.getByText(china).first()).toBeVisible();
  await expect(page.getByText(local)).toHaveCount(0);
  await context.close();
});
