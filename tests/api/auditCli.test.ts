/**
 * `npm run audit` (scripts/audit.ts) on an embedded database of its own, keyed by APP_SECRET: the
 * seeded chain verifies; `head` prints what `verify --head` takes; an edited row, a deleted row and
 * the newest rows deleted are each named with exit code 1; another deployment's secret finds every
 * entry changed; a misused command line gets the usage and exit code 2.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, usage } from '../../scripts/audit.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { auditLog } from '../../src/server/db/schema/index.ts';

let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-audit-cli-'));
  env = {
    DATA_DIR: path.join(root, 'data'),
    LOG_LEVEL: 'silent',
    APP_SECRET: 'a-deployment-secret-of-at-least-32-chars',
  };
  // The first opening migrates and seeds the database: a hook's time, not a test's.
  await withDb(async () => undefined);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function audit(args: string[], extraEnv: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...env, ...extraEnv },
  });
  return { code, stdout, stderr };
}

async function withDb<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openDatabase(loadConfig(env));
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

// Each call opens the embedded database, seconds apiece on a busy two-core machine.
describe('npm run audit', { timeout: 90_000 }, () => {
  let head = '';

  it('verifies the seeded chain and prints its head', async () => {
    const printed = await audit(['head']);
    expect(printed.code).toBe(0);
    head = printed.stdout.trim();
    expect(head).toMatch(/^[1-9]\d*:[0-9a-f]{64}$/);
    const verified = await audit(['verify', '--head', head]);
    expect(verified).toMatchObject({ code: 0, stderr: '' });
    expect(verified.stdout).toContain(`chained entries checked; head ${head}`);
    expect(verified.stdout).toContain('The chain is intact.');
  });

  it('names an edited row and a deleted one, exit code 1', async () => {
    const edited = await withDb(async (db) => {
      const [row] = await db
        .update(auditLog)
        .set({ target: 'order:HGD20990101000001' })
        .where(eq(auditLog.seq, 2))
        .returning({ id: auditLog.id });
      await db.delete(auditLog).where(eq(auditLog.seq, 4));
      return row?.id;
    });
    const verified = await audit(['verify']);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain(`changed: entry id ${edited} (seq 2) does not match its hash`);
    expect(verified.stdout).toContain('deleted: the entry at seq 4');
    expect(verified.stdout).toContain('The chain is broken: 2 finding(s).');
  });

  it('names the newest entries deleted since a noted head', async () => {
    const [seq] = head.split(':');
    await withDb((db) => db.delete(auditLog).where(sql`${auditLog.seq} >= ${Number(seq) - 1}`));
    const verified = await audit(['verify', '--head', head]);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain(`deleted: the newest entries, from the noted head at seq ${seq}`);
  });

  it("finds every entry changed under another deployment's secret", async () => {
    const verified = await audit(['verify'], { APP_SECRET: 'another-deployment-secret-32-chars-long' });
    expect(verified.code).toBe(1);
    const checked = Number(/^(\d+) chained entries checked/.exec(verified.stdout)?.[1]);
    expect(checked).toBeGreaterThan(3);
    expect(verified.stdout.match(/^changed: /gm)).toHaveLength(checked);
  });

  it('answers a misused command line with the usage, exit code 2', async () => {
    for (const args of [
      [],
      ['verify', 'now'],
      ['prune'],
      ['head', '--head', '1:00'],
      ['verify', '--head', '12:abc'],
      ['--force'],
    ]) {
      const run = await audit(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(usage);
    }
    expect((await audit(['--help'])).stdout).toBe(usage);
  });
});
