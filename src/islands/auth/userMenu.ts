import type { MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { loginPath } from '../../lib/loginRedirect.ts';
import { localePath } from '../../lib/paths.ts';

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
] as const satisfies readonly MessageKey[];

export type UserMenuMessages = Record<(typeof userMenuMessageKeys)[number], string>;

export type UserMenuItem =
  | { kind: 'link'; href: string; label: string }
  | { kind: 'logout'; label: string };

/** What the account menu offers: sign-in entries to visitors, the personal area to users. */
export function userMenuItems(loggedIn: boolean, locale: Locale, messages: UserMenuMessages): UserMenuItem[] {
  const link = (path: string, label: string): UserMenuItem => ({ kind: 'link', href: localePath(locale, path), label });
  if (!loggedIn) {
    return [link(loginPath, messages['header.login']), link('/setting/register', messages['header.register'])];
  }
  return [
    link('/person/overview', messages['header.person']),
    link('/person/enterprise', messages['page.enterprise.title']),
    link('/person/order', messages['page.order.title']),
    link('/person/account', messages['page.account.title']),
    { kind: 'logout', label: messages['header.logout'] },
  ];
}
