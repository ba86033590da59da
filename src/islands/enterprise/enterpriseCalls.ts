/**
 * The calls of the enterprise record and its certification (docs/enterprises.md), and how their
 * values are shown. Shared by the islands under src/islands/enterprise and the operator's review.
 */
import { get } from '../../lib/api/client.ts';
import { message } from '../../lib/api/notify.ts';
import { NOT_FOUND, OK, SESSION_EXPIRED } from '../../lib/apiCodes.ts';
import { authStatusKey } from '../../lib/authStatus.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatDateTime } from '../person/personData.ts';
import type { CertifyMessages } from './certifyMessages.ts';

const ENTERPRISE_BASE = '/api/front/hgdarc/enterpriseuser';
const AUTH_FILE_BASE = '/api/front/hgdarc/enterpriseauthfile';

export const ENTERPRISE_GET_URL = `${ENTERPRISE_BASE}/get`;
export const ENTERPRISE_ADD_URL = `${ENTERPRISE_BASE}/add`;
export const ENTERPRISE_EDIT_URL = `${ENTERPRISE_BASE}/edit`;
export const ENTERPRISE_DRAFT_URL = `${ENTERPRISE_BASE}/temporarySave`;
export const ENTERPRISE_DELETE_URL = `${ENTERPRISE_BASE}/del`;
export const ENTERPRISE_SUBMIT_URL = `${ENTERPRISE_BASE}/editAuthInfo`;
export const ENTERPRISE_TABLE_URL = `${ENTERPRISE_BASE}/getAntTable`;
export const AUTH_FILE_UPLOAD_URL = `${AUTH_FILE_BASE}/upload`;
export const AUTH_FILE_DELETE_URL = `${AUTH_FILE_BASE}/deleteElectricity`;
export const BANK_ACCOUNT_URL = '/api/front/thirdparty/getIcbcAccountInfo';
export const BANK_SAVE_URL = '/api/front/thirdparty/saveEmp';
export const BANK_REMOVE_URL = '/api/front/user/removeIcbcAuth';
/** The sandbox bank's stand-in for the signing driver a real USB key brings to the browser. */
export const USB_KEY_SIGN_URL = '/api/sandbox/icbc/usbkey/sign';
/** Which bank is behind USB-key certification: the demo sandbox, or none (not offered). */
export const USB_KEY_BANK_URL = '/api/front/thirdparty/getUsbKeyBank';
export const OPS_APPROVE_URL = '/api/ops/certification/approve';
export const OPS_RETURN_URL = '/api/ops/certification/return';
export const OPS_REVEAL_URL = '/api/ops/certification/reveal';

/** The certification status in words (spec §4): 0–3, any other value a dash. */
export function authStatusWord(status: unknown, messages: CertifyMessages): string {
  const key = authStatusKey(status);
  return key ? messages[key] : messages['certify.common.dash'];
}

/** Certificate upload and submission are open while not certified (0) or returned (3). */
export function certificateOpen(status: number): boolean {
  return status === 0 || status === 3;
}

/** A value as shown in a record: the dash for nothing. */
export function shown(value: string | number | null | undefined, messages: CertifyMessages): string {
  return value === null || value === undefined || value === '' ? messages['certify.common.dash'] : String(value);
}

/** A time as shown in a record: in the page's language, the dash for none. */
export function shownTime(iso: string | null | undefined, locale: Locale, messages: CertifyMessages): string {
  return iso ? formatDateTime(iso, locale) : messages['certify.common.dash'];
}

/** A file size in the page's language (kB under a megabyte, else MB). */
export function fileSize(bytes: number, locale: Locale): string {
  const megabytes = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: megabytes ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: 1,
  }).format(megabytes ? bytes / (1024 * 1024) : Math.max(bytes / 1024, 0.1));
}

export type EnterpriseLoad<T> = { state: 'ready'; enterprise: T } | { state: 'none' } | { state: 'failed' };

/**
 * The enterprise record (the user's own, or `id` for an operator). "No enterprise" is an answer
 * here, not an error: code 404 becomes `none` without a toast. Any other refusal is shown as the
 * client shows it; 901 has already sent the browser to the login page (`undefined`).
 */
export async function loadEnterprise<T>(id?: number): Promise<EnterpriseLoad<T> | undefined> {
  const answer = await get<T>(ENTERPRISE_GET_URL, id === undefined ? undefined : { id }, { quiet: true });
  if (!answer) return { state: 'failed' };
  if (answer.code === SESSION_EXPIRED) return undefined;
  if (answer.code === OK) return { state: 'ready', enterprise: answer.data };
  if (answer.code === NOT_FOUND && id === undefined) return { state: 'none' };
  if (answer.message) message.error(answer.message);
  return { state: 'failed' };
}
