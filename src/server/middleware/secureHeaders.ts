/**
 * Security headers for pages and API. The pages are static HTML with small inline scripts in
 * <head> (stored-preference redirects) and Astro's inline island loaders, so the CSP allows
 * inline scripts and styles from this origin but nothing from elsewhere, no plugins, no framing.
 */
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

export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
  });
}
