/**
 * The partner analysis' trend (docs/partner.md, Analysis): the metrics of the scope or of one
 * institution's subtree period by period — POST getTrendDataAntTable and its xlsx export — over the
 * shared roll-up (rollup.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  currentPeriod,
  partnerMetrics,
  periodCount,
  periodDays,
  periodsBetween,
  periodYears,
  trendMaxBuckets,
  type YearType,
} from '../../../lib/partner.ts';
import type { MetricValues, TrendData, TrendRowData } from '../../../lib/schemas/partner.ts';
import type { TableRequest } from '../../../lib/schemas/table.ts';
import { rowsOf, type Database } from '../../db/client.ts';
import { ApiError } from '../../apiError.ts';
import { defineTable, runTable, streamTable, type TableDefinition } from '../../table/antTable.ts';
import { subtreeInScope, type PartnerScope } from '../partnerScope.ts';
import {
  windowOf,
  trendDefaultBuckets,
  periodBefore,
  contractEnd,
  rounded,
  zeroMetrics,
  addInto,
  idArray,
  textArray,
  numberOf,
  countMetricsSql,
  enterpriseRows,
  orderRows,
  contractRows,
  settlementRows,
  metricColumns,
  metricRelation,
} from './rollup.ts';

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
