/**
 * What the order tests build on: a fixed "today" inside the demo content's selling periods, more
 * enterprise users than the seed has (another enterprise for ownership, an uncertified one, one in
 * another region), a valid order form, and GET calls that carry the CSRF headers.
 */
import { eq, sql } from 'drizzle-orm';
import { vi } from 'vitest';
import { enterprises, orders, orderStatusHistory, users, type UserRole } from '../../src/server/db/schema/index.ts';
import type { Envelope } from './accountCalls.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

/**
 * 2026-11-22 10:00 China time: the Guangdong 2027 selling sets are on sale (from 2026-10-15 or
 * 2026-11-01), so a contract may start from 2026-12 to 2027-11. Only Date is faked: the database
 * and its timers run as usual.
 */
export const fixedNow = new Date('2026-11-22T02:00:00Z');

export function freezeDate(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(fixedNow);
}

export function thawDate(): void {
  vi.useRealTimers();
}

/** A test app whose clock (Date only) stands at `fixedNow` until it is closed. */
export async function createOrderTestApp(): Promise<TestApp> {
  freezeDate();
  const t = await createTestApp();
  return {
    ...t,
    close: async () => {
      await t.close();
      thawDate();
    },
  };
}

/** A form the demo enterprise (10 kV, Guangdong) may submit on `fixedNow`. */
export const goodOrder = {
  sellingSetId: 'gd-fixed-2027-yuehui',
  schemeParamId: 'gd-fixed-2027-10kv',
  contractStart: '2027-01',
  contractMonths: 12,
  estimatedConsumption: 8600,
} as const;

export interface EnterpriseUserOptions {
  userName: string;
  mobile: string;
  authStatus?: number;
  areaCode?: string;
  voltageLevel?: string;
  industry?: string;
  roles?: UserRole[];
}

/** A user with an enterprise, signed in. */
export interface EnterpriseUser {
  userId: number;
  enterpriseId: number;
  cookie: string;
}

/** Inserts a user with an enterprise; answers its ids and a session cookie. */
export async function addEnterpriseUser(t: TestApp, options: EnterpriseUserOptions): Promise<EnterpriseUser> {
  const [user] = await t.db
    .insert(users)
    .values({
      userName: options.userName,
      mobile: options.mobile,
      name: '测试用户',
      // Never used to log in: the tests create sessions directly.
      passwordHash: 'not-a-password-hash',
      roles: options.roles ?? ['enterprise'],
    })
    .returning({ id: users.id });
  const [enterprise] = await t.db
    .insert(enterprises)
    .values({
      ownerUserId: user!.id,
      enterpriseName: `${options.userName} 有限公司`,
      clearanceAccount: `CA${options.mobile}`,
      areaCode: options.areaCode ?? '440000',
      voltageLevel: options.voltageLevel ?? 'kv10',
      industry: options.industry ?? 'C',
      authStatus: options.authStatus ?? 2,
    })
    .returning({ id: enterprises.id });
  return { userId: user!.id, enterpriseId: enterprise!.id, cookie: await t.login(options.userName) };
}

/** A GET as the browser client sends it (X-Requested-With and a same-origin Origin). */
export async function getWithHeaders<T = Record<string, unknown>>(
  t: TestApp,
  path: string,
  cookie?: string,
  headers: Record<string, string> = apiHeaders(),
): Promise<Envelope<T>> {
  const response = await t.app.request(path, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } });
  return (await response.json()) as Envelope<T>;
}

/** The order row and its history, straight from the database. */
export async function orderRow(t: TestApp, orderNo: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.orderNo, orderNo));
  if (!row) throw new Error(`no order ${orderNo}`);
  const history = await t.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, row.id));
  return { ...row, history };
}

let inserted = 0;

/**
 * Inserts an order straight into the table in any status (with its creation history entry), as
 * the state-machine tests need every starting state. Numbers start at 900000 of the fixed day so
 * they never meet the sequence's.
 */
export async function insertOrder(
  t: TestApp,
  owner: Pick<EnterpriseUser, 'userId' | 'enterpriseId'>,
  values: {
    status?: number;
    contractStart?: string;
    contractMonths?: number;
    deletedAt?: Date | null;
    createdAt?: Date;
    setName?: string;
  } = {},
): Promise<string> {
  inserted += 1;
  const orderNo = `HGD20261122${String(900000 + inserted)}`;
  const [row] = await t.db
    .insert(orders)
    .values({
      orderNo,
      enterpriseId: owner.enterpriseId,
      userId: owner.userId,
      areaCode: '440000',
      productId: 'id1',
      setId: 'gd-fixed-2027',
      setName: values.setName ?? '2027 年度固定价格套餐',
      sellingSetId: 'gd-fixed-2027-yuehui',
      orgComId: 'yuehui-dianneng',
      orgComName: '粤汇电能售电有限公司',
      schemeParamId: 'gd-fixed-2027-10kv',
      schemeParam: {
        schemeParamId: 'gd-fixed-2027-10kv',
        name: '10千伏用户',
        priceType: 'energyPrice',
        energyPrice: 0.392,
        contractMonths: [12],
        voltageLevels: ['kv10'],
        consumptionMin: 1000,
      },
      contractStart: values.contractStart ?? '2027-01-01',
      contractMonths: values.contractMonths ?? 12,
      estimatedConsumption: '8600.000',
      status: values.status ?? 10,
      deletedAt: values.deletedAt ?? null,
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
    })
    .returning({ id: orders.id });
  await t.db
    .insert(orderStatusHistory)
    .values({ orderId: row!.id, fromStatus: null, toStatus: 10, actorRole: 'enterprise', actorUserId: owner.userId });
  return orderNo;
}

/** Rows that a change writes, to prove a refused one wrote none. */
export async function footprint(t: TestApp, orderNo: string) {
  const row = await orderRow(t, orderNo);
  const [counts] = await t.db
    .select({
      notices: sql<number>`(select count(*)::int from notices where ref = ${`order:${orderNo}`})`,
      audit: sql<number>`(select count(*)::int from audit_log where target = ${`order:${orderNo}`})`,
    })
    .from(sql`(select 1) as one`);
  return {
    status: row.status,
    statusReason: row.statusReason,
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt,
    history: row.history.length,
    notices: Number(counts?.notices ?? 0),
    audit: Number(counts?.audit ?? 0),
  };
}
