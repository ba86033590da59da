/**
 * A user's notices (the notice bell): list, counts, mark one read, clear one type. Every query is
 * scoped to the user, so another user's notice id is "not found", never data.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { noticeTypes, type NoticeCountsData, type NoticeData } from '../../lib/schemas/account.ts';
import type { Database } from '../db/client.ts';
import { notices, type NoticeType } from '../db/schema/index.ts';
import { ApiError } from '../envelope.ts';

/** Newest first; at most `limit` (the bell shows a page, the list page asks for more). */
export async function listNotices(db: Database, userId: number, type?: NoticeType, limit = 200): Promise<NoticeData[]> {
  const rows = await db
    .select()
    .from(notices)
    .where(type ? and(eq(notices.userId, userId), eq(notices.type, type)) : eq(notices.userId, userId))
    .orderBy(desc(notices.createdAt), desc(notices.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    datetime: row.createdAt.toISOString(),
    read: row.readAt !== null,
  }));
}

export async function countNotices(db: Database, userId: number): Promise<NoticeCountsData> {
  const rows = await db
    .select({
      type: notices.type,
      total: sql<number>`count(*)::int`,
      unread: sql<number>`count(*) filter (where ${notices.readAt} is null)::int`,
    })
    .from(notices)
    .where(eq(notices.userId, userId))
    .groupBy(notices.type);
  const byType = Object.fromEntries(noticeTypes.map((type) => [type, { totalCount: 0, unreadCount: 0 }])) as NoticeCountsData['byType'];
  let totalCount = 0;
  let unreadCount = 0;
  for (const row of rows) {
    byType[row.type] = { totalCount: Number(row.total), unreadCount: Number(row.unread) };
    totalCount += Number(row.total);
    unreadCount += Number(row.unread);
  }
  return { totalCount, unreadCount, byType };
}

/** Marks one of the user's notices read (idempotent); 404 for an id that is not theirs. */
export async function markNoticeRead(db: Database, userId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: notices.id, readAt: notices.readAt })
      .from(notices)
      .where(and(eq(notices.id, id), eq(notices.userId, userId)))
      .limit(1);
    if (!row) throw ApiError.notFound();
    if (row.readAt === null) {
      await tx
        .update(notices)
        .set({ readAt: sql`now()` })
        .where(and(eq(notices.id, id), isNull(notices.readAt)));
    }
  });
}

/** Removes every notice of one type of the user's (spec §4: "clearing removes all of one type"). */
export async function clearNoticeType(db: Database, userId: number, type: NoticeType): Promise<number> {
  const removed = await db
    .delete(notices)
    .where(and(eq(notices.userId, userId), eq(notices.type, type)))
    .returning({ id: notices.id });
  return removed.length;
}

export interface NewNotice {
  userId: number;
  type: NoticeType;
  title: string;
  description?: string;
}

/** Creates a notice; later issues call it from order and certification changes (inside their transaction). */
export async function createNotice(db: Database, notice: NewNotice): Promise<number> {
  const [row] = await db
    .insert(notices)
    .values({ userId: notice.userId, type: notice.type, title: notice.title, description: notice.description ?? '' })
    .returning({ id: notices.id });
  return row!.id;
}
