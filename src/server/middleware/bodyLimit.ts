/**
 * Body size limits: BODY_LIMIT_BYTES (1 MiB) for form and JSON bodies, UPLOAD_LIMIT_BYTES (11 MiB)
 * for multipart uploads. Over the limit: HTTP 413 with an envelope (`api.bodyTooLarge`).
 * Hono's bodyLimit trusts Content-Length when present and counts the stream otherwise.
 */
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config.ts';
import { bodyTooLarge } from '../envelope.ts';
import type { AppEnv } from '../types.ts';

export function apiBodyLimit(config: Pick<Config, 'bodyLimitBytes' | 'uploadLimitBytes'>) {
  const plain = bodyLimit({ maxSize: config.bodyLimitBytes, onError: (c) => bodyTooLarge(c) });
  const upload = bodyLimit({ maxSize: config.uploadLimitBytes, onError: (c) => bodyTooLarge(c) });
  return createMiddleware<AppEnv>(async (c, next) => {
    const type = c.req.header('content-type')?.toLowerCase() ?? '';
    const limit = type.startsWith('multipart/form-data') ? upload : plain;
    return limit(c, next);
  });
}
