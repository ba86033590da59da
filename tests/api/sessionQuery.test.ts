/**
 * A session-checked read costs one statement (session.ts resolveSession): the session,
 * its user and the idle refresh in one round trip, the refresh written at most once a minute.
 * Statements are counted by a drizzle logger over the test database's own connection.
 */
import { eq } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Logger } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it, vi } from 'vitest';
import { pgliteDrizzle, type Database } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import { enterprises, sessions, users } from '../../src/server/db/schema/index.ts';
import { createApp } from '../../src/server/app.ts';
import { createLogger } from '../../src/server/logger.ts';
import { demoEnterprise } from '../../src/server/seed/seed.ts';
import { createSession, defaultSessionPolicy, resolveSession } from '../../src/server/session.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

/** The test app's database with every statement recorded. */
function countingDatabase(): { db: Database; statements: string[] } {
  const statements: string[] = [];
  const logger: Logger = { logQuery: (query) => void statements.push(query) };
  const handle = t.handle;
  const db: Database =
    handle.kind === 'pglite'
      ? pgliteDrizzle(handle.client, { schema, logger })
      : drizzlePostgres({ client: handle.client, schema, logger });
  return { db, statements };
}

async function storedLastSeen(id: string): Promise<number> {
  const [row] = await t.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, id));
  return row!.at.getTime();
}

async function newSession(userName: string, at: Date): Promise<{ token: string; id: string }> {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  return createSession(t.db, user!.id, {}, defaultSessionPolicy, at);
}

describe('resolveSession', () => {
  it('reads the session and its user in one statement, and writes last_seen_at at most once a minute', async () => {
    const start = new Date(Date.now() - 10 * 60_000);
    const { token, id } = await newSession('demo_person', start);
    const { db, statements } = countingDatabase();
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

    for (const seconds of [1, 20, 59]) {
      const found = await resolveSession(db, token, defaultSessionPolicy, at(seconds));
      expect(found?.user.userName).toBe('demo_person');
      expect(found?.session.lastSeenAt.getTime()).toBe(start.getTime());
      expect(await storedLastSeen(id)).toBe(start.getTime());
    }
    expect(statements).toHaveLength(3);

    // A minute after the last write: the same one statement refreshes it.
    const refreshed = await resolveSession(db, token, defaultSessionPolicy, at(61));
    expect(statements).toHaveLength(4);
    expect(refreshed?.session.lastSeenAt.getTime()).toBe(at(61).getTime());
    expect(await storedLastSeen(id)).toBe(at(61).getTime());

    // And not again within the next minute.
    await resolveSession(db, token, defaultSessionPolicy, at(100));
    expect(await storedLastSeen(id)).toBe(at(61).getTime());
    expect(statements).toHaveLength(5);
  });

  it('gives the session and the user exactly as stored', async () => {
    const start = new Date(Date.now() - 1000);
    const { token, id } = await newSession('demo_company', start);
    const found = await resolveSession(t.db, token, defaultSessionPolicy, new Date(start.getTime() + 2000));
    const [stored] = await t.db.select().from(sessions).where(eq(sessions.id, id));
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_company'));
    expect(found?.session).toEqual({
      id,
      userId: user!.id,
      createdAt: stored!.createdAt,
      lastSeenAt: stored!.lastSeenAt,
      expiresAt: stored!.expiresAt,
      secondFactorAt: null,
    });
    expect(found?.user).toEqual({
      id: user!.id,
      userName: user!.userName,
      name: user!.name,
      mobile: user!.mobile,
      email: user!.email,
      avatar: user!.avatar,
      roles: user!.roles,
      status: 'active',
      enterpriseName: demoEnterprise.enterpriseName,
      agreedVersions: user!.agreedVersions,
    });
    // A user who owns no enterprise: ''.
    const person = await newSession('demo_person', start);
    expect(
      (await resolveSession(t.db, person.token, defaultSessionPolicy, new Date(start.getTime() + 2000)))?.user
        .enterpriseName,
    ).toBe('');
  });

  it('answers currentUser with that one statement, the enterprise name as it is now included', async () => {
    const { db, statements } = countingDatabase();
    const app = createApp({ db, config: t.config, logger: createLogger(t.config), dbKind: t.kind });
    const cookie = await t.login('demo_company');
    const currentUser = async () => {
      statements.length = 0;
      const response = await app.request('/api/front/user/currentUser', { headers: apiHeaders({ Cookie: cookie }) });
      return ((await response.json()) as { data: { enterpriseName: string } }).data;
    };
    expect((await currentUser()).enterpriseName).toBe(demoEnterprise.enterpriseName);
    expect(statements).toHaveLength(1);
    const [owner] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_company'));
    await t.db
      .update(enterprises)
      .set({ enterpriseName: '广州明珠精密制造（集团）有限公司' })
      .where(eq(enterprises.ownerUserId, owner!.id));
    expect((await currentUser()).enterpriseName).toBe('广州明珠精密制造（集团）有限公司');
    expect(statements).toHaveLength(1);
  });

  it('reads when the session proved a second factor in that one statement; a role-guarded call on a proved session needs no other', async () => {
    const start = new Date(Date.now() - 1000);
    const proved = new Date(start.getTime() + 500);
    const { token, id } = await newSession('demo_operator', start);
    await t.db.update(sessions).set({ secondFactorAt: proved }).where(eq(sessions.id, id));
    const { db, statements } = countingDatabase();
    const found = await resolveSession(db, token, defaultSessionPolicy, new Date(start.getTime() + 2000));
    expect(found?.session.secondFactorAt).toEqual(proved);
    expect(statements).toHaveLength(1);

    // With the factor required of operators: the guard reads the proof from the session's row.
    const config = { ...t.config, mfaRequiredRoles: ['operator' as const] };
    const app = createApp({ db, config, logger: createLogger(t.config), dbKind: t.kind });
    const me = async () => {
      statements.length = 0;
      const response = await app.request('/api/front/user/currentUser', {
        headers: apiHeaders({ Cookie: `hgd_sid=${token}` }),
      });
      return ((await response.json()) as { data: Record<string, unknown> }).data;
    };
    expect(await me()).not.toHaveProperty('secondFactorRequired');
    expect(statements).toHaveLength(1);
    // Not proved: one more statement, to tell "enrol" from "verify".
    await t.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.id, id));
    expect((await me())['secondFactorRequired']).toBe('enrol');
    expect(statements).toHaveLength(2);
  });

  it('finds nothing, and writes nothing, for an idle, expired, revoked session or a locked user', async () => {
    const start = new Date(Date.now() - 60 * 60_000);
    const policy = defaultSessionPolicy;
    const idle = await newSession('demo_person', start);
    expect(await resolveSession(t.db, idle.token, policy, new Date(start.getTime() + policy.idleMs))).toBeNull();
    expect(await storedLastSeen(idle.id)).toBe(start.getTime());
    expect(
      await resolveSession(t.db, idle.token, policy, new Date(start.getTime() + policy.idleMs - 1)),
    ).not.toBeNull();

    const old = await newSession('demo_person', start);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(start.getTime() + 5 * 60_000) })
      .where(eq(sessions.id, old.id));
    expect(await resolveSession(t.db, old.token, policy, new Date(start.getTime() + 5 * 60_000))).toBeNull();
    expect(await storedLastSeen(old.id)).toBe(start.getTime());

    const revoked = await newSession('demo_person', start);
    await t.db
      .update(sessions)
      .set({ revokedAt: new Date(start.getTime() + 1000) })
      .where(eq(sessions.id, revoked.id));
    expect(await resolveSession(t.db, revoked.token, policy, new Date(start.getTime() + 2 * 60_000))).toBeNull();
    expect(await storedLastSeen(revoked.id)).toBe(start.getTime());

    const locked = await newSession('demo_operator', start);
    await t.db.update(users).set({ status: 'locked' }).where(eq(users.userName, 'demo_operator'));
    try {
      expect(await resolveSession(t.db, locked.token, policy, new Date(start.getTime() + 2 * 60_000))).toBeNull();
      expect(await storedLastSeen(locked.id)).toBe(start.getTime());
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.userName, 'demo_operator'));
    }
  });
});

describe('a session-checked read per call', () => {
  it('builds no statement text (db/client.ts preparedStatement builds it once) and no child logger', async () => {
    const logger = createLogger(t.config);
    const app = createApp({ db: t.db, config: t.config, logger, dbKind: t.kind });
    const cookie = await t.login('demo_company');
    const currentUser = async () => {
      const response = await app.request('/api/front/user/currentUser', { headers: apiHeaders({ Cookie: cookie }) });
      return (await response.json()) as { code: number; data: { userName: string } };
    };
    await currentUser();
    const built = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
    const child = vi.spyOn(logger, 'child');
    try {
      for (let call = 0; call < 3; call += 1) expect((await currentUser()).data.userName).toBe('demo_company');
      expect(built).not.toHaveBeenCalled();
      expect(child).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });
});
