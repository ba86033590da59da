import { describe, expect, it } from 'vitest';
import { createTestApp, openPerFile, testOrigin } from './harness.ts';

const t = openPerFile(() => createTestApp({ env: { PUBLIC_ORIGIN: 'https://portal.example.com' } }));

const forbidden = { code: 403, message: '请求来源校验失败，请刷新页面后重试', data: {} };

const setProvince = (headers: Record<string, string>) =>
  t.app.request('/api/front/hgdsys/hgdClient/setProvince', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: 'areaCode=440000',
  });

describe('CSRF', () => {
  it('rejects a POST without X-Requested-With', async () => {
    const res = await setProvince({ Origin: testOrigin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(forbidden);
  });

  it('rejects a foreign Origin', async () => {
    const res = await setProvince({ 'X-Requested-With': 'XMLHttpRequest', Origin: 'https://evil.example' });
    expect(await res.json()).toEqual(forbidden);
  });

  it('rejects an Origin that differs only by scheme or port', async () => {
    for (const origin of ['https://localhost', 'http://localhost:8080', 'null']) {
      const res = await setProvince({ 'X-Requested-With': 'XMLHttpRequest', Origin: origin });
      expect(await res.json(), origin).toEqual(forbidden);
    }
  });

  it('rejects a call with neither Origin nor Referer', async () => {
    const res = await setProvince({ 'X-Requested-With': 'XMLHttpRequest' });
    expect(await res.json()).toEqual(forbidden);
  });

  it('accepts the same origin', async () => {
    const res = await setProvince({ 'X-Requested-With': 'XMLHttpRequest', Origin: testOrigin });
    expect(((await res.json()) as { code: number }).code).toBe(200);
  });

  it('accepts a same-origin Referer when Origin is absent, and rejects a foreign one', async () => {
    const ok = await setProvince({ 'X-Requested-With': 'XMLHttpRequest', Referer: `${testOrigin}/welcome/home?x=1` });
    expect(((await ok.json()) as { code: number }).code).toBe(200);
    const bad = await setProvince({ 'X-Requested-With': 'XMLHttpRequest', Referer: 'https://evil.example/page' });
    expect(await bad.json()).toEqual(forbidden);
  });

  it('accepts PUBLIC_ORIGIN', async () => {
    const res = await setProvince({ 'X-Requested-With': 'XMLHttpRequest', Origin: 'https://portal.example.com' });
    expect(((await res.json()) as { code: number }).code).toBe(200);
  });

  it('checks the Host the client used', async () => {
    const res = await setProvince({
      'X-Requested-With': 'XMLHttpRequest',
      Host: 'portal.internal:4321',
      Origin: 'http://portal.internal:4321',
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
  });

  it('rejects a logout from another site, keeping the session', async () => {
    const cookie = await t.login('demo_person');
    const res = await t.app.request('/api/front/system/logout', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Requested-With': 'XMLHttpRequest', Origin: 'https://evil.example' },
    });
    expect(await res.json()).toEqual(forbidden);
    const me = await t.app.request('/api/front/user/currentUser', { headers: { Cookie: cookie } });
    expect(((await me.json()) as { code: number }).code).toBe(200);
  });

  it('does not check GET calls', async () => {
    const res = await t.app.request('/api/front/system/checkphonenum?phone=13800138001', {
      headers: { Origin: 'https://evil.example' },
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
  });

  it('answers in the caller locale', async () => {
    const res = await setProvince({ 'Accept-Language': 'en-US' });
    expect(((await res.json()) as { message: string }).message).toBe(
      "The request's origin could not be verified. Refresh the page and try again.",
    );
  });
});

describe('forwarded headers', () => {
  it('are ignored without TRUST_PROXY', async () => {
    const res = await setProvince({
      'X-Requested-With': 'XMLHttpRequest',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'https',
      Origin: 'https://evil.example',
    });
    expect(await res.json()).toEqual(forbidden);
  });

  it('are believed with TRUST_PROXY=1', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const res = await proxied.app.request('/api/front/hgdsys/hgdClient/setProvince', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Requested-With': 'XMLHttpRequest',
          'X-Forwarded-Host': 'portal.example.org',
          'X-Forwarded-Proto': 'https',
          Origin: 'https://portal.example.org',
        },
        body: 'areaCode=440000',
      });
      expect(((await res.json()) as { code: number }).code).toBe(200);
      // …and the session cookie becomes Secure over https.
      const logout = await proxied.app.request('/api/front/system/logout', {
        method: 'POST',
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          'X-Forwarded-Host': 'portal.example.org',
          'X-Forwarded-Proto': 'https',
          Origin: 'https://portal.example.org',
        },
      });
      expect(logout.headers.get('set-cookie')).toMatch(/Secure/i);
    } finally {
      await proxied.close();
    }
  });
});
