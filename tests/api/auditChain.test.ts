/**
 * The audit log's hash chain (services/auditChain.ts) on the test database: the seed and the API's
 * own writers (a failed and a successful sign-in, an export) extend one gap-free chain that
 * verifies; each kind of tampering someone with database access but without the key can do — edit
 * a row, delete a middle row, insert a row with or without a place, delete the newest rows — is
 * found and the row named; concurrent writers still make one chain. Each tampering is undone
 * afterwards and the chain verifies again.
 */
import { asc, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema/index.ts';
import { writeAudit } from '../../src/server/services/audit.ts';
import { chainHead, entryHash, genesisHash, verifyChain } from '../../src/server/services/auditChain.ts';
import { post } from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));

const key = async () => (await t.keys()).auditChain;
const verify = async (expectedHead?: { seq: number; hash: string }) => verifyChain(t.db, await key(), expectedHead);
type Row = typeof auditLog.$inferSelect;

async function rowAt(seq: number): Promise<Row> {
  const [row] = await t.db.select().from(auditLog).where(eq(auditLog.seq, seq));
  if (!row) throw new Error(`no audit row at seq ${seq}`);
  return row;
}

/** Runs a tampering, then puts every row back as it was, whether the test passed or not. */
async function tampering(body: () => Promise<void>): Promise<void> {
  const saved: Row[] = await t.db.select().from(auditLog);
  try {
    await body();
  } finally {
    await t.db.delete(auditLog);
    for (let i = 0; i < saved.length; i += 200)
      await t.db
        .insert(auditLog)
        .overridingSystemValue()
        .values(saved.slice(i, i + 200));
  }
  expect((await verify()).findings).toEqual([]);
}

describe('the audit chain', () => {
  it('is written by the seed and the API, gap-free from 1, and verifies', async () => {
    await post(
      t,
      '/api/front/system/login',
      { userName: 'demo_person', password: 'Wrong2025' },
      { ip: '198.51.100.7' },
    );
    await post(
      t,
      '/api/front/system/login',
      { userName: 'demo_person', password: 'Person2025' },
      { ip: '198.51.100.8' },
    );
    await writeAudit(t.db, {
      userId: null,
      action: 'audit.export',
      target: 'chain',
      detail: { at: new Date(0), n: 1.5 },
    });
    const rows = await t.db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0]?.prevHash).toBe(genesisHash);
    for (const [i, row] of rows.entries()) if (i > 0) expect(row.prevHash).toBe(rows[i - 1]?.hash);
    expect(rows.some((row) => row.action === 'session.loginFailed' && row.ip === '198.51.100.7')).toBe(true);
    expect(rows.some((row) => row.action === 'session.login' && row.ip === '198.51.100.8')).toBe(true);
    const report = await verify();
    expect(report).toMatchObject({ checked: rows.length, unchained: 0, findings: [] });
    expect(report.head).toEqual(await chainHead(t.db));
  });

  it('names an edited row, and one whose hash was recomputed without the key', () =>
    tampering(async () => {
      const row = await rowAt(3);
      await t.db
        .update(auditLog)
        .set({ detail: { ...row.detail, forged: true } })
        .where(eq(auditLog.id, row.id));
      expect((await verify()).findings).toEqual([{ kind: 'changed', id: row.id, seq: 3 }]);
      const forged = { ...row, ip: '203.0.113.9' };
      const wrongKey = Buffer.alloc(32, 7);
      await t.db
        .update(auditLog)
        .set({
          ip: forged.ip,
          detail: row.detail,
          hash: entryHash(wrongKey, { ...forged, seq: 3 }, row.prevHash ?? ''),
        })
        .where(eq(auditLog.id, row.id));
      expect((await verify()).findings).toEqual([{ kind: 'changed', id: row.id, seq: 3 }]);
    }));

  it('names deleted middle rows by their places', () =>
    tampering(async () => {
      await t.db.delete(auditLog).where(sql`${auditLog.seq} in (5, 6)`);
      expect((await verify()).findings).toEqual([{ kind: 'deleted', missing: [5, 6] }]);
    }));

  it('names a deleted row whose successors were renumbered to hide the hole', () =>
    tampering(async () => {
      const head = await chainHead(t.db);
      const eighth = await rowAt(8);
      await t.db.delete(auditLog).where(eq(auditLog.id, eighth.id));
      // One at a time, upwards, past the unique index.
      for (let seq = 9; seq <= head.seq; seq += 1)
        await t.db
          .update(auditLog)
          .set({ seq: seq - 1 })
          .where(eq(auditLog.seq, seq));
      const findings = (await verify()).findings;
      expect(findings.length).toBe(head.seq - 8);
      expect(findings.every((finding) => finding.kind === 'changed')).toBe(true);
      expect(findings[0]).toMatchObject({ seq: 8 });
    }));

  it('names inserted rows: without a place, with a place and a made-up hash, and a genuine row replayed', () =>
    tampering(async () => {
      const head = await chainHead(t.db);
      const [stray] = await t.db
        .insert(auditLog)
        .values({ userId: null, action: 'session.login', target: 'user:1' })
        .returning({ id: auditLog.id });
      const [placed] = await t.db
        .insert(auditLog)
        .values({ userId: null, action: 'session.login', seq: head.seq + 1, prevHash: head.hash, hash: 'f'.repeat(64) })
        .returning({ id: auditLog.id });
      expect((await verify()).findings).toEqual([
        { kind: 'changed', id: placed?.id, seq: head.seq + 1 },
        { kind: 'inserted', id: stray?.id },
      ]);
      await t.db.delete(auditLog).where(sql`${auditLog.id} in (${stray?.id ?? 0}, ${placed?.id ?? 0})`);
      // A genuine entry copied whole after the head: its place is part of its hash.
      const { id: _id, ...second } = await rowAt(2);
      const [replayed] = await t.db
        .insert(auditLog)
        .values({ ...second, seq: head.seq + 1 })
        .returning({ id: auditLog.id });
      expect((await verify()).findings).toEqual([{ kind: 'changed', id: replayed?.id, seq: head.seq + 1 }]);
    }));

  it('names a row put between two others with a hash made by the key of another deployment', () =>
    tampering(async () => {
      // Row 4 replaced by a well-formed entry keyed by another deployment's key: its own hash is
      // wrong here, and row 5's link to it too; the first finding names it.
      const fourth = await rowAt(4);
      const otherKey = Buffer.alloc(32, 9);
      const forged = { ...fourth, action: 'session.logout' };
      await t.db
        .update(auditLog)
        .set({ action: forged.action, hash: entryHash(otherKey, { ...forged, seq: 4 }, fourth.prevHash ?? '') })
        .where(eq(auditLog.id, fourth.id));
      expect((await verify()).findings).toEqual([{ kind: 'changed', id: fourth.id, seq: 4 }]);
    }));

  it('names the deletion of the newest rows against a head noted earlier', () =>
    tampering(async () => {
      const noted = await chainHead(t.db);
      await t.db.delete(auditLog).where(sql`${auditLog.seq} > ${noted.seq - 2}`);
      // The shorter chain is valid by itself: only the noted head tells.
      expect((await verify()).findings).toEqual([]);
      expect((await verify(noted)).findings).toEqual([{ kind: 'truncated', seq: noted.seq }]);
      // A head noted from another chain (or mistyped) does not pass either.
      expect((await verify({ seq: noted.seq - 2, hash: 'a'.repeat(64) })).findings).toEqual([
        { kind: 'truncated', seq: noted.seq - 2 },
      ]);
    }));

  it('stays one gap-free chain under concurrent writers, and a rolled-back entry leaves no link', async () => {
    const before = await chainHead(t.db);
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        writeAudit(t.db, [
          { userId: null, action: 'partner.export', target: `a${i}` },
          { userId: null, action: 'partner.export', target: `b${i}` },
        ]),
      ),
    );
    await expect(
      t.db.transaction(async (tx) => {
        await writeAudit(tx, { userId: null, action: 'content.publish' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const head = await chainHead(t.db);
    expect(head.seq).toBe(before.seq + 48);
    const [last] = await t.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(last?.action).toBe('partner.export');
    expect((await verify()).findings).toEqual([]);
  });
});
