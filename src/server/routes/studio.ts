/**
 * /api/studio/*: the editors' studio (docs/editing-content.md). Signed-in editors and operators;
 * every change is audited (who, when, which item). The content lives in the database
 * (studio/contentRepo.ts); builds go through the one rebuilder (site/rebuild.ts), so a preview
 * or a publication started on any API process is one build for the whole cluster.
 *
 *   GET  overview · items?kind · drafts · item?path · versions?path · version?path&version
 *   POST item {path, data, revision} · item/discard {path} · item/delete {path, revision}
 *        item/restore {path, version, revision}
 *   POST preview {paths?} · publish {paths?} → the build; GET build?buildId (progress)
 *   GET  publications · POST rollback {buildId}
 *   POST image (multipart file); GET images (with usage) · POST image/delete {name} · GET choices: studioLibrary.ts
 *   POST markdown {markdown} → { html, dropped }: the site's renderer, for the editor's preview
 *   GET  export[?drafts=1] (.zip) · POST import (multipart .zip)
 *   POST schedule {action, paths, runAt} · GET schedules · POST schedule/cancel {id} (studioSchedules.ts)
 */
import type { AuditAction } from '../../lib/auditTrail.ts';
import { Hono } from 'hono';
import type { z } from 'zod';
import { strToU8, zipSync } from 'fflate';
import { contentKinds, kindOfPath, type ContentKind } from '../../content/paths.ts';
import { kindSpecs } from '../../content/kinds.ts';
import { fileTextOf, normalizedData } from '../../content/files.ts';
import { renderMarkdown, UnrenderableMarkdown } from '../../content/markdown.ts';
import { mapMarkdownFields } from '../../content/schemas.ts';
import {
  studioBuildBody,
  studioBuildQuery,
  studioDeleteBody,
  studioKindQuery,
  studioMarkdownBody,
  studioPathBody,
  studioPathQuery,
  studioRestoreBody,
  studioRollbackBody,
  studioSaveBody,
  studioUploadBody,
  studioVersionQuery,
  maxImportBytes,
} from '../../lib/schemas/studio.ts';
import { studioValidation } from '../../lib/studio/pageMessages.ts';
import type { Locale } from '../../lib/i18n/index.ts';
import { ApiError } from '../apiError.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { writeAudit } from '../services/audit.ts';
import {
  canonicalData,
  deleteItem,
  discardDraft,
  getItem,
  getVersion,
  listDrafts,
  listItems,
  listVersions,
  restoreVersion,
  saveDraft,
  userNames,
} from '../studio/contentRepo.ts';
import { importPackage } from '../studio/importPackage.ts';
import { storeImage } from '../studio/images.ts';
import {
  buildAuditActions,
  buildViews,
  checkContent,
  itemSummaries,
  itemView,
  publicationViews,
  regionsOf,
} from '../studio/views.ts';
import type { AnyContext } from '../envelope.ts';
import {
  contentImportResultSchema,
  imageViewSchema,
  overviewSchema,
  publicationsSchema,
  studioBuildViewSchema,
  versionsSchema,
} from '../../lib/studio/answers.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { check, validate } from '../validate.ts';

type StudioContext = AnyContext;

const studioTexts = new Map<Locale, Readonly<Record<string, string>>>();
/** The editor form's validation texts and field labels (src/lib/studio/pageMessages.ts), once per locale. */
function studioMessagesOf(locale: Locale): Readonly<Record<string, string>> {
  let texts = studioTexts.get(locale);
  if (!texts) studioTexts.set(locale, (texts = studioValidation(locale)));
  return texts;
}

/** The top-level fields whose value differs (what an audit entry says was changed); `*` for a whole list or a new item. */
function changedFields(before: unknown, after: unknown): string[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!isRecord(before) || !isRecord(after)) return ['*'];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => canonicalData(before[key]) !== canonicalData(after[key])).sort();
}

/** The dotted path of the first Markdown field of a checked item the renderer cannot render (the build would fail on it). */
function unrenderableMarkdownField(schema: z.core.$ZodType, checked: unknown): string | undefined {
  let found: string | undefined;
  mapMarkdownFields(schema, checked, (source, path) => {
    if (found !== undefined) return source;
    try {
      renderMarkdown(source);
    } catch (error) {
      if (!(error instanceof UnrenderableMarkdown)) throw error;
      found = path.join('.');
    }
    return source;
  });
  return found;
}

/** The signed-in editor (requireRole has let only them through). */
function userId(c: StudioContext): number {
  const user = c.get('user') as { id: number } | undefined;
  if (!user) throw new Error('studio route reached without a session');
  return user.id;
}

export function createStudioRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, rebuilder, publisher, objects, config } = deps;
  const routes = new Hono<AppEnv>();
  routes.use('*', requireRole('editor', 'operator'));

  const audit = (c: StudioContext, action: AuditAction, target: string | null, detail: Record<string, unknown> = {}) =>
    writeAudit(db, { userId: userId(c), action, target, detail, ip: clientIp(c, config) });

  routes.get(
    '/overview',
    describeCall({
      summary: "The studio's overview: regions, counts per kind, drafts, the published and the running build",
      answer: overviewSchema,
    }),
    async (c) => {
      const rows = await listItems(db);
      const kinds = Object.fromEntries(contentKinds.map((kind) => [kind, { items: 0, drafts: 0 }])) as Record<
        ContentKind,
        { items: number; drafts: number }
      >;
      let drafts = 0;
      for (const row of rows) {
        const counts = kinds[row.kind as ContentKind];
        if (!counts) continue;
        counts.items += 1;
        if (row.draft !== null || row.draftDeleted) {
          counts.drafts += 1;
          drafts += 1;
        }
      }
      const published = await publisher.published();
      const latest = await rebuilder.latest();
      const running =
        latest?.status === 'running'
          ? ((await buildViews(db, [await rebuilder.get(latest.buildId)]))[0] ?? null)
          : null;
      return ok(c, {
        regions: regionsOf(rows),
        kinds,
        drafts,
        published: published ? { buildId: published.buildId, publishedAt: published.publishedAt.toISOString() } : null,
        running,
      });
    },
  );

  routes.get(
    '/items',
    describeCall({ summary: 'The items of one content kind', query: studioKindQuery }),
    async (c) => {
      const { kind } = await validate(c, studioKindQuery, 'query');
      return ok(c, { items: await itemSummaries(db, await listItems(db, kind)) });
    },
  );

  routes.get('/drafts', describeCall({ summary: 'Every item with a draft' }), async (c) =>
    ok(c, { items: await itemSummaries(db, await listDrafts(db)) }),
  );

  routes.get(
    '/item',
    describeCall({
      summary: 'One item with its draft',
      query: studioPathQuery,
      codes: { 404: '`rebuild.unknownItem`' },
    }),
    async (c) => {
      const { path } = await validate(c, studioPathQuery, 'query');
      const row = await getItem(db, path);
      if (!row) throw ApiError.notFound('rebuild.unknownItem');
      return ok(c, await itemView(db, row));
    },
  );

  routes.post(
    '/item',
    describeCall({ summary: "Save an item's draft (checked with its kind's schema)", body: studioSaveBody }),
    async (c) => {
      const { path, data: input, revision } = await validate(c, studioSaveBody, 'body');
      const { kind } = kindOfPath(path)!;
      const data = normalizedData(kind, input);
      // The build's own schema for this kind: the same rules, and the messages the editor's form
      // gives (its field labels), in the editor's locale.
      const checked = await check(c, kindSpecs[kind].schema, data, studioMessagesOf(localeOf(c)));
      const unrenderable = unrenderableMarkdownField(kindSpecs[kind].schema, checked);
      if (unrenderable !== undefined) throw ApiError.field(unrenderable, 'studio.edit.markdownUnrenderable');
      const before = await getItem(db, path);
      const row = await saveDraft(db, { path, kind, data, revision, userId: userId(c) });
      await audit(c, revision === 0 ? 'content.create' : 'content.save', path, {
        revision: row.revision,
        fields: changedFields(before ? (before.draft ?? before.published) : null, data),
      });
      return ok(c, await itemView(db, row));
    },
  );

  routes.post(
    '/item/discard',
    describeCall({ summary: "Discard an item's draft", body: studioPathBody }),
    async (c) => {
      const { path } = await validate(c, studioPathBody, 'body');
      const row = await discardDraft(db, path);
      await audit(c, 'content.discard', path);
      return ok(c, row ? await itemView(db, row) : null);
    },
  );

  routes.post(
    '/item/delete',
    describeCall({ summary: 'Delete an item (a draft deletion until published)', body: studioDeleteBody }),
    async (c) => {
      const { path, revision } = await validate(c, studioDeleteBody, 'body');
      const row = await deleteItem(db, { path, revision, userId: userId(c) });
      await audit(c, 'content.delete', path);
      return ok(c, row ? await itemView(db, row) : null);
    },
  );

  routes.post(
    '/item/restore',
    describeCall({ summary: 'Restore an earlier version as the draft', body: studioRestoreBody }),
    async (c) => {
      const { path, version, revision } = await validate(c, studioRestoreBody, 'body');
      const row = await restoreVersion(db, { path, version, revision, userId: userId(c) });
      await audit(c, 'content.restore', path, { version });
      return ok(c, await itemView(db, row));
    },
  );

  routes.get(
    '/versions',
    describeCall({ summary: 'The published versions of an item', answer: versionsSchema, query: studioPathQuery }),
    async (c) => {
      const { path } = await validate(c, studioPathQuery, 'query');
      const rows = await listVersions(db, path);
      const names = await userNames(
        db,
        rows.map((row) => row.publishedBy),
      );
      return ok(c, {
        versions: rows.map((row) => ({
          version: row.version,
          publishedAt: row.publishedAt.toISOString(),
          publishedBy: row.publishedBy === null ? null : (names.get(row.publishedBy) ?? null),
          buildId: row.buildId,
          deleted: row.data === null,
        })),
      });
    },
  );

  routes.get(
    '/version',
    describeCall({
      summary: 'One published version of an item',
      query: studioVersionQuery,
      codes: { 404: '`rebuild.unknownVersion`' },
    }),
    async (c) => {
      const { path, version } = await validate(c, studioVersionQuery, 'query');
      const row = await getVersion(db, path, version);
      if (!row) throw ApiError.notFound('rebuild.unknownVersion');
      return ok(c, { version: row.version, data: row.data ?? null });
    },
  );

  /** Checks the content as the build will read it, then starts the build; the audit entry names the drafts it carries. */
  const startBuild = (purpose: 'publish' | 'preview') => async (c: StudioContext) => {
    const { paths } = await validate(c, studioBuildBody, 'body');
    const drafts = paths ?? 'all';
    await checkContent(db, drafts);
    const carried = paths ?? (await listDrafts(db)).map((row) => row.path);
    const started = await rebuilder.start({ purpose, drafts, userId: userId(c) });
    await audit(c, buildAuditActions[purpose], `build:${started.buildId}`, {
      buildId: started.buildId,
      paths: carried,
    });
    const [view] = await buildViews(db, [await rebuilder.get(started.buildId)]);
    return ok(c, view, purpose === 'publish' ? 'rebuild.publishStarted' : 'rebuild.previewStarted');
  };
  routes.post(
    '/preview',
    describeCall({
      summary: 'Start a preview build with the drafts',
      answer: studioBuildViewSchema,
      body: studioBuildBody,
    }),
    startBuild('preview'),
  );
  routes.post(
    '/publish',
    describeCall({
      summary: 'Start a build that publishes the drafts',
      answer: studioBuildViewSchema,
      body: studioBuildBody,
    }),
    startBuild('publish'),
  );

  routes.get(
    '/build',
    describeCall({ summary: "A build's progress", answer: studioBuildViewSchema, query: studioBuildQuery }),
    async (c) => {
      const { buildId } = await validate(c, studioBuildQuery, 'query');
      const [view] = await buildViews(db, [await rebuilder.get(buildId)]);
      return ok(c, view);
    },
  );

  routes.get(
    '/publications',
    describeCall({ summary: 'The kept builds and the published one', answer: publicationsSchema }),
    async (c) => {
      const published = await publisher.published();
      return ok(c, {
        published: published?.buildId ?? null,
        builds: await publicationViews(db, await publisher.keptBuildIds()),
      });
    },
  );

  routes.post(
    '/rollback',
    describeCall({ summary: 'Publish a kept build again', answer: studioBuildViewSchema, body: studioRollbackBody }),
    async (c) => {
      const { buildId } = await validate(c, studioRollbackBody, 'body');
      await rebuilder.rollback(buildId);
      await audit(c, 'content.rollback', `build:${buildId}`, { buildId });
      const [view] = await buildViews(db, [await rebuilder.get(buildId)]);
      return ok(c, view, 'rebuild.rolledBack');
    },
  );

  routes.post(
    '/image',
    describeCall({ summary: 'Upload an image to the media library', answer: imageViewSchema, body: studioUploadBody }),
    async (c) => {
      const { file } = await validate(c, studioUploadBody, 'body');
      const image = await storeImage(db, objects, file, userId(c));
      await audit(c, 'content.image', image.name, { fileName: image.fileName, bytes: image.bytes });
      return ok(c, image);
    },
  );

  // The preview beside a Markdown field: rendered here, by the one renderer the build uses, so
  // the browser never renders an editor's HTML itself and sees what the site will drop.
  routes.post(
    '/markdown',
    describeCall({
      summary: 'Render a Markdown field as the site will show it',
      body: studioMarkdownBody,
      codes: { 400: '`studio.edit.markdownUnrenderable`' },
    }),
    async (c) => {
      const { markdown } = await validate(c, studioMarkdownBody, 'body');
      try {
        return ok(c, renderMarkdown(markdown));
      } catch (error) {
        if (error instanceof UnrenderableMarkdown) throw ApiError.field('markdown', 'studio.edit.markdownUnrenderable');
        throw error;
      }
    },
  );

  routes.get(
    '/export',
    describeCall({ summary: 'The content as a .zip (drafts=1: with the drafts)', download: 'application/zip' }),
    async (c) => {
      const withDrafts = new URL(c.req.url).searchParams.get('drafts') === '1';
      const files: Record<string, Uint8Array> = {};
      for (const row of await listItems(db)) {
        const data =
          withDrafts && (row.draft !== null || row.draftDeleted)
            ? row.draftDeleted
              ? null
              : row.draft
            : row.published;
        if (data !== null && data !== undefined) files[row.path] = strToU8(fileTextOf(row.kind as ContentKind, data));
      }
      await audit(c, 'content.export', null, { drafts: withDrafts, files: Object.keys(files).length });
      const zip = zipSync(files, { level: 6 });
      return new Response(zip, {
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': `attachment; filename="content${withDrafts ? '-drafts' : ''}.zip"`,
          'Cache-Control': 'no-store',
        },
      });
    },
  );

  routes.post(
    '/import',
    describeCall({
      summary: 'Import a content .zip as drafts',
      answer: contentImportResultSchema,
      body: studioUploadBody,
      codes: { 400: '`rebuild.importInvalid`' },
    }),
    async (c) => {
      const { file } = await validate(c, studioUploadBody, 'body');
      if (file.size > maxImportBytes) throw ApiError.field('file', 'rebuild.importInvalid');
      const result = await importPackage(db, new Uint8Array(await file.arrayBuffer()), userId(c), localeOf(c));
      await audit(c, 'content.import', null, { fileName: file.name, ...result });
      return ok(c, result);
    },
  );

  return routes;
}
