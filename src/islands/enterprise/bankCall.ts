/**
 * The bank calls of USB-key certification, answered in place: a refusal is shown beside the form
 * that caused it (field errors next to their fields), and the bank being down or slow (code 503)
 * is told apart, since then nothing changed and trying again later is the answer.
 */
import { get, post } from '../../lib/api/client.ts';
import { ApiCode, OK, SESSION_EXPIRED, type ApiEnvelope } from '../../lib/apiCodes.ts';
import type { RequestData } from '../../lib/api/encode.ts';
import { serverFieldErrors, type FieldErrors } from '../auth/formValidation.ts';

export type BankOutcome<T> =
  { ok: true; data: T } | { ok: false; bankDown: boolean; message: string; errors: FieldErrors } | undefined;

/** Long enough for a slow bank; the server gives up on the bank before this. */
const BANK_TIMEOUT_MS = 30_000;

function settle<T>(answer: ApiEnvelope<T> | undefined): BankOutcome<T> {
  if (!answer || answer.code === SESSION_EXPIRED) return undefined;
  if (answer.code === OK) return { ok: true, data: answer.data };
  return {
    ok: false,
    bankDown: answer.code === ApiCode.UPSTREAM_UNAVAILABLE,
    message: answer.message,
    errors: serverFieldErrors(answer),
  };
}

export async function bankGet<T>(url: string, params: RequestData): Promise<BankOutcome<T>> {
  return settle(await get<T>(url, params, { quiet: true, timeout: BANK_TIMEOUT_MS }));
}

export async function bankPost<T>(url: string, body: RequestData): Promise<BankOutcome<T>> {
  return settle(await post<T>(url, body, { quiet: true, timeout: BANK_TIMEOUT_MS }));
}
