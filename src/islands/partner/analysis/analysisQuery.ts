/**
 * The analysis pages' own state in the page address, beside the table's (src/lib/tableRequest.ts
 * owns page, size and sort): granularity, period or span, institution(s), classification and
 * the charted metric(s). Pure functions: reading is lenient (a hand-edited address falls back to
 * the defaults, the server checks again), writing leaves defaults out so a fresh page has a bare
 * address, and the other keys of the address stay as they are.
 *
 * Keys: yt=2  period=2026-11  partner=17  ids=4,17  cls=area  metric=saving
 *       from=2026-01  to=2026-11  metrics=settledEnergy,saving
 */
import {
  classifications,
  classifiedMetrics,
  compareMaxPartners,
  currentPeriod,
  defaultYearType,
  isPeriod,
  partnerMetrics,
  periodCount,
  periodDays,
  periodsBetween,
  trendMaxBuckets,
  yearTypes,
  type Classification,
  type ClassifiedMetric,
  type PartnerMetric,
  type YearType,
} from '../../../lib/partner.ts';
import { idFromText } from '../partnerTree.ts';

/** The metric a chart shows when the address names none. */
export const defaultMetric = 'settledEnergy' satisfies PartnerMetric & ClassifiedMetric;

export interface StatisticsParams {
  yearType: YearType;
  /** '' = the current period (the server's default; the answer says which it was). */
  period: string;
  partnerId: number | undefined;
  metric: PartnerMetric;
}

export interface CompareParams {
  yearType: YearType;
  period: string;
  partnerIds: number[];
  classification: Classification;
  metric: ClassifiedMetric;
}

export interface TrendParams {
  yearType: YearType;
  /** '' = the server's default span (last 5 years, 12 months or 30 days). */
  from: string;
  to: string;
  partnerId: number | undefined;
  metrics: PartnerMetric[];
}

const analysisKeys = ['yt', 'period', 'partner', 'ids', 'cls', 'metric', 'metrics', 'from', 'to'] as const;

export function readYearType(params: URLSearchParams): YearType {
  const value = Number(params.get('yt'));
  return (yearTypes as readonly number[]).includes(value) ? (value as YearType) : defaultYearType;
}

function readPeriod(params: URLSearchParams, key: string, yearType: YearType): string {
  const value = params.get(key)?.trim() ?? '';
  return isPeriod(yearType, value) ? value : '';
}

function oneOf<T extends string>(allowed: readonly T[], value: string | null, fallback: T): T {
  return (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
}

/** Distinct ids of a comma list, valid ones only, at most `compareMaxPartners`. */
export function readIds(value: string | null): number[] {
  const ids: number[] = [];
  for (const part of (value ?? '').split(',')) {
    const id = idFromText(part.trim());
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids.slice(0, compareMaxPartners);
}

/** Toggle one id in a chosen list, keeping the order chosen and at most `max` ids. */
export function toggleId(chosen: readonly number[], id: number, max: number): number[] {
  if (chosen.includes(id)) return chosen.filter((other) => other !== id);
  return chosen.length >= max ? [...chosen] : [...chosen, id];
}

/**
 * The period a one-period page shows: the address's; else, while the address names none, the one
 * the server answered with (for this granularity); else the current one.
 */
export function shownPeriodOf(
  yearType: YearType,
  period: string | undefined,
  answer: { yearType?: number; period?: string } | undefined,
): string {
  return period || (answer?.yearType === yearType ? answer.period : '') || currentPeriod(yearType);
}

export function readStatisticsParams(params: URLSearchParams): StatisticsParams {
  const yearType = readYearType(params);
  return {
    yearType,
    period: readPeriod(params, 'period', yearType),
    partnerId: idFromText(params.get('partner')),
    metric: oneOf(partnerMetrics, params.get('metric'), defaultMetric),
  };
}

export function readCompareParams(params: URLSearchParams): CompareParams {
  const yearType = readYearType(params);
  return {
    yearType,
    period: readPeriod(params, 'period', yearType),
    partnerIds: readIds(params.get('ids')),
    classification: oneOf(classifications, params.get('cls'), 'product'),
    metric: oneOf(classifiedMetrics, params.get('metric'), defaultMetric),
  };
}

export function readTrendParams(params: URLSearchParams): TrendParams {
  const yearType = readYearType(params);
  const metrics = (params.get('metrics') ?? '')
    .split(',')
    .filter(
      (metric, index, all): metric is PartnerMetric =>
        (partnerMetrics as readonly string[]).includes(metric) && all.indexOf(metric) === index,
    );
  return {
    yearType,
    from: readPeriod(params, 'from', yearType),
    to: readPeriod(params, 'to', yearType),
    partnerId: idFromText(params.get('partner')),
    metrics: metrics.length ? metrics : [defaultMetric],
  };
}

/** A copy of `base` without the analysis keys, then the given ones that are not defaults. */
function writeKeys(base: URLSearchParams, values: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of base) if (!(analysisKeys as readonly string[]).includes(key)) params.append(key, value);
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  return params;
}

const yearTypeText = (yearType: YearType) => (yearType === defaultYearType ? undefined : String(yearType));

export function writeStatisticsParams(
  state: StatisticsParams,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  return writeKeys(base, {
    yt: yearTypeText(state.yearType),
    period: state.period,
    partner: state.partnerId === undefined ? undefined : String(state.partnerId),
    metric: state.metric === defaultMetric ? undefined : state.metric,
  });
}

export function writeCompareParams(
  state: CompareParams,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  return writeKeys(base, {
    yt: yearTypeText(state.yearType),
    period: state.period,
    ids: state.partnerIds.join(','),
    cls: state.classification === 'product' ? undefined : state.classification,
    metric: state.metric === defaultMetric ? undefined : state.metric,
  });
}

export function writeTrendParams(state: TrendParams, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const metrics = state.metrics.join(',');
  return writeKeys(base, {
    yt: yearTypeText(state.yearType),
    from: state.from,
    to: state.to,
    partner: state.partnerId === undefined ? undefined : String(state.partnerId),
    metrics: metrics === defaultMetric ? undefined : metrics,
  });
}

/** The last day of a month `YYYY-MM`. */
function lastDayOf(month: string): string {
  const next = periodDays(2, month).next;
  const date = new Date(`${next}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/**
 * A period carried over to another granularity, so switching 年/月/日 keeps the reader near the
 * time they were looking at: coarser keeps the enclosing year or month; finer takes the current
 * month or day when the period is the current one, else its last month or day. '' stays ''
 * (the current period at any granularity).
 */
export function convertPeriod(period: string, from: YearType, to: YearType, now: Date = new Date()): string {
  if (period === '' || !isPeriod(from, period)) return '';
  if (to === from) return period;
  if (to < from) return to === 1 ? period.slice(0, 4) : period.slice(0, 7);
  const current = currentPeriod(to, now);
  if (current.startsWith(period)) return current;
  const month = from === 1 ? `${period}-12` : period;
  return to === 2 ? month : lastDayOf(month);
}

/** How many periods back the server's default trend span starts (spec: 5 years, 12 months, 30 days). */
export const trendDefaultSpan: Record<YearType, number> = { 1: 5, 2: 12, 3: 30 };

/** The period `count` steps after (negative: before) `period`. */
export function shiftPeriod(yearType: YearType, period: string, count: number): string {
  if (yearType === 1) return String(Number(period) + count);
  if (yearType === 2) {
    const [year, month] = period.split('-').map(Number) as [number, number];
    const index = year * 12 + (month - 1) + count;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  }
  const date = new Date(`${period}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** The default trend span the server answers when `from`/`to` are absent, for the pickers to show meanwhile. */
export function defaultTrendSpan(yearType: YearType, now: Date = new Date()): { from: string; to: string } {
  const to = currentPeriod(yearType, now);
  return { from: shiftPeriod(yearType, to, 1 - trendDefaultSpan[yearType]), to };
}

/** The periods a trend answer covers, oldest first (the chart's x axis even when rows are sorted otherwise). */
export function trendPeriods(yearType: YearType, from: string, to: string): string[] {
  return isPeriod(yearType, from) && isPeriod(yearType, to) ? periodsBetween(yearType, from, to) : [];
}

/** What a native input of each granularity is: a year as a number, a month and a day as the browser's pickers. */
export const periodInputType: Record<YearType, 'number' | 'month' | 'date'> = { 1: 'number', 2: 'month', 3: 'date' };

/**
 * Why a trend span cannot be asked (the schema's own checks, src/lib/schemas/partner.ts), as a
 * message key, so the pickers say it before any call: the end before the start, or more periods
 * than `trendMaxBuckets`.
 */
export function trendSpanProblem(
  yearType: YearType,
  from: string,
  to: string,
): 'partner.trendOrder' | `partner.trendSpan.${YearType}` | undefined {
  if (!isPeriod(yearType, from) || !isPeriod(yearType, to)) return undefined;
  if (from > to) return 'partner.trendOrder';
  return periodCount(yearType, from, to) > trendMaxBuckets[yearType] ? `partner.trendSpan.${yearType}` : undefined;
}
