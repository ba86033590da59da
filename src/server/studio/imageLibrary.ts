/**
 * The studio's media library (docs/editing-content.md, 图片库): every uploaded image with where
 * it is used, and its deletion, refused while anything may still show it.
 *
 * Content refers to an image by its web address (`/images/uploads/<hash>.webp`, images.ts) in any
 * text of its data — an image field, a Markdown body. An image is used by an item when that
 * address is in the item's published data (the site now), its draft (the next publication), or
 * the version of it in a kept earlier publication (a rollback would show it again: the old pages
 * load the image from the object store).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { kindOfPath, titleOf, type ContentKind } from '../../content/paths.ts';
import { CONFLICT } from '../../lib/apiCodes.ts';
import type { Database } from '../db/client.ts';
import { contentImages, contentItems, contentPublications, contentVersions } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { userNames } from './contentRepo.ts';
import {
  convertedImageHashes,
  imageHashOf,
  imageObjectKeys,
  imageReference,
  imageView,
  type ImageView,
} from './images.ts';
import type { ImageUse, LibraryImage as LibraryImageView } from '../../lib/studio/answers.ts';

export type { ImageUse, LibraryImage as LibraryImageView } from '../../lib/studio/answers.ts';

/** The image hashes a value's text refers to. */
function hashesIn(data: unknown): Set<string> {
  const found = new Set<string>();
  if (data === null || data === undefined) return found;
  for (const match of JSON.stringify(data).matchAll(imageReference)) if (match[1]) found.add(match[1]);
  return found;
}

/**
 * Every image use, by image hash: the items of `content_items` (published data and draft) and
 * the item versions of the kept publications (`keptBuildIds`) other than the published one.
 */
export async function imageUses(db: Database, keptBuildIds: ReadonlySet<number>): Promise<Map<string, ImageUse[]>> {
  const uses = new Map<string, Map<string, ImageUse>>();
  const note = (hash: string, path: string, title: string, state: ImageUse['in'][number]) => {
    let byPath = uses.get(hash);
    if (!byPath) uses.set(hash, (byPath = new Map()));
    const kind = (kindOfPath(path)?.kind ?? 'news') as ContentKind;
    const use = byPath.get(path) ?? { path, kind, title, in: [] };
    if (!use.in.includes(state)) use.in.push(state);
    byPath.set(path, use);
  };
  const rows = await db
    .select({
      path: contentItems.path,
      published: contentItems.published,
      publishedVersion: contentItems.publishedVersion,
      draft: contentItems.draft,
    })
    .from(contentItems);
  const titles = new Map<string, string>();
  const current = new Map<string, number>();
  for (const row of rows) {
    const title = titleOf(row.path, row.draft ?? row.published);
    titles.set(row.path, title);
    if (row.published !== null) current.set(row.path, row.publishedVersion);
    for (const hash of hashesIn(row.published)) note(hash, row.path, title, 'published');
    for (const hash of hashesIn(row.draft)) note(hash, row.path, title, 'draft');
  }
  if (keptBuildIds.size > 0) {
    const versions = await db
      .selectDistinct({ path: contentVersions.path, version: contentVersions.version, data: contentVersions.data })
      .from(contentPublications)
      .innerJoin(
        contentVersions,
        and(
          eq(contentVersions.path, contentPublications.path),
          eq(contentVersions.version, contentPublications.version),
        ),
      )
      .where(inArray(contentPublications.buildId, [...keptBuildIds]));
    for (const version of versions) {
      if (current.get(version.path) === version.version) continue;
      for (const hash of hashesIn(version.data))
        note(hash, version.path, titles.get(version.path) ?? titleOf(version.path, version.data), 'kept');
    }
  }
  const order: Record<ImageUse['in'][number], number> = { published: 0, draft: 1, kept: 2 };
  return new Map(
    [...uses].map(([hash, byPath]) => [
      hash,
      [...byPath.values()]
        .map((use) => ({ ...use, in: use.in.sort((a, b) => order[a] - order[b]) }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    ]),
  );
}

/** Every uploaded image, newest first, with who uploaded it, whether its web file exists, and where it is used. */
export async function libraryImages(
  db: Database,
  objects: ObjectStore,
  keptBuildIds: ReadonlySet<number>,
): Promise<LibraryImageView[]> {
  const rows = await db.select().from(contentImages);
  const [uses, names, converted] = await Promise.all([
    imageUses(db, keptBuildIds),
    userNames(
      db,
      rows.map((row) => row.uploadedBy),
    ),
    convertedImageHashes(objects),
  ]);
  return rows
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.name.localeCompare(b.name))
    .map((row) => {
      const hash = imageHashOf(row.name);
      return {
        ...imageView(row),
        uploadedBy: row.uploadedBy === null ? null : (names.get(row.uploadedBy) ?? null),
        converted: converted.has(hash),
        usedBy: uses.get(hash) ?? [],
      };
    });
}

/**
 * Deletes an image: its row, then its original and web files from the object store. 404 for an
 * unknown name; 409 `rebuild.imageInUse` while an item uses it (`data.usedBy` lists them, the
 * message names them in the caller's locale). Returns the deleted image.
 */
export async function deleteLibraryImage(
  db: Database,
  objects: ObjectStore,
  name: string,
  keptBuildIds: ReadonlySet<number>,
  listNames: (titles: string[]) => string,
): Promise<ImageView> {
  const [row] = await db.select().from(contentImages).where(eq(contentImages.name, name));
  if (!row) throw ApiError.notFound('rebuild.unknownImage');
  const usedBy = (await imageUses(db, keptBuildIds)).get(imageHashOf(name)) ?? [];
  if (usedBy.length > 0) {
    throw new ApiError(
      CONFLICT,
      'rebuild.imageInUse',
      { items: listNames(usedBy.map((use) => `${use.title} (${use.path})`)) },
      { usedBy },
    );
  }
  await db.delete(contentImages).where(eq(contentImages.name, name));
  // After the row: a failed removal leaves unlisted files (harmless), never a listed image without its bytes.
  await objects.remove(imageObjectKeys(name));
  return imageView(row);
}
