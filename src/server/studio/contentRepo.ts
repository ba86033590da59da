/**
 * The site's content in the database (docs/editing-content.md): one row per item (a file of the
 * import/export format, src/content/kinds.ts) with its published data and an editor's draft,
 * every published version, and the manifest of each publication (which version of each item it
 * was built from). Every API process and every build reads the same rows.
 *
 *   seed       an empty table takes the content files (CONTENT_DIR or src/content) as version 1
 *   drafts     save / discard / delete / restore change only the draft; `revision` guards
 *              against two editors overwriting each other
 *   snapshot   the files a build reads: the published items, with some or all drafts applied
 *   publish    after a successful build, in the publication's transaction: the drafts it carried
 *              become new versions (unless an editor changed them meanwhile), and its manifest
 *   rollback   the published data goes back to a publication's manifest (drafts untouched)
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, desc, eq, inArray, isNotNull, max, or, sql } from 'drizzle-orm';
import { kindOfPath, type ContentKind } from '../../content/paths.ts';
import { dataOfFile, fileTextOf } from '../../content/files.ts';
import type { ItemState } from '../../lib/studio/views.ts';
import type { Database } from '../db/client.ts';
import { contentItems, contentPublications, contentVersions, users, type ContentItemRow } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';

/** Advisory lock id of the one-time seed (any constant unique within this database). */
const seedLockKey = 4_400_013;

export function stateOf(row: Pick<ContentItemRow, 'published' | 'draft' | 'draftDeleted'>): ItemState {
  if (row.draftDeleted) return 'deleted';
  if (row.draft === null || row.draft === undefined) return 'published';
  return row.published === null || row.published === undefined ? 'new' : 'changed';
}

/** The content files under `dir` (relative paths with `/`), each with its text; files that are no item's are skipped. */
export async function readContentFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (kindOfPath(relative)) files.set(relative, await readFile(path.join(dir, relative), 'utf8'));
  }
  return files;
}

/** Items from file texts; a file that cannot be read as its kind throws a ContentFileError. */
export function itemsOfFiles(files: ReadonlyMap<string, string>): { path: string; kind: ContentKind; data: unknown }[] {
  return [...files].map(([file, text]) => {
    const found = kindOfPath(file);
    if (!found) throw new ContentFileError(file, '', 'is not a content file of the studio');
    try {
      return { path: file, kind: found.kind, data: dataOfFile(found.kind, text) };
    } catch (error) {
      throw new ContentFileError(
        file,
        '',
        error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
      );
    }
  });
}

/** Key order does not make two data different. */
export function canonicalData(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/**
 * Whether the content files of `dir` (a static build's source, e.g. `npm run build`'s src/content)
 * are exactly the published content: same items, same data. False means pages built from them
 * would show something else than the database publishes.
 */
export async function filesMatchPublished(db: Database, dir: string): Promise<boolean> {
  let files: { path: string; data: unknown }[];
  try {
    files = itemsOfFiles(await readContentFiles(dir));
  } catch {
    return false;
  }
  const published = new Map(
    (
      await db
        .select({ path: contentItems.path, published: contentItems.published })
        .from(contentItems)
        .where(isNotNull(contentItems.published))
    ).map((row) => [row.path, canonicalData(row.published)]),
  );
  return (
    files.length === published.size && files.every((file) => published.get(file.path) === canonicalData(file.data))
  );
}

/** A content file (import, seed) that cannot be read. */
export class ContentFileError extends Error {
  readonly path: string;
  readonly field: string;
  readonly problem: string;

  constructor(file: string, field: string, problem: string) {
    super(`${file}: ${field ? `${field}: ` : ''}${problem}`);
    this.name = 'ContentFileError';
    this.path = file;
    this.field = field;
    this.problem = problem;
  }
}

/**
 * Seeds an empty content table from the content files (version 1 of each, no publication), once
 * across every process sharing the database. Returns how many items it wrote (0: already seeded).
 */
export async function seedContentIfEmpty(db: Database, contentDir: string): Promise<number> {
  const [present] = await db.select({ path: contentItems.path }).from(contentItems).limit(1);
  if (present) return 0;
  const items = itemsOfFiles(await readContentFiles(contentDir));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${seedLockKey})`);
    const [again] = await tx.select({ path: contentItems.path }).from(contentItems).limit(1);
    if (again || items.length === 0) return 0;
    await tx
      .insert(contentItems)
      .values(items.map((item) => ({ path: item.path, kind: item.kind, published: item.data, publishedVersion: 1 })));
    await tx.insert(contentVersions).values(items.map((item) => ({ path: item.path, version: 1, data: item.data })));
    return items.length;
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export async function listItems(db: Database, kind?: ContentKind): Promise<ContentItemRow[]> {
  const query = db.select().from(contentItems);
  return (kind ? query.where(eq(contentItems.kind, kind)) : query).orderBy(asc(contentItems.path));
}

export async function listDrafts(db: Database): Promise<ContentItemRow[]> {
  return db
    .select()
    .from(contentItems)
    .where(or(isNotNull(contentItems.draft), eq(contentItems.draftDeleted, true)))
    .orderBy(asc(contentItems.path));
}

export async function getItem(db: Database, itemPath: string): Promise<ContentItemRow | undefined> {
  const [row] = await db.select().from(contentItems).where(eq(contentItems.path, itemPath));
  return row;
}

async function requireItem(db: Database, itemPath: string): Promise<ContentItemRow> {
  const row = await getItem(db, itemPath);
  if (!row) throw ApiError.notFound('rebuild.unknownItem');
  return row;
}

/** Names of users by id (for "draft by", "published by"). */
export async function userNames(db: Database, ids: readonly (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.name, userName: users.userName })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row.name || row.userName]));
}

export async function listVersions(db: Database, itemPath: string) {
  return db
    .select()
    .from(contentVersions)
    .where(eq(contentVersions.path, itemPath))
    .orderBy(desc(contentVersions.version));
}

export async function getVersion(db: Database, itemPath: string, version: number) {
  const [row] = await db
    .select()
    .from(contentVersions)
    .where(and(eq(contentVersions.path, itemPath), eq(contentVersions.version, version)));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Drafts

/** Locks the item's row for the rest of the transaction and checks the editor saw its latest revision. */
async function lockCurrent(tx: Database, itemPath: string, revision: number): Promise<ContentItemRow | undefined> {
  const [row] = await tx.select().from(contentItems).where(eq(contentItems.path, itemPath)).for('update');
  if (row && row.revision !== revision) throw ApiError.conflict('rebuild.itemChanged');
  if (!row && revision !== 0) throw ApiError.conflict('rebuild.itemChanged');
  return row;
}

/** Saves a draft (data already validated); `revision` 0 creates a new item, refused when the path is taken. */
export async function saveDraft(
  db: Database,
  input: { path: string; kind: ContentKind; data: unknown; revision: number; userId: number },
): Promise<ContentItemRow> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ revision: contentItems.revision })
      .from(contentItems)
      .where(eq(contentItems.path, input.path));
    if (existing && input.revision === 0) throw ApiError.conflict('rebuild.itemExists');
    const row = await lockCurrent(tx, input.path, input.revision);
    const now = new Date();
    if (!row) {
      const [created] = await tx
        .insert(contentItems)
        .values({ path: input.path, kind: input.kind, draft: input.data, draftBy: input.userId, draftAt: now })
        .onConflictDoNothing()
        .returning();
      if (!created) throw ApiError.conflict('rebuild.itemExists');
      return created;
    }
    const [updated] = await tx
      .update(contentItems)
      .set({ draft: input.data, draftDeleted: false, draftBy: input.userId, draftAt: now, revision: row.revision + 1 })
      .where(eq(contentItems.path, input.path))
      .returning();
    return updated!;
  });
}

/** Drops the draft; an item never published is gone with it (undefined). */
export async function discardDraft(db: Database, itemPath: string): Promise<ContentItemRow | undefined> {
  return db.transaction(async (tx) => {
    const row = await requireItem(tx, itemPath);
    if (row.published === null) {
      await tx.delete(contentItems).where(eq(contentItems.path, itemPath));
      return undefined;
    }
    const [updated] = await tx
      .update(contentItems)
      .set({ draft: null, draftDeleted: false, draftBy: null, draftAt: null, revision: row.revision + 1 })
      .where(eq(contentItems.path, itemPath))
      .returning();
    return updated;
  });
}

/** The change that marks an item for removal at the next publication: a draft of deletion by `userId` (its draft, if any, dropped). */
export function deletionMark(row: Pick<ContentItemRow, 'revision'>, userId: number | null) {
  return { draft: null, draftDeleted: true, draftBy: userId, draftAt: new Date(), revision: row.revision + 1 };
}

/** Marks a published item for removal at the next publication; an item never published is removed now. */
export async function deleteItem(
  db: Database,
  input: { path: string; revision: number; userId: number },
): Promise<ContentItemRow | undefined> {
  return db.transaction(async (tx) => {
    const row = await lockCurrent(tx, input.path, input.revision);
    if (!row) throw ApiError.notFound('rebuild.unknownItem');
    if (row.published === null) {
      await tx.delete(contentItems).where(eq(contentItems.path, input.path));
      return undefined;
    }
    const [updated] = await tx
      .update(contentItems)
      .set(deletionMark(row, input.userId))
      .where(eq(contentItems.path, input.path))
      .returning();
    return updated;
  });
}

/** A published version becomes the draft. */
export async function restoreVersion(
  db: Database,
  input: { path: string; version: number; revision: number; userId: number },
): Promise<ContentItemRow> {
  return db.transaction(async (tx) => {
    const row = await lockCurrent(tx, input.path, input.revision);
    if (!row) throw ApiError.notFound('rebuild.unknownItem');
    const version = await getVersion(tx, input.path, input.version);
    if (!version || version.data === null) throw ApiError.notFound('rebuild.unknownVersion');
    const [updated] = await tx
      .update(contentItems)
      .set({
        draft: version.data,
        draftDeleted: false,
        draftBy: input.userId,
        draftAt: new Date(),
        revision: row.revision + 1,
      })
      .where(eq(contentItems.path, input.path))
      .returning();
    return updated!;
  });
}

// ---------------------------------------------------------------------------------------------
// Snapshots and publications

/** Which drafts a build carries: every draft, the listed paths, or none (the published content). */
export type DraftSelection = 'all' | 'none' | readonly string[];

/** A draft as a build carried it: what the publication commits if it succeeds. */
export interface CarriedDraft {
  path: string;
  kind: ContentKind;
  /** The data built (null: the item is removed). */
  data: unknown;
  /** The item's revision when the snapshot was taken (a later save keeps its newer draft). */
  revision: number;
}

export interface ContentSnapshot {
  /** Path → file text of every item the build reads. */
  files: Map<string, string>;
  carried: CarriedDraft[];
}

/** The content a build reads: the published items, with the selected drafts applied. Unknown paths in the selection are refused. */
export async function takeSnapshot(db: Database, selection: DraftSelection): Promise<ContentSnapshot> {
  const rows = await listItems(db);
  const wanted = selection === 'all' || selection === 'none' ? undefined : new Set(selection);
  if (wanted) {
    const pending = new Set(rows.filter((row) => stateOf(row) !== 'published').map((row) => row.path));
    for (const candidate of wanted)
      if (!pending.has(candidate)) throw ApiError.badRequest('rebuild.noSuchDraft', { path: candidate });
  }
  const files = new Map<string, string>();
  const carried: CarriedDraft[] = [];
  for (const row of rows) {
    const kind = row.kind as ContentKind;
    const pending = stateOf(row) !== 'published';
    const take = pending && selection !== 'none' && (selection === 'all' || wanted?.has(row.path) === true);
    const data = take ? (row.draftDeleted ? null : row.draft) : row.published;
    if (take) carried.push({ path: row.path, kind, data, revision: row.revision });
    if (data !== null && data !== undefined) files.set(row.path, fileTextOf(kind, data));
  }
  return { files, carried };
}

/** Writes a snapshot's files under `dir` (the build's content directory). */
export async function writeSnapshot(snapshot: ContentSnapshot, dir: string): Promise<void> {
  for (const [file, text] of snapshot.files) {
    const target = path.join(dir, ...file.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
}

/**
 * Commits a successful publication's content (inside its transaction): each carried draft
 * becomes the item's next version, its draft cleared unless an editor saved a newer one since
 * the snapshot; then the manifest of everything published now.
 */
export async function commitPublication(
  tx: Database,
  buildId: number,
  carried: readonly CarriedDraft[],
  userId: number | null,
): Promise<void> {
  for (const draft of carried) {
    const [row] = await tx.select().from(contentItems).where(eq(contentItems.path, draft.path)).for('update');
    const [latest] = await tx
      .select({ version: max(contentVersions.version) })
      .from(contentVersions)
      .where(eq(contentVersions.path, draft.path));
    const version = (latest?.version ?? 0) + 1;
    await tx
      .insert(contentVersions)
      .values({ path: draft.path, version, data: draft.data, buildId, publishedBy: userId });
    const unchanged = row?.revision === draft.revision;
    const published = { published: draft.data, publishedVersion: version };
    if (!row) {
      // Discarded while it built: what was built is published, and the item exists again.
      if (draft.data !== null)
        await tx.insert(contentItems).values({ path: draft.path, kind: draft.kind, ...published });
    } else {
      await tx
        .update(contentItems)
        .set(
          unchanged
            ? {
                ...published,
                draft: null,
                draftDeleted: false,
                draftBy: null,
                draftAt: null,
                revision: row.revision + 1,
              }
            : published,
        )
        .where(eq(contentItems.path, draft.path));
    }
  }
  await writeManifest(tx, buildId);
}

async function writeManifest(tx: Database, buildId: number): Promise<void> {
  const rows = await tx
    .select({ path: contentItems.path, version: contentItems.publishedVersion })
    .from(contentItems)
    .where(isNotNull(contentItems.published));
  await tx.delete(contentPublications).where(eq(contentPublications.buildId, buildId));
  if (rows.length) await tx.insert(contentPublications).values(rows.map((row) => ({ buildId, ...row })));
}

/** The items a publication changed: the versions first published by it. */
export async function versionsOfBuilds(db: Database, buildIds: readonly number[]) {
  if (!buildIds.length) return [];
  return db
    .select({
      buildId: contentVersions.buildId,
      path: contentVersions.path,
      version: contentVersions.version,
      data: contentVersions.data,
    })
    .from(contentVersions)
    .where(inArray(contentVersions.buildId, [...buildIds]));
}

/** The published content goes back to a publication's manifest (inside the rollback's transaction). */
export async function restoreManifest(tx: Database, buildId: number): Promise<void> {
  const manifest = await tx.select().from(contentPublications).where(eq(contentPublications.buildId, buildId));
  if (!manifest.length) return;
  const target = new Map(manifest.map((row) => [row.path, row.version]));
  const rows = await tx.select().from(contentItems).for('update');
  for (const row of rows) {
    const version = target.get(row.path);
    if (version === undefined) {
      if (row.published !== null)
        await tx.update(contentItems).set({ published: null }).where(eq(contentItems.path, row.path));
      continue;
    }
    target.delete(row.path);
    if (version === row.publishedVersion && row.published !== null) continue;
    const stored = await getVersion(tx, row.path, version);
    await tx
      .update(contentItems)
      .set({ published: stored?.data ?? null, publishedVersion: version })
      .where(eq(contentItems.path, row.path));
  }
  // Items of the manifest whose row is gone (a discarded new item cannot be in a manifest; kept for safety).
  for (const [itemPath, version] of target) {
    const stored = await getVersion(tx, itemPath, version);
    const found = kindOfPath(itemPath);
    if (stored?.data && found)
      await tx
        .insert(contentItems)
        .values({ path: itemPath, kind: found.kind, published: stored.data, publishedVersion: version });
  }
}
