/**
 * `npm run keys` (scripts/keys.ts) on an embedded database of its own, keyed by APP_SECRET: status
 * before any key, a rotation that seals a number kept in plain text and one sealed before, the
 * counts after; another deployment's secret is refused by name; a misused command line gets the
 * usage and exit code 2.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, usage } from '../../scripts/keys.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { bankChallenges, enterprises } from '../../src/server/db/schema/index.ts';
import { createFieldCipher } from '../../src/server/fieldEncryption.ts';
import { deriveServerKeys, loadedKeys } from '../../src/server/secrets.ts';

let root: string;
let env: Record<string, string>;
const secret = 'a-deployment-secret-of-at-least-32-chars';

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-keys-cli-'));
  env = { DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'silent', APP_SECRET: secret };
  // The first opening migrates and seeds the database: a hook's time, not a test's.
  await withDb(async () => undefined);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function keys(args: string[], extraEnv: Record<string, string> = {}) {
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
describe('npm run keys', { timeout: 90_000 }, () => {
  it('rotates: a new key seals every number, the older key goes, status counts them', async () => {
    expect(await keys(['status'])).toMatchObject({ code: 0, stdout: expect.stringContaining('No data key yet') });
    await withDb(async (db) => {
      const [enterprise] = await db.select({ id: enterprises.id }).from(enterprises).limit(1);
      const cipher = createFieldCipher(loadedKeys(deriveServerKeys(secret)));
      const sealed = await cipher.seal(db, 'bank_challenges.account_no', '6222021001000000077');
      const expiresAt = new Date(Date.now() + 60_000);
      await db.insert(bankChallenges).values([
        { id: 'a'.repeat(64), enterpriseId: enterprise!.id, accountNo: '6222021001000000088', expiresAt },
        {
          id: 'b'.repeat(64),
          enterpriseId: enterprise!.id,
          accountNo: sealed.value,
          accountNoKey: sealed.keyId,
          expiresAt,
        },
      ]);
    });
    const rotated = await keys(['rotate']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toContain('New data key 2.');
    expect(rotated.stdout).toContain('bank_challenges.account_no: 2 value(s) encrypted again');
    expect(rotated.stdout).toContain('Deleted older key(s): 1.');
    const status = await keys(['status']);
    expect(status.stdout).toMatch(/^key 2 \(made [^)]+\): 2 value\(s\)\n$/);
  });

  it('names the cause when the root secret is not the one the keys were wrapped with', async () => {
    const other = await keys(['rotate'], { APP_SECRET: 'another-deployment-secret-of-32-chars!!' });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('does not open with this root secret (APP_SECRET)');
    // Nothing was written: the deployment's own secret still opens every key and value.
    expect((await keys(['status'])).stdout).toMatch(/^key 2 \(made [^)]+\): 2 value\(s\)\n$/);
  });

  it('answers a misused command line with the usage and exit code 2', async () => {
    for (const args of [[], ['spin'], ['rotate', 'now'], ['--bogus']]) {
      const misused = await keys(args);
      expect(misused.code, args.join(' ')).toBe(2);
      expect(misused.stderr).toContain(usage);
    }
    expect(await keys(['--help'])).toMatchObject({ code: 0, stdout: usage });
  });
});
