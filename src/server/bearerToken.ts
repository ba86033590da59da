/**
 * Bearer tokens of the calls guarded by a configured secret (REBUILD_TOKEN, METRICS_TOKEN): read
 * from the Authorization header and compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison: both sides hashed to equal length first, so neither length nor content leaks through timing. */
export function tokenMatches(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The token of `Authorization: Bearer <token>`, '' when the header is missing or another scheme. */
export function bearerToken(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? '';
}
