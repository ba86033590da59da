/**
 * /api/ops/staff/*: the administrator's staff accounts — the list (staff by default, any user by
 * keyword), each change (grant, revoke, disable, enable, reset the second factor, relate to an
 * institution) with its audit row and effect, the safety rules (one duty per account, not oneself,
 * never the last active administrator, also under concurrency), the guards (901, 403 to every other role, CSRF) and
 * bad input (400 at its field, nothing changed).
 */
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import type { StaffRowData, StaffTableData } from '../../src/lib/schemas/staff.ts';
import { demoPartnerCodes } from '../../src/server/seed/demoPartners.ts';
import {
  auditLog,
  loginChallenges,
  notices,
  recoveryCodes,
  secondFactors,
  sessions,
  users,
} from '../../src/server/db/schema/index.ts';
import { disableAccount, type StaffActor } from '../../src/server/services/staffAccounts.ts';
import { findUserIdByUserName } from '../../src/server/services/users.ts';
import { get, post, postForm, type Envelope } from './accountCalls.ts';
import { createTestApp, openPerFile, type TestApp } from './harness.ts';
import { insertUser } from './partnerFixtures.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));
const base = '/api/ops/staff';

let admin: string;
let adminId: number;

beforeAll(async () => {
  admin = await t.login('demo_admin');
  adminId = (await findUserIdByUserName(t.db, 'demo_admin'))!;
});

function table(antTable: Record<string, unknown> = {}, cookie = admin): Promise<Envelope<StaffTableData>> {
  return post<StaffTableData>(t, `${base}/getAntTable`, { antTable: JSON.stringify(antTable) }, { cookie });
}

function change(path: string, body: Record<string, string | number>, cookie = admin): Promise<Envelope<StaffRowData>> {
  return post<StaffRowData>(t, `${base}/${path}`, body, { cookie });
}

/** Everything a staff change could touch, to prove a refused one touched nothing. */
async function footprint(app: TestApp = t) {
  const [audit] = await app.db.select({ n: count() }).from(auditLog);
  const [live] = await app.db.select({ n: count() }).from(sessions).where(isNull(sessions.revokedAt));
  const [factors] = await app.db.select({ n: count() }).from(secondFactors);
  const [notes] = await app.db.select({ n: count() }).from(notices);
  const people = await app.db
    .select({ id: users.id, roles: users.roles, status: users.status })
    .from(users)
    .orderBy(users.id);
  return { audit: audit?.n, live: live?.n, factors: factors?.n, notes: notes?.n, people };
}

async function idOf(userName: string): Promise<number> {
  const id = await findUserIdByUserName(t.db, userName);
  if (id === undefined) throw new Error(`no user ${userName}`);
  return id;
}

async function lastAudit(action: string) {
  const [row] = await t.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(sql`${auditLog.id} desc`)
    .limit(1);
  return row;
}

/** A second factor (and recovery codes) for a user, as enrolment leaves them. */
async function giveSecondFactor(app: TestApp, userId: number, confirmed = true): Promise<void> {
  await app.db
    .insert(secondFactors)
    .values({ userId, secretEncrypted: 'test-only', confirmedAt: confirmed ? new Date() : null });
  await app.db.insert(recoveryCodes).values([
    { userId, codeHash: 'a'.repeat(64) },
    { userId, codeHash: 'b'.repeat(64) },
  ]);
}

async function loginByPassword(app: TestApp, userName: string, password: string, ip: string): Promise<Envelope> {
  return post(app, '/api/front/system/login', { userName, password, deviceId: 'hgdweb', appCode: 'hgd' }, { ip });
}

describe('guards', () => {
  const calls: [string, 'get' | 'post', Record<string, string | number>][] = [
    ['getAntTable', 'post', {}],
    ['getStaff?userId=1', 'get', {}],
    ['grant', 'post', { userId: 1, role: 'editor' }],
    ['revoke', 'post', { userId: 1, role: 'editor' }],
    ['disable', 'post', { userId: 1 }],
    ['enable', 'post', { userId: 1 }],
    ['resetSecondFactor', 'post', { userId: 1 }],
    ['relateInstitution', 'post', { userId: 1, institutionCode: demoPartnerCodes.icbc, empId: 'X1' }],
  ];

  it.each(calls)(
    '%s needs a session (901) and the administrator role (403 to every other role)',
    async (path, method, body) => {
      const call = (cookie?: string) =>
        method === 'get'
          ? get(t, `${base}/${path}`, cookie ? { cookie } : {})
          : post(t, `${base}/${path}`, body, cookie ? { cookie } : {});
      const before = await footprint();
      expect((await call()).code).toBe(ApiCode.SESSION_EXPIRED);
      for (const userName of [
        'demo_person',
        'demo_company',
        'demo_partner',
        'demo_editor',
        'demo_operator',
        'demo_auditor',
      ]) {
        expect(await call(await t.login(userName)), userName).toEqual({
          code: 403,
          message: '没有权限执行此操作',
          data: {},
        });
      }
      const after = await footprint();
      expect({ ...after, live: before.live }).toEqual(before);
    },
  );

  it('refuses a change without the CSRF headers (403) and changes nothing', async () => {
    const before = await footprint();
    const response = await t.app.request(`${base}/grant`, {
      method: 'POST',
      headers: { Cookie: admin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `userId=${await idOf('demo_person')}&role=operator`,
    });
    expect(((await response.json()) as Envelope).code).toBe(403);
    expect(await footprint()).toEqual(before);
  });
});

describe('POST getAntTable', () => {
  it('lists staff accounts only, with roles, status, second factor, institutions and masked mobiles', async () => {
    const answer = await table({ pager: { pageSize: 100 } });
    expect(answer.code).toBe(200);
    const names = answer.data.result.map((row) => row.userName);
    expect(names).toEqual(
      expect.arrayContaining([
        'demo_admin',
        'demo_operator',
        'demo_editor',
        'demo_auditor',
        'demo_partner',
        'demo_bank',
      ]),
    );
    expect(names).not.toContain('demo_person');
    expect(names).not.toContain('demo_company');
    const partner = answer.data.result.find((row) => row.userName === 'demo_partner')!;
    expect(partner).toMatchObject({
      mobile: '138****8003',
      roles: ['partner'],
      status: 'active',
      secondFactor: 'none',
      self: false,
      institutions: [{ code: demoPartnerCodes.icbcGuangdong, empId: 'GD0001', name: expect.stringContaining('广东') }],
    });
    expect(answer.data.result.find((row) => row.userName === 'demo_admin')?.self).toBe(true);
  });

  it('finds any user by keyword (name, user name or mobile), so a role can be granted to them', async () => {
    for (const keyword of ['demo_person', '张明', '13800138001']) {
      const answer = await table({ search: { keyword } });
      expect(
        answer.data.result.map((row) => row.userName),
        keyword,
      ).toEqual(['demo_person']);
    }
  });

  it('filters by role and status, and shows the second factor and the last sign-in', async () => {
    const operators = await table({ filter: { isOperator: [true] } });
    expect(operators.data.result.every((row) => row.roles.includes('operator'))).toBe(true);
    expect(operators.data.totalCount).toBeGreaterThan(0);

    const bank = await idOf('demo_bank');
    // Signed in before the factor exists: with one, the sign-in would wait for its second step.
    expect((await loginByPassword(t, 'demo_bank', 'Bank2025', '198.51.100.10')).code).toBe(200);
    await giveSecondFactor(t, bank);
    const [row] = (await table({ search: { keyword: 'demo_bank' } })).data.result;
    expect(row).toMatchObject({ userName: 'demo_bank', secondFactor: 'enrolled' });
    expect(Date.now() - Date.parse(row!.lastLoginAt ?? '')).toBeLessThan(60_000);
    expect((await table({ filter: { secondFactor: ['enrolled'] } })).data.result.map((r) => r.userName)).toContain(
      'demo_bank',
    );
    await t.db.delete(secondFactors).where(eq(secondFactors.userId, bank));
    await t.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, bank));
  });

  it('answers a malformed table request with 400', async () => {
    expect((await table({ filter: { passwordHash: ['x'] } })).code).toBe(400);
    expect((await table({ sorter: [{ key: 'mobile', sort: 'ascend' }] })).code).toBe(400);
  });
});

describe('GET getStaff', () => {
  it('answers any user, staff or not, and 404 for an unknown id', async () => {
    const person = await get<StaffRowData>(t, `${base}/getStaff?userId=${await idOf('demo_person')}`, {
      cookie: admin,
    });
    expect(person.data).toMatchObject({
      userName: 'demo_person',
      roles: ['individual'],
      institutions: [],
      lastLoginAt: null,
    });
    expect((await get(t, `${base}/getStaff?userId=2147483647`, { cookie: admin })).code).toBe(404);
    expect((await get(t, `${base}/getStaff?userId=abc`, { cookie: admin })).code).toBe(400);
  });
});

describe('grant and revoke', () => {
  it('grants the editor role, audited and noticed; the user may use the studio at once; a second grant is 409', async () => {
    const userId = await idOf('demo_person');
    const cookie = await t.login('demo_person');
    expect((await get(t, '/api/studio/items', { cookie })).code).toBe(403);
    const answer = await change('grant', { userId, role: 'editor' });
    expect(answer).toMatchObject({
      code: 200,
      message: '已授予角色',
      data: { userName: 'demo_person', roles: ['editor', 'individual'] },
    });
    expect(await lastAudit('staff.grant')).toMatchObject({
      userId: adminId,
      target: `user:${userId}`,
      detail: { role: 'editor', via: 'ops' },
    });
    const [notice] = await t.db
      .select()
      .from(notices)
      .where(and(eq(notices.userId, userId), eq(notices.title, '你已成为内容编辑')));
    expect(notice).toBeDefined();
    expect((await get(t, '/api/studio/items', { cookie })).code).not.toBe(403);

    const before = await footprint();
    expect(await change('grant', { userId, role: 'editor' })).toMatchObject({
      code: 409,
      message: '该用户已有“内容编辑”角色',
    });
    expect(await footprint()).toEqual(before);
  });

  it('revokes it again (sessions stay, the role is gone at the next call); revoking a role the user lacks is 409', async () => {
    const userId = await idOf('demo_person');
    const cookie = await t.login('demo_person');
    const answer = await change('revoke', { userId, role: 'editor' });
    expect(answer).toMatchObject({ code: 200, data: { roles: ['individual'] } });
    expect(await lastAudit('staff.revoke')).toMatchObject({
      userId: adminId,
      detail: { role: 'editor', via: 'ops' },
    });
    expect((await get(t, '/api/studio/items', { cookie })).code).toBe(403);
    expect((await get(t, '/api/front/user/currentUser', { cookie })).code).toBe(200);

    const before = await footprint();
    expect(await change('revoke', { userId, role: 'editor' })).toMatchObject({
      code: 409,
      message: '该用户没有“内容编辑”角色',
    });
    expect(await footprint()).toEqual(before);
  });

  it('a user left with no role is an individual again', async () => {
    const { userId } = await insertUser(t, ['editor'], 'only_editor');
    expect((await change('revoke', { userId, role: 'editor' })).data.roles).toEqual(['individual']);
  });

  it('refuses an administrator revoking their own administrator role (409), nothing changed', async () => {
    const before = await footprint();
    const answer = await change('revoke', { userId: adminId, role: 'admin' });
    expect(answer).toMatchObject({ code: 409, message: '不能撤销自己的系统管理员角色，请由其他系统管理员操作' });
    expect(await footprint()).toEqual(before);
  });

  it('grants and revokes another administrator (the staff page opens and closes for them)', async () => {
    const { userId, userName } = await insertUser(t, ['individual'], 'second_admin');
    expect((await change('grant', { userId, role: 'admin' })).code).toBe(200);
    const cookie = await t.login(userName);
    expect((await table({}, cookie)).code).toBe(200);
    expect((await change('revoke', { userId, role: 'admin' })).code).toBe(200);
    expect((await table({}, cookie)).code).toBe(403);
  });

  it.each([
    [
      'operator',
      'admin',
      '“系统管理员”不能与该用户已有的“运营人员”角色由同一账户兼任（系统管理、业务运营、安全审计三种职责分离）',
    ],
    [
      'editor',
      'auditor',
      '“审计管理员”不能与该用户已有的“内容编辑”角色由同一账户兼任（系统管理、业务运营、安全审计三种职责分离）',
    ],
    [
      'auditor',
      'operator',
      '“运营人员”不能与该用户已有的“审计管理员”角色由同一账户兼任（系统管理、业务运营、安全审计三种职责分离）',
    ],
    [
      'admin',
      'auditor',
      '“审计管理员”不能与该用户已有的“系统管理员”角色由同一账户兼任（系统管理、业务运营、安全审计三种职责分离）',
    ],
  ] as const)('refuses a %s the %s role: one duty per account (409), nothing changed', async (held, asked, message) => {
    const { userId } = await insertUser(t, [held], `duty_${held}_${asked}`);
    const before = await footprint();
    expect(await change('grant', { userId, role: asked })).toEqual({ code: 409, message, data: {} });
    expect(await footprint()).toEqual(before);
  });

  it('grants a role of the same duty (an operator may edit) and roles outside the duties stay', async () => {
    const { userId } = await insertUser(t, ['enterprise', 'operator'], 'ops_and_company');
    expect((await change('grant', { userId, role: 'editor' })).data.roles).toEqual([
      'editor',
      'enterprise',
      'operator',
    ]);
  });

  it('the users table refuses two duties on one account, whoever writes it', async () => {
    for (const roles of [
      ['admin', 'auditor'],
      ['admin', 'operator'],
      ['editor', 'auditor'],
    ] as const) {
      await expect(
        t.db
          .insert(users)
          .values({ userName: `both_${roles.join('_')}`, mobile: '13977770000', passwordHash: 'x', roles: [...roles] }),
      ).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringMatching(/duty_check/) }) });
    }
  });
});

describe('disable and enable', () => {
  it('disables an account: its sessions end, its pending logins go, sign-in is refused; enabling lets it in again', async () => {
    const userId = await idOf('demo_editor');
    const cookie = await t.login('demo_editor');
    await t.db
      .insert(loginChallenges)
      .values({ id: 'c'.repeat(64), userId, method: 'account', expiresAt: new Date(Date.now() + 300_000) });
    const answer = await change('disable', { userId });
    expect(answer).toMatchObject({ code: 200, data: { status: 'disabled' } });
    expect(await lastAudit('staff.disable')).toMatchObject({
      userId: adminId,
      target: `user:${userId}`,
      detail: { via: 'ops' },
    });
    expect((await get(t, '/api/front/user/currentUser', { cookie })).code).toBe(ApiCode.SESSION_EXPIRED);
    const [live] = await t.db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    expect(live?.n).toBe(0);
    expect(await t.db.$count(loginChallenges, eq(loginChallenges.userId, userId))).toBe(0);
    expect(await loginByPassword(t, 'demo_editor', 'Editor2025', '198.51.100.20')).toMatchObject({
      code: 400,
      message: expect.stringContaining('停用'),
    });

    const before = await footprint();
    expect(await change('disable', { userId })).toMatchObject({ code: 409, message: '该账户已停用' });
    expect(await footprint()).toEqual(before);

    expect(await change('enable', { userId })).toMatchObject({ code: 200, data: { status: 'active' } });
    expect(await lastAudit('staff.enable')).toMatchObject({ userId: adminId, detail: { via: 'ops' } });
    expect((await loginByPassword(t, 'demo_editor', 'Editor2025', '198.51.100.21')).code).toBe(200);
    expect(await change('enable', { userId })).toMatchObject({ code: 409, message: '该账户已是启用状态' });
  });

  it('refuses an administrator disabling themselves (409), nothing changed', async () => {
    const before = await footprint();
    expect(await change('disable', { userId: adminId })).toMatchObject({ code: 409, message: '不能停用自己的账户' });
    expect(await footprint()).toEqual(before);
  });
});

describe('reset the second factor', () => {
  it('deletes the factor and recovery codes, ends the sessions, audits and notices; again is 409', async () => {
    const userId = await idOf('demo_bank');
    await giveSecondFactor(t, userId);
    const cookie = await t.login('demo_bank');
    const answer = await change('resetSecondFactor', { userId });
    expect(answer).toMatchObject({ code: 200, data: { secondFactor: 'none' } });
    expect(await t.db.$count(secondFactors, eq(secondFactors.userId, userId))).toBe(0);
    expect(await t.db.$count(recoveryCodes, eq(recoveryCodes.userId, userId))).toBe(0);
    expect((await get(t, '/api/front/user/currentUser', { cookie })).code).toBe(ApiCode.SESSION_EXPIRED);
    expect(await lastAudit('secondFactor.reset')).toMatchObject({
      userId: adminId,
      target: `user:${userId}`,
      detail: { via: 'ops', was: 'enrolled' },
    });
    expect(
      await t.db.$count(notices, and(eq(notices.userId, userId), eq(notices.title, '两步验证已由系统管理员重置'))),
    ).toBe(1);

    const before = await footprint();
    expect(await change('resetSecondFactor', { userId })).toMatchObject({
      code: 409,
      message: '该用户没有设置两步验证',
    });
    expect(await footprint()).toEqual(before);
  });

  it('also clears an enrolment left half-way', async () => {
    const userId = await idOf('demo_partner');
    await giveSecondFactor(t, userId, false);
    expect((await table({ search: { keyword: 'demo_partner' } })).data.result[0]?.secondFactor).toBe('enrolling');
    expect(await change('resetSecondFactor', { userId })).toMatchObject({ code: 200, data: { secondFactor: 'none' } });
    expect(await lastAudit('secondFactor.reset')).toMatchObject({ detail: { was: 'enrolling' } });
  });

  it("refuses the administrator's own (account settings do that, with proof)", async () => {
    await giveSecondFactor(t, adminId);
    const before = await footprint();
    expect(await change('resetSecondFactor', { userId: adminId })).toMatchObject({
      code: 409,
      message: '不能在此重置自己的两步验证，请在账户设置中操作',
    });
    expect(await footprint()).toEqual(before);
    await t.db.delete(secondFactors).where(eq(secondFactors.userId, adminId));
    await t.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, adminId));
  });
});

describe('relate to an institution', () => {
  it('relates a user by the institution code (partner role, audited via ops); the partner call ends it', async () => {
    const { userId } = await insertUser(t, ['individual'], 'bank_clerk');
    const answer = await change('relateInstitution', {
      userId,
      institutionCode: demoPartnerCodes.icbcTianhe,
      empId: 'TH0009',
    });
    expect(answer).toMatchObject({
      code: 200,
      data: {
        roles: ['individual', 'partner'],
        institutions: [{ code: demoPartnerCodes.icbcTianhe, empId: 'TH0009' }],
      },
    });
    expect(await lastAudit('partner.relationAdd')).toMatchObject({
      userId: adminId,
      detail: { userId, empId: 'TH0009', via: 'ops' },
    });

    const before = await footprint();
    expect(
      await change('relateInstitution', { userId, institutionCode: demoPartnerCodes.icbcTianhe, empId: 'TH0010' }),
    ).toMatchObject({ code: 409 });
    expect(await footprint()).toEqual(before);

    const relationId = answer.data.institutions[0]!.relationId;
    expect(
      (
        await post(
          t,
          '/api/front/hgdarc/partneraccount/delRelationPartnerAccount',
          { id: relationId },
          { cookie: admin },
        )
      ).code,
    ).toBe(200);
    expect((await get<StaffRowData>(t, `${base}/getStaff?userId=${userId}`, { cookie: admin })).data).toMatchObject({
      roles: ['individual'],
      institutions: [],
    });
  });

  it('answers an unknown institution code with 400 at its field, nothing changed', async () => {
    const before = await footprint();
    const answer = await post<{ errors: { field: string; message: string }[] }>(
      t,
      `${base}/relateInstitution`,
      { userId: await idOf('demo_person'), institutionCode: 'NOSUCH01', empId: 'X1' },
      { cookie: admin },
    );
    expect(answer).toMatchObject({
      code: 400,
      message: '没有此代码的合作机构',
      data: { errors: [{ field: 'institutionCode', message: '没有此代码的合作机构' }] },
    });
    expect(await footprint()).toEqual(before);
  });
});

describe('bad input', () => {
  const person = async () => idOf('demo_person');
  const cases: [string, () => Promise<Record<string, string | number>>, string][] = [
    ['grant', async () => ({ userId: await person(), role: 'partner' }), 'role'],
    ['grant', async () => ({ userId: await person(), role: 'individual' }), 'role'],
    ['grant', async () => ({ userId: await person() }), 'role'],
    ['grant', async () => ({ userId: 'abc', role: 'editor' }), 'userId'],
    ['revoke', async () => ({ userId: 2147483648, role: 'editor' }), 'userId'],
    ['disable', async () => ({ userId: -1 }), 'userId'],
    ['enable', async () => ({}), 'userId'],
    ['resetSecondFactor', async () => ({ userId: '1\u0000' }), 'userId'],
    [
      'relateInstitution',
      async () => ({ userId: await person(), institutionCode: 'a b', empId: 'X1' }),
      'institutionCode',
    ],
    [
      'relateInstitution',
      async () => ({ userId: await person(), institutionCode: demoPartnerCodes.icbc, empId: '工号' }),
      'empId',
    ],
  ];

  it.each(cases)('%s with bad input: 400 at the field, nothing changed', async (path, body, field) => {
    const before = await footprint();
    const answer = await post<{ errors: { field: string }[] }>(t, `${base}/${path}`, await body(), {
      cookie: admin,
    });
    expect(answer.code).toBe(400);
    expect(answer.data.errors[0]?.field).toBe(field);
    expect(await footprint()).toEqual(before);
  });

  it('answers a user that does not exist with 404, nothing changed', async () => {
    const before = await footprint();
    for (const path of ['grant', 'disable', 'enable', 'resetSecondFactor']) {
      expect((await change(path, { userId: 2147483647, role: 'editor' })).code, path).toBe(404);
    }
    expect(await footprint()).toEqual(before);
  });
});

describe('on the audit trail', () => {
  it('every staff change is listed on /ops/audit, which the auditor reads (and the administrator may not)', async () => {
    const auditTrail = { antTable: JSON.stringify({ pager: { pageSize: 1 } }) };
    expect((await post(t, '/api/ops/audit/getAntTable', auditTrail, { cookie: admin })).code).toBe(403);
    const answer = await post<{ result: { action: string; detail: Record<string, unknown> }[] }>(
      t,
      '/api/ops/audit/getAntTable',
      {
        antTable: JSON.stringify({
          filter: { action: ['staff.grant', 'staff.revoke', 'staff.disable', 'staff.enable', 'secondFactor.reset'] },
          pager: { pageSize: 100 },
        }),
      },
      { cookie: await t.login('demo_auditor') },
    );
    expect(new Set(answer.data.result.map((row) => row.action))).toEqual(
      new Set(['staff.grant', 'staff.revoke', 'staff.disable', 'staff.enable', 'secondFactor.reset']),
    );
    expect(answer.data.result.every((row) => row.detail['via'] === 'ops')).toBe(true);
  });
});

describe('the last active administrator', () => {
  const own = openPerFile(() => createTestApp());

  it('two administrators disabling each other at once: one wins, one active administrator is always left', async () => {
    const first = (await findUserIdByUserName(own.db, 'demo_admin'))!;
    const [second] = await own.db
      .insert(users)
      .values({
        userName: 'admin_two',
        mobile: '13911112222',
        name: '第二位管理员',
        passwordHash: 'x',
        roles: ['admin'],
      })
      .returning({ id: users.id });
    const actor = (userId: number): StaffActor => ({ userId, ip: null, locale: 'zh-CN', via: 'ops' });
    const outcomes = await Promise.allSettled([
      disableAccount(own.db, actor(first), second!.id),
      disableAccount(own.db, actor(second!.id), first),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((failure?.reason as { key?: string }).key).toBe('staff.lastAdmin');
    const active = await own.db.$count(users, and(eq(users.status, 'active'), sql`'admin' = any(${users.roles})`));
    expect(active).toBe(1);
  });

  it('the command line (acting as nobody) cannot remove or disable the last one either', async () => {
    const last = (
      await own.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.status, 'active'), sql`'admin' = any(${users.roles})`))
    )[0]!.id;
    const { revokeRole } = await import('../../src/server/services/staffAccounts.ts');
    const cli: StaffActor = { userId: null, ip: null, locale: 'en-US', via: 'cli' };
    const before = await footprint(own);
    await expect(revokeRole(own.db, cli, last, 'admin')).rejects.toMatchObject({ key: 'staff.lastAdmin' });
    await expect(disableAccount(own.db, cli, last)).rejects.toMatchObject({ key: 'staff.lastAdmin' });
    expect(await footprint(own)).toEqual(before);
  });
});

it('posts without a body are validated, never a 500', async () => {
  const response = await postForm(t, `${base}/grant`, {}, { cookie: admin });
  expect(((await response.json()) as Envelope).code).toBe(400);
});
