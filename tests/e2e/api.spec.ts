import { expect, test } from './support/test.ts';

/** The API's plumbing as a browser meets it: envelope, 901, CSRF and localised validation. */
test.describe('API from the browser', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    await page.goto('/welcome/home');
  });

  test('a protected call without a session answers 901 in the envelope', async ({ page }) => {
    const body = await page.evaluate(() => fetch('/api/front/user/currentUser').then((r) => r.json()));
    expect(body).toMatchObject({ code: 901, data: {} });
    expect(typeof body.message).toBe('string');
  });

  test('a state-changing call without X-Requested-With is refused (CSRF)', async ({ page }) => {
    const refused = await page.evaluate(() =>
      fetch('/api/front/hgdsys/hgdClient/setProvince', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'areaCode=440000',
      }).then((r) => r.json()),
    );
    expect(refused.code).toBe(403);
    const accepted = await page.evaluate(() =>
      fetch('/api/front/hgdsys/hgdClient/setProvince', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest' },
        body: 'areaCode=440000',
      }).then((r) => r.json()),
    );
    expect(accepted).toMatchObject({ code: 200, data: { areaCode: '440000', areaName: '广东省' } });
  });

  test("validation failures answer 400 with the generic message in the caller's language", async ({ page }) => {
    const zh = await page.evaluate(() => fetch('/api/front/system/checkphonenum').then((r) => r.json()));
    expect(zh).toMatchObject({ code: 400, message: '请输入手机号' });
    const en = await page.evaluate(() =>
      fetch('/api/front/system/checkphonenum?phone=123', { headers: { 'Accept-Language': 'en-US' } }).then((r) =>
        r.json(),
      ),
    );
    expect(en).toMatchObject({ code: 400, message: 'Mobile number is not in the expected format' });
  });

  test('an unknown API path is a JSON 404', async ({ page }) => {
    const result = await page.evaluate(() =>
      fetch('/api/front/nothing/here').then(async (r) => ({ status: r.status, body: await r.json() })),
    );
    expect(result.status).toBe(404);
    expect(result.body.code).toBe(404);
  });
});
