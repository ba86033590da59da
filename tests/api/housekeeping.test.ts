/** Pruning rows whose life is over: ended rate windows, old captchas, old SMS codes, ended sessions, old pending logins. */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { captchas, loginChallenges, sessions, smsCodes, users } from '../../src/server/db/schema/index.ts';
import { pruneExpired } from '../../src/server/housekeeping.ts';
import { createCaptcha } from '../../src/server/services/captcha.ts';
import { hitLimit } from '../../src/server/services/rateLimit.ts';
import { createTestApp, openPerFile, sessionIdOf } from './harness.ts';

const t = openPerFile(createTestApp);

describe('pruneExpired', () => {
  it('deletes what has ended and keeps what is alive', async () => {
    const live = await t.login('demo_person');
    const revoked = await t.login('demo_person');
    const expired = await t.login('demo_person');
    const weekAgo = new Date(Date.now() - 8 * 24 * 3_600_000);
    await t.db
      .update(sessions)
      .set({ revokedAt: weekAgo })
      .where(eq(sessions.id, sessionIdOf(revoked)));
    await t.db
      .update(sessions)
      .set({ expiresAt: weekAgo, lastSeenAt: weekAgo })
      .where(eq(sessions.id, sessionIdOf(expired)));

    const { captcha } = await t.keys();
    await createCaptcha(t.db, captcha, null);
    await createCaptcha(t.db, captcha, null);
    await t.db.execute(
      sql`update captchas set expires_at = now() - interval '2 hours' where id = (select id from captchas limit 1)`,
    );

    await t.db.insert(smsCodes).values([
      {
        phone: '13800138001',
        purpose: 'login',
        codeHash: 'a'.repeat(64),
        expiresAt: new Date(Date.now() - 2 * 24 * 3_600_000),
      },
      { phone: '13800138001', purpose: 'login', codeHash: 'b'.repeat(64), expiresAt: new Date(Date.now() + 60_000) },
    ]);
    await hitLimit(t.db, { name: 'test.old', limit: 1, windowSeconds: 60 }, 'x');
    await t.db.execute(sql`update rate_limits set expires_at = now() - interval '1 second' where key = 'test.old:x'`);
    await hitLimit(t.db, { name: 'test.new', limit: 1, windowSeconds: 60 }, 'x');
    const [person] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, 'demo_person'));
    await t.db.insert(loginChallenges).values([
      {
        id: 'c'.repeat(64),
        userId: person!.id,
        method: 'account',
        expiresAt: new Date(Date.now() - 2 * 24 * 3_600_000),
      },
      { id: 'd'.repeat(64), userId: person!.id, method: 'account', expiresAt: new Date(Date.now() + 60_000) },
    ]);

    expect(await pruneExpired(t.db)).toEqual({
      rateLimits: 1,
      captchas: 1,
      smsCodes: 1,
      sessions: 2,
      bankChallenges: 0,
      loginChallenges: 1,
    });
    expect(
      (
        await t.db
          .select()
          .from(sessions)
          .where(eq(sessions.id, sessionIdOf(live)))
      ).length,
    ).toBe(1);
    expect(await t.db.select().from(captchas)).toHaveLength(1);
    expect(await t.db.select().from(smsCodes)).toHaveLength(1);
    expect(await t.db.select().from(loginChallenges)).toHaveLength(1);
    expect(await pruneExpired(t.db)).toEqual({
      rateLimits: 0,
      captchas: 0,
      smsCodes: 0,
      sessions: 0,
      bankChallenges: 0,
      loginChallenges: 0,
    });
  });
});
