/**
 * Shared by the personal-area islands: the user-info call, its messages, and how its values are
 * shown (roles, certification status, times).
 */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { UserInfoData } from '../../lib/schemas/account.ts';
import { applyUserInfo, currentUser, mapCurrentUser } from '../../stores/session.ts';

export const USER_INFO_URL = '/api/front/user/getUserInfo';

export const authStatusKeys = [
  'authStatus.0',
  'authStatus.1',
  'authStatus.2',
  'authStatus.3',
] as const satisfies readonly MessageKey[];

/** The certification status as words (spec §4): 0–3, any other value a dash. */
export function authStatusLabel(
  status: number | null | undefined,
  messages: Record<(typeof authStatusKeys)[number] | 'account.common.dash', string>,
): string {
  switch (status) {
    case 0:
      return messages['authStatus.0'];
    case 1:
      return messages['authStatus.1'];
    case 2:
      return messages['authStatus.2'];
    case 3:
      return messages['authStatus.3'];
    default:
      return messages['account.common.dash'];
  }
}

/** A date and time in China time, in the page's language (src/lib/chinaTime.ts). */
export { formatChinaDateTime as formatDateTime } from '../../lib/chinaTime.ts';

/** Keeps the shared current user in step with a user-info answer (mobile → telephone, spec §3). */
export function storeUserInfo(info: UserInfoData): void {
  const counts = currentUser.get();
  currentUser.set({
    ...applyUserInfo(mapCurrentUser(info), info),
    ...(counts.notifyCount === undefined ? {} : { notifyCount: counts.notifyCount }),
    ...(counts.unreadCount === undefined ? {} : { unreadCount: counts.unreadCount }),
  });
}
