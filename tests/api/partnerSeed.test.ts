/**
 * The partner demo data (seed/demoPartners.ts): the institution tree, the demo staff relations,
 * demo_company's referral, the generated enterprises with their orders and settlement results,
 * the formulas those rows follow and the roll-up that must equal them; and the generator's
 * determinism, which the bench and any test relying on the demo depend on.
 */
import { eq, sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getSet, getSellingSet } from '../../src/content/query.ts';
import { isValidCreditCode } from '../../src/lib/creditCode.ts';
import { addMonths, chinaMonth } from '../../src/lib/schemas/order.ts';
import { rowsOf, type Database } from '../../src/server/db/client.ts';
import {
  demoEnterpriseCount,
  demoInstitutionTree,
  demoPartnerCodes,
  demoPartnerRelations,
  generatePartnerVolume,
  settlementWindow,
} from '../../src/server/seed/demoPartners.ts';
import { enterprises, orders, partnerAccounts, partnerInstitutions, users } from '../../src/server/db/schema/index.ts';
import { demoAccounts } from '../../src/server/seed/seed.ts';
import { contentStore } from '../../src/server/services/contentStore.ts';
import { verifyPassword } from '../../src/server/password.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(createTestApp);

async function rows<T = Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

async function institutionsByCode() {
  const all = await t.db.select().from(partnerInstitutions);
  return new Map(all.map((row) => [row.code, row]));
}

describe('partner demo: institutions and relations', () => {
  it('has the demo tree with consistent levels, parents, paths and provinces', async () => {
    const byCode = await institutionsByCode();
    const byId = new Map([...byCode.values()].map((row) => [row.id, row]));
    let count = 0;
    const check = (spec: (typeof demoInstitutionTree)[number], parentCode: string | null, level: number) => {
      count += 1;
      const row = byCode.get(spec.code);
      expect(row, spec.code).toBeDefined();
      expect(row).toMatchObject({
        name: spec.name,
        level,
        areaCode: spec.areaCode,
        address: spec.address,
        phone: spec.phone,
        contactName: spec.contactName,
      });
      const parent = parentCode === null ? undefined : byCode.get(parentCode);
      expect(row!.parentId).toBe(parent?.id ?? null);
      expect(row!.path).toBe(`${parent?.path ?? '/'}${row!.id}/`);
      // A branch and its sub-branches serve one province.
      if (parent && parent.level > 1) expect(row!.areaCode).toBe(parent.areaCode);
      for (const child of spec.children ?? []) check(child, spec.code, level + 1);
    };
    for (const root of demoInstitutionTree) check(root, null, 1);
    expect(count).toBe(29);
    const icbc = byCode.get(demoPartnerCodes.icbc)!;
    const branches = [...byCode.values()].filter((row) => row.parentId === icbc.id);
    expect(branches.map((row) => row.areaCode).sort()).toEqual(['440000', '450000', '460000', '520000', '530000']);
    for (const branch of branches) {
      const subs = [...byCode.values()].filter((row) => row.parentId === branch.id);
      expect(subs.length, branch.name).toBeGreaterThanOrEqual(3);
      expect(subs.length, branch.name).toBeLessThanOrEqual(5);
      expect(subs.every((row) => row.name.endsWith('支行') && /^\d{10}$/.test(row.code))).toBe(true);
    }
    expect(byId.get(byCode.get(demoPartnerCodes.icbcTianhe)!.parentId!)?.code).toBe(demoPartnerCodes.icbcGuangdong);
  });

  it('relates demo_partner to ICBC Guangdong and demo_bank to the ICBC head office, both partners who can log in', async () => {
    const byCode = await institutionsByCode();
    for (const relation of demoPartnerRelations) {
      const [user] = await t.db.select().from(users).where(eq(users.userName, relation.userName));
      expect(user?.roles).toEqual(['partner']);
      const related = await t.db.select().from(partnerAccounts).where(eq(partnerAccounts.userId, user!.id));
      expect(related.map((row) => [row.partnerId, row.empId])).toEqual([
        [byCode.get(relation.code)!.id, relation.empId],
      ]);
      const account = demoAccounts.find((a) => a.userName === relation.userName);
      expect(await verifyPassword(user!.passwordHash, account!.password)).toBe(true);
    }
    expect(demoAccounts.find((a) => a.userName === 'demo_bank')).toMatchObject({
      password: 'Bank2025',
      role: 'partner',
    });
  });
});

describe('partner demo: referred enterprises and orders', () => {
  it("refers demo_company's enterprise and all its orders to 广州天河支行", async () => {
    const tianhe = (await institutionsByCode()).get(demoPartnerCodes.icbcTianhe)!;
    const [owner] = await t.db.select().from(users).where(eq(users.userName, 'demo_company'));
    const [enterprise] = await t.db.select().from(enterprises).where(eq(enterprises.ownerUserId, owner!.id));
    expect(enterprise?.partnerId).toBe(tianhe.id);
    const own = await t.db.select().from(orders).where(eq(orders.enterpriseId, enterprise!.id));
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((order) => order.partnerId === tianhe.id)).toBe(true);
  });

  it('generates the enterprises over every sub-branch of the demo tree, in its province, with owners who cannot log in', async () => {
    const generated = await rows<{
      id: number;
      partner_id: number;
      area_code: string;
      inst_area: string;
      level: number;
      credit_code: string | null;
      auth_status: number;
      password_hash: string;
      reviewed_at: string | null;
    }>(
      t.db,
      sql`select e.id, e.partner_id, e.area_code, p.area_code as inst_area, p.level, e.credit_code, e.auth_status, u.password_hash, e.reviewed_at
          from enterprises e join users u on u.id = e.owner_user_id join partner_institutions p on p.id = e.partner_id
          where u.user_name like 'demo\\_ent\\_%'`,
    );
    expect(generated).toHaveLength(demoEnterpriseCount);
    const subBranches = (await t.db.select().from(partnerInstitutions)).filter((row) => row.level === 3);
    expect(new Set(generated.map((row) => row.partner_id))).toEqual(new Set(subBranches.map((row) => row.id)));
    for (const row of generated) {
      expect(row.area_code).toBe(row.inst_area);
      expect(row.password_hash.startsWith('!')).toBe(true);
      expect(await verifyPassword(row.password_hash, 'anything1')).toBe(false);
      // Certified or not started; none under review (the operator's queue holds the seed's two).
      expect([0, 2]).toContain(row.auth_status);
      if (row.auth_status === 2) {
        expect(isValidCreditCode(row.credit_code ?? ''), row.credit_code ?? 'null').toBe(true);
        expect(row.reviewed_at).not.toBeNull();
      }
    }
    expect(generated.filter((row) => row.auth_status === 2).length).toBeGreaterThan(demoEnterpriseCount / 2);
  });

  it('gives their orders the enterprise’s institution and province, of real offers, placed after certification', async () => {
    const generated = await rows<{
      partner_id: number;
      e_partner: number;
      area_code: string;
      e_area: string;
      selling_set_id: string;
      set_id: string;
      scheme_param_id: string;
      contract_months: number;
      status: number;
      placed_after: boolean;
    }>(
      t.db,
      sql`select o.partner_id, e.partner_id as e_partner, o.area_code, e.area_code as e_area, o.selling_set_id, o.set_id, o.scheme_param_id,
                 o.contract_months, o.status, o.created_at > e.reviewed_at as placed_after
          from orders o join enterprises e on e.id = o.enterprise_id join users u on u.id = e.owner_user_id
          where u.user_name like 'demo\\_ent\\_%'`,
    );
    expect(generated.length).toBeGreaterThan(demoEnterpriseCount / 2);
    const content = contentStore.current();
    for (const order of generated) {
      expect(order.partner_id).toBe(order.e_partner);
      expect(order.area_code).toBe(order.e_area);
      expect(order.placed_after).toBe(true);
      expect(getSellingSet(content, order.selling_set_id)?.areaCode).toBe(order.area_code);
      const param = getSet(content, order.set_id)?.schemeParams.find((p) => p.schemeParamId === order.scheme_param_id);
      expect(param?.contractMonths).toContain(order.contract_months);
    }
    const statuses = new Set(generated.map((order) => order.status));
    expect(statuses.has(30) && statuses.has(40)).toBe(true);
  });
});

describe('partner demo: settlement results and roll-up', () => {
  it('settles every in-force or completed order for each of its contract months in the 24 months up to last month, and nothing else', async () => {
    const window = settlementWindow();
    const current = chinaMonth();
    expect(window.last).toBe(addMonths(current, -1));
    expect(window.first).toBe(addMonths(current, -24));
    // Expected (order, month) pairs from the orders themselves, against the rows written.
    const [diff] = await rows<{ missing: number; extra: number; total: number }>(
      t.db,
      sql`with expected as (
            select o.id as order_id, m::date as settle_month
            from orders o
            cross join generate_series(greatest(o.contract_start, ${`${window.first}-01`}::date)::timestamp,
                                       least((o.contract_start + make_interval(months => o.contract_months - 1))::date, ${`${window.last}-01`}::date)::timestamp,
                                       interval '1 month') m
            where o.status in (30, 40)
          )
          select (select count(*) from expected e where not exists (select 1 from settlement_results s where s.order_id = e.order_id and s.settle_month = e.settle_month))::int4 as missing,
                 (select count(*) from settlement_results s where not exists (select 1 from expected e where s.order_id = e.order_id and s.settle_month = e.settle_month))::int4 as extra,
                 (select count(*) from settlement_results)::int4 as total`,
    );
    expect(diff).toEqual({ missing: 0, extra: 0, total: expect.any(Number) });
    expect(diff!.total).toBeGreaterThan(300);
    // demo_company's in-force and completed orders are among them.
    const [company] = await rows<{ n: number }>(
      t.db,
      sql`select count(*)::int4 as n from settlement_results s join enterprises e on e.id = s.enterprise_id join users u on u.id = e.owner_user_id where u.user_name = 'demo_company'`,
    );
    expect(company!.n).toBeGreaterThan(0);
  });

  it('follows the formulas: amount and saving from energy and prices, copies of the order, last month provisional', async () => {
    const window = settlementWindow();
    const [bad] = await rows<Record<string, number>>(
      t.db,
      sql`select
            count(*) filter (where s.settled_amount <> round(s.settled_energy * 1000 * s.contract_price, 2))::int4 as amount,
            count(*) filter (where s.saving <> round(s.settled_energy * 1000 * (s.market_price - s.contract_price), 2))::int4 as saving,
            count(*) filter (where s.partner_id is distinct from o.partner_id or s.enterprise_id <> o.enterprise_id
                               or s.area_code <> o.area_code or s.product_id <> o.product_id)::int4 as copied,
            count(*) filter (where (s.status = 1) <> (s.settle_month = ${`${window.last}-01`}::date))::int4 as status,
            count(*) filter (where s.settled_energy <= 0 or s.contract_price <= 0 or s.market_price <= 0)::int4 as positive,
            count(*) filter (where s.created_at > now())::int4 as future
          from settlement_results s join orders o on o.id = s.order_id`,
    );
    expect(bad).toEqual({ amount: 0, saving: 0, copied: 0, status: 0, positive: 0, future: 0 });
    const [statuses] = await rows<{ provisional: number; final: number }>(
      t.db,
      sql`select count(*) filter (where status = 1)::int4 as provisional, count(*) filter (where status = 2)::int4 as final from settlement_results`,
    );
    expect(statuses!.provisional).toBeGreaterThan(0);
    expect(statuses!.final).toBeGreaterThan(statuses!.provisional);
  });

  it('has a roll-up equal to the rows summed per institution, month, product and province', async () => {
    const [diff] = await rows<{ differing: number; monthly: number }>(
      t.db,
      sql`with summed as (
            select partner_id, settle_month, product_id, area_code, count(*)::int4 as results,
                   sum(settled_energy) as settled_energy, sum(settled_amount) as settled_amount, sum(saving) as saving
            from settlement_results where partner_id is not null
            group by partner_id, settle_month, product_id, area_code
          )
          select count(*)::int4 as differing, (select count(*)::int4 from settlement_monthly) as monthly
          from summed s full join settlement_monthly m
            on m.partner_id = s.partner_id and m.settle_month = s.settle_month and m.product_id = s.product_id and m.area_code = s.area_code
          where s.partner_id is null or m.partner_id is null or m.results <> s.results or m.settled_energy <> s.settled_energy
             or m.settled_amount <> s.settled_amount or m.saving <> s.saving`,
    );
    expect(diff!.differing).toBe(0);
    expect(diff!.monthly).toBeGreaterThan(0);
  });
});

describe('the generator', () => {
  it('writes the same rows for the same size, seed and date, whatever ids the database hands out', async () => {
    const now = new Date('2026-06-15T04:00:00Z');
    // The demo sub-branches, with the cities the generator names enterprises after.
    const cities = new Map(
      demoInstitutionTree.flatMap((root) =>
        (root.children ?? []).flatMap((branch) => (branch.children ?? []).map((sub) => [sub.code, sub.city] as const)),
      ),
    );
    const subBranches = (await t.db.select().from(partnerInstitutions))
      .filter((row) => cities.has(row.code))
      .map((row) => ({ id: row.id, areaCode: row.areaCode, city: cities.get(row.code)! }));
    expect(subBranches).toHaveLength(21);
    const digest = (db: Database, prefix: string) =>
      rows<{ digest: string; n: number }>(
        db,
        sql`select md5(string_agg(concat_ws('|', e.enterprise_name, e.partner_id, o.contract_start, o.contract_months, o.status, o.estimated_consumption,
                                             s.settle_month, s.settled_energy, s.contract_price, s.market_price, s.settled_amount, s.saving, s.status),
                                   ',' order by e.clearance_account, o.contract_start, s.settle_month)) as digest,
                   count(*)::int4 as n
            from settlement_results s join orders o on o.id = s.order_id join enterprises e on e.id = o.enterprise_id
            join users u on u.id = e.owner_user_id
            where u.user_name like ${`${prefix}%`}`,
      );
    const options = { enterprises: 12, referrers: subBranches, operatorId: null, now, seed: 7 };
    await expect(
      t.db.transaction(async (tx) => {
        const first = await generatePartnerVolume(tx, contentStore.current(), {
          ...options,
          userPrefix: 'gen_a_',
          mobilePrefix: '1360000',
          accountPrefix: '0398',
        });
        const second = await generatePartnerVolume(tx, contentStore.current(), {
          ...options,
          userPrefix: 'gen_b_',
          mobilePrefix: '1360001',
          accountPrefix: '0399',
        });
        expect(second).toEqual(first);
        expect(first.settlements).toBeGreaterThan(0);
        expect(first.months).toEqual(settlementWindow(now).months);
        const [a] = await digest(tx, 'gen\\_a\\_');
        const [b] = await digest(tx, 'gen\\_b\\_');
        expect(a!.n).toBe(first.settlements);
        expect(b).toEqual(a);
        tx.rollback();
      }),
      // Rolled back on purpose (a failed expectation would reject with its own error).
    ).rejects.toThrow(TransactionRollbackError);
  });
});
