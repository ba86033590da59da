/**
 * Server-side sessions (DOMAIN.md, Security). The cookie `hgd_sid` carries 32 random bytes
 * (base64url); the sessions table stores only their sha256, so a leaked table opens no session.
 * A session is live while it is not revoked, younger than its absolute lifetime (12 h) and used
 * within the idle timeout (30 min). `last_seen_at` is written at most once a minute.
 * Login must call createSession (always a new id: no fixation) and revoke the old one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sessionCookieName } from '../lib/apiCodes.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { sessions, users } from './db/schema/index.ts';
import type { AnyContext } from './envelope.ts';
import { secureCookies } from './request.ts';
import type { SessionState, SessionUser } from './types.ts';

export { sessionCookieName };

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
  /** `last_seen_at` is refreshed only when older than this. */
  touchIntervalMs: number;
}

export function sessionPolicy(config: Pick<Config, 'sessionIdleMinutes' | 'sessionAbsoluteHours'>): SessionPolicy {
  return {
    idleMs: config.sessionIdleMinutes * 60_000,
    absoluteMs: config.sessionAbsoluteHours * 3_600_000,
    touchIntervalMs: 60_000,
  };
}

export const defaultSessionPolicy: SessionPolicy = sessionPolicy({ sessionIdleMinutes: 30, sessionAbsoluteHours: 12 });

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/** A fresh random token: 32 bytes, base64url (43 characters). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored id of a token: sha256, hex. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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
  });
  return { token, id, expiresAt };
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

export function isSessionLive(
  row: { revokedAt: Date | null; expiresAt: Date; lastSeenAt: Date },
  policy: SessionPolicy,
  now: Date = new Date(),
): boolean {
  const at = now.getTime();
  return row.revokedAt === null && at < row.expiresAt.getTime() && at - row.lastSeenAt.getTime() < policy.idleMs;
}

/** The live session of a token and its (active) user, touching `last_seen_at`; null otherwise. */
export async function resolveSession(
  db: Database,
  token: string,
  policy: SessionPolicy,
  now: Date = new Date(),
): Promise<{ session: SessionState; user: SessionUser } | null> {
  if (!isWellFormedToken(token)) return null;
  const id = hashSessionToken(token);
  const [row] = await db
    .select({
      session: {
        id: sessions.id,
        userId: sessions.userId,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
      },
      user: {
        id: users.id,
        userName: users.userName,
        name: users.name,
        mobile: users.mobile,
        email: users.email,
        avatar: users.avatar,
        roles: users.roles,
        status: users.status,
      },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row || !isSessionLive(row.session, policy, now) || row.user.status !== 'active') return null;
  const { revokedAt: _revoked, ...session } = row.session;
  if (now.getTime() - session.lastSeenAt.getTime() >= policy.touchIntervalMs) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    session.lastSeenAt = now;
  }
  return { session, user: row.user };
}

export function readSessionToken(c: AnyContext): string | undefined {
  return getCookie(c as Context, sessionCookieName);
}

/** HttpOnly, SameSite=Lax, Path=/, Secure over https; a browser-session cookie (the server enforces lifetimes). */
export function setSessionCookie(c: AnyContext, token: string, config: Pick<Config, 'trustProxy' | 'cookieSecure'>): void {
  setCookie(c as Context, sessionCookieName, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: secureCookies(c, config),
  });
}

export function clearSessionCookie(c: AnyContext, config: Pick<Config, 'trustProxy' | 'cookieSecure'>): void {
  deleteCookie(c as Context, sessionCookieName, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: secureCookies(c, config),
  });
}
