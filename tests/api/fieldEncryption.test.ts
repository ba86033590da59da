/**
 * Encrypted columns (src/server/fieldEncryption.ts) on the test database: sealed values open only
 * for their column and with this server's keys; rotation seals everything again, deletes the old
 * key, and keeps one that a value written meanwhile still names; plain values from before the
 * upgrade are sealed once.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bankChallenges, enterprises, fieldKeys } from '../../src/server/db/schema/index.ts';
import {
  createFieldCipher,
  fieldKeyUse,
  rotateFieldKeys,
  sealPlainValues,
  type FieldCipher,
} from '../../src/server/fieldEncryption.ts';
import { deriveServerKeys, loadedKeys } from '../../src/server/secrets.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(() => createTestApp());
const column = 'bank_challenges.account_no';
let serial = 0;

async function someEnterpriseId(): Promise<number> {
  const [row] = await t.db.select({ id: enterprises.id }).from(enterprises).limit(1);
  return row!.id;
}

/** A challenge row holding `accountNo`, sealed by `cipher` (or plain with `plain`). */
async function challengeWith(accountNo: string, cipher: FieldCipher | 'plain'): Promise<string> {
  const id = (++serial).toString(16).padStart(64, '0');
  const sealed = cipher === 'plain' ? { value: accountNo, keyId: null } : await cipher.seal(t.db, column, accountNo);
  await t.db.insert(bankChallenges).values({
    id,
    enterpriseId: await someEnterpriseId(),
    accountNo: sealed.value,
    accountNoKey: sealed.keyId,
    expiresAt: new Date(Date.now() + 60_000),
  });
  return id;
}

async function storedChallenge(id: string) {
  const [row] = await t.db.select().from(bankChallenges).where(eq(bankChallenges.id, id));
  return row!;
}

describe('sealed values', () => {
  it('are not the number, differ at every seal, and open only for their column with this server key', async () => {
    const cipher = createFieldCipher(t.keys);
    const first = await cipher.seal(t.db, column, '6222021001000000011');
    const second = await cipher.seal(t.db, column, '6222021001000000011');
    expect(first.value).not.toContain('0000011');
    expect(first.value).not.toBe(second.value);
    expect(await cipher.open(t.db, column, first)).toBe('6222021001000000011');
    await expect(cipher.open(t.db, 'bank_bindings.account_no', first)).rejects.toThrow();
    const tampered = { ...first, value: `${first.value.slice(0, -2)}${first.value.endsWith('A') ? 'B' : 'A'}A` };
    await expect(cipher.open(t.db, column, tampered)).rejects.toThrow();
    // Another root secret cannot unwrap the data key.
    const stranger = createFieldCipher(loadedKeys(deriveServerKeys('another root secret of at least 32 characters')));
    await expect(stranger.open(t.db, column, first)).rejects.toThrow();
  });
});

describe('rotation (npm run keys -- rotate)', () => {
  it('seals every value with a new key, deletes the older keys, and every value still opens', async () => {
    const cipher = createFieldCipher(t.keys);
    const sealedId = await challengeWith('6222021001000000022', cipher);
    const plainId = await challengeWith('6222021001000000033', 'plain');
    const before = (await storedChallenge(sealedId)).accountNoKey!;

    const report = await rotateFieldKeys(t.db, t.keys, cipher);

    expect(report.keyId).toBeGreaterThan(before);
    expect(report.deleted).toContain(before);
    expect(report.kept).toEqual([]);
    expect(report.resealed[column]).toBeGreaterThanOrEqual(2);
    for (const [id, accountNo] of [
      [sealedId, '6222021001000000022'],
      [plainId, '6222021001000000033'],
    ] as const) {
      const row = await storedChallenge(id);
      expect(row.accountNoKey).toBe(report.keyId);
      expect(row.accountNo).not.toContain(accountNo.slice(-7));
      // A fresh cipher (no key cached) opens it: the new key is in the database, wrapped.
      expect(
        await createFieldCipher(t.keys).open(t.db, column, { value: row.accountNo, keyId: row.accountNoKey }),
      ).toBe(accountNo);
    }
    expect((await t.db.select({ id: fieldKeys.id }).from(fieldKeys)).map((key) => key.id)).toEqual([report.keyId]);
    expect(await fieldKeyUse(t.db)).toEqual([
      { id: report.keyId, createdAt: expect.any(Date), values: expect.any(Number) },
    ]);
  });

  it('keeps a key that a value written during the rotation still names, and the next rotation takes it', async () => {
    const cipher = createFieldCipher(t.keys);
    const [{ id: oldKey } = { id: 0 }] = await t.db
      .select({ id: fieldKeys.id })
      .from(fieldKeys)
      .orderBy(sql`${fieldKeys.id} desc`)
      .limit(1);
    const oldSealed = await cipher.seal(t.db, column, '6222021001000000044');
    await challengeWith('6222021001000000055', cipher);
    // A writer that read the old key before the rotation made its new one writes after the re-sealing.
    let written = false;
    const racing: FieldCipher = {
      seal: cipher.seal,
      verifyKeys: cipher.verifyKeys,
      async open(db, name, sealed) {
        if (!written) {
          written = true;
          await t.db.insert(bankChallenges).values({
            id: (++serial).toString(16).padStart(64, '0'),
            enterpriseId: await someEnterpriseId(),
            accountNo: oldSealed.value,
            accountNoKey: oldSealed.keyId,
            expiresAt: new Date(Date.now() + 60_000),
          });
        }
        return cipher.open(db, name, sealed);
      },
    };
    const report = await rotateFieldKeys(t.db, t.keys, racing);
    expect(report.kept).toEqual([oldKey]);
    const next = await rotateFieldKeys(t.db, t.keys, cipher);
    expect(next.deleted).toEqual(expect.arrayContaining([oldKey, report.keyId]));
    expect(next.kept).toEqual([]);
  });
});

describe('values kept before encryption', () => {
  it('are sealed once at start-up, and a second pass finds nothing', async () => {
    const cipher = createFieldCipher(t.keys);
    const id = await challengeWith('6222021001000000066', 'plain');
    expect(await cipher.open(t.db, column, { value: '6222021001000000066', keyId: null })).toBe('6222021001000000066');
    expect(await sealPlainValues(t.db, cipher)).toBeGreaterThanOrEqual(1);
    const row = await storedChallenge(id);
    expect(row.accountNoKey).not.toBeNull();
    expect(row.accountNo).not.toContain('0000066');
    expect(await sealPlainValues(t.db, cipher)).toBe(0);
  });
});
