/**
 * One form submission through the request client, quiet so that a validation answer (code 400
 * with `data.errors`) lands next to its fields instead of in a toast. Any other refusal is shown
 * as the client would show it (an error toast with the server's message); transport faults and
 * 901 are handled by the client itself.
 */
import { OK, SESSION_EXPIRED, type ApiEnvelope } from '../../lib/apiCodes.ts';
import { get, post } from '../../lib/api/client.ts';
import type { RequestData } from '../../lib/api/encode.ts';
import { message } from '../../lib/api/notify.ts';
import { serverFieldErrors, type FieldErrors } from './formValidation.ts';

export type FormOutcome<T> =
  | { ok: true; data: T; message: string }
  | { ok: false; code: number; message: string; data: unknown; errors: FieldErrors }
  /** No answer to act on (network, HTTP error, 901): the client has already said why. */
  | undefined;

function settle<T>(answer: ApiEnvelope<T> | undefined): FormOutcome<T> {
  // 901: the client has already cleared the login status and is leaving for the login page.
  if (!answer || answer.code === SESSION_EXPIRED) return undefined;
  if (answer.code === OK) return { ok: true, data: answer.data, message: answer.message };
  const errors = serverFieldErrors(answer);
  // Field errors are shown beside the fields; anything else gets the usual toast.
  if (Object.keys(errors).length === 0 && answer.message) message.error(answer.message);
  return { ok: false, code: answer.code, message: answer.message, data: answer.data, errors };
}

export async function postForm<T>(url: string, body: RequestData): Promise<FormOutcome<T>> {
  return settle(await post<T>(url, body, { quiet: true }));
}

export async function getForm<T>(url: string, params?: RequestData): Promise<FormOutcome<T>> {
  return settle(await get<T>(url, params, { quiet: true }));
}
