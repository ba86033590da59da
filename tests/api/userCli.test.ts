/**
 * `npm run user` (scripts/user.ts) on a deployment's embedded database (PUBLIC_ORIGIN set: no
 * demo accounts): the first administrator created with a piped password, partner staff with their
 * institution, every other command, and the refusals — bad input, taken names, the last
 * administrator, a password on the command line, a server holding the directory — each with its
 * message, an exit code ≠ 0 and nothing changed. Most runs call its `main` in-process; the last
 * ones run it as `npm run user` does, in a child process.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../scripts/user.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import {
  auditLog,
  partnerAccounts,
  partnerInstitutions,
  recoveryCodes,
  secondFactors,
  users,
} from '../../src/server/db/schema/index.ts';
import { startServer } from '../../src/server/main.ts';
import { verifyPassword } from '../../src/server/password.ts';

let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-user-cli-'));
  env = {
    DATA_DIR: path.join(root, 'data'),
    PUBLIC_ORIGIN: 'https://portal.example.com',
    LOG_LEVEL: 'silent',
    LANG: 'zh_CN.UTF-8',
  };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]) as unknown as CliIo['stdin'],
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...env, ...options.env },
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Reads (or writes) the database between two runs, as the command does: open, use, close. */
async function withDb<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const handle = await openDatabase(loadConfig(env));
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

async function footprint() {
  return withDb(async (db) => {
    const [audit] = await db.select({ n: count() }).from(auditLog);
    const people = await db
      .select({ id: users.id, roles: users.roles, status: users.status })
      .from(users)
      .orderBy(users.id);
    const [relations] = await db.select({ n: count() }).from(partnerAccounts);
    return { audit: audit?.n, people, relations: relations?.n };
  });
}

const createAdmin = [
  'create',
  '--user-name',
  'admin_li',
  '--mobile',
  '13900000001',
  '--name',
  '李娜',
  '--role',
  'admin',
];

describe('on an empty deployment database', () => {
  it('creates the first administrator with the password from standard input, audited as the command line', async () => {
    const run = await cli(createAdmin, { stdin: 'Cobalt-Fern-64\nignored second line\n' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/Created admin_li \(admin\), id \d+/);
    await withDb(async (db) => {
      const [row] = await db.select().from(users).where(eq(users.userName, 'admin_li'));
      expect(row).toMatchObject({ mobile: '13900000001', name: '李娜', roles: ['admin'], status: 'active' });
      expect(await verifyPassword(row!.passwordHash, 'Cobalt-Fern-64')).toBe(true);
      const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'staff.create'));
      expect(audit).toMatchObject({
        userId: null,
        target: `user:${row!.id}`,
        detail: { role: 'admin', via: 'cli' },
      });
    });
  }, 60_000);

  it('refuses bad input naming each option, before asking for the password; nothing is created', async () => {
    const before = await footprint();
    const bad = await cli(['create', '--user-name', 'x', '--mobile', '1390', '--name', ' ', '--role', 'root'], {
      stdin: 'Cobalt-Fern-64\n',
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--user-name: 用户名');
    expect(bad.stderr).toContain('--mobile: 手机号格式不正确');
    expect(bad.stderr).toContain('--name:');
    expect(bad.stderr).toContain('--role:');
    const weak = await cli(
      ['create', '--user-name', 'ops_wang', '--mobile', '13900000002', '--name', '王', '--role', 'editor'],
      { stdin: 'password\n' },
    );
    expect(weak).toMatchObject({ code: 1, stderr: 'password: 密码须同时包含字母和数字\n' });
    // A staff password: the shared rule, then staff's (12 characters, not guessable).
    const short = await cli(
      ['create', '--user-name', 'ops_wang', '--mobile', '13900000002', '--name', '王', '--role', 'editor'],
      { stdin: 'Wang2025abc\n' },
    );
    expect(short).toMatchObject({ code: 1, stderr: 'password: 员工账户的密码至少需要 12 个字符\n' });
    const partnerWithout = await cli(
      ['create', '--user-name', 'bank_li', '--mobile', '13900000003', '--name', '李', '--role', 'partner'],
      { stdin: 'Cobalt-Fern-64\n' },
    );
    expect(partnerWithout.code).toBe(1);
    expect(partnerWithout.stderr).toContain('--institution: 请输入机构代码');
    expect(partnerWithout.stderr).toContain('--emp-id: 请输入工号');
    const editorWith = await cli(
      [
        'create',
        '--user-name',
        'ed_li',
        '--mobile',
        '13900000004',
        '--name',
        '李',
        '--role',
        'editor',
        '--emp-id',
        'E1',
      ],
      { stdin: 'Cobalt-Fern-64\n' },
    );
    expect(editorWith).toMatchObject({ code: 1, stderr: '--emp-id: 只有合作机构员工需要填写工号\n' });
    expect(await footprint()).toEqual(before);
  }, 60_000);

  it('never takes a password on the command line, and knows only its commands', async () => {
    const before = await footprint();
    const withPassword = await cli([
      ...createAdmin.slice(0, 1),
      '--user-name',
      'ops_x',
      '--mobile',
      '13900000009',
      '--name',
      'X',
      '--role',
      'editor',
      '--password',
      'Cobalt-Fern-64',
    ]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain("'--password'");
    expect((await cli(['promote', 'admin_li'])).code).toBe(2);
    expect((await cli(['grant', 'admin_li'])).code).toBe(2);
    expect((await cli(['disable', 'admin_li', '--role', 'editor'])).code).toBe(2);
    expect((await cli([])).code).toBe(2);
    expect(await footprint()).toEqual(before);
  });

  it('refuses a taken user name or mobile (409 at the option), nothing changed', async () => {
    const before = await footprint();
    const name = await cli(
      ['create', '--user-name', 'ADMIN_LI', '--mobile', '13900000005', '--name', '另一个', '--role', 'editor'],
      { stdin: 'Cobalt-Fern-64\n' },
    );
    expect(name).toMatchObject({ code: 1, stderr: '--user-name: 该用户名已被使用\n' });
    const mobile = await cli(
      ['create', '--user-name', 'ops_other', '--mobile', '13900000001', '--name', '另一个', '--role', 'editor'],
      { stdin: 'Cobalt-Fern-64\n' },
    );
    expect(mobile).toMatchObject({ code: 1, stderr: '--mobile: 该手机号已注册\n' });
    expect(await footprint()).toEqual(before);
  }, 60_000);

  it('creates partner staff related to their institution in one step; an unknown code creates nothing', async () => {
    await withDb(async (db) => {
      await db.insert(partnerInstitutions).values({ code: 'CLI4400', name: '测试银行总行', level: 1, path: '/' });
      const [made] = await db
        .select({ id: partnerInstitutions.id })
        .from(partnerInstitutions)
        .where(eq(partnerInstitutions.code, 'CLI4400'));
      await db
        .update(partnerInstitutions)
        .set({ path: `/${made!.id}/` })
        .where(eq(partnerInstitutions.id, made!.id));
    });
    const before = await footprint();
    const unknown = await cli(
      [
        'create',
        '--user-name',
        'bank_zhao',
        '--mobile',
        '13900000006',
        '--name',
        '赵',
        '--role',
        'partner',
        '--institution',
        'NOPE0000',
        '--emp-id',
        'GD01',
      ],
      {
        stdin: 'Cobalt-Fern-64\n',
      },
    );
    expect(unknown).toMatchObject({ code: 1, stderr: '--institution: 没有此代码的合作机构\n' });
    expect(await footprint()).toEqual(before);

    const made = await cli(
      [
        'create',
        '--user-name',
        'bank_zhao',
        '--mobile',
        '13900000006',
        '--name',
        '赵',
        '--role',
        'partner',
        '--institution',
        'CLI4400',
        '--emp-id',
        'GD01',
      ],
      {
        stdin: 'Cobalt-Fern-64\n',
      },
    );
    expect(made.code).toBe(0);
    await withDb(async (db) => {
      const [row] = await db
        .select({ id: users.id, roles: users.roles })
        .from(users)
        .where(eq(users.userName, 'bank_zhao'));
      expect(row?.roles).toEqual(['partner']);
      const [relation] = await db.select().from(partnerAccounts).where(eq(partnerAccounts.userId, row!.id));
      expect(relation).toMatchObject({ empId: 'GD01', createdByUserId: null });
      const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'partner.relationAdd'));
      expect(audit).toMatchObject({ userId: null, detail: { empId: 'GD01', via: 'cli' } });
    });
  }, 60_000);

  it('grants, revokes, disables, enables and resets, by user name or mobile; never the last administrator; one duty per account', async () => {
    expect(await cli(['grant', 'bank_zhao', 'editor'])).toMatchObject({
      code: 0,
      stdout: 'Granted editor to bank_zhao; roles now: editor, partner.\n',
    });
    const before = await footprint();
    expect(await cli(['grant', '13900000006', 'editor'])).toMatchObject({
      code: 1,
      stderr: '该用户已有“内容编辑”角色\n',
    });
    expect(await cli(['revoke', 'admin_li', 'admin'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('最后一个启用的系统管理员'),
    });
    expect(await cli(['disable', 'admin_li'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('最后一个启用的系统管理员'),
    });
    expect(await cli(['grant', 'admin_li', 'auditor'])).toMatchObject({
      code: 1,
      stderr:
        '“审计管理员”不能与该用户已有的“系统管理员”角色由同一账户兼任（系统管理、业务运营、安全审计三种职责分离）\n',
    });
    expect(await cli(['grant', 'bank_zhao', 'partner'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('role: "partner"'),
    });
    expect(await cli(['disable', 'nobody_here'])).toMatchObject({ code: 1, stderr: '没有此用户\n' });
    expect(await footprint()).toEqual(before);

    expect((await cli(['revoke', 'bank_zhao', 'editor'])).code).toBe(0);
    expect((await cli(['disable', 'bank_zhao'])).code).toBe(0);
    expect((await cli(['enable', 'bank_zhao'])).code).toBe(0);

    const userId = await withDb(async (db) => {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.userName, 'bank_zhao'));
      await db.insert(secondFactors).values({ userId: row!.id, secretEncrypted: 'test-only', confirmedAt: new Date() });
      await db.insert(recoveryCodes).values({ userId: row!.id, codeHash: 'c'.repeat(64) });
      return row!.id;
    });
    expect((await cli(['reset-second-factor', 'bank_zhao'])).code).toBe(0);
    expect(await cli(['reset-second-factor', 'bank_zhao'])).toMatchObject({
      code: 1,
      stderr: '该用户没有设置两步验证\n',
    });
    await withDb(async (db) => {
      expect(await db.$count(secondFactors, eq(secondFactors.userId, userId))).toBe(0);
      expect(await db.$count(recoveryCodes, eq(recoveryCodes.userId, userId))).toBe(0);
      const rows = await db
        .select({ action: auditLog.action, userId: auditLog.userId, detail: auditLog.detail })
        .from(auditLog)
        .orderBy(auditLog.id);
      const mine = rows.filter((row) =>
        ['staff.grant', 'staff.revoke', 'staff.disable', 'staff.enable', 'secondFactor.reset'].includes(row.action),
      );
      expect(mine.map((row) => row.action)).toEqual([
        'staff.grant',
        'staff.revoke',
        'staff.disable',
        'staff.enable',
        'secondFactor.reset',
      ]);
      expect(mine.every((row) => row.userId === null && row.detail['via'] === 'cli')).toBe(true);
    });
  }, 120_000);

  it('lists staff accounts, or any user matching a keyword', async () => {
    const list = await cli(['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^user name +name +mobile +roles/);
    expect(list.stdout).toContain('admin_li');
    expect(list.stdout).toContain('139****0001');
    expect(list.stdout).toContain('CLI4400/GD01');
    const search = await cli(['list', 'zhao']);
    expect(search.stdout).toContain('bank_zhao');
    expect(search.stdout).not.toContain('admin_li');
  }, 60_000);

  it('speaks the language of LANG (English by default)', async () => {
    expect(await cli(['disable', 'nobody_here'], { env: { LANG: 'C.UTF-8' } })).toMatchObject({
      code: 1,
      stderr: 'No such user\n',
    });
    expect(await cli(['disable', 'nobody_here'], { env: { LANG: 'pt_BR.UTF-8' } })).toMatchObject({
      code: 1,
      stderr: 'Usuário não encontrado\n',
    });
  }, 60_000);
});

describe('as `npm run user` runs it (a child process)', () => {
  const script = path.resolve('scripts/user.ts');

  function spawnCli(args: string[], stdin: string, childEnv: Record<string, string> = env): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [script, ...args], {
        env: { PATH: process.env['PATH'] ?? '', ...childEnv },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(stdin);
    });
  }

  it('prints its help', async () => {
    const run = await spawnCli(['--help'], '');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run user -- <command>');
    expect(run.stdout).toContain('reset-second-factor <user>');
  }, 30_000);

  it('creates an account from a piped password and exits', async () => {
    const run = await spawnCli(
      ['create', '--user-name', 'ed_piped', '--mobile', '13900000007', '--name', '管道', '--role', 'editor'],
      'Tide-Lantern-31\n',
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('Created ed_piped (editor)');
  }, 60_000);

  it('refuses while a server holds the embedded database, and changes nothing', async () => {
    const dist = path.join(root, 'dist');
    await mkdir(dist, { recursive: true });
    // Behind its TLS proxy, as a deployment with an https PUBLIC_ORIGIN must be to start (preflight.ts).
    const server = await startServer(
      loadConfig({ ...env, HOST: '127.0.0.1', PORT: '0', STATIC_DIR: dist, TRUST_PROXY: '1' }),
    );
    let run: Run;
    try {
      run = await spawnCli(['disable', 'ed_piped'], '');
    } finally {
      await server.close();
    }
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is in use by another process');
    expect(
      await withDb(
        async (db) =>
          (await db.select({ status: users.status }).from(users).where(eq(users.userName, 'ed_piped')))[0]?.status,
      ),
    ).toBe('active');
  }, 90_000);
});
