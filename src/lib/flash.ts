/**
 * A message that must survive the navigation right after it: "登录成功！" on the page the user is
 * sent to after login, "安全退出！" on the login page after logout. A toast shown just before
 * `location.assign` is destroyed with the page, so the text is kept in sessionStorage (this tab
 * only) and shown by the next page (src/components/FlashMessage.astro, a few inline lines that
 * need no bundle), then removed.
 */
export const FLASH_STORAGE_KEY = 'hgd.flash';

export type FlashKind = 'success' | 'info';

export interface Flash {
  kind: FlashKind;
  text: string;
}

/** Keeps `text` for the next page this tab shows. */
export function flashOnNextPage(kind: FlashKind, text: string): void {
  if (!text) return;
  try {
    sessionStorage.setItem(FLASH_STORAGE_KEY, JSON.stringify({ kind, text } satisfies Flash));
  } catch {
    // Storage disabled: the message is lost, the navigation still happens.
  }
}
