/**
 * The user's notices (the notice bell): each has an id, a read flag and a type (notification,
 * message or event). Marking one read happens locally; clearing removes every notice of one type.
 * After every change the counts on the current user are recalculated: notifyCount = number of
 * notices, unreadCount = number not read (spec section 4).
 */
import { atom } from 'nanostores';
import { get } from '../lib/api/client.ts';
import { applyNoticeCounts, currentUser, loginStatus, type NoticeCounts } from './session.ts';

export const NOTICES_URL = '/api/notices';

export type NoticeType = 'notification' | 'message' | 'event';

export interface Notice {
  id: string | number;
  type: NoticeType | (string & {});
  read?: boolean;
  title?: string;
  description?: string;
  datetime?: string;
}

export const notices = atom<readonly Notice[]>([]);

export function countNotices(list: readonly Notice[]): NoticeCounts {
  return { totalCount: list.length, unreadCount: list.filter((notice) => !notice.read).length };
}

/** Replaces the list and recalculates the counts on the current user. */
export function setNotices(list: readonly Notice[]): void {
  notices.set(list);
  currentUser.set(applyNoticeCounts(currentUser.get(), countNotices(list)));
}

/** Marks one notice read (locally). */
export function markRead(id: Notice['id']): void {
  setNotices(notices.get().map((notice) => (notice.id === id ? { ...notice, read: true } : notice)));
}

/** Removes every notice of one type. */
export function clearType(type: Notice['type']): void {
  setNotices(notices.get().filter((notice) => notice.type !== type));
}

/**
 * Loads the notices (GET /api/notices, an array). Without a session it quietly does nothing:
 * the bell is in the header of every page.
 */
export async function loadNotices(): Promise<readonly Notice[] | undefined> {
  const list = await get<Notice[]>(NOTICES_URL, undefined, { allowAnonymous: true });
  if (!Array.isArray(list)) return undefined;
  setNotices(list);
  return list;
}

// Logging out (or a 901) empties the list; session.ts empties the user.
loginStatus.listen((status) => {
  if (status === null) notices.set([]);
});
