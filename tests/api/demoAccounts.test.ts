/**
 * Demo accounts only where meant: a deployment (PUBLIC_ORIGIN set) starts on an empty database
 * with the provinces and the content but no account, so no published demo password opens it; a
 * public demo that seeds them knowingly is said loudly at start; and a deployment whose database
 * still holds demo accounts with their published passwords is warned about at every start.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { regions, users } from '../../src/server/db/schema/index.ts';
import { demoAccounts, demoAccountsWithPublicPasswords } from '../../src/server/seed/seed.ts';
import {
  demoAccountBannerLines,
  firstAdminBannerLines,
  startServer,
  type RunningServer,
} from '../../src/server/main.ts';
import { hasActiveAdmin } from '../../src/server/services/staffAccounts.ts';
import { createTestApp, openPerFile } from './harness.ts';

const publicOrigin = 'https://portal.example.com';

describe('a deployment (PUBLIC_ORIGIN set) on an empty database', () => {
  let root: string;
  let running: RunningServer;
  let base: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'hgd-deployment-'));
    const dist = path.join(root, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, '404.html'), '<!doctype html><title>页面不存在</title>');
    running = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: path.join(root, 'data'),
        STATIC_DIR: dist,
        LOG_LEVEL: 'silent',
        PUBLIC_ORIGIN: publicOrigin,
        TRUST_PROXY: '1',
      }),
    );
    const address = running.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('is seeded with the provinces and the content, but with no account at all', async () => {
    expect(running.runtime.seeded).toBe(true);
    expect(await running.runtime.db.$count(regions)).toBe(5);
    expect(await running.runtime.db.$count(users)).toBe(0);
    const help = (await (await fetch(`${base}/api/front/help/document/client/getHelpCenter`)).json()) as {
      code: number;
      data: unknown[];
    };
    expect(help.code).toBe(200);
    expect(help.data.length).toBeGreaterThan(0);
  });

  it('says at start how to create the first administrator, until one exists', async () => {
    expect(await hasActiveAdmin(running.runtime.db)).toBe(false);
    const lines = firstAdminBannerLines(false).join('\n');
    expect(lines).toContain('no active administrator');
    expect(lines).toContain('npm run user -- create');
    expect(lines).toContain('--role admin');
    expect(firstAdminBannerLines(true)).toEqual([]);
  });

  it('refuses every published demo password at login', async () => {
    for (const [i, account] of demoAccounts.entries()) {
      const response = await fetch(`${base}/api/front/system/login`, {
        method: 'POST',
        // One address each: five failures from one address would ask for the captcha first.
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          Origin: base,
          'X-Forwarded-For': `203.0.113.${i + 1}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          userName: account.userName,
          password: account.password,
          deviceId: 'hgdweb',
          appCode: 'hgd',
        }).toString(),
      });
      const answer = (await response.json()) as { code: number; message: string };
      expect(answer, account.userName).toMatchObject({ code: 400, message: '用户名或密码错误' });
    }
  });
});

describe('the start-up banner', () => {
  it('lists the demo accounts for a local run', () => {
    const lines = demoAccountBannerLines(loadConfig({})).join('\n');
    expect(lines).toContain('demo_operator');
    expect(lines).toContain('Operator2025');
    expect(lines).not.toMatch(/WARNING/);
  });

  it('says nothing of demo accounts in a deployment', () => {
    expect(demoAccountBannerLines(loadConfig({ PUBLIC_ORIGIN: publicOrigin }))).toEqual([]);
    expect(demoAccountBannerLines(loadConfig({ SEED_DEMO_ACCOUNTS: 'false' }))).toEqual([]);
  });

  it('warns loudly when a deployment seeds them knowingly (SEED_DEMO_ACCOUNTS=true with PUBLIC_ORIGIN)', () => {
    const lines = demoAccountBannerLines(loadConfig({ PUBLIC_ORIGIN: publicOrigin, SEED_DEMO_ACCOUNTS: 'true' })).join(
      '\n',
    );
    expect(lines).toMatch(/WARNING: demo accounts .*public/);
    expect(lines).toContain('SEED_DEMO_ACCOUNTS');
    expect(lines).toContain('Operator2025');
  });

  it('names the demo accounts a deployment still lets in with their published password', () => {
    const deployed = loadConfig({ PUBLIC_ORIGIN: publicOrigin });
    const lines = demoAccountBannerLines(deployed, ['demo_operator', 'demo_editor']).join('\n');
    expect(lines).toMatch(/WARNING: .*demo_operator, demo_editor/);
    expect(lines).toContain('npm run user -- disable');
    expect(lines).not.toContain('Operator2025');
  });
});

describe('demo accounts left in a database', () => {
  const t = openPerFile(() => createTestApp());

  it('hold an active administrator (so the banner asks for none)', async () => {
    expect(await hasActiveAdmin(t.db)).toBe(true);
  });

  it('are named while they keep their published password and are active', async () => {
    const names = demoAccounts.map((account) => account.userName);
    expect(await demoAccountsWithPublicPasswords(t.db)).toEqual(expect.arrayContaining(names));
    await t.db.update(users).set({ status: 'locked' }).where(eq(users.userName, 'demo_operator'));
    await t.db.update(users).set({ passwordHash: 'changed' }).where(eq(users.userName, 'demo_editor'));
    const left = await demoAccountsWithPublicPasswords(t.db);
    expect(left).not.toContain('demo_operator');
    expect(left).not.toContain('demo_editor');
    expect(left).toContain('demo_person');
  }, 20_000);
});
