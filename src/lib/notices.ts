/**
 * Notice types (DOMAIN.md, Notice), for the notice bell on every signed-in page and for the
 * schemas of the notice calls (schemas/account.ts). A plain module, not a schema module, so the
 * bell loads no validation code.
 */
export const noticeTypes = ['notification', 'message', 'event'] as const;
export type NoticeTypeName = (typeof noticeTypes)[number];
