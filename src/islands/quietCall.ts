/**
 * A call whose business refusal (409 wrong state, 404 not found, 400 from a hand-edited address)
 * the island shows itself, beside the button or in place of the data, instead of as a toast
 * that passes. Transport faults and 901 stay the request client's (docs/request-client.md).
 */
import { OK, SESSION_EXPIRED } from '../lib/apiCodes.ts';
import { request } from '../lib/api/client.ts';
import type { RequestData } from '../lib/api/encode.ts';

export type CallOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; code: number; message: string }
  /** No answer to act on (network, HTTP error, 901): the request client has already said why. */
  | undefined;

export async function callQuiet<T>(method: 'GET' | 'POST', url: string, data?: RequestData): Promise<CallOutcome<T>> {
  const payload = data === undefined ? {} : method === 'GET' ? { params: data } : { data };
  const answer = await request<T>(url, { method, quiet: true, ...payload });
  if (!answer || answer.code === SESSION_EXPIRED) return undefined;
  if (answer.code === OK) return { ok: true, data: answer.data };
  return { ok: false, code: answer.code, message: answer.message };
}
