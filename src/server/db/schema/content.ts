/** Tables of the public site: visitors' requirements and the editors' site rebuilds. */
import { check, index, integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt } from './timestamps.ts';

/** A visitor's requirement (submitRequirement): a retail company calls them back. */
export const requirements = pgTable(
  'requirements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    contactName: varchar('contact_name', { length: 32 }).notNull(),
    phone: varchar('phone', { length: 11 }).notNull(),
    company: varchar('company', { length: 100 }).notNull().default(''),
    areaCode: varchar('area_code', { length: 6 }).notNull(),
    bizTypeId: varchar('biz_type_id', { length: 32 }).notNull().default(''),
    content: text('content').notNull(),
    ip: text('ip'),
    /** new → contacted → closed, handled by operators. */
    status: text('status').notNull().default('new'),
    createdAt: createdAt(),
  },
  (t) => [
    index('requirements_created_at_idx').on(t.createdAt),
    check('requirements_status_check', sql`${t.status} in ('new', 'contacted', 'closed')`),
  ],
);

export const siteBuildStatuses = ['running', 'succeeded', 'failed'] as const;
export const siteBuildPurposes = ['publish', 'preview'] as const;
export type SiteBuildPurpose = (typeof siteBuildPurposes)[number];
export type SiteBuildStatus = (typeof siteBuildStatuses)[number];
export const siteBuildModes = ['full', 'incremental', 'initial'] as const;
export type SiteBuildMode = (typeof siteBuildModes)[number];

/** One editors' rebuild of the static site (POST /api/admin/site/rebuild) and how it ended. */
export const siteBuilds = pgTable(
  'site_builds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    status: text('status').$type<SiteBuildStatus>().notNull().default('running'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Pages written by a successful build. */
    pages: integer('pages'),
    /** Why a build failed (the build's last error lines); the published site is unchanged then. */
    error: text('error'),
    /** The directory published by this build, relative to DATA_DIR. */
    outputDir: text('output_dir'),
    /**
     * When this build became the published site (its success, or a rollback to it). The site every
     * API process serves is the succeeded build with the latest `published_at` (site/sitePublisher.ts).
     */
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** `publish` (the public site) or `preview` (an editor's drafts, never published). */
    purpose: text('purpose').$type<SiteBuildPurpose>().notNull().default('publish'),
    /** Who started it from the editors' studio (null: the token call or the system). */
    startedBy: integer('started_by'),
    /** What the build is doing now (studio progress), and how far it is: done of total pages. */
    phase: text('phase'),
    progressDone: integer('progress_done'),
    progressTotal: integer('progress_total'),
    /**
     * How it was made: `full` (every page), `incremental` (the pages its changes touch, over the
     * base build's other pages) or `initial` (the site served at first start, recorded so that it
     * can be rolled back to).
     */
    mode: text('mode').$type<SiteBuildMode>().notNull().default('full'),
    /** The build an incremental one started from. */
    baseBuildId: integer('base_build_id'),
    /** The queue's job that runs it (jobs/queue.ts). */
    jobId: text('job_id'),
    /** How many times the queue ran it again from the start because its worker stopped or died (the studio says so). */
    restarts: integer('restarts').notNull().default(0),
  },
  (t) => [
    check('site_builds_status_check', sql`${t.status} in ('running', 'succeeded', 'failed')`),
    check('site_builds_purpose_check', sql`${t.purpose} in ('publish', 'preview')`),
    check('site_builds_mode_check', sql`${t.mode} in ('full', 'incremental', 'initial')`),
    index('site_builds_published_at_idx').on(t.publishedAt),
  ],
);

/**
 * The API processes serving the site, for a two-phase publication (site/sitePublisher.ts): each
 * process writes its row when it starts and on every poll, and the build it last fetched on a
 * "build stored" notification; a builder publishes once every live process has the build.
 */
/**
 * The content a build was made from, as the content API serves it (SiteContent as JSON text, key
 * order kept): every process reads it from here when the build is published, instead of parsing
 * the build's content files again.
 */
export const siteContents = pgTable('site_contents', {
  buildId: integer('build_id').primaryKey(),
  content: text('content').notNull(),
});

export const siteNodes = pgTable('site_nodes', {
  nodeId: text('node_id').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  stagedBuildId: integer('staged_build_id'),
});

export type RequirementRow = typeof requirements.$inferSelect;
export type SiteBuildRow = typeof siteBuilds.$inferSelect;
