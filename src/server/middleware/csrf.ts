/**
 * CSRF (DOMAIN.md, Security): a state-changing /api call (any method but GET, HEAD, OPTIONS)
 * must carry `X-Requested-With: XMLHttpRequest` — which a cross-site form cannot send and a
 * cross-site fetch cannot send without a CORS preflight we never grant — and an `Origin` (else a
 * `Referer`) equal to the request's own origin or PUBLIC_ORIGIN. Otherwise: code 403 `api.csrf`.
 */
import { createMiddleware } from 'hono/factory';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { Config } from '../config.ts';
import { ApiError, type AnyContext } from '../envelope.ts';
import { requestOrigin } from '../request.ts';
import type { AppEnv } from '../types.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

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
    if (!safeMethods.has(c.req.method) && !isSameOriginRequest(c, config)) {
      throw new ApiError(ApiCode.FORBIDDEN, 'api.csrf');
    }
    await next();
  });
}
