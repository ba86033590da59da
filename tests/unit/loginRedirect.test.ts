import { describe, expect, it } from 'vitest';
import { afterLoginTarget, loginUrlFor } from '../../src/lib/loginRedirect.ts';

const origin = 'https://portal.example.cn';

describe('to login (logout, 901)', () => {
  it('carries the current full address as redirect', () => {
    const url = loginUrlFor(`${origin}/person/order?page=2#top`);
    expect(url).toBe(`/user/login?redirect=${encodeURIComponent(`${origin}/person/order?page=2#top`)}`);
  });

  it('keeps the locale of the current page', () => {
    expect(loginUrlFor(`${origin}/en-US/person/overview`)).toMatch(/^\/en-US\/user\/login\?redirect=/);
  });

  it('does nothing when already on the login page', () => {
    expect(loginUrlFor(`${origin}/user/login?redirect=x`)).toBeNull();
    expect(loginUrlFor(`${origin}/zh-TW/user/login`)).toBeNull();
  });
});

describe('after login', () => {
  const at = (redirect?: string) =>
    `${origin}/user/login${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`;

  it('goes to / without a redirect', () => {
    expect(afterLoginTarget(at())).toBe('/');
    expect(afterLoginTarget(at(''))).toBe('/');
  });

  it('follows a same-origin redirect, absolute or relative', () => {
    expect(afterLoginTarget(at(`${origin}/person/order?page=2`))).toBe('/person/order?page=2');
    expect(afterLoginTarget(at('/en-US/person/overview'))).toBe('/en-US/person/overview');
  });

  it('reduces a redirect with a hash route to the path after #', () => {
    expect(afterLoginTarget(at(`${origin}/#/person/overview`))).toBe('/person/overview');
  });

  it('keeps an ordinary fragment', () => {
    expect(afterLoginTarget(at(`${origin}/assistance#faq`))).toBe('/assistance#faq');
  });

  it('refuses other origins and scheme tricks', () => {
    expect(afterLoginTarget(at('https://evil.example.com/person'))).toBe('/');
    expect(afterLoginTarget(at('//evil.example.com/person'))).toBe('/');
    expect(afterLoginTarget(at('http://portal.example.cn/person'))).toBe('/');
    expect(afterLoginTarget(at('javascript:alert(1)'))).toBe('/');
    expect(afterLoginTarget(at('https://portal.example.cn.evil.com/'))).toBe('/');
  });
});
