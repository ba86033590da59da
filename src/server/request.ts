/**
 * Facts about the request that depend on the deployment: the client's address, the scheme and
 * the origin. Forwarded headers are believed only with TRUST_PROXY=1 (behind a proxy that sets
 * them); otherwise a client could claim any address or scheme.
 */
import type { IncomingMessage } from 'node:http';
import type { Config } from './config.ts';
import type { AnyContext } from './envelope.ts';

type ProxyConfig = Pick<Config, 'trustProxy'>;

function firstForwarded(value: string | undefined): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first ? first : undefined;
}

/** The client's IP address, or null when unknown (in-process test requests). */
export function clientIp(c: AnyContext, config: ProxyConfig): string | null {
  if (config.trustProxy) {
    const forwarded = firstForwarded(c.req.header('x-forwarded-for'));
    if (forwarded) return forwarded;
  }
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}

/** `https:` or `http:` as the client sees it. */
export function requestProtocol(c: AnyContext, config: ProxyConfig): 'http:' | 'https:' {
  if (config.trustProxy) {
    const proto = firstForwarded(c.req.header('x-forwarded-proto'))?.toLowerCase();
    if (proto === 'https' || proto === 'http') return `${proto}:`;
  }
  return new URL(c.req.url).protocol === 'https:' ? 'https:' : 'http:';
}

/** The request's own origin (scheme + host as the client addressed it). */
export function requestOrigin(c: AnyContext, config: ProxyConfig): string {
  const url = new URL(c.req.url);
  const forwardedHost = config.trustProxy ? firstForwarded(c.req.header('x-forwarded-host')) : undefined;
  const host = forwardedHost ?? c.req.header('host') ?? url.host;
  return `${requestProtocol(c, config)}//${host}`.toLowerCase();
}

/** Whether cookies set on this response should be Secure. */
export function secureCookies(c: AnyContext, config: Pick<Config, 'trustProxy' | 'cookieSecure'>): boolean {
  if (config.cookieSecure === 'always') return true;
  if (config.cookieSecure === 'never') return false;
  return requestProtocol(c, config) === 'https:';
}
