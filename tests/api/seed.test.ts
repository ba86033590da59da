import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordSchema, phoneSchema, userNameSchema } from '../../src/lib/schemas/fields.ts';
import { regions, users } from '../../src/server/db/schema/index.ts';
import { demoEnterpriseCount } from '../../src/server/seed/demoPartners.ts';
import { demoAccounts, demoReviewEnterprises, seedIfEmpty, seedRegions } from '../../src/server/seed/seed.ts';
import { verifyPassword } from '../../src/server/password.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

describe('seed', () => {
  it('has the five southern-grid provinces, 440000 first', async () => {
    const rows = await t.db.select().from(regions).orderBy(regions.sort);
    expect(rows.map((r) => [r.areaCode, r.name])).toEqual([
      ['440000', '广东省'],
      ['450000', '广西壮族自治区'],
      ['460000', '海南省'],
      ['520000', '贵州省'],
      ['530000', '云南省'],
    ]);
    expect(rows.every((r) => r.enabled && /95598/.test(r.hotline))).toBe(true);
    expect(seedRegions).toHaveLength(5);
  });

  it('has one demo account per role (two partner staff), with valid names, phones and passwords', () => {
    expect(demoAccounts.map((a) => a.role).sort()).toEqual([
      'admin',
      'auditor',
      'editor',
      'enterprise',
      'individual',
      'operator',
      'partner',
      'partner',
    ]);
    for (const account of demoAccounts) {
      expect(userNameSchema.safeParse(account.userName).success, account.userName).toBe(true);
      expect(phoneSchema.safeParse(account.mobile).success, account.mobile).toBe(true);
      expect(passwordSchema.safeParse(account.password).success, account.password).toBe(true);
    }
  });

  it('stores argon2id hashes (m=19456, t=2, p=1) that verify', async () => {
    for (const account of demoAccounts) {
      const [user] = await t.db.select().from(users).where(eq(users.userName, account.userName));
      expect(user?.roles).toEqual([account.role]);
      expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(user?.passwordHash ?? '', account.password)).toBe(true);
      expect(await verifyPassword(user?.passwordHash ?? '', `${account.password}x`)).toBe(false);
    }
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  }, 10_000);

  it('does nothing on a database that has data', async () => {
    expect(await seedIfEmpty(t.db, { demoAccounts: true })).toBe(false);
    // The role accounts, the owners of the two enterprises under review and of the generated
    // enterprises referred by partner institutions (seed/demoPartners.ts).
    expect(await t.db.$count(users)).toBe(demoAccounts.length + demoReviewEnterprises.length + demoEnterpriseCount);
  });

  it('enforces case-insensitive unique user names and valid roles', async () => {
    const row = { userName: 'DEMO_PERSON', mobile: '13900000000', passwordHash: 'x' };
    await expect(t.db.insert(users).values(row)).rejects.toThrow();
    await expect(
      t.db
        .insert(users)
        .values({ userName: 'someone', mobile: '13900000001', passwordHash: 'x', roles: ['root' as 'operator'] }),
    ).rejects.toThrow();
  });
});
