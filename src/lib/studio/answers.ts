/**
 * What the studio's build, publication, version and image calls answer (docs/editing-content.md),
 * declared once: the server's views are typed with these (src/server/site/rebuild.ts,
 * src/server/studio/views.ts, images.ts, imageLibrary.ts), the API description shows them
 * (`describeCall({ answer })`), and the islands read the inferred types through the studio client
 * (src/lib/api/studio.ts). Islands import the types only, so none of this reaches the browser.
 */
import { z } from 'zod/mini';
import { contentKinds } from '../../content/paths.ts';

/** What a build is doing now. */
export const buildPhases = [
  'queued',
  'content',
  'images',
  'build',
  'index',
  'compress',
  'store',
  'upload',
  'stage',
  'publish',
] as const;
export type BuildPhase = (typeof buildPhases)[number];

export const siteBuildStatuses = ['running', 'succeeded', 'failed'] as const;
export const siteBuildPurposes = ['publish', 'preview'] as const;
/** Every page (`full`), only those its changes touch (`incremental`), or the site first served (`initial`). */
export const siteBuildModes = ['full', 'incremental', 'initial'] as const;

/** A build of the site (the rebuild calls of /api/admin/site, and the base of the studio's view). */
export const siteBuildViewSchema = z.object({
  buildId: z.number(),
  status: z.enum(siteBuildStatuses),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  pages: z.nullable(z.number()),
  error: z.nullable(z.string()),
  /** The published directory, relative to DATA_DIR (set on success). */
  outputDir: z.nullable(z.string()),
  /** When it last became the published site (its success or a rollback); null if never. */
  publishedAt: z.nullable(z.string()),
  purpose: z.enum(siteBuildPurposes),
  /** What it is doing now (null when done). */
  phase: z.nullable(z.enum(buildPhases)),
  /** The step's work done so far, of how much (null: not known) — pages, files, processes. */
  progressDone: z.nullable(z.number()),
  progressTotal: z.nullable(z.number()),
  mode: z.enum(siteBuildModes),
  /** Times it was run again from the start because its worker stopped or died (0: never). */
  restarts: z.number(),
});
export type SiteBuildView = z.infer<typeof siteBuildViewSchema>;

/** A build as the studio shows it: who started it, the drafts it carries, where its preview is. */
export const studioBuildViewSchema = z.extend(siteBuildViewSchema, {
  startedBy: z.nullable(z.string()),
  /** The drafts it carries (publish and preview builds started from the studio). */
  paths: z.array(z.string()),
  /** Where the preview's pages are (`/studio-preview/<id>` + a page path); null for other builds. */
  previewUrl: z.nullable(z.string()),
});
export type StudioBuildView = z.infer<typeof studioBuildViewSchema>;

/** A publication: what it changed and whether the site can be rolled back to it. */
export const publicationViewSchema = z.extend(studioBuildViewSchema, {
  items: z.array(z.object({ path: z.string(), title: z.string(), version: z.number(), deleted: z.boolean() })),
  kept: z.boolean(),
});
export type PublicationView = z.infer<typeof publicationViewSchema>;

/** GET publications. */
export const publicationsSchema = z.object({
  published: z.nullable(z.number()),
  builds: z.array(publicationViewSchema),
});
export type Publications = z.infer<typeof publicationsSchema>;

/** One published version of an item (GET versions). */
export const versionSummarySchema = z.object({
  version: z.number(),
  publishedAt: z.string(),
  publishedBy: z.nullable(z.string()),
  buildId: z.nullable(z.number()),
  deleted: z.boolean(),
});
export type VersionSummary = z.infer<typeof versionSummarySchema>;
export const versionsSchema = z.object({ versions: z.array(versionSummarySchema) });

/** GET overview: the regions, the counts per kind, the published build and the running one. */
export const overviewSchema = z.object({
  regions: z.array(z.object({ areaCode: z.string(), name: z.string(), prefix: z.string() })),
  kinds: z.partialRecord(z.enum(contentKinds), z.object({ items: z.number(), drafts: z.number() })),
  drafts: z.number(),
  published: z.nullable(z.object({ buildId: z.number(), publishedAt: z.string() })),
  running: z.nullable(studioBuildViewSchema),
});
export type Overview = z.infer<typeof overviewSchema>;

/** An uploaded image (POST image). */
export const imageViewSchema = z.object({
  name: z.string(),
  url: z.string(),
  fileName: z.string(),
  width: z.number(),
  height: z.number(),
  bytes: z.number(),
  createdAt: z.string(),
});
export type ImageView = z.infer<typeof imageViewSchema>;

/** Where an item uses an image: on the site now, in its draft, or in a kept earlier publication. */
export const imageUseSchema = z.object({
  path: z.string(),
  kind: z.enum(contentKinds),
  title: z.string(),
  in: z.array(z.enum(['published', 'draft', 'kept'])),
});
export type ImageUse = z.infer<typeof imageUseSchema>;

/** An image of the media library (GET images). */
export const libraryImageSchema = z.extend(imageViewSchema, {
  uploadedBy: z.nullable(z.string()),
  /** Its converted web file exists (what `url` serves). */
  converted: z.boolean(),
  usedBy: z.array(imageUseSchema),
});
export type LibraryImage = z.infer<typeof libraryImageSchema>;
export const libraryImagesSchema = z.object({ images: z.array(libraryImageSchema) });

/** POST import: how many files of the package became drafts, and how many were as published. */
export const contentImportResultSchema = z.object({ changed: z.number(), unchanged: z.number() });
export type ContentImportResult = z.infer<typeof contentImportResultSchema>;

/** The data of a 400 `rebuild.contentInvalid`: where the content a build would read is wrong (the loader's words). */
export interface ContentProblem {
  path: string;
  field: string;
  message: string;
}
