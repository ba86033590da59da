/**
 * The partner's institutions and staff relations (docs/partner.md, Calls): getPartnersByEmpId,
 * getAllPartnersByEmpId, getPartnerAccountInfo, addRelationPartnerAccount,
 * delRelationPartnerAccount — good, bad and hostile input, 901/403/404, and scoping.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import type {
  PartnerAccountData,
  PartnerAccountInfoData,
  PartnerTreeNode,
  RelatedPartnerData,
} from '../../src/lib/schemas/partner.ts';
import { auditLog, partnerAccounts } from '../../src/server/db/schema/index.ts';
import { get, post } from './accountCalls.ts';
import { createTestApp, openPerFile } from './harness.ts';
import {
  insertPartnerTree,
  insertPartnerUser,
  insertUser,
  relationCount,
  rolesOf,
  type PartnerTree,
} from './partnerFixtures.ts';

const t = openPerFile(() => createTestApp());
const base = '/api/front/hgdarc';

let tree: PartnerTree;
let branchUser: { userId: number; userName: string; cookie: string };
let headUser: { userId: number; userName: string; cookie: string };
let operatorCookie: string;
let adminCookie: string;
let personCookie: string;

beforeAll(async () => {
  tree = await insertPartnerTree(t);
  branchUser = await insertPartnerUser(t, [tree.branchA]);
  headUser = await insertPartnerUser(t, [tree.head]);
  operatorCookie = await t.login('demo_operator');
  adminCookie = await t.login('demo_admin');
  personCookie = await t.login('demo_person');
});

function ids(nodes: PartnerTreeNode[]): unknown[] {
  return nodes.map((node) => (node.children.length ? [node.id, ids(node.children)] : node.id));
}

describe('guards', () => {
  const calls: [string, 'get' | 'post', Record<string, string | number>][] = [
    ['/partner/getPartnersByEmpId', 'get', {}],
    ['/partner/getAllPartnersByEmpId', 'get', {}],
    ['/partneraccount/getPartnerAccountInfo', 'get', {}],
    ['/partneraccount/addRelationPartnerAccount', 'post', { partnerId: 1, userName: 'demo_person', empId: 'X1' }],
    ['/partneraccount/delRelationPartnerAccount', 'post', { id: 1 }],
  ];

  it.each(calls)('%s needs a session (901) and the partner role (403)', async (path, method, body) => {
    const call = (cookie?: string) =>
      method === 'get'
        ? get(t, `${base}${path}`, cookie ? { cookie } : {})
        : post(t, `${base}${path}`, body, cookie ? { cookie } : {});
    expect((await call()).code).toBe(ApiCode.SESSION_EXPIRED);
    expect((await call(personCookie)).code).toBe(ApiCode.FORBIDDEN);
  });

  it('the tree calls are the partner role only: an administrator gets 403', async () => {
    expect((await get(t, `${base}/partner/getAllPartnersByEmpId`, { cookie: adminCookie })).code).toBe(
      ApiCode.FORBIDDEN,
    );
    expect((await get(t, `${base}/partner/getPartnersByEmpId`, { cookie: adminCookie })).code).toBe(ApiCode.FORBIDDEN);
  });

  it('relations are staff administration: an operator (business duty) gets 403', async () => {
    expect((await get(t, `${base}/partneraccount/getPartnerAccountInfo`, { cookie: operatorCookie })).code).toBe(
      ApiCode.FORBIDDEN,
    );
  });
});

describe('getPartnersByEmpId', () => {
  it('answers the user’s own relations with their staff numbers', async () => {
    const answer = await get<RelatedPartnerData[]>(t, `${base}/partner/getPartnersByEmpId`, {
      cookie: branchUser.cookie,
    });
    expect(answer.code).toBe(200);
    expect(answer.data).toEqual([
      expect.objectContaining({
        id: tree.branchA,
        level: 2,
        parentId: tree.head,
        areaCode: '440000',
        empId: `E${branchUser.userId}-0`,
      }),
    ]);
  });

  it('with empId only that relation; an unknown one is an empty list; a malformed one 400', async () => {
    const user = await insertPartnerUser(t, [tree.subA1, tree.subB1]);
    const one = await get<RelatedPartnerData[]>(t, `${base}/partner/getPartnersByEmpId?empId=E${user.userId}-1`, {
      cookie: user.cookie,
    });
    expect(one.data.map((row) => row.id)).toEqual([tree.subB1]);
    const none = await get<RelatedPartnerData[]>(t, `${base}/partner/getPartnersByEmpId?empId=NOPE`, {
      cookie: user.cookie,
    });
    expect(none).toMatchObject({ code: 200, data: [] });
    const all = await get<RelatedPartnerData[]>(t, `${base}/partner/getPartnersByEmpId?empId=`, {
      cookie: user.cookie,
    });
    expect(all.data).toHaveLength(2);
    for (const bad of ["x' or 1=1--", 'a'.repeat(33), '%25']) {
      const answer = await get(t, `${base}/partner/getPartnersByEmpId?empId=${encodeURIComponent(bad)}`, {
        cookie: user.cookie,
      });
      expect(answer.code).toBe(ApiCode.BAD_REQUEST);
    }
  });
});

describe('getAllPartnersByEmpId', () => {
  it('a branch user gets its branch with its sub-branches by code, nothing of the sibling branch', async () => {
    const answer = await get<PartnerTreeNode[]>(t, `${base}/partner/getAllPartnersByEmpId`, {
      cookie: branchUser.cookie,
    });
    expect(answer.code).toBe(200);
    expect(ids(answer.data)).toEqual([[tree.branchA, [tree.subA1, tree.subA2]]]);
    expect(answer.data[0]).toMatchObject({ level: 2, name: expect.stringContaining('广东省分行') });
    expect(JSON.stringify(answer.data)).not.toContain('广西区分行');
  });

  it('a head office user gets the whole bank, not the other bank', async () => {
    const answer = await get<PartnerTreeNode[]>(t, `${base}/partner/getAllPartnersByEmpId`, {
      cookie: headUser.cookie,
    });
    expect(ids(answer.data)).toEqual([
      [
        tree.head,
        [
          [tree.branchA, [tree.subA1, tree.subA2]],
          [tree.branchB, [tree.subB1]],
        ],
      ],
    ]);
  });

  it('separate relations are separate roots; a nested relation adds no root', async () => {
    const user = await insertPartnerUser(t, [tree.subB1, tree.subA2, tree.branchB]);
    const answer = await get<PartnerTreeNode[]>(t, `${base}/partner/getAllPartnersByEmpId`, { cookie: user.cookie });
    // Roots by code: subA2 (…120) before branchB (…200).
    expect(ids(answer.data)).toEqual([tree.subA2, [tree.branchB, [tree.subB1]]]);
  });

  it('a partner without relations gets an empty tree', async () => {
    const user = await insertUser(t, ['partner']);
    const answer = await get<PartnerTreeNode[]>(t, `${base}/partner/getAllPartnersByEmpId`, {
      cookie: await t.login(user.userName),
    });
    expect(answer).toMatchObject({ code: 200, data: [] });
  });
});

describe('getPartnerAccountInfo', () => {
  it('details and staff of an institution in scope', async () => {
    const answer = await get<PartnerAccountInfoData>(
      t,
      `${base}/partneraccount/getPartnerAccountInfo?partnerId=${tree.branchA}`,
      { cookie: branchUser.cookie },
    );
    expect(answer.code).toBe(200);
    expect(answer.data.partner).toMatchObject({
      id: tree.branchA,
      level: 2,
      parentId: tree.head,
      address: expect.any(String),
      phone: expect.any(String),
      contactName: expect.any(String),
      childCount: 2,
    });
    expect(answer.data.partner?.parentName).toContain('总行');
    expect(answer.data.partner?.pathNames).toHaveLength(2);
    expect(answer.data.accounts).toEqual([
      expect.objectContaining({
        userId: branchUser.userId,
        userName: branchUser.userName,
        self: true,
        partnerId: tree.branchA,
      }),
    ]);
    expect(answer.data.accounts[0]?.mobile).toMatch(/^\d{3}\*{4}\d{4}$/);
  });

  it('without partnerId: partner null and the user’s own relations', async () => {
    const answer = await get<PartnerAccountInfoData>(t, `${base}/partneraccount/getPartnerAccountInfo`, {
      cookie: branchUser.cookie,
    });
    expect(answer.data.partner).toBeNull();
    expect(answer.data.accounts.map((account) => account.partnerId)).toEqual([tree.branchA]);
  });

  it('a sibling branch, the head office and a missing id answer the same 404; a bad id 400', async () => {
    const answers = await Promise.all(
      [tree.branchB, tree.subB1, tree.head, tree.other, 2_000_000_000].map((id) =>
        get(t, `${base}/partneraccount/getPartnerAccountInfo?partnerId=${id}`, { cookie: branchUser.cookie }),
      ),
    );
    for (const answer of answers) expect(answer).toEqual(answers[4]);
    expect(answers[4]).toMatchObject({ code: ApiCode.NOT_FOUND, data: {} });
    for (const bad of ['abc', '-1', '0', '1.5', '99999999999']) {
      expect(
        (await get(t, `${base}/partneraccount/getPartnerAccountInfo?partnerId=${bad}`, { cookie: branchUser.cookie }))
          .code,
      ).toBe(ApiCode.BAD_REQUEST);
    }
  });

  it('an administrator reads any institution', async () => {
    const answer = await get<PartnerAccountInfoData>(
      t,
      `${base}/partneraccount/getPartnerAccountInfo?partnerId=${tree.other}`,
      { cookie: adminCookie },
    );
    expect(answer.code).toBe(200);
    expect(answer.data.partner).toMatchObject({
      id: tree.other,
      level: 1,
      parentId: null,
      parentName: null,
      childCount: 0,
    });
  });
});

describe('addRelationPartnerAccount', () => {
  it('relates a user in scope, gives the partner role, audits; the new staff sees the subtree', async () => {
    const target = await insertUser(t, ['individual']);
    const answer = await post<PartnerAccountData>(
      t,
      `${base}/partneraccount/addRelationPartnerAccount`,
      { partnerId: tree.subA1, userName: target.userName.toUpperCase(), empId: 'GD-0001' },
      { cookie: branchUser.cookie },
    );
    expect(answer.code).toBe(200);
    expect(answer.data).toMatchObject({
      partnerId: tree.subA1,
      userId: target.userId,
      userName: target.userName,
      empId: 'GD-0001',
      self: false,
    });
    expect(await rolesOf(t, target.userId)).toEqual(['individual', 'partner']);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'partner.relationAdd'), eq(auditLog.target, `partner:${tree.subA1}`)));
    expect(audit).toMatchObject({
      userId: branchUser.userId,
      detail: expect.objectContaining({ userId: target.userId, empId: 'GD-0001' }),
    });
    const cookie = await t.login(target.userName);
    const treeAnswer = await get<PartnerTreeNode[]>(t, `${base}/partner/getAllPartnersByEmpId`, { cookie });
    expect(ids(treeAnswer.data)).toEqual([tree.subA1]);
  });

  it('unknown user → 404 at userName; already related → 409 at userName; empId taken → 409 at empId; nothing written', async () => {
    const target = await insertUser(t, ['enterprise']);
    const before = await t.db.select().from(partnerAccounts);
    const unknown = await post(
      t,
      `${base}/partneraccount/addRelationPartnerAccount`,
      { partnerId: tree.subA2, userName: 'nobody_here_1', empId: 'Z1' },
      { cookie: branchUser.cookie },
    );
    expect(unknown).toMatchObject({ code: ApiCode.NOT_FOUND, data: { errors: [{ field: 'userName' }] } });
    const already = await post(
      t,
      `${base}/partneraccount/addRelationPartnerAccount`,
      { partnerId: tree.branchA, userName: branchUser.userName, empId: 'Z2' },
      { cookie: branchUser.cookie },
    );
    expect(already).toMatchObject({ code: ApiCode.CONFLICT, data: { errors: [{ field: 'userName' }] } });
    const taken = await post(
      t,
      `${base}/partneraccount/addRelationPartnerAccount`,
      { partnerId: tree.branchA, userName: target.userName, empId: `E${branchUser.userId}-0` },
      { cookie: branchUser.cookie },
    );
    expect(taken).toMatchObject({ code: ApiCode.CONFLICT, data: { errors: [{ field: 'empId' }] } });
    expect(await t.db.select().from(partnerAccounts)).toEqual(before);
    expect(await rolesOf(t, target.userId)).toEqual(['enterprise']);
  });

  it('out of scope answers the 404 of a missing institution and writes nothing', async () => {
    const target = await insertUser(t);
    const answers = await Promise.all(
      [tree.branchB, tree.head, 2_000_000_000].map((partnerId) =>
        post(
          t,
          `${base}/partneraccount/addRelationPartnerAccount`,
          { partnerId, userName: target.userName, empId: 'Q1' },
          { cookie: branchUser.cookie },
        ),
      ),
    );
    for (const answer of answers) expect(answer).toEqual(answers[2]);
    expect(answers[0]?.code).toBe(ApiCode.NOT_FOUND);
    expect(await relationCount(t, target.userId)).toBe(0);
  });

  it('bad and hostile input → 400 with the field, nothing written', async () => {
    const target = await insertUser(t);
    const cases: Record<string, string | number>[] = [
      { partnerId: tree.subA1, userName: target.userName, empId: '' },
      { partnerId: tree.subA1, userName: target.userName, empId: "1' or '1'='1" },
      { partnerId: tree.subA1, userName: target.userName, empId: 'E'.repeat(33) },
      { partnerId: tree.subA1, userName: '<script>', empId: 'A1' },
      { partnerId: 'x', userName: target.userName, empId: 'A1' },
      { userName: target.userName, empId: 'A1' },
    ];
    for (const body of cases) {
      const answer = await post<{ errors: { field: string }[] }>(
        t,
        `${base}/partneraccount/addRelationPartnerAccount`,
        body,
        { cookie: branchUser.cookie },
      );
      expect(answer.code).toBe(ApiCode.BAD_REQUEST);
      expect(answer.data.errors.length).toBeGreaterThan(0);
    }
    expect(await relationCount(t, target.userId)).toBe(0);
  });

  it('an administrator relates a user to any institution', async () => {
    const target = await insertUser(t);
    const answer = await post<PartnerAccountData>(
      t,
      `${base}/partneraccount/addRelationPartnerAccount`,
      { partnerId: tree.other, userName: target.userName, empId: 'OP1' },
      { cookie: adminCookie },
    );
    expect(answer).toMatchObject({ code: 200, data: { partnerId: tree.other, empId: 'OP1' } });
    expect(await rolesOf(t, target.userId)).toContain('partner');
  });
});

describe('delRelationPartnerAccount', () => {
  async function relate(partnerIds: number[]) {
    const user = await insertPartnerUser(t, partnerIds);
    const rows = await t.db.select().from(partnerAccounts).where(eq(partnerAccounts.userId, user.userId));
    return { ...user, relationIds: rows.map((row) => row.id) };
  }

  it('removes a relation in scope; the role stays while another relation remains, goes with the last; audited', async () => {
    const staff = await relate([tree.subA1, tree.subA2]);
    const first = await post(
      t,
      `${base}/partneraccount/delRelationPartnerAccount`,
      { id: staff.relationIds[0]! },
      { cookie: branchUser.cookie },
    );
    expect(first).toMatchObject({ code: 200, data: {} });
    expect(await rolesOf(t, staff.userId)).toEqual(['partner']);
    await post(
      t,
      `${base}/partneraccount/delRelationPartnerAccount`,
      { id: staff.relationIds[1]! },
      { cookie: branchUser.cookie },
    );
    expect(await relationCount(t, staff.userId)).toBe(0);
    expect(await rolesOf(t, staff.userId)).toEqual(['individual']);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.action, 'partner.relationDelete'));
    expect(audits.filter((row) => (row.detail as { userId?: number }).userId === staff.userId)).toHaveLength(2);
    // The former staff's session lives on, but the partner calls refuse it now.
    expect((await get(t, `${base}/partner/getAllPartnersByEmpId`, { cookie: staff.cookie })).code).toBe(
      ApiCode.FORBIDDEN,
    );
  });

  it('one’s own relation → 409; out of scope and missing → the same 404; nothing removed', async () => {
    const own = await t.db.select().from(partnerAccounts).where(eq(partnerAccounts.userId, branchUser.userId));
    const self = await post(
      t,
      `${base}/partneraccount/delRelationPartnerAccount`,
      { id: own[0]!.id },
      { cookie: branchUser.cookie },
    );
    expect(self.code).toBe(ApiCode.CONFLICT);
    const sibling = await relate([tree.subB1]);
    const outOfScope = await post(
      t,
      `${base}/partneraccount/delRelationPartnerAccount`,
      { id: sibling.relationIds[0]! },
      { cookie: branchUser.cookie },
    );
    const missing = await post(
      t,
      `${base}/partneraccount/delRelationPartnerAccount`,
      { id: 2_000_000_000 },
      { cookie: branchUser.cookie },
    );
    expect(outOfScope).toEqual(missing);
    expect(missing.code).toBe(ApiCode.NOT_FOUND);
    expect(await relationCount(t, branchUser.userId)).toBe(1);
    expect(await relationCount(t, sibling.userId)).toBe(1);
    for (const bad of ['', 'abc', '-3', '1; delete from partner_accounts']) {
      expect(
        (await post(t, `${base}/partneraccount/delRelationPartnerAccount`, { id: bad }, { cookie: branchUser.cookie }))
          .code,
      ).toBe(ApiCode.BAD_REQUEST);
    }
  });

  it('the head office user (whose scope holds the branch) removes a branch relation; an administrator removes any', async () => {
    const staff = await relate([tree.branchB]);
    expect(
      (
        await post(
          t,
          `${base}/partneraccount/delRelationPartnerAccount`,
          { id: staff.relationIds[0]! },
          { cookie: headUser.cookie },
        )
      ).code,
    ).toBe(200);
    const other = await relate([tree.other]);
    expect(
      (
        await post(
          t,
          `${base}/partneraccount/delRelationPartnerAccount`,
          { id: other.relationIds[0]! },
          { cookie: adminCookie },
        )
      ).code,
    ).toBe(200);
  });
});
