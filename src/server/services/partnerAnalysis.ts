/**
 * The partner analysis (docs/partner.md, Analysis): statistics per institution, the comparison of
 * chosen institutions by product or province, and the trend over periods — POST
 * getStaDataAntTable / getCompareDataAntTable / getTrendDataAntTable and their xlsx exports.
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
import type { SiteContent } from '../../content/schemas.ts';
import { chinaOffset } from '../../lib/chinaTime.ts';
import {
  classifiedMetrics,
  currentPeriod,
  partnerMetrics,
  periodCount,
  periodDays,
  periodsBetween,
  periodYears,
  trendMaxBuckets,
  type Classification,
  type ClassifiedMetric,
  type PartnerMetric,
  type YearType,
} from '../../lib/partner.ts';
import type {
  CompareData,
  CompareRowData,
  MetricValues,
  StatisticsData,
  StatisticsRowData,
  TrendData,
  TrendRowData,
} from '../../lib/schemas/partner.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import { rowsOf, type Database } from '../db/client.ts';
import { ApiError } from '../apiError.ts';
import { defineTable, runTable, streamTable, type ColumnDefinition, type TableDefinition } from '../table/antTable.ts';
import { assertAllInScope, subtreeInScope, type PartnerScope } from './partnerScope.ts';

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
function contractEnd(contractStart: string, months: number): string {
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
function rounded(metric: PartnerMetric, value: number): number {
  const factor = 10 ** decimals[metric];
  const result = Math.round(value * factor) / factor;
  return Object.is(result, -0) ? 0 : result;
}

export function zeroMetrics(): MetricValues {
  return Object.fromEntries(partnerMetrics.map((metric) => [metric, 0])) as MetricValues;
}

/** `into += from` for the given metrics, rounded to each metric's unit. */
function addInto<M extends PartnerMetric>(
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
function intArray(values: readonly number[]): SQL {
  return sql`${`{${values.map((value) => String(Math.trunc(value))).join(',')}}`}::int8[]`;
}

/** Institution ids as `int4[]`, the columns' own type: `partner_id = any(…)` compares without a cast per row. */
function idArray(ids: readonly number[]): SQL {
  return sql`${`{${ids.map((id) => String(Math.trunc(id))).join(',')}}`}::int4[]`;
}

function numericArray(values: readonly number[], places: number): SQL {
  return sql`${`{${values.map((value) => value.toFixed(places)).join(',')}}`}::numeric[]`;
}

function textArray(values: readonly string[]): SQL {
  const quoted = values.map((value) => `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`);
  return sql`${`{${quoted.join(',')}}`}::text[]`;
}

function metricArray(metric: PartnerMetric, values: readonly number[]): SQL {
  return decimals[metric] === 0 ? intArray(values) : numericArray(values, decimals[metric]);
}

function numberOf(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/* ------------------------------------------------------------------ institutions */

export interface InstitutionNode {
  id: number;
  path: string;
}

/** The id and path of each institution in `ids`. */
async function institutionsOf(db: Database, ids: readonly number[]): Promise<InstitutionNode[]> {
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

const countMetricsSql = {
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
function enterpriseRows(scope: SQL, window: AnalysisWindow, yearType: YearType): SQL {
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
function orderRows(scope: SQL, window: AnalysisWindow, yearType: YearType): SQL {
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
function contractRows(scope: SQL, window: AnalysisWindow): SQL {
  return sql`select partner_id, contract_start, contract_months, running from partner_contracts
    where partner_id = any(${scope}) and running <> 0 and contract_start < ${window.nextDay}::date
      and (contract_start + make_interval(months => contract_months)) > ${window.startDay}::date`;
}

/** partner_id, at, product_id, area_code, settled_energy, settled_amount, saving: the settlement roll-up's months in the window. */
function settlementRows(scope: SQL, window: AnalysisWindow): SQL {
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
async function ownMetrics(
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

/* ------------------------------------------------------------------ statistics */

function metricColumns<M extends PartnerMetric>(metrics: readonly M[], alias: string): Record<M, ColumnDefinition> {
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
function metricRelation<M extends PartnerMetric>(
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

function statisticsTable(from: SQL) {
  return defineTable({
    from,
    columns: {
      partnerId: { sql: sql`p.id`, type: 'int', filter: true, sort: true },
      partnerCode: { sql: sql`p.code`, type: 'text', search: true, like: true, filter: true, sort: true },
      partnerName: { sql: sql`p.name`, type: 'text', search: true, like: true, sort: true },
      level: { sql: sql`p.level`, type: 'int', filter: true, sort: true },
      parentId: { sql: sql`p.parent_id`, type: 'int', nullable: true, filter: true, sort: true },
      ...metricColumns(partnerMetrics, 'm'),
    },
    defaultSort: [
      { key: 'level', sort: 'ascend' },
      { key: 'partnerCode', sort: 'ascend' },
    ],
    tieBreaker: sql`p.id`,
  });
}

export interface StatisticsInput {
  yearType: YearType;
  period?: string | undefined;
  partnerId?: number | undefined;
}

/** A statistics request resolved: the listed institutions with their subtree figures, as an engine table. */
export interface PreparedStatistics {
  yearType: YearType;
  period: string;
  table: TableDefinition;
  institutions: InstitutionNode[];
  own: Map<number, MetricValues>;
}

export async function prepareStatistics(
  db: Database,
  scope: PartnerScope,
  input: StatisticsInput,
): Promise<PreparedStatistics> {
  const ids = input.partnerId === undefined ? scope.ids : await subtreeInScope(db, scope, input.partnerId);
  const period = input.period ?? (await defaultPeriod(db, ids, input.yearType));
  const [institutions, own] = await Promise.all([
    institutionsOf(db, ids),
    ownMetrics(db, ids, windowOf(input.yearType, period), input.yearType),
  ]);
  const rolled = rollUp(institutions, own, partnerMetrics);
  const listed = institutions.map((node) => node.id);
  const relation = metricRelation(
    'm',
    [{ name: 'partner_id', values: idArray(listed) }],
    partnerMetrics,
    listed.map((id) => rolled.get(id) ?? zeroMetrics()),
  );
  const table = statisticsTable(sql`partner_institutions p join ${relation} on m.partner_id = p.id`);
  return { yearType: input.yearType, period, table: table as unknown as TableDefinition, institutions, own };
}

export async function statisticsPage(
  db: Database,
  scope: PartnerScope,
  input: StatisticsInput,
  request: TableRequest,
): Promise<StatisticsData> {
  const prepared = await prepareStatistics(db, scope, input);
  const page = await runTable(db, prepared.table, request);
  return { ...(page as StatisticsData), yearType: prepared.yearType, period: prepared.period };
}

/**
 * The statistics rows of an export (every row the request matches, up to `cap`), and then the
 * totals: the union of the listed institutions' subtrees — a head office listed with its
 * branches counts each enterprise, order and settlement once, not once per row it appears in.
 */
export async function* statisticsExportRows(
  db: Database,
  prepared: PreparedStatistics,
  request: TableRequest,
  cap: number,
  onTotals: (totals: MetricValues, rows: number) => void,
): AsyncGenerator<Partial<StatisticsRowData>[]> {
  const listed: number[] = [];
  for await (const chunk of streamTable(db, prepared.table, { ...request, select: [] }, { cap })) {
    for (const row of chunk) listed.push(Number(row['partnerId']));
    yield chunk as Partial<StatisticsRowData>[];
  }
  const totals = zeroMetrics();
  for (const node of unionOfSubtrees(prepared.institutions, listed))
    addInto(totals, prepared.own.get(node.id) ?? {}, partnerMetrics);
  onTotals(totals, listed.length);
}

/* ------------------------------------------------------------------ comparison */

export interface CompareInput {
  yearType: YearType;
  period?: string | undefined;
  partnerIds: number[];
  classification: Classification;
}

export type ClassValues = Record<ClassifiedMetric, number>;

function zeroClassValues(): ClassValues {
  return Object.fromEntries(classifiedMetrics.map((metric) => [metric, 0])) as ClassValues;
}

/** Each institution's own classified figures per class (product id or area code). */
async function ownClassMetrics(
  db: Database,
  ids: readonly number[],
  window: AnalysisWindow,
  yearType: YearType,
  classification: Classification,
): Promise<Map<number, Map<string, ClassValues>>> {
  const own = new Map<number, Map<string, ClassValues>>();
  if (!ids.length) return own;
  const scope = idArray(ids);
  const classColumn = classification === 'product' ? sql`product_id` : sql`area_code`;
  const result = await db.execute(sql`
    select partner_id, class_key, sum(orders)::int8 as orders, round(sum(contracted) / 12, 3) as contracted,
      sum(settled_energy) as settled_energy, sum(settled_amount) as settled_amount, sum(saving) as saving
    from (
      select partner_id, (${classColumn})::text as class_key, sum(orders) as orders, sum(contracted) as contracted,
        0::numeric as settled_energy, 0::numeric as settled_amount, 0::numeric as saving
      from (${orderRows(scope, window, yearType)}) o group by 1, 2
      union all
      select partner_id, (${classColumn})::text, 0, 0, sum(settled_energy), sum(settled_amount), sum(saving)
      from (${settlementRows(scope, window)}) m group by 1, 2
    ) per
    group by partner_id, class_key`);
  for (const row of rowsOf(result)) {
    const partnerId = Number(row['partner_id']);
    const classKey = String(row['class_key']).trim();
    const values = zeroClassValues();
    for (const metric of classifiedMetrics) values[metric] = rounded(metric, numberOf(row[countMetricsSql[metric]]));
    let byClass = own.get(partnerId);
    if (!byClass) own.set(partnerId, (byClass = new Map()));
    byClass.set(classKey, values);
  }
  return own;
}

/** Every class in the content's order (all five products, every province), then any the data has besides. */
export function classesOf(
  content: SiteContent,
  classification: Classification,
  seen: Iterable<string>,
): { key: string; name: string }[] {
  const known =
    classification === 'product'
      ? [...content.products]
          .sort((a, b) => a.sort - b.sort)
          .map((product) => ({ key: product.productId as string, name: product.name }))
      : [...content.regions]
          .sort((a, b) => a.sort - b.sort || a.areaCode.localeCompare(b.areaCode))
          .map((region) => ({ key: region.areaCode, name: region.name }));
  const keys = new Set(known.map((item) => item.key));
  const extra = [...new Set(seen)].filter((key) => !keys.has(key)).sort();
  return [...known, ...extra.map((key) => ({ key, name: key }))];
}

function compareTable(from: SQL) {
  return defineTable({
    from,
    columns: {
      classKey: { sql: sql`c.class_key`, type: 'text', filter: true, sort: true },
      className: { sql: sql`c.class_name`, type: 'text', search: true, like: true, sort: true },
      partnerId: { sql: sql`c.partner_id`, type: 'int', filter: true, sort: true },
      partnerName: { sql: sql`p.name`, type: 'text', search: true, like: true, sort: true },
      ...metricColumns(classifiedMetrics, 'c'),
      /** The natural order: classes as the content lists them, institutions as the caller chose them. */
      position: { sql: sql`c.position`, type: 'int', select: false },
    },
    defaultSort: [{ key: 'position', sort: 'ascend' }],
    tieBreaker: sql`c.position`,
  });
}

export interface PreparedCompare {
  yearType: YearType;
  period: string;
  table: TableDefinition;
  institutions: InstitutionNode[];
  own: Map<number, Map<string, ClassValues>>;
}

/** Institutions in `ids`' subtrees (one statement; every descendant of a visible institution is visible). */
async function subtreesOf(db: Database, tops: readonly InstitutionNode[]): Promise<InstitutionNode[]> {
  if (!tops.length) return [];
  const prefixes = tops.map((node) => `${node.path}%`);
  const rows = rowsOf(
    await db.execute(
      sql`select id, path from partner_institutions where path like any(${textArray(prefixes)}) order by id`,
    ),
  );
  return rows.map((row) => ({ id: Number(row['id']), path: String(row['path']) }));
}

export async function prepareCompare(
  db: Database,
  scope: PartnerScope,
  input: CompareInput,
  content: SiteContent,
): Promise<PreparedCompare> {
  const chosen = [...new Set(input.partnerIds)];
  // `1,1` passes the schema's count but compares one institution with itself.
  if (chosen.length < 2) throw ApiError.field('partnerIds', 'partner.analysis.compareDistinct');
  assertAllInScope(scope, chosen);
  const tops = await institutionsOf(db, chosen);
  const institutions = await subtreesOf(db, tops);
  const period =
    input.period ??
    (await defaultPeriod(
      db,
      institutions.map((node) => node.id),
      input.yearType,
    ));
  const own = await ownClassMetrics(
    db,
    institutions.map((node) => node.id),
    windowOf(input.yearType, period),
    input.yearType,
    input.classification,
  );
  const seen = [...own.values()].flatMap((byClass) => [...byClass.keys()]);
  const classes = classesOf(content, input.classification, seen);
  // Per class, each chosen institution's subtree sum.
  const rows: { classKey: string; className: string; partnerId: number; values: ClassValues }[] = [];
  const members = new Map(chosen.map((id) => [id, unionOfSubtrees(institutions, [id])]));
  for (const item of classes) {
    for (const id of chosen) {
      const values = zeroClassValues();
      for (const node of members.get(id) ?? [])
        addInto(values, own.get(node.id)?.get(item.key) ?? {}, classifiedMetrics);
      rows.push({ classKey: item.key, className: item.name, partnerId: id, values });
    }
  }
  const relation = metricRelation(
    'c',
    [
      { name: 'position', values: intArray(rows.map((_, index) => index + 1)) },
      { name: 'class_key', values: textArray(rows.map((row) => row.classKey)) },
      { name: 'class_name', values: textArray(rows.map((row) => row.className)) },
      { name: 'partner_id', values: idArray(rows.map((row) => row.partnerId)) },
    ],
    classifiedMetrics,
    rows.map((row) => row.values),
  );
  const table = compareTable(sql`${relation} join partner_institutions p on p.id = c.partner_id`);
  return { yearType: input.yearType, period, table: table as unknown as TableDefinition, institutions, own };
}

export async function comparePage(
  db: Database,
  scope: PartnerScope,
  input: CompareInput,
  request: TableRequest,
  content: SiteContent,
): Promise<CompareData> {
  const prepared = await prepareCompare(db, scope, input, content);
  const page = await runTable(db, prepared.table, request);
  return { ...(page as CompareData), yearType: prepared.yearType, period: prepared.period };
}

/**
 * The comparison rows of an export, then the totals: per class, the union of the listed
 * institutions' subtrees, so nested institutions compared side by side are counted once.
 */
export async function* compareExportRows(
  db: Database,
  prepared: PreparedCompare,
  request: TableRequest,
  cap: number,
  onTotals: (totals: ClassValues, rows: number) => void,
): AsyncGenerator<Partial<CompareRowData>[]> {
  const listed = new Map<string, number[]>();
  let count = 0;
  for await (const chunk of streamTable(db, prepared.table, { ...request, select: [] }, { cap })) {
    for (const row of chunk) {
      const key = String(row['classKey']);
      listed.set(key, [...(listed.get(key) ?? []), Number(row['partnerId'])]);
    }
    count += chunk.length;
    yield chunk as Partial<CompareRowData>[];
  }
  const totals = zeroClassValues();
  for (const [classKey, tops] of listed) {
    for (const node of unionOfSubtrees(prepared.institutions, tops))
      addInto(totals, prepared.own.get(node.id)?.get(classKey) ?? {}, classifiedMetrics);
  }
  onTotals(totals, count);
}

/* ------------------------------------------------------------------ trend */

export interface TrendInput {
  yearType: YearType;
  from?: string | undefined;
  to?: string | undefined;
  partnerId?: number | undefined;
}

/**
 * The trend's span with its defaults: up to the current period, over the last 5 years, 12
 * months or 30 days. A span that the defaults make backwards or too long (only `from` given, far
 * back or in the future) is refused like one given whole (the schema's messages, on `to`).
 */
export function trendSpan(input: TrendInput, now: Date = new Date()): { from: string; to: string } {
  const { yearType } = input;
  const to =
    input.to ??
    (input.from !== undefined && input.from > currentPeriod(yearType, now) ? input.from : currentPeriod(yearType, now));
  // The default start never reaches before the first period a caller could name.
  const earliest = periodYears.first + (yearType === 1 ? '' : yearType === 2 ? '-01' : '-01-01');
  const defaultFrom = periodBefore(yearType, to, trendDefaultBuckets[yearType] - 1);
  const from = input.from ?? (defaultFrom < earliest ? earliest : defaultFrom);
  if (from > to) throw ApiError.field('to', 'partner.trendOrder');
  if (periodCount(yearType, from, to) > trendMaxBuckets[yearType])
    throw ApiError.field('to', `partner.trendSpan.${yearType}`);
  return { from, to };
}

/** The SQL text of a period's key at a granularity, for a China calendar day expression. */
function periodKey(yearType: YearType, day: SQL): SQL {
  const format = yearType === 1 ? 'YYYY' : yearType === 2 ? 'YYYY-MM' : 'YYYY-MM-DD';
  return sql`to_char(${day}, ${format}::text)`;
}

interface RunningContracts {
  contractStart: string;
  contractEnd: string;
  count: number;
}

export interface PreparedTrend {
  yearType: YearType;
  from: string;
  to: string;
  table: TableDefinition;
  byPeriod: Map<string, MetricValues>;
  running: RunningContracts[];
}

function inForceDuring(running: readonly RunningContracts[], window: { startDay: string; nextDay: string }): number {
  let count = 0;
  for (const group of running)
    if (group.contractStart < window.nextDay && group.contractEnd > window.startDay) count += group.count;
  return count;
}

export async function prepareTrend(db: Database, scope: PartnerScope, input: TrendInput): Promise<PreparedTrend> {
  const { yearType } = input;
  const { from, to } = trendSpan(input);
  const ids = input.partnerId === undefined ? scope.ids : await subtreeInScope(db, scope, input.partnerId);
  const periods = periodsBetween(yearType, from, to);
  const window = windowOf(yearType, from, to);
  const byPeriod = new Map<string, MetricValues>(periods.map((period) => [period, zeroMetrics()]));
  let running: RunningContracts[] = [];
  if (ids.length) {
    const scopeIds = idArray(ids);
    const at = periodKey(yearType, sql`at`);
    const [buckets, contracts] = await Promise.all([
      db.execute(sql`
        select period, sum(registered)::int8 as registered, sum(certified)::int8 as certified, sum(orders)::int8 as orders,
          round(sum(contracted) / 12, 3) as contracted, sum(settled_energy) as settled_energy,
          sum(settled_amount) as settled_amount, sum(saving) as saving
        from (
          select ${at} as period, sum(registered) as registered, sum(certified) as certified, 0::int8 as orders,
            0::numeric as contracted, 0::numeric as settled_energy, 0::numeric as settled_amount, 0::numeric as saving
          from (${enterpriseRows(scopeIds, window, yearType)}) e group by 1
          union all
          select ${at}, 0, 0, sum(orders), sum(contracted), 0, 0, 0 from (${orderRows(scopeIds, window, yearType)}) o group by 1
          union all
          select ${at}, 0, 0, 0, 0, sum(settled_energy), sum(settled_amount), sum(saving)
          from (${settlementRows(scopeIds, window)}) m group by 1
        ) per
        group by period`),
      // Running contracts grouped by their months (a few hundred groups at most), counted per period below.
      db.execute(sql`
        select to_char(contract_start, 'YYYY-MM-DD') as contract_start, contract_months, sum(running)::int8 as count
        from (${contractRows(scopeIds, window)}) c
        group by contract_start, contract_months`),
    ]);
    for (const row of rowsOf(buckets)) {
      const values = byPeriod.get(String(row['period']));
      if (!values) continue;
      for (const metric of partnerMetrics)
        if (metric !== 'ordersInForce') values[metric] = rounded(metric, numberOf(row[countMetricsSql[metric]]));
    }
    running = rowsOf(contracts).map((row) => ({
      contractStart: String(row['contract_start']),
      contractEnd: contractEnd(String(row['contract_start']), Number(row['contract_months'])),
      count: Number(row['count']),
    }));
    for (const period of periods)
      (byPeriod.get(period) as MetricValues).ordersInForce = inForceDuring(running, toWindow(yearType, period));
  }
  const relation = metricRelation(
    't',
    [{ name: 'period', values: textArray(periods) }],
    partnerMetrics,
    periods.map((period) => byPeriod.get(period) ?? zeroMetrics()),
  );
  const table = defineTable({
    from: relation,
    columns: {
      period: { sql: sql`t.period`, type: 'text', range: true, filter: true, sort: true },
      ...metricColumns(partnerMetrics, 't'),
    },
    defaultSort: [{ key: 'period', sort: 'ascend' }],
    tieBreaker: sql`t.period`,
  });
  return { yearType, from, to, table: table as unknown as TableDefinition, byPeriod, running };
}

function toWindow(yearType: YearType, period: string): { startDay: string; nextDay: string } {
  const days = periodDays(yearType, period);
  return { startDay: days.start, nextDay: days.next };
}

export async function trendPage(
  db: Database,
  scope: PartnerScope,
  input: TrendInput,
  request: TableRequest,
): Promise<TrendData> {
  const prepared = await prepareTrend(db, scope, input);
  const page = await runTable(db, prepared.table, request);
  return { ...(page as TrendData), yearType: prepared.yearType, from: prepared.from, to: prepared.to };
}

/**
 * The trend rows of an export, then the totals over the listed periods: the sum of each
 * additive metric, and for orders in force the orders in force during any listed period (an
 * order running for a whole year is one order, not twelve).
 */
export async function* trendExportRows(
  db: Database,
  prepared: PreparedTrend,
  request: TableRequest,
  cap: number,
  onTotals: (totals: MetricValues, rows: number) => void,
): AsyncGenerator<Partial<TrendRowData>[]> {
  const listed: string[] = [];
  for await (const chunk of streamTable(db, prepared.table, { ...request, select: [] }, { cap })) {
    for (const row of chunk) listed.push(String(row['period']));
    yield chunk as Partial<TrendRowData>[];
  }
  const totals = zeroMetrics();
  const additive = partnerMetrics.filter((metric) => metric !== 'ordersInForce');
  for (const period of listed) addInto(totals, prepared.byPeriod.get(period) ?? {}, additive);
  const windows = listed.map((period) => toWindow(prepared.yearType, period));
  for (const group of prepared.running) {
    if (windows.some((window) => group.contractStart < window.nextDay && group.contractEnd > window.startDay))
      totals.ordersInForce += group.count;
  }
  onTotals(totals, listed.length);
}
