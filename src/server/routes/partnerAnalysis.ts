/**
 * /api/front/hgdarc/partner/*: the partner analysis (spec §7; docs/partner.md, Analysis) —
 * statistics per institution, the comparison of chosen institutions by product or province, and
 * the trend over periods, each a table call (POST, `antTable` beside its own fields) and an xlsx
 * download (GET, the same fields in the query). Every call needs a session (901) and the
 * `partner` role (403), and reads only the caller's visible institutions; an institution outside
 * them answers 404 exactly like one that does not exist.
 */
import { Hono, type Context } from 'hono';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import {
  classifiedMetrics,
  currentPeriod,
  exportRowCap,
  metricUnits,
  partnerMetrics,
  type PartnerMetric,
} from '../../lib/partner.ts';
import {
  compareBody,
  statisticsBody,
  trendBody,
  type CompareRowData,
  type MetricValues,
  type StatisticsRowData,
  type TrendRowData,
} from '../../lib/schemas/partner.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { writeAudit } from '../services/audit.ts';
import { contentStore } from '../services/contentStore.ts';
import { prepareStatistics, statisticsExportRows, statisticsPage } from '../services/partnerAnalysis/statistics.ts';
import {
  compareExportRows,
  comparePage,
  prepareCompare,
  type ClassValues,
} from '../services/partnerAnalysis/comparison.ts';
import { prepareTrend, trendExportRows, trendPage } from '../services/partnerAnalysis/trend.ts';
import { partnerScopeOf } from '../services/partnerScope.ts';
import { parseTableRequest, readTableRequest } from '../table/antTable.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, AuthedEnv, RouteDeps } from '../types.ts';
import { readQuery, validate } from '../validate.ts';
import { xlsxResponse, xlsxStream, type XlsxColumn, type XlsxFormat } from '../xlsx/writer.ts';

type Cell = string | number | null;

const metricFormat: Record<'count' | 'energy' | 'money', XlsxFormat> = {
  count: 'int',
  energy: 'energy',
  money: 'money',
};

function metricColumn(locale: Locale, metric: PartnerMetric): XlsxColumn {
  return { header: t(locale, `partner.metric.${metric}`), format: metricFormat[metricUnits[metric]], width: 16 };
}

/** The download's name: what it is, its period and the (China) day it was made, e.g. 统计分析-2026-20261122.xlsx. */
function fileName(locale: Locale, key: MessageKey, period: string): string {
  return t(locale, key, { period, date: currentPeriod(3).replaceAll('-', '') });
}

/**
 * Table rows as the sheet's cells, and the totals row once every row is out: the service reports
 * the totals at the end (they are the union of what the rows cover, not their sum:
 * docs/partner.md), and the writer asks for them after the last row and writes them in bold.
 */
function cellsOf<Row, Totals>(
  chunks: (onTotals: (totals: Totals) => void) => AsyncGenerator<Row[]>,
  toCells: (row: Row) => Cell[],
  totalsCells: (totals: Totals) => Cell[],
): { rows: AsyncGenerator<Cell[]>; totals: () => Cell[] | undefined } {
  let totals: Totals | undefined;
  async function* rows(): AsyncGenerator<Cell[]> {
    for await (const chunk of chunks((value) => (totals = value))) {
      for (const row of chunk) yield toCells(row);
    }
  }
  return { rows: rows(), totals: () => (totals === undefined ? undefined : totalsCells(totals)) };
}

export function createPartnerAnalysisRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();
  const partnerOnly = requireRole('partner');

  const scopeOf = (c: Context<AuthedEnv>) => partnerScopeOf(db, c.var.user.id);
  /** A download's table request: the query's `antTable` (a JSON string), as the POST's body field. */
  const queryTableRequest = (c: Context<AuthedEnv>): TableRequest => parseTableRequest(readQuery(c)['antTable']);
  const audit = (c: Context<AuthedEnv>, target: string, detail: Record<string, unknown>) =>
    writeAudit(db, { userId: c.var.user.id, action: 'partner.export', target, detail, ip: clientIp(c, config) });

  routes.post(
    '/getStaDataAntTable',
    describeCall({ summary: 'Statistics per institution as a table', body: statisticsBody }),
    partnerOnly,
    async (c) => {
      const body = await validate(c, statisticsBody, 'body');
      const request = await readTableRequest(c);
      return ok(c, await statisticsPage(db, await scopeOf(c), body, request));
    },
  );

  routes.get(
    '/exportAntTable',
    describeCall({
      summary: 'Statistics per institution as an xlsx download',
      query: statisticsBody,
      download: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    partnerOnly,
    async (c) => {
      const query = await validate(c, statisticsBody, 'query');
      const request = queryTableRequest(c);
      const locale = localeOf(c);
      const prepared = await prepareStatistics(db, await scopeOf(c), query);
      // Checked before the download starts: a bad request answers the usual 400 envelope.
      const sheet = cellsOf<Partial<StatisticsRowData>, MetricValues>(
        (onTotals) => statisticsExportRows(db, prepared, request, exportRowCap, onTotals),
        (row) => [
          row.partnerCode ?? '',
          row.partnerName ?? '',
          row.level === undefined ? '' : t(locale, `partner.level.${row.level}`),
          ...partnerMetrics.map((metric) => row[metric] ?? 0),
        ],
        (totals) => [
          t(locale, 'partner.analysis.totals'),
          null,
          null,
          ...partnerMetrics.map((metric) => totals[metric]),
        ],
      );
      const first = await primed(sheet.rows);
      await audit(c, 'partner:statistics', {
        yearType: prepared.yearType,
        period: prepared.period,
        partnerId: query.partnerId ?? null,
      });
      const stream = xlsxStream({
        name: t(locale, 'partner.analysis.sheet.statistics'),
        columns: [
          { header: t(locale, 'partner.analysis.column.partnerCode'), format: 'text', width: 14 },
          { header: t(locale, 'partner.analysis.column.partnerName'), format: 'text', width: 28 },
          { header: t(locale, 'partner.analysis.column.level'), format: 'text', width: 10 },
          ...partnerMetrics.map((metric) => metricColumn(locale, metric)),
        ],
        rows: first,
        totals: sheet.totals,
      });
      return xlsxResponse(stream, fileName(locale, 'partner.analysis.file.statistics', prepared.period));
    },
  );

  routes.post(
    '/getCompareDataAntTable',
    describeCall({ summary: 'Comparison of institutions as a table', body: compareBody }),
    partnerOnly,
    async (c) => {
      const body = await validate(c, compareBody, 'body');
      const request = await readTableRequest(c);
      return ok(c, await comparePage(db, await scopeOf(c), body, request, contentStore.current()));
    },
  );

  routes.get(
    '/exportClassificationAntTable',
    describeCall({
      summary: 'Comparison of institutions as an xlsx download',
      query: compareBody,
      download: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    partnerOnly,
    async (c) => {
      const query = await validate(c, compareBody, 'query');
      const request = queryTableRequest(c);
      const locale = localeOf(c);
      const prepared = await prepareCompare(db, await scopeOf(c), query, contentStore.current());
      const sheet = cellsOf<Partial<CompareRowData>, ClassValues>(
        (onTotals) => compareExportRows(db, prepared, request, exportRowCap, onTotals),
        (row) => [row.className ?? '', row.partnerName ?? '', ...classifiedMetrics.map((metric) => row[metric] ?? 0)],
        (totals) => [t(locale, 'partner.analysis.totals'), null, ...classifiedMetrics.map((metric) => totals[metric])],
      );
      const first = await primed(sheet.rows);
      await audit(c, 'partner:compare', {
        yearType: prepared.yearType,
        period: prepared.period,
        partnerIds: [...new Set(query.partnerIds)],
        classification: query.classification,
      });
      const stream = xlsxStream({
        name: t(locale, 'partner.analysis.sheet.compare'),
        columns: [
          { header: t(locale, `partner.analysis.column.${query.classification}`), format: 'text', width: 18 },
          { header: t(locale, 'partner.analysis.column.partnerName'), format: 'text', width: 28 },
          ...classifiedMetrics.map((metric) => metricColumn(locale, metric)),
        ],
        rows: first,
        totals: sheet.totals,
      });
      return xlsxResponse(stream, fileName(locale, 'partner.analysis.file.compare', prepared.period));
    },
  );

  routes.post(
    '/getTrendDataAntTable',
    describeCall({ summary: 'Trend over periods as a table', body: trendBody }),
    partnerOnly,
    async (c) => {
      const body = await validate(c, trendBody, 'body');
      const request = await readTableRequest(c);
      return ok(c, await trendPage(db, await scopeOf(c), body, request));
    },
  );

  routes.get(
    '/exportTrendAntTable',
    describeCall({
      summary: 'Trend over periods as an xlsx download',
      query: trendBody,
      download: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    }),
    partnerOnly,
    async (c) => {
      const query = await validate(c, trendBody, 'query');
      const request = queryTableRequest(c);
      const locale = localeOf(c);
      const prepared = await prepareTrend(db, await scopeOf(c), query);
      const sheet = cellsOf<Partial<TrendRowData>, MetricValues>(
        (onTotals) => trendExportRows(db, prepared, request, exportRowCap, onTotals),
        (row) => [row.period ?? '', ...partnerMetrics.map((metric) => row[metric] ?? 0)],
        (totals) => [t(locale, 'partner.analysis.totals'), ...partnerMetrics.map((metric) => totals[metric])],
      );
      const first = await primed(sheet.rows);
      await audit(c, 'partner:trend', {
        yearType: prepared.yearType,
        from: prepared.from,
        to: prepared.to,
        partnerId: query.partnerId ?? null,
      });
      const stream = xlsxStream({
        name: t(locale, 'partner.analysis.sheet.trend'),
        columns: [
          { header: t(locale, 'partner.analysis.column.period'), format: 'text', width: 12 },
          ...partnerMetrics.map((metric) => metricColumn(locale, metric)),
        ],
        rows: first,
        totals: sheet.totals,
      });
      return xlsxResponse(stream, fileName(locale, 'partner.analysis.file.trend', `${prepared.from}_${prepared.to}`));
    },
  );

  return routes;
}

/**
 * Reads the first row before the download starts, so a request the engine refuses (a bad
 * `antTable`: unknown field, bad value) answers the 400 envelope instead of a broken file; the
 * answer replays that row and then the rest.
 */
async function primed(rows: AsyncGenerator<Cell[]>): Promise<AsyncGenerator<Cell[]>> {
  const first = await rows.next();
  return (async function* replay() {
    if (!first.done) yield first.value;
    yield* rows;
  })();
}
