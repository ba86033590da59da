/**
 * A known data set for the partner analysis tests, over the partner tests' institution tree
 * (partnerFixtures.ts), with the figures worked out by hand in docs/partner.md's definitions:
 *
 *   subA1: enterprise A1 (created 2025-03-10, certified 2025-03-12)
 *          enterprise A1b created 2026-01-01 00:30 China time (2025-12-31 UTC: China time decides), certified 2026-01-02
 *          order O1 (A1) created 2025-03-15, completed, contract 2025-04 × 12 months, 1200 MWh/year, product id1
 *          order O2 (A1b) created 2026-01-01 00:30 China, in force, contract 2026-02 × 6 months, 2400 MWh/year, product id2
 *          settlements 2025-11, 2025-12, 2026-01 (O1, id1): 100.500 MWh, 40 000.10 元, saving 1 000.05 each
 *                      2026-02 (O2, id2): 200.250 MWh, 80 000.20 元, saving −50.10
 *   subA2: enterprise A2 created 2026-11-05, certified 2026-11-06; order O3 created 2026-11-05, submitted, product id1
 *   branchA: enterprise BA created 2026-02-14 (not certified); order O4 created 2026-02-14, cancelled, product id3
 *   subB1 (the sibling branch): enterprise B1 created 2026-03-01, certified 2026-03-02; order O5 created 2026-03-01,
 *          in force, contract 2026-04 × 12, 600 MWh/year, product id1, area 450000; settlement 2026-04: 50 MWh, 20 000 元, 500
 *   other bank: enterprise X created 2026-03-01, order OX in force, settlement 2026-04 — nobody here sees it.
 */
import { enterprises, orders, settlementMonthly } from '../../src/server/db/schema/index.ts';
import type { MetricValues } from '../../src/lib/schemas/partner.ts';
import type { TestApp } from './harness.ts';
import { insertPartnerTree, insertUser, type PartnerTree } from './partnerFixtures.ts';

/** An instant in China time (UTC+8). */
export function china(local: string): Date {
  return new Date(`${local}+08:00`);
}

let enterpriseCount = 0;

async function insertEnterprise(
  t: TestApp,
  partnerId: number,
  createdAt: Date,
  reviewedAt: Date | null,
): Promise<{ id: number; ownerId: number }> {
  enterpriseCount += 1;
  const owner = await insertUser(t, ['enterprise']);
  const [row] = await t.db
    .insert(enterprises)
    .values({
      ownerUserId: owner.userId,
      enterpriseName: `分析测试企业${enterpriseCount}有限公司`,
      clearanceAccount: `AN${String(enterpriseCount).padStart(8, '0')}${owner.userId}`,
      areaCode: '440000',
      partnerId,
      authStatus: reviewedAt ? 2 : 0,
      reviewedAt,
      createdAt,
    })
    .returning({ id: enterprises.id });
  return { id: row!.id, ownerId: owner.userId };
}

let orderCount = 0;

async function insertPartnerOrder(
  t: TestApp,
  owner: { id: number; ownerId: number },
  partnerId: number,
  values: {
    createdAt: Date;
    status: number;
    contractStart: string;
    contractMonths: number;
    estimated: string;
    productId: string;
    areaCode?: string;
  },
): Promise<number> {
  orderCount += 1;
  const [row] = await t.db
    .insert(orders)
    .values({
      orderNo: `HGD20260101${String(800000 + orderCount)}`,
      enterpriseId: owner.id,
      userId: owner.ownerId,
      areaCode: values.areaCode ?? '440000',
      productId: values.productId,
      setId: 'gd-fixed-2027',
      setName: '2027 年度固定价格套餐',
      sellingSetId: 'gd-fixed-2027-yuehui',
      orgComId: 'yuehui-dianneng',
      orgComName: '粤汇电能售电有限公司',
      partnerId,
      schemeParamId: 'gd-fixed-2027-10kv',
      schemeParam: { schemeParamId: 'gd-fixed-2027-10kv', name: '10千伏用户' },
      contractStart: values.contractStart,
      contractMonths: values.contractMonths,
      estimatedConsumption: values.estimated,
      status: values.status,
      createdAt: values.createdAt,
    })
    .returning({ id: orders.id });
  return row!.id;
}

async function insertMonthly(
  t: TestApp,
  partnerId: number,
  month: string,
  values: { productId: string; areaCode?: string; energy: string; amount: string; saving: string },
): Promise<void> {
  await t.db.insert(settlementMonthly).values({
    partnerId,
    settleMonth: `${month}-01`,
    productId: values.productId,
    areaCode: values.areaCode ?? '440000',
    results: 1,
    settledEnergy: values.energy,
    settledAmount: values.amount,
    saving: values.saving,
  });
}

/** Builds the tree and the data set above; answers the tree. */
export async function insertAnalysisData(t: TestApp): Promise<PartnerTree> {
  const tree = await insertPartnerTree(t);
  const a1 = await insertEnterprise(t, tree.subA1, china('2025-03-10T10:00:00'), china('2025-03-12T10:00:00'));
  const a1b = await insertEnterprise(t, tree.subA1, china('2026-01-01T00:30:00'), china('2026-01-02T09:00:00'));
  const a2 = await insertEnterprise(t, tree.subA2, china('2026-11-05T10:00:00'), china('2026-11-06T10:00:00'));
  const ba = await insertEnterprise(t, tree.branchA, china('2026-02-14T10:00:00'), null);
  const b1 = await insertEnterprise(t, tree.subB1, china('2026-03-01T10:00:00'), china('2026-03-02T10:00:00'));
  const x = await insertEnterprise(t, tree.other, china('2026-03-01T10:00:00'), china('2026-03-02T10:00:00'));

  await insertPartnerOrder(t, a1, tree.subA1, {
    createdAt: china('2025-03-15T10:00:00'),
    status: 40,
    contractStart: '2025-04-01',
    contractMonths: 12,
    estimated: '1200.000',
    productId: 'id1',
  });
  await insertPartnerOrder(t, a1b, tree.subA1, {
    createdAt: china('2026-01-01T00:30:00'),
    status: 30,
    contractStart: '2026-02-01',
    contractMonths: 6,
    estimated: '2400.000',
    productId: 'id2',
  });
  await insertPartnerOrder(t, a2, tree.subA2, {
    createdAt: china('2026-11-05T10:00:00'),
    status: 10,
    contractStart: '2027-01-01',
    contractMonths: 12,
    estimated: '1000.000',
    productId: 'id1',
  });
  await insertPartnerOrder(t, ba, tree.branchA, {
    createdAt: china('2026-02-14T10:00:00'),
    status: 90,
    contractStart: '2026-04-01',
    contractMonths: 12,
    estimated: '900.000',
    productId: 'id3',
  });
  await insertPartnerOrder(t, b1, tree.subB1, {
    createdAt: china('2026-03-01T10:00:00'),
    status: 30,
    contractStart: '2026-04-01',
    contractMonths: 12,
    estimated: '600.000',
    productId: 'id1',
    areaCode: '450000',
  });
  await insertPartnerOrder(t, x, tree.other, {
    createdAt: china('2026-03-01T10:00:00'),
    status: 30,
    contractStart: '2026-04-01',
    contractMonths: 12,
    estimated: '5000.000',
    productId: 'id1',
  });

  for (const month of ['2025-11', '2025-12', '2026-01']) {
    await insertMonthly(t, tree.subA1, month, {
      productId: 'id1',
      energy: '100.500',
      amount: '40000.10',
      saving: '1000.05',
    });
  }
  await insertMonthly(t, tree.subA1, '2026-02', {
    productId: 'id2',
    energy: '200.250',
    amount: '80000.20',
    saving: '-50.10',
  });
  await insertMonthly(t, tree.subB1, '2026-04', {
    productId: 'id1',
    areaCode: '450000',
    energy: '50.000',
    amount: '20000.00',
    saving: '500.00',
  });
  await insertMonthly(t, tree.other, '2026-04', {
    productId: 'id1',
    energy: '9999.000',
    amount: '999999.00',
    saving: '99999.00',
  });
  return tree;
}

export function metrics(values: Partial<MetricValues>): MetricValues {
  return {
    registeredEnterprises: 0,
    certifiedEnterprises: 0,
    orders: 0,
    ordersInForce: 0,
    contractedEnergy: 0,
    settledEnergy: 0,
    settledAmount: 0,
    saving: 0,
    ...values,
  };
}

/** Each institution's own figures (not its descendants') by year, as worked out above. */
export const own2026 = {
  subA1: metrics({
    registeredEnterprises: 1,
    certifiedEnterprises: 1,
    orders: 1,
    ordersInForce: 2,
    contractedEnergy: 1200,
    settledEnergy: 300.75,
    settledAmount: 120000.3,
    saving: 949.95,
  }),
  subA2: metrics({ registeredEnterprises: 1, certifiedEnterprises: 1, orders: 1 }),
  branchA: metrics({ registeredEnterprises: 1, orders: 1 }),
  subB1: metrics({
    registeredEnterprises: 1,
    certifiedEnterprises: 1,
    orders: 1,
    ordersInForce: 1,
    contractedEnergy: 600,
    settledEnergy: 50,
    settledAmount: 20000,
    saving: 500,
  }),
};

export const own2025 = {
  subA1: metrics({
    registeredEnterprises: 1,
    certifiedEnterprises: 1,
    orders: 1,
    ordersInForce: 1,
    contractedEnergy: 1200,
    settledEnergy: 201,
    settledAmount: 80000.2,
    saving: 2000.1,
  }),
};

/** Metric-wise sum, rounded like the service (3 decimals for energy, 2 for money). */
export function sum(...rows: MetricValues[]): MetricValues {
  const total = metrics({});
  for (const row of rows) {
    for (const key of Object.keys(total) as (keyof MetricValues)[]) total[key] += row[key];
  }
  for (const key of ['contractedEnergy', 'settledEnergy'] as const) total[key] = Math.round(total[key] * 1000) / 1000;
  for (const key of ['settledAmount', 'saving'] as const) total[key] = Math.round(total[key] * 100) / 100;
  return total;
}
