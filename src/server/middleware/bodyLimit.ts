/**
 * Body size limits: BODY_LIMIT_BYTES (1 MiB) for every body, except multipart bodies sent to an
 * upload path (`uploadPaths`), which may reach UPLOAD_LIMIT_BYTES (11 MiB: a 10 MB file and its
 * form). Over the limit: HTTP 413 with an envelope (`api.bodyTooLarge`; on an upload path the
 * message says what the upload's limit is).
 * Hono's bodyLimit trusts Content-Length when present and counts the stream otherwise.
 */
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { Config } from '../config.ts';
import { bodyTooLarge, envelope, message } from '../envelope.ts';
import type { AppEnv } from '../types.ts';

/** The calls that take files (multipart); no other call gets more than BODY_LIMIT_BYTES. */
export const uploadPaths: ReadonlySet<string> = new Set([
  '/api/front/hgdarc/enterpriseauthfile/upload',
  '/api/ops/settlement/import',
  '/api/studio/image',
  '/api/studio/import',
]);

export function apiBodyLimit(config: Pick<Config, 'bodyLimitBytes' | 'uploadLimitBytes'>) {
  const plain = bodyLimit({ maxSize: config.bodyLimitBytes, onError: (c) => bodyTooLarge(c) });
  const upload = bodyLimit({
    maxSize: config.uploadLimitBytes,
    onError: (c) => envelope(c, ApiCode.PAYLOAD_TOO_LARGE, message(c, 'enterprise.error.uploadTooLarge'), {}, 413),
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    // A GET or HEAD has no body (bodyLimit would find none), and asking for it builds a whole Web
    // Request from the Node one on every call (its cost is measured in docs/performance.md).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const type = c.req.header('content-type')?.toLowerCase() ?? '';
    const limit = type.startsWith('multipart/form-data') && uploadPaths.has(c.req.path) ? upload : plain;
    return limit(c, next);
  });
}
