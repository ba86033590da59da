/**
 * One process at a time on an embedded (PGlite) data directory: PGlite has no lock of its own,
 * and two processes writing the same files corrupt the database. A second opener (another
 * server, `npm run user` beside a running server) is refused with a message naming the
 * directory; the lock dies with its holder, however it ends (kill -9 included).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-lock-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const configFor = (dir: string) => loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });

describe('the embedded database directory', () => {
  it('refuses a second opener while the first holds it, and opens again once it is closed', async () => {
    const dir = path.join(root, 'twice');
    const first = await openDatabase(configFor(dir));
    try {
      await expect(openDatabase(configFor(dir))).rejects.toThrow(/in use by another process/);
      // The first is untouched by the refused attempt.
      expect(await first.db.execute('select 1 as one')).toBeTruthy();
    } finally {
      await first.close();
    }
    const again = await openDatabase(configFor(dir));
    await again.close();
  }, 30_000);

  it('is free again once its holder is killed (no stale lock)', async () => {
    const dir = path.join(root, 'killed');
    const holder = path.join(root, 'holder.ts');
    await writeFile(
      holder,
      `const { openDatabase } = await import(${JSON.stringify(path.resolve('src/server/db/client.ts'))});
       await openDatabase({ dataDir: ${JSON.stringify(dir)}, databaseUrl: undefined, dbStatementTimeoutMs: 15000, dbPoolMax: 1 });
       process.stdout.write('open\\n');
       setInterval(() => {}, 1000);`,
    );
    const child: ChildProcess = spawn(process.execPath, [holder], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('open')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
      });
      await expect(openDatabase(configFor(dir))).rejects.toThrow(/in use by another process/);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const after = await openDatabase(configFor(dir));
    await after.close();
  }, 60_000);

  it('names the directory and what to do in its refusal', async () => {
    const dir = path.join(root, 'message');
    const first = await openDatabase(configFor(dir));
    try {
      const refusal = await openDatabase(configFor(dir)).then(
        () => '',
        (error: unknown) => (error as Error).message,
      );
      expect(refusal).toContain(path.join(dir, 'pglite'));
      expect(refusal).toMatch(/stop/i);
    } finally {
      await first.close();
    }
  }, 30_000);
});
