/**
 * Security headers for pages and API. The pages are static HTML with small inline scripts in
 * <head> (stored-preference redirects) and Astro's inline island loaders, so the CSP allows
 * inline scripts and styles from this origin but nothing from elsewhere, no plugins, no framing.
 */
import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';

export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", "'unsafe-inline'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * The headers above on every answer; a handler that set a stricter Content-Security-Policy of its
 * own (the download of an uploaded image: `sandbox`) keeps it.
 */
export function securityHeaders() {
  const standard = secureHeaders({
    contentSecurityPolicy,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
  });
  return createMiddleware(async (c, next) => {
    let own: string | null = null;
    await standard(c, async () => {
      await next();
      own = c.res.headers.get('Content-Security-Policy');
    });
    if (own) c.res.headers.set('Content-Security-Policy', own);
  });
}
