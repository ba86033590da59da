/**
 * The editors' studio (docs/editing-content.md): the site's content kept in the database, so every
 * API process and every build sees the same content. One row per content file of the import/export
 * format (src/content/kinds.ts names the paths), its published data and an editor's pending draft;
 * every published version; which version of each item each publication was built from; images.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from './timestamps.ts';

/** A content item: one file of `src/content` (`news/<newsId>.md`, `business-types.yaml`, …). */
export const contentItems = pgTable(
  'content_items',
  {
    /** The item's file path in the import/export format; its kind and ids follow from it. */
    path: text('path').primaryKey(),
    kind: text('kind').notNull(),
    /** What the public site shows (the file's data); null when it is not on the site. */
    published: jsonb('published').$type<unknown>(),
    /** The published version's number (content_versions); 0 before the first publication. */
    publishedVersion: integer('published_version').notNull().default(0),
    /** The pending change an editor saved; null when there is none (or it is a deletion). */
    draft: jsonb('draft').$type<unknown>(),
    /** The pending change removes the item from the site at the next publication. */
    draftDeleted: boolean('draft_deleted').notNull().default(false),
    draftBy: integer('draft_by'),
    draftAt: timestamp('draft_at', { withTimezone: true }),
    /** Bumped by every change, so two editors cannot overwrite each other unknowingly. */
    revision: integer('revision').notNull().default(1),
  },
  (t) => [index('content_items_kind_idx').on(t.kind)],
);

/** Every published version of every item (data null: the version that removed it). */
export const contentVersions = pgTable(
  'content_versions',
  {
    path: text('path').notNull(),
    version: integer('version').notNull(),
    data: jsonb('data').$type<unknown>(),
    /** The publication (site_builds row) that first put this version on the site; null for the seed. */
    buildId: integer('build_id'),
    publishedBy: integer('published_by'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.path, t.version] })],
);

/** The content a publication was built from: the version of each item on the site then. */
export const contentPublications = pgTable(
  'content_publications',
  {
    buildId: integer('build_id').notNull(),
    path: text('path').notNull(),
    version: integer('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.buildId, t.path] })],
);

/** An image an editor uploaded (the original, in the object store); converted for the web at build time. */
export const contentImages = pgTable(
  'content_images',
  {
    /** `<sha256 of the bytes, 32 hex>.<ext>`: the same picture uploaded twice is one image. */
    name: text('name').primaryKey(),
    /** What the editor called the file. */
    fileName: text('file_name').notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    uploadedBy: integer('uploaded_by'),
    createdAt: createdAt(),
  },
  (t) => [check('content_images_mime_check', sql`${t.mime} in ('image/jpeg', 'image/png', 'image/webp')`)],
);

export const scheduleActions = ['publish', 'unpublish'] as const;
export type ScheduleAction = (typeof scheduleActions)[number];
export const scheduleStatuses = ['scheduled', 'running', 'done', 'failed', 'cancelled'] as const;
export type ScheduleStatus = (typeof scheduleStatuses)[number];

/** An editor's publication (or removal) of items at a chosen time, run by the job queue. */
export const scheduledPublications = pgTable(
  'scheduled_publications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    action: text('action').$type<ScheduleAction>().notNull(),
    /** The items (content_items paths) it publishes or removes. */
    paths: jsonb('paths').$type<string[]>().notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    status: text('status').$type<ScheduleStatus>().notNull().default('scheduled'),
    /** The queue's job that runs it at `run_at`. */
    jobId: text('job_id'),
    /** The publication it started (site_builds). */
    buildId: integer('build_id'),
    error: text('error'),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('scheduled_publications_action_check', sql`${t.action} in ('publish', 'unpublish')`),
    check(
      'scheduled_publications_status_check',
      sql`${t.status} in ('scheduled', 'running', 'done', 'failed', 'cancelled')`,
    ),
    index('scheduled_publications_run_at_idx').on(t.runAt),
  ],
);

export type ScheduledPublicationRow = typeof scheduledPublications.$inferSelect;
export type ContentItemRow = typeof contentItems.$inferSelect;
export type ContentVersionRow = typeof contentVersions.$inferSelect;
export type ContentImageRow = typeof contentImages.$inferSelect;
