import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { consoleStartFor } from '../../lib/consolePages.ts';
import { loginPath } from '../../lib/loginRedirect.ts';
import { localePath } from '../../lib/paths.ts';
import { studioRoles } from '../../lib/roles.ts';

export const userMenuMessageKeys = [
  'header.account',
  'header.accountMenu',
  'header.login',
  'header.register',
  'header.person',
  'header.logout',
  'page.enterprise.title',
  'page.order.title',
  'page.account.title',
  'header.studio',
  'header.console',
] as const satisfies readonly MessageKey[];

export type UserMenuMessages = Record<(typeof userMenuMessageKeys)[number], string>;

export type UserMenuItem = { kind: 'link'; href: string; label: string } | { kind: 'logout'; label: string };

/**
 * What the account menu offers: sign-in entries to visitors, the personal area to users, the
 * editors' studio to editors and operators, and the staff console to staff, at the first page
 * their duty opens (`roles`: the current user's, once known).
 */
export function userMenuItems(
  loggedIn: boolean,
  locale: Locale,
  messages: UserMenuMessages,
  roles: readonly string[] = [],
): UserMenuItem[] {
  const link = (path: string, label: string): UserMenuItem => ({ kind: 'link', href: localePath(locale, path), label });
  if (!loggedIn) {
    return [link(loginPath, messages['header.login']), link('/setting/register', messages['header.register'])];
  }
  const consoleStart = consoleStartFor(roles);
  return [
    link('/person/overview', messages['header.person']),
    link('/person/enterprise', messages['page.enterprise.title']),
    link('/person/order', messages['page.order.title']),
    link('/person/account', messages['page.account.title']),
    ...(studioRoles.some((role) => roles.includes(role)) ? [link('/studio', messages['header.studio'])] : []),
    ...(consoleStart ? [link(consoleStart, messages['header.console'])] : []),
    { kind: 'logout', label: messages['header.logout'] },
  ];
}
