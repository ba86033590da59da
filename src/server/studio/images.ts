/**
 * Images of the editors' studio. An upload keeps the original in the object store (shared by
 * every process) under a name made of its bytes' hash; content refers to it as
 * `/images/uploads/<hash>.webp`. The image is converted for the web — resized to at most 1200 px
 * wide, WebP — at once when it fits the weight budget (the editor's thumbnail, the media library),
 * and a build converts every image its content refers to that has no web version yet and refuses
 * one heavier than the budget, naming the item, so a 5 MB photo can never reach a page. Converted
 * images are kept in the object store too and served from there by every process
 * (`/images/uploads/*`), immutable since their name is their content.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { eq, like } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { contentImages, type ContentImageRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { ContentFileError } from './contentRepo.ts';
import type { ImageView } from '../../lib/studio/answers.ts';

/** Largest upload (the original; what reaches pages is the converted image). */
export const maxImageBytes = 10 * 1024 * 1024;
/** Largest side of an upload in pixels (a decompression bomb stops here, before any decoding). */
export const maxImageSide = 8000;
/** Widest image a page shows (banners are 1200 × 400). */
export const webImageWidth = 1200;
/** The weight budget of a converted image. */
export const imageBudgetBytes = 150 * 1024;
/** Qualities tried in turn until the image fits the budget. */
const qualities = [80, 65, 50] as const;

export const imageUrlPrefix = '/images/uploads/';
const originalsPrefix = 'content-images/originals/';
const webPrefix = 'content-images/web/';
/** `/images/uploads/<32 hex>.webp` in any content text. */
export const imageReference = /\/images\/uploads\/([0-9a-f]{32})\.webp/g;

/** The hash that names an image (`<hash>.png` → `<hash>`): its web file is `<hash>.webp`. */
export const imageHashOf = (name: string): string => name.split('.')[0] ?? name;
/** The object keys of an image: its original and its converted web file. */
export const imageObjectKeys = (name: string): [original: string, web: string] => [
  `${originalsPrefix}${name}`,
  `${webPrefix}${imageHashOf(name)}.webp`,
];
/** The hashes of the converted web images in the store. */
export async function convertedImageHashes(objects: ObjectStore): Promise<Set<string>> {
  return new Set((await objects.list(webPrefix)).map((key) => key.slice(webPrefix.length).replace(/\.webp$/, '')));
}

const formats = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  webp: { mime: 'image/webp', ext: 'webp' },
} as const;

export type { ImageView } from '../../lib/studio/answers.ts';

export function imageView(row: ContentImageRow): ImageView {
  return {
    name: row.name,
    url: `${imageUrlPrefix}${imageHashOf(row.name)}.webp`,
    fileName: row.fileName,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    createdAt: row.createdAt.toISOString(),
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Stores an uploaded image (400 at `file` for another type, too many bytes or pixels). */
export async function storeImage(db: Database, objects: ObjectStore, file: File, userId: number): Promise<ImageView> {
  const refuse = (key: 'rebuild.imageType' | 'rebuild.imageTooLarge' | 'rebuild.imagePixels') =>
    ApiError.field('file', key, { max: maxImageBytes / 1024 / 1024, side: maxImageSide });
  if (file.size > maxImageBytes) throw refuse('rebuild.imageTooLarge');
  const bytes = Buffer.from(await file.arrayBuffer());
  // The type is read from the bytes (sharp's header parse), never from the name or the declared type.
  const metadata = await sharp(bytes, { limitInputPixels: maxImageSide * maxImageSide })
    .metadata()
    .catch(() => undefined);
  const format =
    metadata?.format && metadata.format in formats ? formats[metadata.format as keyof typeof formats] : undefined;
  if (!metadata || !format) throw refuse('rebuild.imageType');
  if ((metadata.width ?? 0) > maxImageSide || (metadata.height ?? 0) > maxImageSide)
    throw refuse('rebuild.imagePixels');
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${format.ext}`;
  const [known] = await db.select().from(contentImages).where(eq(contentImages.name, name));
  if (known) return imageView(known);
  await objects.put(`${originalsPrefix}${name}`, bytes, { size: bytes.length, contentType: format.mime });
  // The web version now when it fits the budget (one that does not fails the build that needs it, naming the item).
  const web = await webImageOf(bytes);
  if (web.length <= imageBudgetBytes) await putWebImage(objects, imageHashOf(name), web);
  const [row] = await db
    .insert(contentImages)
    .values({
      name,
      fileName: file.name.slice(0, 200) || name,
      mime: format.mime,
      bytes: bytes.length,
      width: metadata.width ?? 0,
      height: metadata.height ?? 0,
      uploadedBy: userId,
    })
    .onConflictDoNothing()
    .returning();
  const [stored] = row ? [row] : await db.select().from(contentImages).where(eq(contentImages.name, name));
  return imageView(stored!);
}

/** The converted image's object key for a URL's file name (`<hash>.webp`), or undefined for another name. */
export function webImageKey(fileName: string): string | undefined {
  return /^[0-9a-f]{32}\.webp$/.test(fileName) ? `${webPrefix}${fileName}` : undefined;
}

export interface PreparedImages {
  converted: number;
  reused: number;
}

/** The web version of an image: at most `webImageWidth` wide, WebP, at the first quality that fits the budget (else the lowest tried). */
async function webImageOf(source: Buffer): Promise<Buffer> {
  let output = Buffer.alloc(0);
  for (const quality of qualities) {
    output = await sharp(source, { limitInputPixels: maxImageSide * maxImageSide })
      .rotate()
      .resize({ width: webImageWidth, withoutEnlargement: true })
      .webp({ quality })
      .toBuffer();
    if (output.length <= imageBudgetBytes) break;
  }
  return output;
}

function putWebImage(objects: ObjectStore, hash: string, web: Buffer): Promise<void> {
  return objects.put(`${webPrefix}${hash}.webp`, web, {
    size: web.length,
    contentType: 'image/webp',
    cacheControl: 'public, max-age=31536000, immutable',
  });
}

/**
 * Converts every uploaded image the snapshot's files refer to (a build step): missing originals
 * and images over the budget fail the build with a ContentFileError naming the item and `image`.
 */
export async function prepareImages(
  db: Database,
  objects: ObjectStore,
  files: ReadonlyMap<string, string>,
): Promise<PreparedImages> {
  const users = new Map<string, string>();
  for (const [file, text] of files)
    for (const match of text.matchAll(imageReference)) if (match[1] && !users.has(match[1])) users.set(match[1], file);
  const existing = new Set((await objects.list(webPrefix)).map((key) => key.slice(webPrefix.length)));
  let converted = 0;
  let reused = 0;
  for (const [hash, file] of users) {
    const target = `${hash}.webp`;
    if (existing.has(target)) {
      reused += 1;
      continue;
    }
    const [row] = await db
      .select()
      .from(contentImages)
      .where(like(contentImages.name, `${hash}.%`));
    const original = row ? await objects.get(`${originalsPrefix}${row.name}`) : null;
    if (!row || !original)
      throw new ContentFileError(file, 'image', `${imageUrlPrefix}${target} is not an uploaded image`);
    const output = await webImageOf(await readAll(original.body));
    if (output.length > imageBudgetBytes) {
      throw new ContentFileError(
        file,
        'image',
        `${row.fileName} weighs ${Math.round(output.length / 1024)} KB as a ${webImageWidth}px WebP, over the ${imageBudgetBytes / 1024} KB budget: use a smaller or simpler picture`,
      );
    }
    await putWebImage(objects, hash, output);
    converted += 1;
  }
  return { converted, reused };
}
