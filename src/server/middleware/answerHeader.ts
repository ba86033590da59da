/**
 * Setting a header on an answer a handler already made. Hono's `c.header()` after `next()`
 * rebuilds the Response from its body, and reading `.body` (or building a Web Response from it)
 * makes @hono/node-server send a string or bytes as a web stream instead of writing them to the
 * socket at once: measured, that costs more than the rest of a small API call (docs/performance.md).
 * Setting the header on the answer's own Headers keeps the fast path. A Response whose headers
 * are immutable (`Response.redirect()`) is rebuilt as Hono would.
 */
import type { Context } from 'hono';

export function setAnswerHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
