/**
 * What the partner tests build on: a small institution tree of their own (codes starting `T9`, so
 * they never meet the demo seed's), staff users related to its nodes, and helpers that read the
 * tree back. The tree:
 *
 *   head (总行) ─┬─ branchA (分行) ─┬─ subA1 (支行)
 *                │                  └─ subA2 (支行)
 *                └─ branchB (分行) ─── subB1 (支行)
 *   other (a second head office, nobody in these tests is related to it)
 */
import { eq, sql } from 'drizzle-orm';
import {
  enterprises,
  orders,
  partnerAccounts,
  partnerInstitutions,
  settlementResults,
  users,
  type UserRole,
} from '../../src/server/db/schema/index.ts';
import type { TestApp } from './harness.ts';

export interface PartnerTree {
  head: number;
  branchA: number;
  branchB: number;
  subA1: number;
  subA2: number;
  subB1: number;
  other: number;
}

let trees = 0;

/** Inserts one institution under `parentId` and sets its materialised path from the parent's. */
export async function insertInstitution(
  t: TestApp,
  values: {
    code: string;
    name: string;
    parentId?: number | null;
    areaCode?: string | null;
    address?: string;
    phone?: string;
    contactName?: string;
  },
): Promise<number> {
  const parentId = values.parentId ?? null;
  const [parent] =
    parentId === null ? [] : await t.db.select().from(partnerInstitutions).where(eq(partnerInstitutions.id, parentId));
  const level = parent ? parent.level + 1 : 1;
  const [row] = await t.db
    .insert(partnerInstitutions)
    .values({
      code: values.code,
      name: values.name,
      parentId,
      level,
      // Unique and replaced at once: the real path needs the new id.
      path: `pending-${values.code}`,
      areaCode: values.areaCode ?? (level === 1 ? null : '440000'),
      address: values.address ?? '广州市天河区天河路 1 号',
      phone: values.phone ?? '020-12345678',
      contactName: values.contactName ?? '张经理',
    })
    .returning({ id: partnerInstitutions.id });
  const id = row!.id;
  await t.db
    .update(partnerInstitutions)
    .set({ path: `${parent ? parent.path : '/'}${id}/` })
    .where(eq(partnerInstitutions.id, id));
  return id;
}

/** A fresh tree (new codes each call, so one file may build several). */
export async function insertPartnerTree(t: TestApp): Promise<PartnerTree> {
  trees += 1;
  const prefix = `T9${String(trees).padStart(2, '0')}`;
  const head = await insertInstitution(t, { code: `${prefix}000`, name: `测试银行${trees}总行` });
  const branchA = await insertInstitution(t, {
    code: `${prefix}100`,
    name: `测试银行${trees}广东省分行`,
    parentId: head,
    areaCode: '440000',
  });
  const branchB = await insertInstitution(t, {
    code: `${prefix}200`,
    name: `测试银行${trees}广西区分行`,
    parentId: head,
    areaCode: '450000',
  });
  const subA1 = await insertInstitution(t, {
    code: `${prefix}110`,
    name: `测试银行${trees}广州天河支行`,
    parentId: branchA,
    areaCode: '440000',
  });
  const subA2 = await insertInstitution(t, {
    code: `${prefix}120`,
    name: `测试银行${trees}深圳南山支行`,
    parentId: branchA,
    areaCode: '440000',
  });
  const subB1 = await insertInstitution(t, {
    code: `${prefix}210`,
    name: `测试银行${trees}南宁青秀支行`,
    parentId: branchB,
    areaCode: '450000',
  });
  const other = await insertInstitution(t, { code: `${prefix}900`, name: `测试另一银行${trees}总行` });
  return { head, branchA, branchB, subA1, subA2, subB1, other };
}

let staff = 0;

/** A user with the given roles (not able to log in by password: tests create sessions directly). */
export async function insertUser(
  t: TestApp,
  roles: UserRole[] = ['individual'],
  userName?: string,
): Promise<{ userId: number; userName: string }> {
  staff += 1;
  const name = userName ?? `staff_t9_${staff}`;
  const [row] = await t.db
    .insert(users)
    .values({
      userName: name,
      mobile: `1390000${String(staff).padStart(4, '0')}`,
      name: `员工${staff}`,
      passwordHash: 'not-a-password-hash',
      roles,
    })
    .returning({ id: users.id });
  return { userId: row!.id, userName: name };
}

/** A partner user related to `partnerIds` (empIds E<n>-<i>), signed in. */
export async function insertPartnerUser(
  t: TestApp,
  partnerIds: number[],
): Promise<{ userId: number; userName: string; cookie: string }> {
  const user = await insertUser(t, ['partner']);
  for (const [index, partnerId] of partnerIds.entries()) {
    await t.db.insert(partnerAccounts).values({ userId: user.userId, partnerId, empId: `E${user.userId}-${index}` });
  }
  return { ...user, cookie: await t.login(user.userName) };
}

/** The roles of a user, read back. */
export async function rolesOf(t: TestApp, userId: number): Promise<UserRole[]> {
  const [row] = await t.db.select({ roles: users.roles }).from(users).where(eq(users.id, userId));
  return row?.roles ?? [];
}

/** The number of relations of a user. */
export async function relationCount(t: TestApp, userId: number): Promise<number> {
  const [row] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(partnerAccounts)
    .where(eq(partnerAccounts.userId, userId));
  return Number(row?.n ?? 0);
}

let settledOrders = 0;

/** A settlement row's money from its energy and prices, as the importer computes it (docs/partner.md). */
export function settlementMoney(
  energy: number,
  contractPrice: number,
  marketPrice: number,
): { settledAmount: number; saving: number } {
  const cents = (value: number) => Math.round(value * 100) / 100;
  return {
    settledAmount: cents(energy * 1000 * contractPrice),
    saving: cents(energy * 1000 * (marketPrice - contractPrice)),
  };
}

/**
 * An enterprise referred by `partnerId` with one order in force (contract 2026-01, 12 months)
 * and a settlement row for each of `months` (status 2 unless told). Answers the order and rows.
 */
export async function insertSettledOrder(
  t: TestApp,
  partnerId: number | null,
  months: readonly string[],
  options: {
    enterpriseName?: string;
    status?: 1 | 2;
    orderStatus?: number;
    contractStart?: string;
    contractMonths?: number;
  } = {},
): Promise<{ orderId: number; orderNo: string; enterpriseId: number; rows: number[] }> {
  settledOrders += 1;
  const n = settledOrders;
  const user = await insertUser(t, ['enterprise'], `settled_t9_${n}`);
  const [enterprise] = await t.db
    .insert(enterprises)
    .values({
      ownerUserId: user.userId,
      enterpriseName: options.enterpriseName ?? `结算测试企业${n}有限公司`,
      clearanceAccount: `ST${String(n).padStart(10, '0')}`,
      areaCode: '440000',
      voltageLevel: 'kv10',
      industry: 'C',
      authStatus: 2,
      partnerId,
    })
    .returning({ id: enterprises.id });
  const enterpriseId = enterprise!.id;
  const orderNo = `HGD20260101${String(700000 + n)}`;
  const [order] = await t.db
    .insert(orders)
    .values({
      orderNo,
      enterpriseId,
      userId: user.userId,
      partnerId,
      areaCode: '440000',
      productId: 'id1',
      setId: 'gd-fixed-2026',
      setName: '2026 年度固定价格套餐',
      sellingSetId: 'gd-fixed-2026-yuehui',
      orgComId: 'yuehui-dianneng',
      orgComName: '粤汇电能售电有限公司',
      schemeParamId: 'gd-fixed-2026-10kv',
      schemeParam: {
        schemeParamId: 'gd-fixed-2026-10kv',
        name: '10千伏用户',
        priceType: 'energyPrice',
        energyPrice: 0.392,
        contractMonths: [12],
        voltageLevels: ['kv10'],
        consumptionMin: 1000,
      },
      contractStart: options.contractStart ?? '2026-01-01',
      contractMonths: options.contractMonths ?? 12,
      estimatedConsumption: '8600.000',
      status: options.orderStatus ?? 30,
    })
    .returning({ id: orders.id });
  const rows: number[] = [];
  for (const [index, month] of months.entries()) {
    const settledEnergy = Number((100 + n * 7.125 + index * 3.5).toFixed(3));
    const contractPrice = 0.392;
    const marketPrice = 0.41537;
    const money = settlementMoney(settledEnergy, contractPrice, marketPrice);
    const [row] = await t.db
      .insert(settlementResults)
      .values({
        orderId: order!.id,
        enterpriseId,
        partnerId,
        areaCode: '440000',
        productId: 'id1',
        settleMonth: `${month}-01`,
        settledEnergy: settledEnergy.toFixed(3),
        contractPrice: contractPrice.toFixed(5),
        marketPrice: marketPrice.toFixed(5),
        settledAmount: money.settledAmount.toFixed(2),
        saving: money.saving.toFixed(2),
        status: options.status ?? 2,
      })
      .returning({ id: settlementResults.id });
    rows.push(row!.id);
  }
  return { orderId: order!.id, orderNo, enterpriseId, rows };
}
