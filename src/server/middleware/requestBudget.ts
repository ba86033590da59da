/**
 * A time budget per /api call: the answer must start within REQUEST_TIMEOUT_MS (UPLOAD_TIMEOUT_MS
 * for the upload calls, whose body may arrive slowly). Past it the caller gets HTTP 503 with the
 * `api.timeout` envelope and the server goes on serving others; the work left behind ends on its
 * own bounds (the database's statement timeout, the loops' hard limits). A streamed answer (an
 * export) is bounded by its row cap once its first bytes are out.
 *
 * This cannot interrupt JavaScript that never yields; that is why every loop over input-derived
 * ranges has a hard bound (e.g. `periodsBetween`), and why the budget is the second line.
 */
import { createMiddleware } from 'hono/factory';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { Config } from '../config.ts';
import { envelope, message } from '../envelope.ts';
import type { AppEnv } from '../types.ts';
import { uploadPaths } from './bodyLimit.ts';

export function requestBudget(config: Pick<Config, 'requestTimeoutMs' | 'uploadTimeoutMs'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const budget = uploadPaths.has(c.req.path) ? config.uploadTimeoutMs : config.requestTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), budget);
    });
    try {
      // next() keeps running after a timeout; its outcome is dropped (Promise.race observes it).
      const outcome = await Promise.race([next(), expired]);
      if (outcome === 'expired') {
        c.get('log')?.warn({ path: c.req.path, budgetMs: budget }, 'request over its time budget');
        c.res = envelope(c, ApiCode.SERVICE_UNAVAILABLE, message(c, 'api.timeout'), {}, 503);
      }
    } finally {
      clearTimeout(timer);
    }
  });
}
