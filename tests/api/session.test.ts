import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { auditLog, sessions, users } from '../../src/server/db/schema/index.ts';
import { handleError, ok } from '../../src/server/envelope.ts';
import { createLogger } from '../../src/server/logger.ts';
import { localeMiddleware } from '../../src/server/middleware/locale.ts';
import { requestLog } from '../../src/server/middleware/requestLog.ts';
import { loadSession, requireRole } from '../../src/server/middleware/session.ts';
import { signedInHintCookieName } from '../../src/lib/apiCodes.ts';
import {
  clearSessionCookie,
  createSession,
  isWellFormedToken,
  revokeOtherSessions,
  setSessionCookie,
} from '../../src/server/session.ts';
import type { AppEnv } from '../../src/server/types.ts';
import { apiHeaders, createTestApp, openPerFile, sessionCookieFrom, sessionIdOf } from './harness.ts';

const t = openPerFile(createTestApp);

const currentUser = (cookie?: string, headers: Record<string, string> = {}) =>
  t.app.request('/api/front/user/currentUser', { headers: cookie ? { Cookie: cookie, ...headers } : headers });

const expired = { code: 901, message: '登录已失效，请重新登录', data: {} };

async function setTimes(cookie: string, times: Partial<typeof sessions.$inferInsert>) {
  await t.db
    .update(sessions)
    .set(times)
    .where(eq(sessions.id, sessionIdOf(cookie)));
}

describe('currentUser', () => {
  it('answers 901 (HTTP 200) without a cookie', async () => {
    const res = await currentUser();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expired);
  });

  it('answers the session user as the client maps it', async () => {
    const cookie = await t.login('demo_company');
    const res = await currentUser(cookie);
    const body = (await res.json()) as { code: number; data: Record<string, unknown> };
    expect(body.code).toBe(200);
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_company'));
    expect(body.data).toEqual({
      orgId: String(user?.id),
      orgName: '李华',
      userName: 'demo_company',
      telephone: '13800138002',
      enterpriseName: '广州明珠精密制造有限公司',
      avatar: '',
      email: '',
      roles: ['enterprise'],
    });
    expect(JSON.stringify(body)).not.toContain('argon2');
  });

  it('answers 901 for a forged or malformed cookie, and clears it', async () => {
    const forged = await currentUser(`hgd_sid=${'A'.repeat(43)}`);
    expect(await forged.json()).toEqual(expired);
    expect(sessionCookieFrom(forged)?.value).toBe('');
    expect(await (await currentUser('hgd_sid=short')).json()).toEqual(expired);
  });

  it('answers 901 for a revoked session', async () => {
    const cookie = await t.login('demo_person');
    expect(((await (await currentUser(cookie)).json()) as { code: number }).code).toBe(200);
    await setTimes(cookie, { revokedAt: new Date() });
    expect(await (await currentUser(cookie)).json()).toEqual(expired);
  });

  it('answers 901 after 30 idle minutes, and not before', async () => {
    const cookie = await t.login('demo_person');
    await setTimes(cookie, { lastSeenAt: new Date(Date.now() - 29 * 60_000) });
    expect(((await (await currentUser(cookie)).json()) as { code: number }).code).toBe(200);
    await setTimes(cookie, { lastSeenAt: new Date(Date.now() - 31 * 60_000) });
    expect(await (await currentUser(cookie)).json()).toEqual(expired);
  });

  it("ends a staff account's session after 15 idle minutes, and not before; the list of sessions agrees", async () => {
    const cookie = await t.login('demo_operator');
    await setTimes(cookie, { lastSeenAt: new Date(Date.now() - 14 * 60_000) });
    expect(((await (await currentUser(cookie)).json()) as { code: number }).code).toBe(200);
    // Its list of live sessions counts with the same timeout: one idle 16 minutes is gone from it.
    const other = await t.login('demo_operator');
    await setTimes(other, { lastSeenAt: new Date(Date.now() - 16 * 60_000) });
    const listed = (await (
      await t.app.request('/api/front/user/sessions', { headers: apiHeaders({ Cookie: cookie }) })
    ).json()) as { data: { current: boolean }[] };
    expect(listed.data.map((session) => session.current)).toEqual([true]);
    expect(await (await currentUser(other)).json()).toEqual(expired);
    // A person's session idle as long is still live.
    const person = await t.login('demo_person');
    await setTimes(person, { lastSeenAt: new Date(Date.now() - 16 * 60_000) });
    expect(((await (await currentUser(person)).json()) as { code: number }).code).toBe(200);
  });

  it('answers 901 after the absolute lifetime even when in use', async () => {
    const cookie = await t.login('demo_person');
    await setTimes(cookie, {
      createdAt: new Date(Date.now() - 13 * 3_600_000),
      expiresAt: new Date(Date.now() - 1000),
      lastSeenAt: new Date(),
    });
    expect(await (await currentUser(cookie)).json()).toEqual(expired);
  });

  it('answers 901 when the user has been locked', async () => {
    const cookie = await t.login('demo_partner');
    expect(((await (await currentUser(cookie)).json()) as { code: number }).code).toBe(200);
    await t.db.update(users).set({ status: 'locked' }).where(eq(users.userName, 'demo_partner'));
    try {
      expect(await (await currentUser(cookie)).json()).toEqual(expired);
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.userName, 'demo_partner'));
    }
  });

  it('refreshes last_seen_at at most once a minute', async () => {
    const cookie = await t.login('demo_person');
    const recent = new Date(Date.now() - 30_000);
    await setTimes(cookie, { lastSeenAt: recent });
    await currentUser(cookie);
    const [kept] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(cookie)));
    expect(kept?.lastSeenAt.getTime()).toBe(recent.getTime());
    const old = new Date(Date.now() - 5 * 60_000);
    await setTimes(cookie, { lastSeenAt: old });
    await currentUser(cookie);
    const [touched] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(cookie)));
    expect(touched?.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });
});

describe('sessions', () => {
  it('stores only the token hash, never the token', async () => {
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_person'));
    const { token, id } = await createSession(t.db, user?.id ?? 0);
    expect(isWellFormedToken(token)).toBe(true);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const [row] = await t.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row?.id).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.id).not.toContain(token);
    const all = JSON.stringify(await t.db.select().from(sessions));
    expect(all).not.toContain(token);
  });

  it('gives every login a new session id', async () => {
    const a = await t.login('demo_person');
    const b = await t.login('demo_person');
    expect(a).not.toBe(b);
    expect(sessionIdOf(a)).not.toBe(sessionIdOf(b));
  });

  it('revokes the other sessions of a user and keeps the current one', async () => {
    const keep = await t.login('demo_operator');
    const other = await t.login('demo_operator');
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_operator'));
    await revokeOtherSessions(t.db, user?.id ?? 0, sessionIdOf(keep));
    expect(((await (await currentUser(keep)).json()) as { code: number }).code).toBe(200);
    expect(((await (await currentUser(other)).json()) as { code: number }).code).toBe(901);
  });
});

describe('logout', () => {
  const logout = (cookie: string | undefined, headers: Record<string, string> = {}) =>
    t.app.request('/api/front/system/logout', {
      method: 'POST',
      headers: apiHeaders({ ...(cookie ? { Cookie: cookie } : {}), ...headers }),
    });

  it('revokes the session, clears the cookie, writes the audit log and says 安全退出！', async () => {
    const cookie = await t.login('demo_person');
    const res = await logout(cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 200, message: '安全退出！', data: {} });
    const cleared = sessionCookieFrom(res);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toMatch(/Max-Age=0/i);
    expect(cleared?.attributes).toMatch(/HttpOnly/i);
    expect(cleared?.attributes).toMatch(/Path=\//i);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(cookie)));
    expect(row?.revokedAt).toBeInstanceOf(Date);
    expect(await (await currentUser(cookie)).json()).toEqual(expired);
    const [audit] = await t.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ action: 'session.logout', userId: row?.userId, target: `user:${row?.userId}` });
  });

  it('answers in English with Accept-Language en-US', async () => {
    const cookie = await t.login('demo_person');
    const res = await logout(cookie, { 'Accept-Language': 'en-US,en;q=0.8' });
    expect(await res.json()).toEqual({ code: 200, message: 'Logged out safely!', data: {} });
  });

  it('is idempotent without a session', async () => {
    const res = await logout(undefined);
    expect(await res.json()).toEqual({ code: 200, message: '安全退出！', data: {} });
    expect(sessionCookieFrom(res)?.value).toBe('');
  });
});

describe('requireRole', () => {
  it('answers 901 without a session, 403 without the role, and passes with it', async () => {
    const app = new Hono<AppEnv>();
    app.use('*', requestLog(createLogger({ logLevel: 'silent' })));
    app.use('*', localeMiddleware);
    app.use('*', loadSession({ db: t.db, config: t.config }));
    app.onError(handleError);
    app.get('/api/ops', requireRole('operator', 'partner'), (c) => ok(c, { who: c.var.user.userName }));
    const call = async (cookie?: string) =>
      (await (await app.request('/api/ops', { headers: cookie ? { Cookie: cookie } : {} })).json()) as {
        code: number;
        message: string;
        data: unknown;
      };
    expect((await call()).code).toBe(901);
    expect(await call(await t.login('demo_person'))).toEqual({ code: 403, message: '没有权限执行此操作', data: {} });
    expect((await call(await t.login('demo_operator'))).data).toEqual({ who: 'demo_operator' });
    expect((await call(await t.login('demo_partner'))).code).toBe(200);
  });
});

describe('signed-in hint cookie', () => {
  const hintOf = (response: Response) =>
    response.headers.getSetCookie().find((line) => line.startsWith(`${signedInHintCookieName}=`));

  it('is set beside the session cookie, readable by script, and cleared with it', async () => {
    const app = new Hono();
    app.get('/in', (c) => {
      setSessionCookie(c, 'A'.repeat(43), t.config, 'mobile');
      return c.text('in');
    });
    app.get('/out', (c) => {
      clearSessionCookie(c, t.config);
      return c.text('out');
    });
    const signedIn = await app.request('/in');
    expect(sessionCookieFrom(signedIn)?.attributes).toMatch(/HttpOnly/);
    expect(hintOf(signedIn)).toBe(`${signedInHintCookieName}=mobile; Path=/; SameSite=Lax`);
    const signedOut = await app.request('/out');
    expect(sessionCookieFrom(signedOut)?.value).toBe('');
    expect(hintOf(signedOut)).toMatch(new RegExp(`^${signedInHintCookieName}=; Max-Age=0; Path=/`));
  });

  it('is cleared when it comes with a dead session or without a session cookie', async () => {
    expect(hintOf(await currentUser(`hgd_sid=${'A'.repeat(43)}; ${signedInHintCookieName}=account`))).toMatch(
      /Max-Age=0/,
    );
    expect(hintOf(await currentUser(`${signedInHintCookieName}=account`))).toMatch(/Max-Age=0/);
    // A live session keeps it.
    const cookie = await t.login('demo_person');
    expect(hintOf(await currentUser(`${cookie}; ${signedInHintCookieName}=account`))).toBeUndefined();
  });
});
