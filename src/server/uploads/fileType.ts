/**
 * What an uploaded file really is, read from its first bytes ("magic numbers"); the type the
 * browser declared and the file's extension are never trusted (DOMAIN.md, Security: uploads).
 * Only the three types certification accepts are recognised.
 */
import type { AuthFileContentType } from '../../lib/schemas/enterprise.ts';

const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpeg = [0xff, 0xd8, 0xff];
const pdf = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
}

/** The detected type, or null when the bytes are none of PDF, JPEG or PNG. */
export function detectAuthFileType(bytes: Uint8Array): AuthFileContentType | null {
  if (startsWith(bytes, pdf)) return 'application/pdf';
  if (startsWith(bytes, png)) return 'image/png';
  if (startsWith(bytes, jpeg)) return 'image/jpeg';
  return null;
}

/** The usual extension of a detected type, for a download's file name. */
export const extensionOf: Record<AuthFileContentType, string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
};
