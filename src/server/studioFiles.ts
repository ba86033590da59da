/**
 * Files of the editors' studio outside /api:
 *   /images/uploads/<hash>.webp           converted content images, from the object store (any
 *                                         process), immutable: the name is the content
 *   /studio-preview/<buildId>/<page path>  a preview build's pages, to signed-in editors and
 *                                         operators only, never cached, never indexed; fetched
 *                                         from the object store when another process built it
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import type { Context, Hono } from 'hono';
import { siteBuilds } from './db/schema/index.ts';
import { ensureLocalBuild } from './site/artifacts.ts';
import { siteLayout } from './site/publication.ts';
import { contentTypes } from './static.ts';
import { imageUrlPrefix, webImageKey } from './studio/images.ts';
import { previewPrefix } from './studio/views.ts';
import { loadSession } from './middleware/session.ts';
import type { AppEnv, RouteDeps } from './types.ts';

const studioRoles = new Set(['editor', 'operator']);

async function previewFile(c: Context<AppEnv>, deps: RouteDeps): Promise<Response> {
  const user = c.get('user');
  if (!user || !user.roles.some((role) => studioRoles.has(role))) return c.text('Forbidden', 403);
  const match = /^\/studio-preview\/(\d{1,9})(\/.*)?$/.exec(c.req.path);
  const buildId = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(buildId)) return c.notFound();
  const [row] = await deps.db
    .select({ id: siteBuilds.id })
    .from(siteBuilds)
    .where(and(eq(siteBuilds.id, buildId), eq(siteBuilds.purpose, 'preview'), eq(siteBuilds.status, 'succeeded')));
  if (!row) return c.notFound();
  const buildDir = await ensureLocalBuild(deps.objects, siteLayout(deps.config.dataDir), buildId).catch(() => undefined);
  if (!buildDir) return c.text('This preview is no longer kept; build a new one.', 410);
  const root = path.join(buildDir, 'dist');
  const relative = decodeURIComponent(match[2] ?? '/');
  const target = path.resolve(root, `.${relative}`);
  if (target !== root && !target.startsWith(`${root}${path.sep}`)) return c.text('Bad Request', 400);
  for (const candidate of [target, path.join(target, 'index.html')]) {
    const info = await stat(candidate).catch(() => undefined);
    if (!info?.isFile()) continue;
    const headers = { 'Content-Type': contentTypes[path.extname(candidate)] ?? 'application/octet-stream', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
    if (candidate.endsWith('.html')) {
      // The page's scripts and styles come from its own build, which may differ from the live site's.
      const html = (await readFile(candidate, 'utf8')).replace(/(["'(])\/_astro\//g, `$1${previewPrefix}/${buildId}/_astro/`);
      return new Response(html, { headers });
    }
    return new Response(Readable.toWeb(createReadStream(candidate)) as ReadableStream, { headers });
  }
  return c.notFound();
}

async function uploadedImage(c: Context<AppEnv>, deps: RouteDeps): Promise<Response> {
  const key = webImageKey(c.req.path.slice(imageUrlPrefix.length));
  const stored = key ? await deps.objects.get(key) : null;
  if (!stored) return c.notFound();
  return new Response(stored.body, {
    headers: { 'Content-Type': 'image/webp', 'Content-Length': String(stored.size), 'Cache-Control': 'public, max-age=31536000, immutable' },
  });
}

/** Mounts both before the static site. */
export function mountStudioFiles(app: Hono<AppEnv>, deps: RouteDeps): void {
  app.use(`${previewPrefix}/*`, loadSession(deps));
  app.get(`${previewPrefix}/*`, (c) => previewFile(c, deps));
  app.get(`${imageUrlPrefix}*`, (c) => uploadedImage(c, deps));
}
