/**
 * The site's Content-Security-Policy, shared by the build (astro.config.mjs writes each page's
 * policy into a `<meta http-equiv="content-security-policy">`), the build's check of every page
 * (src/integrations/pagePolicy.ts) and the server (middleware/secureHeaders.ts sends each page's
 * policy as its header). Build and server only: hashing uses node:crypto.
 *
 * Scripts and styles run only from this origin or when their exact text is listed by hash: no
 * 'unsafe-inline', no 'unsafe-eval' (docs/security.md, "Content-Security-Policy").
 */
import { createHash } from 'node:crypto';

/**
 * Every directive of a page's policy except script-src and style-src, which Astro writes with the
 * page's hashes. Only directives a `<meta>` policy may carry: frame-ancestors (and sandbox) are
 * the server's to add (`headerOnlyDirectives` in middleware/secureHeaders.ts).
 */
export const pageDirectives = [
  // Everything else (connections, fonts, workers, frames) from this origin only.
  "default-src 'self'",
  // Images a page makes itself: the second factor's QR code, the stylesheets' icons (data:).
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
] as const;

/** The source expression of an inline script or style's text, as Astro lists it (`sha256-…`, unquoted). */
export function cspHash(text: string): `sha256-${string}` {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** A policy's directives by name (lower case), each with its sources; the first of a repeated name counts, as in browsers. */
export function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** A parsed policy written back in one canonical form (`a x; b y`). */
export function formatPolicy(directives: ReadonlyMap<string, readonly string[]>): string {
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

const metaTag = /<meta\s[^>]*http-equiv\s*=\s*["']?content-security-policy["']?[^>]*>/i;
const contentAttribute = /\scontent\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

function decodeAttribute(value: string): string {
  return value.replace(
    /&(?:#(\d+)|#x([0-9a-f]+)|(quot|amp|apos|lt|gt));/gi,
    (_, dec: string, hex: string, name: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return { quot: '"', amp: '&', apos: "'", lt: '<', gt: '>' }[name.toLowerCase() as 'quot'];
    },
  );
}

/**
 * The policy a built page carries in its `<head>` (Astro's meta element), or undefined. Only the
 * head is read: nothing in the body, where content goes, can name a page's policy.
 */
export function metaPolicyOf(html: string): string | undefined {
  const headEnd = html.search(/<\/head\s*>/i);
  const head = headEnd === -1 ? html : html.slice(0, headEnd);
  const tag = metaTag.exec(head)?.[0];
  const content = tag ? contentAttribute.exec(tag) : null;
  if (!content) return undefined;
  return decodeAttribute(content[1] ?? content[2] ?? '');
}
