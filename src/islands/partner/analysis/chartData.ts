/**
 * What the analysis charts draw, shaped from the table answers, and how their numbers read.
 * Pure: charts.ts lays the result out and AnalysisChart.tsx draws it, and the same series fill
 * the chart's data-table alternative, so both always say the same thing.
 */
import type { Locale } from '../../../lib/i18n/locales.ts';
import { metricUnits, type PartnerMetric } from '../../../lib/partner.ts';
import type { CompareRowData, StatisticsRowData, TrendRowData } from '../../../lib/schemas/partner.ts';

export type MetricUnit = (typeof metricUnits)[PartnerMetric];

export interface ChartSeries {
  /** The legend's (and the data table's column) name. */
  label: string;
  /** The unit of its values: one y axis per unit. */
  unit: MetricUnit;
  /** One per label of the chart; null where the answer has no value. */
  values: (number | null)[];
  /** Its colour, set when a chart is split into panels (charts.ts `chartPanels`); else by its place. */
  colour?: string;
}

export interface ChartModel {
  /** The x axis: institutions, classes or periods. */
  labels: string[];
  series: ChartSeries[];
}

/** Decimals of each unit (spec: energy MWh 3 dp, money 元 2 dp). */
const fractionDigits: Record<MetricUnit, number> = { count: 0, energy: 3, money: 2 };

/** A metric value as the tables show it: grouped digits in the locale, the unit's decimals. */
export function metricNumberFormat(locale: Locale, unit: MetricUnit): Intl.NumberFormat {
  const digits = fractionDigits[unit];
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** An axis tick: short (compact notation: 1.2万, 12K) so ticks of large money values fit. */
export function tickNumberFormat(locale: Locale): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Statistics: one bar per institution of the page shown, the chosen metric. */
export function statisticsChart(
  rows: readonly Partial<StatisticsRowData>[],
  metric: PartnerMetric,
  label: string,
): ChartModel {
  return {
    labels: rows.map((row) => row.partnerName ?? ''),
    series: [{ label, unit: metricUnits[metric], values: rows.map((row) => numberOrNull(row[metric])) }],
  };
}

/**
 * The comparison: classes on the x axis (in the order they first appear, those with a value), one series per chosen
 * institution (in the order chosen; names from the answer, else `fallbackNames`), zero where an
 * institution has nothing in a class.
 */
export function compareChart(
  rows: readonly Partial<CompareRowData>[],
  metric: PartnerMetric & keyof CompareRowData,
  partnerIds: readonly number[],
  fallbackNames: ReadonlyMap<number, string> = new Map(),
): ChartModel {
  const classes: string[] = [];
  const classNames = new Map<string, string>();
  const values = new Map<string, number>();
  const names = new Map<number, string>();
  for (const row of rows) {
    const key = row.classKey ?? '';
    if (!classNames.has(key)) {
      classes.push(key);
      classNames.set(key, row.className ?? key);
    }
    if (row.partnerId !== undefined) {
      if (row.partnerName) names.set(row.partnerId, row.partnerName);
      const value = numberOrNull(row[metric]);
      if (value !== null)
        values.set(`${key}\u0000${row.partnerId}`, (values.get(`${key}\u0000${row.partnerId}`) ?? 0) + value);
    }
  }
  // Every class the content knows comes back (all provinces, all products), mostly zero: the chart
  // keeps only classes where a chosen institution has something; the table lists them all.
  const drawn = classes.filter((key) => partnerIds.some((id) => (values.get(`${key}\u0000${id}`) ?? 0) !== 0));
  return {
    labels: drawn.map((key) => classNames.get(key) ?? key),
    series: partnerIds.map((id) => ({
      label: names.get(id) ?? fallbackNames.get(id) ?? String(id),
      unit: metricUnits[metric],
      values: drawn.map((key) => values.get(`${key}\u0000${id}`) ?? 0),
    })),
  };
}

/**
 * The trend: the periods from `from` to `to` oldest first (whatever order the rows came in), one
 * line per chosen metric; a period the answer lacks is a gap (null), not a false zero.
 */
export function trendChart(
  rows: readonly Partial<TrendRowData>[],
  periods: readonly string[],
  metrics: readonly { metric: PartnerMetric; label: string }[],
): ChartModel {
  const byPeriod = new Map(rows.filter((row) => row.period).map((row) => [row.period as string, row]));
  return {
    labels: [...periods],
    series: metrics.map(({ metric, label }) => ({
      label,
      unit: metricUnits[metric],
      values: periods.map((period) => numberOrNull(byPeriod.get(period)?.[metric])),
    })),
  };
}

/** Nothing to draw: no labels, or every value empty or zero. */
export function isEmptyChart(model: ChartModel): boolean {
  return (
    model.labels.length === 0 ||
    model.series.every((series) => series.values.every((value) => value === null || value === 0))
  );
}

/** The units a chart's series use, in a fixed order (count, energy, money): one y axis each. */
export function chartUnits(model: ChartModel): MetricUnit[] {
  return (['count', 'energy', 'money'] as const).filter((unit) => model.series.some((series) => series.unit === unit));
}
