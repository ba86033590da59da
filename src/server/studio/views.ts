/**
 * What the studio's calls answer (the contract in docs/editing-content.md, "For developers"):
 * items with their state and who changed them, builds with their progress and the drafts they
 * carry, publications with what they changed; and the content check run before a build starts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { kindOfPath, titleOf, type ContentKind } from '../../content/paths.ts';
import { ContentError, loadContent } from '../../content/load.ts';
import { previewPathPrefix } from '../../lib/paths.ts';
import { defaultAreaCode } from '../../lib/schemas/fields.ts';
import type { Database } from '../db/client.ts';
import {
  auditLog,
  contentPublications,
  contentVersions,
  siteBuilds,
  type ContentItemRow,
  type SiteBuildRow,
} from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { siteBuildView } from '../site/rebuild.ts';
import type { ContentProblem, PublicationView, StudioBuildView } from '../../lib/studio/answers.ts';
import {
  ContentFileError,
  stateOf,
  takeSnapshot,
  userNames,
  versionsOfBuilds,
  writeSnapshot,
  type DraftSelection,
} from './contentRepo.ts';
import type { ItemSummary, ItemView, RegionView } from '../../lib/studio/views.ts';

export async function itemSummaries(db: Database, rows: readonly ContentItemRow[]): Promise<ItemSummary[]> {
  const onSite = rows.filter((row) => row.publishedVersion > 0);
  const versions = onSite.length
    ? await db
        .select({
          path: contentVersions.path,
          version: contentVersions.version,
          publishedBy: contentVersions.publishedBy,
          publishedAt: contentVersions.publishedAt,
        })
        .from(contentVersions)
        .where(inArray(contentVersions.path, [...new Set(onSite.map((row) => row.path))]))
    : [];
  const publishedVersion = new Map(onSite.map((row) => [row.path, row.publishedVersion]));
  const current = new Map(
    versions.filter((v) => publishedVersion.get(v.path) === v.version).map((v) => [v.path, v] as const),
  );
  const names = await userNames(db, [
    ...rows.map((row) => row.draftBy),
    ...[...current.values()].map((v) => v.publishedBy),
  ]);
  const nameOf = (id: number | null | undefined) => (id == null ? null : (names.get(id) ?? null));
  return rows.map((row) => {
    const version = current.get(row.path);
    const key = kindOfPath(row.path)?.key ?? {};
    return {
      path: row.path,
      kind: row.kind as ContentKind,
      id: key.id ?? null,
      areaCode: key.areaCode ?? null,
      title: titleOf(row.path, row.draft ?? row.published),
      state: stateOf(row),
      publishedVersion: row.publishedVersion,
      revision: row.revision,
      draftAt: row.draftAt?.toISOString() ?? null,
      draftBy: nameOf(row.draftBy),
      publishedAt: version?.publishedAt.toISOString() ?? null,
      publishedBy: nameOf(version?.publishedBy),
    };
  });
}

export async function itemView(db: Database, row: ContentItemRow): Promise<ItemView> {
  const [summary] = await itemSummaries(db, [row]);
  return { ...summary!, published: row.published ?? null, draft: row.draft ?? null, draftDeleted: row.draftDeleted };
}

export type { StudioBuildView } from '../../lib/studio/answers.ts';

/** Previews are served under this prefix, to signed-in editors only (routes/studioFiles.ts). */
export const previewPrefix = previewPathPrefix.replace(/\/$/, '');

/** The audit actions of builds started from the studio; their detail names the build and the drafts it carries. */
export const buildAuditActions = { publish: 'content.publish', preview: 'content.preview' } as const;

/** The drafts each build carries, as its audit entry recorded them (any process can answer). */
async function carriedPaths(db: Database, buildIds: readonly number[]): Promise<Map<number, string[]>> {
  if (!buildIds.length) return new Map();
  const rows = await db
    .select({ detail: auditLog.detail })
    .from(auditLog)
    .where(
      and(
        inArray(auditLog.action, Object.values(buildAuditActions)),
        inArray(sql`(${auditLog.detail}->>'buildId')::int`, [...buildIds]),
      ),
    );
  const carried = new Map<number, string[]>();
  for (const { detail } of rows) {
    const paths = Array.isArray(detail['paths'])
      ? detail['paths'].filter((item): item is string => typeof item === 'string')
      : [];
    carried.set(Number(detail['buildId']), paths);
  }
  return carried;
}

export async function buildViews(db: Database, rows: readonly SiteBuildRow[]): Promise<StudioBuildView[]> {
  const names = await userNames(
    db,
    rows.map((row) => row.startedBy),
  );
  const carried = await carriedPaths(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...siteBuildView(row),
    startedBy: row.startedBy === null ? null : (names.get(row.startedBy) ?? null),
    paths: carried.get(row.id) ?? [],
    previewUrl: row.purpose === 'preview' && row.status === 'succeeded' ? `${previewPrefix}/${row.id}` : null,
  }));
}

/** The publications, newest first, with what each changed and whether it can be rolled back to. */
export async function publicationViews(db: Database, kept: ReadonlySet<number>): Promise<PublicationView[]> {
  const rows = await db
    .select()
    .from(siteBuilds)
    .where(eq(siteBuilds.purpose, 'publish'))
    .orderBy(desc(siteBuilds.id))
    .limit(30);
  const views = await buildViews(db, rows);
  const versions = await versionsOfBuilds(
    db,
    rows.map((row) => row.id),
  );
  const withManifest = new Set(
    (
      await db
        .selectDistinct({ buildId: contentPublications.buildId })
        .from(contentPublications)
        .where(inArray(contentPublications.buildId, rows.map((row) => row.id).concat(0)))
    ).map((row) => row.buildId),
  );
  return views.map((view) => ({
    ...view,
    items: versions
      .filter((version) => version.buildId === view.buildId)
      .map((version) => ({
        path: version.path,
        title: titleOf(version.path, version.data),
        version: version.version,
        deleted: version.data === null,
      })),
    kept:
      view.status === 'succeeded' &&
      view.publishedAt !== null &&
      kept.has(view.buildId) &&
      withManifest.has(view.buildId),
  }));
}

/** Region choices and URL prefixes, from the published region items. */
export function regionsOf(rows: readonly ContentItemRow[]): RegionView[] {
  return rows
    .filter((row) => row.kind === 'region' && row.published !== null)
    .map((row) => {
      const areaCode = kindOfPath(row.path)?.key.id ?? '';
      const data = row.published as { name?: string; isoCode?: string; sort?: number };
      return {
        areaCode,
        name: data.name ?? areaCode,
        prefix: areaCode === defaultAreaCode ? '' : `/${data.isoCode ?? ''}`,
        sort: data.sort ?? 0,
      };
    })
    .sort((a, b) => a.sort - b.sort)
    .map(({ sort: _sort, ...region }) => region);
}

export type { ContentProblem } from '../../lib/studio/answers.ts';

/**
 * Checks the content a build would read (the published items with `selection` applied) exactly as
 * the build does; a problem answers 400 `rebuild.contentInvalid` with where it is, before anything starts.
 */
export async function checkContent(db: Database, selection: DraftSelection): Promise<void> {
  const snapshot = await takeSnapshot(db, selection);
  const dir = await mkdtemp(path.join(tmpdir(), 'hgd-content-check-'));
  try {
    await writeSnapshot(snapshot, dir);
    loadContent(dir);
  } catch (error) {
    const problem = problemOf(error, dir);
    if (!problem) throw error;
    throw new ApiError(
      400,
      'rebuild.contentInvalid',
      { detail: `${problem.path}: ${problem.field ? `${problem.field}: ` : ''}${problem.message}` },
      problem,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A loader or file error as a problem of an item (`file` names it under the snapshot directory). */
export function problemOf(error: unknown, dir: string): ContentProblem | undefined {
  if (error instanceof ContentFileError) return { path: error.path, field: error.field, message: error.problem };
  if (!(error instanceof ContentError)) return undefined;
  const file = error.file.includes(dir) ? error.file.slice(error.file.indexOf(dir) + dir.length + 1) : error.file;
  const prefix = `${error.file}: ${error.field ? `${error.field}: ` : ''}`;
  return {
    path: file,
    field: error.field,
    message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message,
  };
}
