/**
 * Uploading one certification file with real progress. The request client's `upload` with
 * `onProgress` sends it through XMLHttpRequest (fetch cannot report upload progress) with the
 * same `X-Requested-With` and `Accept-Language` headers and the same envelope rules (901 → login,
 * transport faults notified); this module adds what the server would refuse anyway, checked
 * before a byte is sent: the size and the type, by the file's first bytes as the server does.
 */
import { SESSION_EXPIRED } from '../../lib/apiCodes.ts';
import { upload, type UploadProgress } from '../../lib/api/client.ts';
import { authFileAccept, maxAuthFileBytes } from '../../lib/schemas/enterprise.ts';
import { serverFieldErrors } from '../auth/formValidation.ts';
import { AUTH_FILE_UPLOAD_URL } from './enterpriseCalls.ts';

/** What the file picker offers; the content check below is what counts. */
export const AUTH_FILE_ACCEPT = authFileAccept;

export type AuthFileProblem = 'empty' | 'tooLarge' | 'badType';

const signatures: readonly (readonly number[])[] = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0xff, 0xd8, 0xff], // JPEG
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
];

/** Whether the first bytes are those of a PDF, JPEG or PNG file. */
export function hasAllowedSignature(head: Uint8Array): boolean {
  return signatures.some((signature) => signature.every((byte, index) => head[index] === byte));
}

/** Why the file cannot be uploaded, or null when it can (size first: it needs no reading). */
export async function checkAuthFile(file: Blob): Promise<AuthFileProblem | null> {
  if (file.size === 0) return 'empty';
  if (file.size > maxAuthFileBytes) return 'tooLarge';
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  return hasAllowedSignature(head) ? null : 'badType';
}

export type UploadOutcome<T> =
  | { ok: true; data: T }
  /** Refused by the server: its message (a field error when it gave one). */
  | { ok: false; message: string }
  /** No answer to act on (network, HTTP error, 901, cancelled): the client has said why, or the user cancelled. */
  | undefined;

/** Sends one file of one kind; `onProgress` gets 0–100 as the bytes leave the browser. */
export async function uploadAuthFile<T>(
  kind: string,
  file: File,
  onProgress: (progress: UploadProgress) => void,
  signal: AbortSignal,
): Promise<UploadOutcome<T>> {
  const answer = await upload<T>(AUTH_FILE_UPLOAD_URL, { kind, file }, { quiet: true, onProgress, signal });
  if (!answer || answer.code === SESSION_EXPIRED) return undefined;
  if (answer.code === 200) return { ok: true, data: answer.data };
  const errors = serverFieldErrors(answer);
  return { ok: false, message: errors['file'] ?? Object.values(errors)[0] ?? answer.message };
}
