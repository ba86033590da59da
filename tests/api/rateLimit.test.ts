import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hitLimit, peekLimit, pruneLimits, resetLimit, type RateRule } from '../../src/server/services/rateLimit.ts';
import { createTestApp, type TestApp } from './harness.ts';

const rule: RateRule = { name: 'test.rule', limit: 3, windowSeconds: 60 };

describe('rate limits', () => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp();
  });
  afterEach(async () => {
    await app.close();
  });

  it('allows up to the limit, then refuses with the time left in the window', async () => {
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await hitLimit(app.db, rule, 'a'));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]?.hits).toBe(4);
    expect(verdicts[3]?.retryAfterSeconds).toBeGreaterThan(50);
    expect(verdicts[3]?.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another subject has its own count.
    expect((await hitLimit(app.db, rule, 'b')).allowed).toBe(true);
  });

  it('counts concurrent hits exactly once each', async () => {
    const verdicts = await Promise.all(Array.from({ length: 10 }, () => hitLimit(app.db, rule, 'c')));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(3);
    expect(await peekLimit(app.db, rule, 'c')).toBe(10);
  });

  it('starts a new window once the old one has ended, and prunes ended windows', async () => {
    for (let i = 0; i < 4; i++) await hitLimit(app.db, rule, 'd');
    await app.db.execute(sql`update rate_limits set expires_at = now() - interval '1 second'`);
    expect(await peekLimit(app.db, rule, 'd')).toBe(0);
    expect(await pruneLimits(app.db)).toBe(1);
    expect((await hitLimit(app.db, rule, 'd')).hits).toBe(1);
  });

  it('forgets a subject on reset', async () => {
    for (let i = 0; i < 4; i++) await hitLimit(app.db, rule, 'e');
    await resetLimit(app.db, rule, 'e');
    expect((await hitLimit(app.db, rule, 'e')).allowed).toBe(true);
  });
});
