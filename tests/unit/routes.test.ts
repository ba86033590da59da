import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { pageRoutes, redirects, sectionNav, sideMenuOf } from '../../src/lib/routes.ts';
import { userMenuItems } from '../../src/islands/auth/userMenu.ts';
import { pick } from '../../src/lib/i18n/index.ts';
import { userMenuMessageKeys } from '../../src/islands/auth/userMenu.ts';

describe('route table', () => {
  it('has a page file for every route', () => {
    for (const route of pageRoutes) {
      expect(existsSync(`src/pages/[...locale]${route.path}.astro`), route.path).toBe(true);
    }
  });

  it('has a title and a lead for every page', () => {
    for (const route of pageRoutes) {
      expect(dictionaries['zh-CN'][`page.${route.key}.title`]).toBeTruthy();
      expect(dictionaries['zh-CN'][`page.${route.key}.lead`]).toBeTruthy();
    }
  });

  it('redirects only to real pages, in one hop', () => {
    const paths = new Set(pageRoutes.map((r) => r.path));
    for (const [source, target] of Object.entries(redirects)) {
      expect(paths.has(target), `${source} → ${target}`).toBe(true);
      expect(redirects[target], `${target} is itself redirected`).toBeUndefined();
    }
  });

  it("follows the spec's redirects", () => {
    expect(redirects['/']).toBe('/welcome/home');
    expect(redirects['/infomation']).toBe('/infomation/list');
    expect(redirects['/person']).toBe('/person/overview');
    expect(redirects['/partner']).toBe('/partner/query/settlement');
    expect(redirects['/partner/analysis']).toBe('/partner/analysis/statistics');
    expect(redirects['/handle']).toBe('/handle/order');
  });

  it('lists only known pages in section menus', () => {
    const keys = new Set(pageRoutes.map((r) => r.key));
    for (const entries of Object.values(sectionNav)) for (const key of entries) expect(keys.has(key)).toBe(true);
  });

  it('shows every page beside a side menu that has its entry marked current', () => {
    for (const route of pageRoutes) {
      const menu = sideMenuOf(route.key);
      if (menu) expect(menu.entries, route.path).toContain(menu.current);
    }
  });

  it("puts an order's detail under 我的订单, not under the certification menu", () => {
    expect(sideMenuOf('orderDetail')).toEqual({ entries: sectionNav.person, current: 'order' });
    expect(sideMenuOf('usbkey')).toEqual({ entries: sectionNav.certify, current: 'usbkey' });
  });
});

describe('account menu', () => {
  const messages = pick('zh-CN', userMenuMessageKeys);

  it('offers login and registration to visitors, in the page locale', () => {
    expect(userMenuItems(false, 'en-US', pick('en-US', userMenuMessageKeys))).toEqual([
      { kind: 'link', href: '/en-US/user/login', label: 'Log in' },
      { kind: 'link', href: '/en-US/setting/register', label: 'Register' },
    ]);
  });

  it('offers the personal area and logout to signed-in users', () => {
    const items = userMenuItems(true, 'zh-CN', messages);
    expect(items.map((i) => (i.kind === 'link' ? i.href : i.kind))).toEqual([
      '/person/overview',
      '/person/enterprise',
      '/person/order',
      '/person/account',
      'logout',
    ]);
  });

  it("offers the editors' studio to editors and operators only", () => {
    const studio = (roles: string[]) =>
      userMenuItems(true, 'en-US', pick('en-US', userMenuMessageKeys), roles).find(
        (item) => item.kind === 'link' && item.href === '/en-US/studio',
      );
    expect(studio(['editor'])).toEqual({ kind: 'link', href: '/en-US/studio', label: "Editors' studio" });
    expect(studio(['individual', 'operator'])).toBeDefined();
    expect(studio(['enterprise'])).toBeUndefined();
    expect(studio([])).toBeUndefined();
  });

  it('offers the staff console at the first page of the duty held, and nothing to others', () => {
    const consoleLink = (roles: string[]) =>
      userMenuItems(true, 'en-US', pick('en-US', userMenuMessageKeys), roles).find(
        (item) => item.kind === 'link' && item.href.startsWith('/en-US/ops/'),
      );
    expect(consoleLink(['operator'])).toEqual({
      kind: 'link',
      href: '/en-US/ops/certifications',
      label: 'Operator review',
    });
    expect(consoleLink(['auditor'])).toMatchObject({ href: '/en-US/ops/audit' });
    expect(consoleLink(['admin'])).toMatchObject({ href: '/en-US/ops/staff' });
    expect(consoleLink(['editor'])).toBeUndefined();
    expect(consoleLink(['partner', 'enterprise'])).toBeUndefined();
  });
});
