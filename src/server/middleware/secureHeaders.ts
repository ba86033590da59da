/**
 * Security headers for pages and API, and the Content-Security-Policy of every kind of answer
 * (docs/security.md, "Content-Security-Policy"):
 *
 * - a page: the policy its build wrote into its `<meta>` (Astro lists the hashes of the page's
 *   inline scripts and styles; src/lib/contentSecurityPolicy.ts), plus what only a header can
 *   say: no framing. The static handler reads it once per file (static.ts), never per request;
 * - an editor's preview page: the same, sandboxed (routes/studioFiles.ts);
 * - any other file of the site a browser may show or run as a document or worker (images, the
 *   service worker, the sitemap, a page without a `<meta>`): the pages' directives with no hash,
 *   so nothing inline runs;
 * - the built bundles' scripts, styles and fonts (`/_astro/`), which only a page loads: none, and
 *   none of the other headers that govern a document (`subresourceAnswer`);
 * - every other answer (the API's JSON, errors): nothing at all.
 */
import { createMiddleware } from 'hono/factory';
import { secureHeaders } from 'hono/secure-headers';
import { formatPolicy, metaPolicyOf, pageDirectives, parsePolicy } from '../../lib/contentSecurityPolicy.ts';
import { setAnswerHeader } from './answerHeader.ts';

/** What only a header can carry (a `<meta>` policy cannot forbid framing). */
const headerOnlyDirectives = ["frame-ancestors 'none'"];

/** An answer that is no page or file of the site (JSON, an error text) loads nothing and is framed nowhere. */
export const answerPolicy = "default-src 'none'; frame-ancestors 'none'";

function withHeaderDirectives(policy: string, extra: readonly string[] = []): string {
  const directives = parsePolicy(policy);
  for (const ignoredInMeta of ['frame-ancestors', 'sandbox', 'report-uri']) directives.delete(ignoredInMeta);
  for (const [name, ...sources] of [...headerOnlyDirectives, ...extra].map((directive) => directive.split(' '))) {
    if (name) directives.set(name, sources);
  }
  return formatPolicy(directives);
}

/** A file of the site without a policy of its own: same origin only, nothing inline. */
export const filePolicy = withHeaderDirectives([...pageDirectives, "script-src 'self'", "style-src 'self'"].join('; '));

/** The header of a built page: the policy of its `<meta>`, and no framing; `filePolicy` when it has none. */
export function pagePolicy(html: string): string {
  const own = metaPolicyOf(html);
  return own === undefined ? filePolicy : withHeaderDirectives(own);
}

/**
 * The header of an editor's preview page: its own policy in a sandbox without allow-same-origin.
 * The page runs in an opaque origin: its scripts send no cookie, read no storage of the portal,
 * and their `Origin: null` fails the CSRF check, so a draft cannot act as the editor viewing it.
 */
export function previewPolicy(html: string): string {
  const own = metaPolicyOf(html);
  return withHeaderDirectives(own ?? filePolicy, ['sandbox allow-scripts']);
}

/**
 * Headers that govern a document (what it may load, run, be framed by, share a process with) and
 * do nothing on a script, a stylesheet or a font a page loads. A signed-in page fetches some ten
 * bundles: these headers were 40 % of each one's 930 bytes of headers.
 */
const documentOnlyHeaders = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
];

const subresourceTypes = /^(?:text\/javascript|text\/css|font\/)/;

/**
 * A built bundle's script, style or font: loaded by a page, never shown or run as a document or
 * a worker (the service worker is `/sw.js`, outside `/_astro/`; no bundle starts a worker). Sent
 * with `nosniff`, CORP, HSTS and Referrer-Policy (which governs a stylesheet's own requests).
 */
export function subresourceAnswer(path: string, contentType: string | null | undefined): boolean {
  return path.startsWith('/_astro/') && subresourceTypes.test(contentType ?? '');
}

/**
 * The headers on every answer. A handler's own headers are kept (a page's policy, the sandbox of
 * an uploaded image's download, a preview file's resource policy); an answer that set no
 * Content-Security-Policy gets `answerPolicy`.
 */
export function securityHeaders() {
  const standard = secureHeaders({
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    overwrite: false,
  });
  return createMiddleware(async (c, next) => {
    await standard(c, next);
    if (subresourceAnswer(c.req.path, c.res.headers.get('Content-Type'))) {
      for (const name of documentOnlyHeaders) c.res.headers.delete(name);
    } else if (!c.res.headers.has('Content-Security-Policy')) {
      setAnswerHeader(c, 'Content-Security-Policy', answerPolicy);
    }
  });
}
