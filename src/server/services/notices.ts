/**
 * A user's notices (the notice bell): list, counts, mark one read, clear one type. Every query is
 * scoped to the user, so another user's notice id is "not found", never data.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { noticeTypes } from '../../lib/notices.ts';
import type { NoticeCountsData, NoticeData } from '../../lib/schemas/account.ts';
import type { Database } from '../db/client.ts';
import { notices, type NoticeType } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { contentStore } from './contentStore.ts';
import { keptNames } from './contentViews.ts';
import { defaultLocale, t, type Locale, type MessageKey, type MessageVars } from '../../lib/i18n/index.ts';

export interface NoticeListOptions {
  type?: NoticeType;
  /** Only the notices about one thing (`order:HGD…`). */
  ref?: string;
  /** At most this many (the bell shows a page, the list page asks for more). */
  limit?: number;
  /** The reader's locale, for system notices. */
  locale?: Locale;
}

/** Newest first. */
export async function listNotices(
  db: Database,
  userId: number,
  options: NoticeListOptions = {},
): Promise<NoticeData[]> {
  const { type, ref, limit = 200, locale = defaultLocale } = options;
  const rows = await db
    .select()
    .from(notices)
    .where(
      and(
        eq(notices.userId, userId),
        type ? eq(notices.type, type) : undefined,
        ref === undefined ? undefined : eq(notices.ref, ref),
      ),
    )
    .orderBy(desc(notices.createdAt), desc(notices.id))
    .limit(limit);
  const kept = keptNames(contentStore.current(), locale);
  const varsOf = (row: (typeof rows)[number]) => shownVars(row.messageVars, kept);
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    title: row.messageKey ? t(locale, `${row.messageKey}.title` as MessageKey, varsOf(row)) : row.title,
    description: row.messageKey
      ? t(locale, `${row.messageKey}.description` as MessageKey, varsOf(row))
      : row.description,
    datetime: row.createdAt.toISOString(),
    read: row.readAt !== null,
  }));
}

/** Variables that name catalogue content a notice kept (a package, a retail company): shown in the reader's language. */
const keptNameVars = ['setName', 'orgComName'] as const;

function shownVars(vars: MessageVars | null, kept: (name: string) => string): MessageVars | undefined {
  if (!vars) return undefined;
  const out: Record<string, string | number> = { ...vars };
  for (const name of keptNameVars) {
    const value = vars[name];
    if (typeof value === 'string') out[name] = kept(value);
  }
  return out;
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
  const byType = Object.fromEntries(
    noticeTypes.map((type) => [type, { totalCount: 0, unreadCount: 0 }]),
  ) as NoticeCountsData['byType'];
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

export type NewNotice = {
  userId: number;
  type: NoticeType;
  /** What it is about (`order:HGD…`, `enterprise:7`), so a detail page can list its notices. */
  ref?: string;
} & (
  | {
      /** A system notice: `<messageKey>.title` and `<messageKey>.description` in the dictionaries. */
      messageKey: NoticeMessageKey;
      vars?: MessageVars;
    }
  | { title: string; description?: string }
);

/** Keys `K` for which both `K.title` and `K.description` exist. */
export type NoticeMessageKey = {
  [K in MessageKey]: K extends `${infer Base}.title`
    ? `${Base}.description` extends MessageKey
      ? Base
      : never
    : never;
}[MessageKey];

/**
 * Creates a notice; order and certification changes call it inside their transaction. A system
 * notice keeps its key and variables so each reader sees it in their own locale; the stored
 * title and description are its zh-CN text.
 */
export async function createNotice(db: Database, notice: NewNotice): Promise<number> {
  const text =
    'messageKey' in notice
      ? {
          title: t(defaultLocale, `${notice.messageKey}.title` as MessageKey, notice.vars),
          description: t(defaultLocale, `${notice.messageKey}.description` as MessageKey, notice.vars),
          messageKey: notice.messageKey,
          messageVars: notice.vars ?? {},
        }
      : { title: notice.title, description: notice.description ?? '' };
  const [row] = await db
    .insert(notices)
    .values({
      userId: notice.userId,
      type: notice.type,
      ref: notice.ref ?? null,
      ...text,
      title: text.title.slice(0, 100),
    })
    .returning({ id: notices.id });
  return row!.id;
}
