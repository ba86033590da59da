/**
 * The user's own sessions, for account settings: list them and end one. Each is shown by a
 * public id derived from its stored key, so the page never holds the cookie token or the key.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import Bowser from 'bowser';
import type { SessionData } from '../../lib/schemas/account.ts';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { revokeSession, staffRolesArray, type SessionPolicy } from '../session.ts';
import { writeAudit } from './audit.ts';

export function publicSessionId(storedId: string): string {
  return createHash('sha256').update(`public:${storedId}`).digest('hex').slice(0, 16);
}

/** Browsers whose phone build is labelled "Mobile …" (as session labels always were: "Mobile Chrome 126 · Android 14"). */
const mobileBuilds = new Set(['Chrome', 'Safari', 'Firefox']);

/**
 * "Chrome 156 · Linux" from a User-Agent; '' when nothing is recognised. Parsed by bowser (MIT;
 * ua-parser-js 2 is AGPL-3.0, docs/api-plumbing.md "Dependencies and licences"): browser and
 * major version, then the system and its version (Windows by its marketing name: "Windows 10").
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return '';
  const { browser, os, platform } = Bowser.parse(userAgent);
  const browserName =
    browser.name && platform.type === 'mobile' && mobileBuilds.has(browser.name)
      ? `Mobile ${browser.name}`
      : browser.name;
  const osVersion = os.name === 'Windows' ? os.versionName : os.version;
  const parts = [
    [browserName, browser.version?.split('.')[0]].filter(Boolean).join(' '),
    [os.name, osVersion].filter(Boolean).join(' '),
  ].filter(Boolean);
  return parts.join(' · ');
}

interface LiveSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}

async function liveSessions(db: Database, userId: number, policy: SessionPolicy): Promise<LiveSession[]> {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        // The idle timeout resolveSession applies: a staff account's is shorter.
        gt(
          sessions.lastSeenAt,
          sql`now() - make_interval(secs => case when (select ${users.roles} from ${users} where ${users.id} = ${userId}) && ${staffRolesArray} then ${policy.staffIdleMs / 1000}::double precision else ${policy.idleMs / 1000}::double precision end)`,
        ),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/** The user's live sessions, most recently used first; `current` marks the caller's. */
export async function listSessions(
  db: Database,
  userId: number,
  currentId: string,
  policy: SessionPolicy,
): Promise<SessionData[]> {
  const rows = await liveSessions(db, userId, policy);
  return rows.map((row) => ({
    id: publicSessionId(row.id),
    current: row.id === currentId,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ip: row.ip,
    device: describeDevice(row.userAgent),
    userAgent: row.userAgent,
  }));
}

/** Ends one of the user's live sessions by public id; returns whether it was the caller's own. */
export async function endSession(
  db: Database,
  input: { userId: number; publicId: string; currentId: string; ip: string | null },
  policy: SessionPolicy,
): Promise<{ endedCurrent: boolean }> {
  const rows = await liveSessions(db, input.userId, policy);
  const target = rows.find((row) => publicSessionId(row.id) === input.publicId);
  if (!target) throw ApiError.notFound();
  await db.transaction(async (tx) => {
    await revokeSession(tx, target.id);
    await writeAudit(tx, {
      userId: input.userId,
      action: 'session.end',
      target: `user:${input.userId}`,
      detail: { session: input.publicId },
      ip: input.ip,
    });
  });
  return { endedCurrent: target.id === input.currentId };
}
