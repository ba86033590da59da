/**
 * CSRF (DOMAIN.md, Security): a state-changing /api call (any method but GET, HEAD, OPTIONS, and
 * the GETs of `guardedGets`) must carry `X-Requested-With: XMLHttpRequest` — which a cross-site form cannot send and a
 * cross-site fetch cannot send without a CORS preflight we never grant — and an `Origin` (else a
 * `Referer`) equal to the request's own origin or PUBLIC_ORIGIN. Otherwise: code 403 `api.csrf`.
 */
import { createMiddleware } from 'hono/factory';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../apiError.ts';
import { type AnyContext } from '../envelope.ts';
import { requestOrigin } from '../request.ts';
import type { AppEnv } from '../types.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * GETs guarded like a POST: the spec makes cancelOrder a GET although it changes state, and every
 * export (`export…`) is a GET that makes a file from up to 200 000 rows. A link, an <img> or a
 * navigation from another site must not cancel an order or start that work; the portal's own
 * pages call them through the client (fetchDownload), which sends the header and the Referer.
 */
const guardedGets = /\/(cancelOrder|export[A-Za-z]*)$/;

/** Whether the call needs the same-origin proof. */
export function needsSameOrigin(method: string, path: string): boolean {
  return !safeMethods.has(method) || ((method === 'GET' || method === 'HEAD') && guardedGets.test(path));
}

function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

export function isSameOriginRequest(c: AnyContext, config: Pick<Config, 'trustProxy' | 'publicOrigin'>): boolean {
  if (c.req.header('x-requested-with')?.toLowerCase() !== 'xmlhttprequest') return false;
  const origin = c.req.header('origin');
  const source = origin !== undefined ? originOf(origin) : originOf(c.req.header('referer'));
  if (!source) return false;
  if (source === requestOrigin(c, config)) return true;
  return config.publicOrigin !== undefined && source === config.publicOrigin.toLowerCase();
}

export function csrfGuard(config: Pick<Config, 'trustProxy' | 'publicOrigin'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (needsSameOrigin(c.req.method, c.req.path) && !isSameOriginRequest(c, config)) {
      throw new ApiError(ApiCode.FORBIDDEN, 'api.csrf');
    }
    await next();
  });
}
