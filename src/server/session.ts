/**
 * Server-side sessions (DOMAIN.md, Security). The cookie `hgd_sid` carries 32 random bytes
 * (base64url); the sessions table stores only their sha256, so a leaked table opens no session.
 * A session is live while it is not revoked, younger than its absolute lifetime (12 h) and used
 * within the idle timeout (30 min). `last_seen_at` is written at most once a minute.
 * Login must call createSession (always a new id: no fixation) and revoke the old one.
 */
import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sessionCookieName, signedInHintCookieName } from '../lib/apiCodes.ts';
import { staffRoles } from '../lib/staffRoles.ts';
import type { Config } from './config.ts';
import { preparedStatement, rowsOf, type Database } from './db/client.ts';
import { enterprises, sessions, users } from './db/schema/index.ts';
import type { AnyContext } from './envelope.ts';
import { secureCookies } from './request.ts';
import type { SessionState, SessionUser } from './types.ts';

export { sessionCookieName };

export interface SessionPolicy {
  idleMs: number;
  /** The idle timeout of staff accounts (staffRoles), shorter. */
  staffIdleMs: number;
  absoluteMs: number;
  /** `last_seen_at` is refreshed only when older than this. */
  touchIntervalMs: number;
}

export function sessionPolicy(
  config: Pick<Config, 'sessionIdleMinutes' | 'staffSessionIdleMinutes' | 'sessionAbsoluteHours'>,
): SessionPolicy {
  return {
    idleMs: config.sessionIdleMinutes * 60_000,
    staffIdleMs: config.staffSessionIdleMinutes * 60_000,
    absoluteMs: config.sessionAbsoluteHours * 3_600_000,
    touchIntervalMs: 60_000,
  };
}

export const defaultSessionPolicy: SessionPolicy = sessionPolicy({
  sessionIdleMinutes: 30,
  staffSessionIdleMinutes: 15,
  sessionAbsoluteHours: 12,
});

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
  /** The session begins with a second factor proved (login's second step; a renewal of a proved session). */
  secondFactorAt?: Date | null;
}

/** A fresh random token: 32 bytes, base64url (43 characters). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored id of a token: sha256, hex. */
export function hashSessionToken(token: string): string {
  return hash('sha256', token, 'hex');
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedToken(token: string | undefined): token is string {
  return token !== undefined && tokenPattern.test(token);
}

/** Creates a session with a new id and returns the token for the cookie. */
export async function createSession(
  db: Database,
  userId: number,
  meta: SessionMeta = {},
  policy: SessionPolicy = defaultSessionPolicy,
  now: Date = new Date(),
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = newSessionToken();
  const id = hashSessionToken(token);
  const expiresAt = new Date(now.getTime() + policy.absoluteMs);
  await db.insert(sessions).values({
    id,
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    secondFactorAt: meta.secondFactorAt ?? null,
  });
  return { token, id, expiresAt };
}

/** Records that a live session has proved the second factor (enrolling or verifying in it). */
export async function markSecondFactorProved(db: Database, id: string, now: Date = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ secondFactorAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeSession(db: Database, id: string, now: Date = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Revokes every session of the user except `keepId` (password change: "log out other devices"). */
export async function revokeOtherSessions(
  db: Database,
  userId: number,
  keepId: string | null,
  now: Date = new Date(),
): Promise<void> {
  const mine = and(eq(sessions.userId, userId), isNull(sessions.revokedAt));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(keepId ? and(mine, ne(sessions.id, keepId)) : mine);
}

/** The row of resolveSession's statement: the session, its user, and `touched_at` when it refreshed `last_seen_at`. */
interface LiveSessionRow {
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  second_factor_at: string | null;
  touched_at: string | null;
  user_name: string;
  name: string;
  mobile: string;
  email: string;
  avatar: string;
  roles: SessionUser['roles'];
  status: SessionUser['status'];
  enterprise_name: string;
  agreed_versions: SessionUser['agreedVersions'];
}

/** The staff roles as a SQL array literal: a staff account's session has the shorter idle timeout. */
export const staffRolesArray = sql.raw(`array[${staffRoles.map((role) => `'${role}'`).join(', ')}]::text[]`);

/** resolveSession's one statement (below), its text built once. */
const liveSessionStatement = preparedStatement<{
  id: string;
  at: string;
  idleSince: string;
  staffIdleSince: string;
  touchBefore: string;
}>(
  () => sql`
      with live as (
        select s.id, s.user_id, s.created_at, s.last_seen_at, s.expires_at, s.second_factor_at,
               u.user_name, u.name, u.mobile, u.email, u.avatar, u.roles, u.status, u.agreed_versions,
               coalesce(e.enterprise_name, '') as enterprise_name
        from ${sessions} s join ${users} u on u.id = s.user_id
          left join ${enterprises} e on e.owner_user_id = u.id
        where s.id = ${sql.placeholder('id')} and s.revoked_at is null and s.expires_at > ${sql.placeholder('at')}::timestamptz
          and s.last_seen_at > (case when u.roles && ${staffRolesArray} then ${sql.placeholder('staffIdleSince')}
                                     else ${sql.placeholder('idleSince')} end)::timestamptz
          and u.status = 'active'
      ), touched as (
        update ${sessions} set last_seen_at = ${sql.placeholder('at')}::timestamptz from live
        where ${sessions}.id = live.id and live.last_seen_at <= ${sql.placeholder('touchBefore')}::timestamptz
        returning ${sessions}.last_seen_at
      )
      select live.*, (select last_seen_at from touched) as touched_at from live`,
);

/**
 * The live session of a token and its (active) user; null otherwise. ONE statement, since it runs on every
 * session-checked request: it
 * finds the session by its primary key only while it is live (not revoked, before its absolute
 * end, used within the idle timeout) and its user is active, reads the name of the enterprise the
 * user owns with it (so `currentUser` needs no statement of its own) and when the session proved a
 * second factor (so the role guards need none either), and in the same round trip
 * refreshes `last_seen_at` when it is older than `touchIntervalMs` (a data-modifying CTE that
 * writes nothing otherwise) — so a session-checked read costs one indexed query, and a write at
 * most once a minute per session.
 */
export async function resolveSession(
  db: Database,
  token: string,
  policy: SessionPolicy,
  now: Date = new Date(),
): Promise<{ session: SessionState; user: SessionUser } | null> {
  if (!isWellFormedToken(token)) return null;
  const id = hashSessionToken(token);
  const at = now.toISOString();
  const idleSince = new Date(now.getTime() - policy.idleMs).toISOString();
  const staffIdleSince = new Date(now.getTime() - policy.staffIdleMs).toISOString();
  const touchBefore = new Date(now.getTime() - policy.touchIntervalMs).toISOString();
  const [row] = rowsOf<LiveSessionRow>(
    await liveSessionStatement.execute(db, { id, at, idleSince, staffIdleSince, touchBefore }),
  );
  if (!row) return null;
  // timestamptz as PostgreSQL's text (both drivers leave it so for raw statements), as drizzle reads it.
  const time = (value: string) => new Date(value);
  return {
    session: {
      id: row.id,
      userId: row.user_id,
      createdAt: time(row.created_at),
      lastSeenAt: time(row.touched_at ?? row.last_seen_at),
      expiresAt: time(row.expires_at),
      secondFactorAt: row.second_factor_at === null ? null : time(row.second_factor_at),
    },
    user: {
      id: row.user_id,
      userName: row.user_name,
      name: row.name,
      mobile: row.mobile,
      email: row.email,
      avatar: row.avatar,
      roles: row.roles,
      status: row.status,
      enterpriseName: row.enterprise_name,
      agreedVersions: row.agreed_versions,
    },
  };
}

export function readSessionToken(c: AnyContext): string | undefined {
  return getCookie(c as Context, sessionCookieName);
}

/**
 * HttpOnly, SameSite=Lax, Path=/, Secure over https; a browser-session cookie (the server enforces
 * lifetimes). Beside it the signed-in hint (same attributes, readable by script, no secret) tells
 * every tab's header that this browser has a session.
 */
export function setSessionCookie(
  c: AnyContext,
  token: string,
  config: Pick<Config, 'trustProxy' | 'cookieSecure'>,
  loginType: 'account' | 'mobile' = 'account',
): void {
  const secure = secureCookies(c, config);
  setCookie(c as Context, sessionCookieName, token, { httpOnly: true, sameSite: 'Lax', path: '/', secure });
  setCookie(c as Context, signedInHintCookieName, loginType, { sameSite: 'Lax', path: '/', secure });
}

export function clearSessionCookie(c: AnyContext, config: Pick<Config, 'trustProxy' | 'cookieSecure'>): void {
  const secure = secureCookies(c, config);
  deleteCookie(c as Context, sessionCookieName, { httpOnly: true, sameSite: 'Lax', path: '/', secure });
  deleteCookie(c as Context, signedInHintCookieName, { sameSite: 'Lax', path: '/', secure });
}
