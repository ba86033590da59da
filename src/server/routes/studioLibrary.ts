/**
 * /api/studio: what the item editor chooses from and the media library (docs/editing-content.md,
 * 下拉选项 and 图片库). Editors and operators, as every studio call; deletions audited like the
 * studio's other changes.
 *
 *   GET  choices → { choices: { <source>: [{ value, name, … }] } }: what each reference field
 *        (content/references.ts) may name, read once from the content the editor would publish
 *        (published data with the drafts applied)
 *   GET  images → { images: [ …, uploadedBy, converted, usedBy ] }
 *   POST image/delete {name}: 409 while used (the items named), else the image and its files go
 */
import { Hono } from 'hono';
import { choicesOfItems } from '../../content/references.ts';
import { studioImageBody } from '../../lib/schemas/studio.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { writeAudit } from '../services/audit.ts';
import { listItems } from '../studio/contentRepo.ts';
import { deleteLibraryImage, libraryImages } from '../studio/imageLibrary.ts';
import { libraryImagesSchema } from '../../lib/studio/answers.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createStudioLibraryRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, objects, publisher, config } = deps;
  const routes = new Hono<AppEnv>();
  routes.use('*', requireRole('editor', 'operator'));

  routes.get(
    '/choices',
    describeCall({ summary: 'What each reference field of the item editor may name' }),
    async (c) => {
      const rows = await listItems(db);
      const items = rows.map((row) => ({
        path: row.path,
        data: row.draftDeleted ? null : (row.draft ?? row.published),
      }));
      return ok(c, { choices: choicesOfItems(items) });
    },
  );

  routes.get(
    '/images',
    describeCall({ summary: 'The media library, with where each image is used', answer: libraryImagesSchema }),
    async (c) => ok(c, { images: await libraryImages(db, objects, await publisher.keptBuildIds()) }),
  );

  routes.post(
    '/image/delete',
    describeCall({ summary: 'Delete an unused image', body: studioImageBody }),
    async (c) => {
      const { name } = await validate(c, studioImageBody, 'body');
      const list = new Intl.ListFormat(localeOf(c), { type: 'conjunction' });
      const image = await deleteLibraryImage(db, objects, name, await publisher.keptBuildIds(), (titles) =>
        list.format(titles),
      );
      const user = c.get('user');
      await writeAudit(db, {
        userId: user?.id ?? null,
        action: 'content.imageDelete',
        target: image.name,
        detail: { fileName: image.fileName, bytes: image.bytes },
        ip: clientIp(c, config),
      });
      return ok(c, null, 'rebuild.imageDeleted', { fileName: image.fileName });
    },
  );

  return routes;
}
