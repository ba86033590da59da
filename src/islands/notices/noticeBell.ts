/** The notice bell's calls, messages and pure view logic (docs/accounts.md, "Notices"). */
import type { MessageKey } from '../../lib/i18n/index.ts';
import { noticeTypes, type NoticeTypeName } from '../../lib/notices.ts';
import type { Notice } from '../../stores/notices.ts';

export const NOTICE_READ_URL = '/api/notices/read';
export const NOTICE_CLEAR_URL = '/api/notices/clear';

export const noticeBellMessageKeys = [
  'account.notices.bell',
  'account.notices.bellUnread',
  'account.notices.panelLabel',
  'account.notices.tabsLabel',
  'account.notices.type.notification',
  'account.notices.type.message',
  'account.notices.type.event',
  'account.notices.unreadCount',
  'account.notices.markRead',
  'account.notices.unread',
  'account.notices.clear',
  'account.notices.confirmClear',
  'account.notices.empty',
  'account.notices.loginPrompt',
  'account.notices.loading',
  'account.common.cancel',
  'account.common.confirm',
  'account.common.loadFailed',
  'account.common.retry',
  'header.login',
] as const satisfies readonly MessageKey[];

export type NoticeBellMessages = Record<(typeof noticeBellMessageKeys)[number], string>;

export { noticeTypes };

/** The notices of one type and how many of them are unread. */
export function noticesOfType(list: readonly Notice[], type: NoticeTypeName): { items: Notice[]; unread: number } {
  const items = list.filter((notice) => notice.type === type);
  return { items, unread: items.filter((notice) => !notice.read).length };
}

/** Badge text: the number, capped so that it fits the bell. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
