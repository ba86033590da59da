/**
 * The partner analysis' shared roll-up (docs/partner.md, Analysis): periods and their windows,
 * every metric aggregated per institution in one statement, and the subtree sums over the
 * institutions' materialised paths; statistics.ts, comparison.ts and trend.ts build their tables on
 * it — POST getStaDataAntTable / getCompareDataAntTable / getTrendDataAntTable and their exports.
 *
 * How it stays fast with a million settlement rows: every metric is first aggregated per
 * institution (or per institution and class, or per period) in one statement that reads the
 * monthly roll-up `settlement_monthly` and counts enterprises and orders through their
 * `(partner_id, created_at)` indexes. That answer has at most one row per institution; the
 * subtree sums (an institution's figures include its descendants') are then added up over it
 * through each institution's materialised `path`. The table engine finally pages, sorts, filters
 * and searches a derived `from` that holds those few rows as bound arrays (`unnest`), so its page
 * and count queries never touch the large tables again.
 */
import { sql, type SQL } from 'drizzle-orm';
import { chinaOffset } from '../../../lib/chinaTime.ts';
import { currentPeriod, partnerMetrics, periodDays, type PartnerMetric, type YearType } from '../../../lib/partner.ts';
import type { MetricValues } from '../../../lib/schemas/partner.ts';
import { rowsOf, type Database } from '../../db/client.ts';
import type { ColumnDefinition } from '../../table/antTable.ts';

/* ------------------------------------------------------------------ periods */

/* China is UTC+8 all year: a period's days start at 00:00 there (chinaOffset, src/lib/chinaTime.ts). */

/** What a period covers: instants for timestamps, days for dates (both half-open). */
export interface AnalysisWindow {
  /** ISO instants: `[startAt, nextAt)`. */
  startAt: string;
  nextAt: string;
  /** Calendar days `YYYY-MM-DD`: `[startDay, nextDay)`. */
  startDay: string;
  nextDay: string;
}

/** The window from the first day of `from` to the end of `to` (the same period for one). */
export function windowOf(yearType: YearType, from: string, to: string = from): AnalysisWindow {
  const startDay = periodDays(yearType, from).start;
  const nextDay = periodDays(yearType, to).next;
  return {
    startAt: new Date(`${startDay}T00:00:00${chinaOffset}`).toISOString(),
    nextAt: new Date(`${nextDay}T00:00:00${chinaOffset}`).toISOString(),
    startDay,
    nextDay,
  };
}

/** How many periods a trend shows when the caller gives no start: 5 years, 12 months, 30 days. */
export const trendDefaultBuckets: Record<YearType, number> = { 1: 5, 2: 12, 3: 30 };

/** The period `steps` periods before `period` at its granularity (`2026-01` − 2 months = `2025-11`). */
export function periodBefore(yearType: YearType, period: string, steps: number): string {
  const [year, month = 1, day = 1] = period.split('-').map(Number) as [number, number?, number?];
  if (yearType === 1) return String(year - steps);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (yearType === 2) {
    const date = new Date(Date.UTC(year, month - 1 - steps, 1));
    return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`;
  }
  const date = new Date(Date.UTC(year, month - 1, day - steps));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/**
 * The period a one-period page opens on when it names none: the latest one, at its granularity
 * and no later than the current one, that holds settlements of `ids` — by year or month. The
 * current month has no settlements until the month after it (they are imported then), so
 * opening on it would chart nothing while the table showed its orders. By day the current day
 * (a month's settlement counts on its first day only, so "the latest day with settlements"
 * would mean nothing to a reader); with no settlement at all, the current period too.
 * One backward index step per institution (`settlement_monthly (partner_id, settle_month)`).
 */
export async function defaultPeriod(
  db: Database,
  ids: readonly number[],
  yearType: YearType,
  now: Date = new Date(),
): Promise<string> {
  const current = currentPeriod(yearType, now);
  if (yearType === 3 || !ids.length) return current;
  const nextMonth = periodDays(2, currentPeriod(2, now)).next;
  const [row] = rowsOf(
    await db.execute(sql`
      select to_char(max(latest.settle_month), 'YYYY-MM') as month
      from unnest(${idArray(ids)}) as scope(id)
      cross join lateral (
        select settle_month from settlement_monthly
        where partner_id = scope.id and settle_month < ${nextMonth}::date
        order by settle_month desc limit 1
      ) latest`),
  );
  const month = row?.['month'];
  if (typeof month !== 'string' || !month) return current;
  return yearType === 1 ? month.slice(0, 4) : month;
}

/** The day after the contract's last month: `2027-01-01` + 12 months → `2028-01-01`. */
export function contractEnd(contractStart: string, months: number): string {
  const [year, month] = contractStart.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(year, month - 1 + months, 1));
  return `${end.getUTCFullYear()}-${String(end.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/* ------------------------------------------------------------------ numbers and bound arrays */

const decimals: Record<PartnerMetric, number> = {
  registeredEnterprises: 0,
  certifiedEnterprises: 0,
  orders: 0,
  ordersInForce: 0,
  contractedEnergy: 3,
  settledEnergy: 3,
  settledAmount: 2,
  saving: 2,
};

/** Sums of decimals in binary floating point drift (0.1 + 0.2): every sum is rounded back to its unit. */
export function rounded(metric: PartnerMetric, value: number): number {
  const factor = 10 ** decimals[metric];
  const result = Math.round(value * factor) / factor;
  return Object.is(result, -0) ? 0 : result;
}

export function zeroMetrics(): MetricValues {
  return Object.fromEntries(partnerMetrics.map((metric) => [metric, 0])) as MetricValues;
}

/** `into += from` for the given metrics, rounded to each metric's unit. */
export function addInto<M extends PartnerMetric>(
  into: Record<M, number>,
  from: Partial<Record<M, number>>,
  metrics: readonly M[],
): void {
  for (const metric of metrics) into[metric] = rounded(metric, into[metric] + (from[metric] ?? 0));
}

/**
 * A bound array parameter, sent as PostgreSQL's array literal text with an explicit cast (the
 * same on postgres-js and PGlite, like every value the table engine binds). The elements are
 * numbers the service computed, or texts quoted here.
 */
export function intArray(values: readonly number[]): SQL {
  return sql`${`{${values.map((value) => String(Math.trunc(value))).join(',')}}`}::int8[]`;
}

/** Institution ids as `int4[]`, the columns' own type: `partner_id = any(…)` compares without a cast per row. */
export function idArray(ids: readonly number[]): SQL {
  return sql`${`{${ids.map((id) => String(Math.trunc(id))).join(',')}}`}::int4[]`;
}

function numericArray(values: readonly number[], places: number): SQL {
  return sql`${`{${values.map((value) => value.toFixed(places)).join(',')}}`}::numeric[]`;
}

export function textArray(values: readonly string[]): SQL {
  const quoted = values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`);
  return sql`${`{${quoted.join(',')}}`}::text[]`;
}

function metricArray(metric: PartnerMetric, values: readonly number[]): SQL {
  return decimals[metric] === 0 ? intArray(values) : numericArray(values, decimals[metric]);
}

export function numberOf(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/* ------------------------------------------------------------------ institutions */

export interface InstitutionNode {
  id: number;
  path: string;
}

/** The id and path of each institution in `ids`. */
export async function institutionsOf(db: Database, ids: readonly number[]): Promise<InstitutionNode[]> {
  if (!ids.length) return [];
  const rows = rowsOf(
    await db.execute(sql`select id, path from partner_institutions where id = any(${idArray(ids)}) order by id`),
  );
  return rows.map((row) => ({ id: Number(row['id']), path: String(row['path']) }));
}

/** The ids on an institution's path, itself included: `/1/4/17/` → 1, 4, 17. */
function ancestorsOf(path: string): number[] {
  return path
    .split('/')
    .filter((part) => part !== '')
    .map(Number);
}

/**
 * Subtree sums: each institution's own figures added to itself and to every ancestor that is
 * listed. With n institutions of depth ≤ 3 that is ≤ 3n additions, whatever the data's size.
 */
export function rollUp<M extends PartnerMetric>(
  institutions: readonly InstitutionNode[],
  own: ReadonlyMap<number, Partial<Record<M, number>>>,
  metrics: readonly M[],
): Map<number, Record<M, number>> {
  const zero = () => Object.fromEntries(metrics.map((metric) => [metric, 0])) as Record<M, number>;
  const rolled = new Map<number, Record<M, number>>(institutions.map((node) => [node.id, zero()]));
  for (const node of institutions) {
    const values = own.get(node.id);
    if (!values) continue;
    for (const ancestor of ancestorsOf(node.path)) {
      const target = rolled.get(ancestor);
      if (target) addInto(target, values, metrics);
    }
  }
  return rolled;
}

/**
 * The institutions in the union of the subtrees of `tops` (each counted once, however the tops
 * nest): what a totals row adds up, so a head office and its branch listed together are not
 * counted twice.
 */
export function unionOfSubtrees(institutions: readonly InstitutionNode[], tops: Iterable<number>): InstitutionNode[] {
  const topIds = new Set(tops);
  return institutions.filter((node) => ancestorsOf(node.path).some((ancestor) => topIds.has(ancestor)));
}

/* ------------------------------------------------------------------ metrics per institution */

export const countMetricsSql = {
  registeredEnterprises: 'registered',
  certifiedEnterprises: 'certified',
  orders: 'orders',
  ordersInForce: 'in_force',
  contractedEnergy: 'contracted',
  settledEnergy: 'settled_energy',
  settledAmount: 'settled_amount',
  saving: 'saving',
} as const satisfies Record<PartnerMetric, string>;

/** Order statuses that make a contract: accepted, in force, completed (as the roll-up's trigger counts them). */
const contractingStatuses = sql`(20, 30, 40)`;

/** A timestamp's China calendar day (UTC+8 all year; no time-zone database needed). */
function chinaDayOf(column: SQL): SQL {
  return sql`((${column} at time zone 'UTC') + interval '8 hours')::date`;
}

/*
 * The four sources of every figure, each a row set with an `at` day, filtered to the scope and the
 * window. Years and months read the monthly roll-ups (migration 0007: partner_enterprise_monthly,
 * partner_order_monthly, kept by triggers on enterprises and orders) — a year of a head office is a
 * few thousand roll-up rows however many orders there are. A single day reads the day's own
 * enterprises and orders through their (partner_id, created_at) indexes: few rows, and the
 * roll-ups have no days.
 */

/** partner_id, at, registered, certified. */
export function enterpriseRows(scope: SQL, window: AnalysisWindow, yearType: YearType): SQL {
  if (yearType !== 3) {
    return sql`select partner_id, month as at, registered, certified from partner_enterprise_monthly
      where partner_id = any(${scope}) and month >= ${window.startDay}::date and month < ${window.nextDay}::date`;
  }
  return sql`select e.partner_id, ${chinaDayOf(sql`e.created_at`)} as at, 1 as registered, 0 as certified from enterprises e
      where e.partner_id = any(${scope}) and e.created_at >= ${window.startAt}::timestamptz and e.created_at < ${window.nextAt}::timestamptz
    union all
    select e.partner_id, ${chinaDayOf(sql`e.reviewed_at`)}, 0, 1 from enterprises e
      where e.partner_id = any(${scope}) and e.auth_status = 2 and e.reviewed_at >= ${window.startAt}::timestamptz and e.reviewed_at < ${window.nextAt}::timestamptz`;
}

/** partner_id, at, product_id, area_code, orders, contracted (Σ estimated consumption × months; ÷ 12 = MWh). */
export function orderRows(scope: SQL, window: AnalysisWindow, yearType: YearType): SQL {
  if (yearType !== 3) {
    return sql`select partner_id, month as at, product_id, area_code, orders, contracted from partner_order_monthly
      where partner_id = any(${scope}) and month >= ${window.startDay}::date and month < ${window.nextDay}::date`;
  }
  return sql`select o.partner_id, ${chinaDayOf(sql`o.created_at`)} as at, o.product_id, o.area_code, 1 as orders,
      case when o.status in ${contractingStatuses} then o.estimated_consumption * o.contract_months else 0 end as contracted
    from orders o
    where o.partner_id = any(${scope}) and o.created_at >= ${window.startAt}::timestamptz and o.created_at < ${window.nextAt}::timestamptz`;
}

/**
 * partner_id, contract_start, contract_months, running: the groups of orders in force or
 * completed (partner_contracts, kept by the orders' triggers) whose months overlap the window.
 */
export function contractRows(scope: SQL, window: AnalysisWindow): SQL {
  return sql`select partner_id, contract_start, contract_months, running from partner_contracts
    where partner_id = any(${scope}) and running <> 0 and contract_start < ${window.nextDay}::date
      and (contract_start + make_interval(months => contract_months)) > ${window.startDay}::date`;
}

/** partner_id, at, product_id, area_code, settled_energy, settled_amount, saving: the settlement roll-up's months in the window. */
export function settlementRows(scope: SQL, window: AnalysisWindow): SQL {
  return sql`select partner_id, settle_month as at, product_id, area_code, settled_energy, settled_amount, saving from settlement_monthly
    where partner_id = any(${scope}) and settle_month >= ${window.startDay}::date and settle_month < ${window.nextDay}::date`;
}

/**
 * Each institution's own figures for a window (not its descendants'), one statement over the four
 * sources above, each summed per institution before the union (the outer sum adds four small sets):
 * - registered: enterprises created in the window;
 * - certified: enterprises certified (auth status 2) whose review falls in the window;
 * - orders: orders created in the window, any status; contracted energy: those accepted, in
 *   force or completed, estimated annual consumption × contract months / 12 (MWh, each
 *   institution's sum rounded to 0.001);
 * - in force: orders in force or completed whose contract months overlap the window;
 * - settled energy / amount / saving: the settlement roll-up's months in the window (a month's
 *   settlement falls on its first day).
 */
export async function ownMetrics(
  db: Database,
  ids: readonly number[],
  window: AnalysisWindow,
  yearType: YearType,
): Promise<Map<number, MetricValues>> {
  const own = new Map<number, MetricValues>();
  if (!ids.length) return own;
  const scope = idArray(ids);
  const result = await db.execute(sql`
    select partner_id,
      sum(registered)::int8 as registered, sum(certified)::int8 as certified,
      sum(orders)::int8 as orders, sum(in_force)::int8 as in_force,
      round(sum(contracted) / 12, 3) as contracted, sum(settled_energy) as settled_energy,
      sum(settled_amount) as settled_amount, sum(saving) as saving
    from (
      select partner_id, sum(registered) as registered, sum(certified) as certified, 0::int8 as orders, 0::int8 as in_force,
        0::numeric as contracted, 0::numeric as settled_energy, 0::numeric as settled_amount, 0::numeric as saving
      from (${enterpriseRows(scope, window, yearType)}) e group by partner_id
      union all
      select partner_id, 0, 0, sum(orders), 0, sum(contracted), 0, 0, 0 from (${orderRows(scope, window, yearType)}) o group by partner_id
      union all
      select partner_id, 0, 0, 0, sum(running), 0, 0, 0, 0 from (${contractRows(scope, window)}) c group by partner_id
      union all
      select partner_id, 0, 0, 0, 0, 0, sum(settled_energy), sum(settled_amount), sum(saving)
      from (${settlementRows(scope, window)}) m group by partner_id
    ) per
    group by partner_id`);
  for (const row of rowsOf(result)) {
    const values = zeroMetrics();
    for (const metric of partnerMetrics) values[metric] = rounded(metric, numberOf(row[countMetricsSql[metric]]));
    own.set(Number(row['partner_id']), values);
  }
  return own;
}

/* ------------------------------------------------------------------ table columns of the metrics */

export function metricColumns<M extends PartnerMetric>(
  metrics: readonly M[],
  alias: string,
): Record<M, ColumnDefinition> {
  return Object.fromEntries(
    metrics.map((metric) => [
      metric,
      {
        sql: sql`${sql.identifier(alias)}.${sql.identifier(countMetricsSql[metric])}`,
        type: decimals[metric] === 0 ? 'int' : 'number',
        sort: true,
        range: true,
      },
    ]),
  ) as Record<M, ColumnDefinition>;
}

/** `unnest(ids, metric arrays…) as alias(partner_id, registered, …)`: the computed rows as a relation. */
export function metricRelation<M extends PartnerMetric>(
  alias: string,
  keys: { name: string; values: SQL }[],
  metrics: readonly M[],
  rows: readonly Record<M, number>[],
): SQL {
  const arrays = [
    ...keys.map((key) => key.values),
    ...metrics.map((metric) =>
      metricArray(
        metric,
        rows.map((row) => row[metric]),
      ),
    ),
  ];
  const names = [...keys.map((key) => key.name), ...metrics.map((metric) => countMetricsSql[metric])];
  return sql`unnest(${sql.join(arrays, sql`, `)}) as ${sql.identifier(alias)}(${sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  )})`;
}
