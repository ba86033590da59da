/**
 * The spec's route table (section 2): every page, its layout and its title, and every redirect.
 * Pages, the header navigation, the server's redirects and the route tests all read this one list.
 */
import type { MessageKey } from './i18n/index.ts';
import { consolePages } from './consolePages.ts';
import { studioRoles, type UserRole } from './roles.ts';

export type LayoutName = 'base' | 'user' | 'setting' | 'person' | 'certify' | 'handle' | 'partner' | 'ops' | 'studio';

/** Who may open a page; protected pages check the session in the browser (901 → login). */
export type Access = 'public' | 'session';

export interface PageRoute {
  /** Path without locale prefix and without trailing slash. */
  path: string;
  /** Page key: `page.<key>.title` and `page.<key>.lead` in the dictionaries. */
  key: PageKey;
  layout: LayoutName;
  access: Access;
  /** The role a signed-in user needs besides a session, or the roles any one of which will do (the page's island calls check it too). */
  role?: UserRole | readonly UserRole[];
  /**
   * The menu entry a page sits under when it is not in its own layout's menu (an order's detail
   * under 我的订单): its side menu is that entry's section menu, with that entry current.
   */
  under?: PageKey;
}

export type PageKey =
  | 'home'
  | 'welcomeDetail'
  | 'welcomeForm'
  | 'business'
  | 'products'
  | 'newsList'
  | 'newsDetail'
  | 'help'
  | 'login'
  | 'modify'
  | 'register'
  | 'binding'
  | 'overview'
  | 'enterprise'
  | 'order'
  | 'account'
  | 'settlement'
  | 'statistics'
  | 'institution'
  | 'trend'
  | 'organization'
  | 'orderDetail'
  | 'certifyEnterprise'
  | 'certificate'
  | 'usbkey'
  | 'handleOrder'
  | 'opsCertifications'
  | 'opsOrders'
  | 'opsAudit'
  | 'opsSettlements'
  | 'opsStaff'
  | 'studio'
  | 'studioItems'
  | 'studioEdit'
  | 'studioHistory'
  | 'studioChanges'
  | 'studioPublications'
  | 'studioMedia'
  | 'search';

export const pageRoutes: readonly PageRoute[] = [
  { path: '/welcome/home', key: 'home', layout: 'base', access: 'public' },
  { path: '/welcome/detail', key: 'welcomeDetail', layout: 'base', access: 'public' },
  { path: '/welcome/form', key: 'welcomeForm', layout: 'base', access: 'public' },
  { path: '/business', key: 'business', layout: 'base', access: 'public' },
  { path: '/products', key: 'products', layout: 'base', access: 'public' },
  { path: '/infomation/list', key: 'newsList', layout: 'base', access: 'public' },
  { path: '/infomation/detail', key: 'newsDetail', layout: 'base', access: 'public' },
  { path: '/assistance', key: 'help', layout: 'base', access: 'public' },
  { path: '/search', key: 'search', layout: 'base', access: 'public' },
  { path: '/user/login', key: 'login', layout: 'user', access: 'public' },
  { path: '/setting/modify', key: 'modify', layout: 'setting', access: 'public' },
  { path: '/setting/register', key: 'register', layout: 'setting', access: 'public' },
  { path: '/setting/binding', key: 'binding', layout: 'setting', access: 'session' },
  { path: '/person/overview', key: 'overview', layout: 'person', access: 'session' },
  { path: '/person/enterprise', key: 'enterprise', layout: 'person', access: 'session' },
  { path: '/person/order', key: 'order', layout: 'person', access: 'session' },
  { path: '/person/account', key: 'account', layout: 'person', access: 'session' },
  { path: '/partner/query/settlement', key: 'settlement', layout: 'partner', access: 'session', role: 'partner' },
  { path: '/partner/analysis/statistics', key: 'statistics', layout: 'partner', access: 'session', role: 'partner' },
  { path: '/partner/analysis/institution', key: 'institution', layout: 'partner', access: 'session', role: 'partner' },
  { path: '/partner/analysis/trend', key: 'trend', layout: 'partner', access: 'session', role: 'partner' },
  { path: '/partner/organization', key: 'organization', layout: 'partner', access: 'session', role: 'partner' },
  { path: '/certify/order/detail', key: 'orderDetail', layout: 'certify', access: 'session', under: 'order' },
  { path: '/certify/enterprise', key: 'certifyEnterprise', layout: 'certify', access: 'session' },
  { path: '/certify/enterprise/certificate', key: 'certificate', layout: 'certify', access: 'session' },
  { path: '/certify/enterprise/usbkey', key: 'usbkey', layout: 'certify', access: 'session' },
  { path: '/handle/order', key: 'handleOrder', layout: 'handle', access: 'session' },
  // The staff console (运营审核): hidden from every menu but its own and the account menu's link
  // for staff; each page for one staff duty (consolePages.ts).
  ...consolePages.map((page) => ({ ...page, layout: 'ops' as const, access: 'session' as const })),
  // The editors' studio (内容工作台): hidden from public menus, reached from the account menu; editors and operators.
  { path: '/studio', key: 'studio', layout: 'studio', access: 'session', role: studioRoles },
  {
    path: '/studio/items',
    key: 'studioItems',
    layout: 'studio',
    access: 'session',
    role: studioRoles,
    under: 'studio',
  },
  { path: '/studio/edit', key: 'studioEdit', layout: 'studio', access: 'session', role: studioRoles, under: 'studio' },
  {
    path: '/studio/history',
    key: 'studioHistory',
    layout: 'studio',
    access: 'session',
    role: studioRoles,
    under: 'studio',
  },
  { path: '/studio/changes', key: 'studioChanges', layout: 'studio', access: 'session', role: studioRoles },
  { path: '/studio/publications', key: 'studioPublications', layout: 'studio', access: 'session', role: studioRoles },
  { path: '/studio/media', key: 'studioMedia', layout: 'studio', access: 'session', role: studioRoles },
];

/**
 * Redirects, source → final target in one hop (the spec chains `/` → /welcome → /welcome/home;
 * we go straight to the end). Our server answers them with 301; the build also writes a small
 * redirect page at each source so a plain static host with no rewrite rules behaves the same.
 */
export const redirects: Readonly<Record<string, string>> = {
  '/': '/welcome/home',
  '/welcome': '/welcome/home',
  '/infomation': '/infomation/list',
  '/user': '/user/login',
  '/person': '/person/overview',
  '/partner': '/partner/query/settlement',
  '/partner/query': '/partner/query/settlement',
  '/partner/analysis': '/partner/analysis/statistics',
  '/certify': '/certify/enterprise',
  '/handle': '/handle/order',
  '/ops': '/ops/certifications',
};

/** `/index.html` is the file behind `/` on a static host, so it needs no page of its own. */
export const serverOnlyRedirects: Readonly<Record<string, string>> = {
  '/index.html': '/welcome/home',
};

/**
 * The spec's query forms of the public pages (`/products?id=id3`, `/infomation/detail?newsId=…`)
 * and the path form each one now lives at (`/products/id3`). Our server answers them with 301;
 * the static page at `path` carries a few inline lines doing the same on a plain static host.
 */
export const queryForms: readonly { path: string; param: string }[] = [
  { path: '/products', param: 'id' },
  { path: '/infomation/detail', param: 'newsId' },
  { path: '/welcome/detail', param: 'noticeId' },
  { path: '/assistance', param: 'documentId' },
];

/** What an id in a query form may look like before it becomes a path segment (no open redirect). */
export const queryFormIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export function findPageKey(key: PageKey): PageRoute | undefined {
  return pageRoutes.find((route) => route.key === key);
}

/** The roles any one of which opens a page besides a session; empty when a session is enough. */
export function rolesOf(route: PageRoute): readonly UserRole[] {
  return route.role === undefined ? [] : [route.role].flat();
}

/** Top navigation of the public site, in order. */
export const mainNav: readonly { path: string; label: MessageKey }[] = [
  { path: '/welcome/home', label: 'nav.home' },
  { path: '/business', label: 'nav.business' },
  { path: '/products', label: 'nav.products' },
  { path: '/infomation/list', label: 'nav.news' },
  { path: '/assistance', label: 'nav.help' },
];

/** Section menus of the layouts that have one. */
export const sectionNav: Partial<Record<LayoutName, readonly PageKey[]>> = {
  person: ['overview', 'enterprise', 'order', 'account'],
  partner: ['settlement', 'statistics', 'institution', 'trend', 'organization'],
  certify: ['certifyEnterprise', 'certificate', 'usbkey'],
  ops: /* @__PURE__ */ consolePages.map((page) => page.key),
  studio: ['studio', 'studioChanges', 'studioPublications', 'studioMedia'],
};

/**
 * The side menu of a page: its own layout's menu, or the menu of the entry it sits under
 * (`under`), with the entry to mark current. Undefined where the layout has no menu.
 */
export function sideMenuOf(page: PageKey): { entries: readonly PageKey[]; current: PageKey } | undefined {
  const route = findPageKey(page);
  if (!route) return undefined;
  const current = route.under ?? route.key;
  const layout = findPageKey(current)?.layout ?? route.layout;
  const entries = sectionNav[layout];
  return entries ? { entries, current } : undefined;
}
