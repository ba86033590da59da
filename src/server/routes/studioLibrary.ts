/**
 * /api/studio: what the item editor chooses from and the media library (docs/editing-content.md,
 * "下拉选项与图片库"), mounted by the studio's routes (routes/studio.ts) behind their role check.
 *
 *   GET  choices → { choices: { <source>: [{ value, name, … }] } }: what each reference field
 *        (content/references.ts) may name, read once from the content the editor would publish
 *        (published data with the drafts applied)
 *   GET  images → { images: [ …, uploadedBy, converted, usedBy ] }
 *   POST image/delete {name}: 409 while used (the items named), else the image and its files go
 */
import type { Hono } from 'hono';
import { choicesOfItems } from '../../content/references.ts';
import { studioImageBody } from '../../lib/schemas/studio.ts';
import { localeOf, ok, type AnyContext } from '../envelope.ts';
import { listItems } from '../studio/contentRepo.ts';
import { deleteLibraryImage, libraryImages } from '../studio/imageLibrary.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

interface Helpers {
  /** Writes the studio's audit entry (who, when, what). */
  audit(c: AnyContext, action: string, target: string | null, detail?: Record<string, unknown>): Promise<void>;
}

export function mountLibraryRoutes(routes: Hono<AppEnv>, deps: RouteDeps, { audit }: Helpers): void {
  const { db, objects, publisher } = deps;

  routes.get('/choices', async (c) => {
    const rows = await listItems(db);
    const items = rows.map((row) => ({ path: row.path, data: row.draftDeleted ? null : (row.draft ?? row.published) }));
    return ok(c, { choices: choicesOfItems(items) });
  });

  routes.get('/images', async (c) => ok(c, { images: await libraryImages(db, objects, await publisher.keptBuildIds()) }));

  routes.post('/image/delete', async (c) => {
    const { name } = await validate(c, studioImageBody, 'body');
    const list = new Intl.ListFormat(localeOf(c), { type: 'conjunction' });
    const image = await deleteLibraryImage(db, objects, name, await publisher.keptBuildIds(), (titles) => list.format(titles));
    await audit(c, 'content.imageDelete', image.name, { fileName: image.fileName, bytes: image.bytes });
    return ok(c, null, 'rebuild.imageDeleted', { fileName: image.fileName });
  });
}
