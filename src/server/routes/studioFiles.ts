/**
 * Files of the editors' studio outside /api:
 *   /images/uploads/<hash>.webp           converted content images, from the object store (any
 *                                         process), immutable: the name is the content
 *   /studio-preview/<buildId>/<page path>  a preview build's pages, to signed-in editors and
 *                                         operators only, never cached, never indexed; fetched
 *                                         from the object store when another process built it
 *
 * A preview page shows drafts, which may carry what an editor's account was tricked into saving,
 * and it is served on the portal's own origin to staff with a session. So it is sandboxed
 * (`previewPolicy`: no allow-same-origin): its scripts run in an opaque origin, with no cookie and
 * no storage of the portal's, and the CSRF check refuses their `Origin: null`. The page's own
 * requests then come from that opaque origin too — cross-origin, without the session — so what it
 * loads (its build's `/_astro/` bundles, `/images/…`, the icon; the page's addresses are rewritten
 * to point into the preview) is served to anyone, marked for cross-origin use. None of it is a
 * draft: bundles of code and styles, the site's images, and uploaded images that are public by
 * their hash anyway.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { Context, Hono } from 'hono';
import { siteBuilds } from '../db/schema/index.ts';
import { ensureLocalBuild } from '../site/artifacts.ts';
import { siteLayout } from '../site/servedSite.ts';
import { contentTypes } from '../../lib/site/fileHeaders.ts';
import { imageUrlPrefix, webImageKey } from '../studio/images.ts';
import { previewPrefix } from '../studio/views.ts';
import { loadSession } from '../middleware/session.ts';
import { previewPolicy } from '../middleware/secureHeaders.ts';
import type { AppEnv, RouteDeps } from '../types.ts';

const studioRoles = new Set(['editor', 'operator']);

/** What a preview page loads, by its path in the build: the sandboxed page asks for these without a session. */
const pageResource = /^\/(?:_astro\/|images\/|favicon\.svg$)/;
/** The same addresses in a page's markup (attributes, `url(…)`), rewritten into the preview. */
const pageResourceReference = /(["'(])\/(_astro\/|images\/|favicon\.svg)/g;
/** A preview page's resources may be read by its opaque origin (module scripts are fetched with CORS). */
const crossOriginHeaders = { 'Cross-Origin-Resource-Policy': 'cross-origin', 'Access-Control-Allow-Origin': '*' };

async function previewFile(c: Context<AppEnv>, deps: RouteDeps): Promise<Response> {
  const match = /^\/studio-preview\/(\d{1,9})(\/.*)?$/.exec(c.req.path);
  const buildId = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(buildId)) return c.notFound();
  let relative: string;
  try {
    relative = decodeURIComponent(match[2] ?? '/');
  } catch {
    return c.text('Bad Request', 400);
  }
  const resource = pageResource.test(relative);
  const user = c.get('user');
  if (!resource && !user?.roles.some((role) => studioRoles.has(role))) return c.text('Forbidden', 403);
  const [row] = await deps.db
    .select({ id: siteBuilds.id })
    .from(siteBuilds)
    .where(and(eq(siteBuilds.id, buildId), eq(siteBuilds.purpose, 'preview'), eq(siteBuilds.status, 'succeeded')));
  if (!row) return c.notFound();
  if (relative.startsWith(imageUrlPrefix))
    return uploadedImage(c, deps, relative.slice(imageUrlPrefix.length), crossOriginHeaders);
  const buildDir = await ensureLocalBuild(deps.objects, siteLayout(deps.config.dataDir), buildId).catch(
    () => undefined,
  );
  if (!buildDir) return c.text('This preview is no longer kept; build a new one.', 410);
  const root = path.join(buildDir, 'dist');
  const target = path.resolve(root, `.${relative}`);
  if (target !== root && !target.startsWith(`${root}${path.sep}`)) return c.text('Bad Request', 400);
  for (const candidate of [target, path.join(target, 'index.html')]) {
    const info = await stat(candidate).catch(() => undefined);
    if (!info?.isFile()) continue;
    const headers: Record<string, string> = {
      'Content-Type': contentTypes[path.extname(candidate)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
      ...(resource ? crossOriginHeaders : {}),
    };
    if (candidate.endsWith('.html')) {
      // The page's scripts, styles and images come from its own build, which may differ from the live site's.
      const html = (await readFile(candidate, 'utf8')).replace(
        pageResourceReference,
        `$1${previewPrefix}/${buildId}/$2`,
      );
      return new Response(html, { headers: { ...headers, 'Content-Security-Policy': previewPolicy(html) } });
    }
    return new Response(Readable.toWeb(createReadStream(candidate)) as ReadableStream, { headers });
  }
  return c.notFound();
}

async function uploadedImage(
  c: Context<AppEnv>,
  deps: RouteDeps,
  fileName: string,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const key = webImageKey(fileName);
  const stored = key ? await deps.objects.get(key) : null;
  if (!stored) return c.notFound();
  return new Response(stored.body, {
    headers: {
      'Content-Type': 'image/webp',
      'Content-Length': String(stored.size),
      'Cache-Control': 'public, max-age=31536000, immutable',
      ...extraHeaders,
    },
  });
}

/** Mounts both before the static site. */
export function mountStudioFiles(app: Hono<AppEnv>, deps: RouteDeps): void {
  app.use(`${previewPrefix}/*`, loadSession(deps));
  app.get(`${previewPrefix}/*`, (c) => previewFile(c, deps));
  app.get(`${imageUrlPrefix}*`, (c) => uploadedImage(c, deps, c.req.path.slice(imageUrlPrefix.length)));
}
