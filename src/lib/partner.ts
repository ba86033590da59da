/**
 * The partner area's codes and periods (DOMAIN.md; docs/partner.md), pure and shared by the
 * pages, the server and the tests. Every locale shows the codes as words
 * (`partner.level.<code>`, `partner.settlementStatus.<code>`, `partner.metric.<name>`).
 */
import { chinaDate } from './chinaTime.ts';

/** 1 head office (总行), 2 branch (分行), 3 sub-branch (支行). */
export const partnerLevels = [1, 2, 3] as const;
export type PartnerLevel = (typeof partnerLevels)[number];

/** 1 provisional (预结算), 2 final (正式结算). */
export const settlementStatuses = [1, 2] as const;
export type SettlementStatus = (typeof settlementStatuses)[number];

/** Analysis granularity (spec §3, DOMAIN.md): 1 by year, 2 by month, 3 by day; default 1. */
export const yearTypes = [1, 2, 3] as const;
export type YearType = (typeof yearTypes)[number];
export const defaultYearType: YearType = 1;

/** A period's text at each granularity (spec §9): YYYY, YYYY-MM, YYYY-MM-DD. */
export const periodPatterns: Record<YearType, RegExp> = {
  1: /^\d{4}$/,
  2: /^\d{4}-(0[1-9]|1[0-2])$/,
  3: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
};

/** Most buckets a trend may span at each granularity (one table page holds them all). */
export const trendMaxBuckets: Record<YearType, number> = { 1: 20, 2: 60, 3: 92 };

/**
 * The years a period may name. China's retail electricity market opened in 2015; the bounds keep
 * every period a four-digit year whose text sorts like its value, so no period arithmetic can
 * step past 9999 into five digits (where '10000' < '9999' as text) or before year 1.
 */
export const periodYears = { first: 2000, last: 2099 } as const;

/** A hard bound on any list of periods (above every trend span): no loop over periods runs longer. */
const periodListLimit = 400;

/** The metrics of an institution (statistics); the comparison uses those marked `byClass`. */
export const partnerMetrics = [
  'registeredEnterprises',
  'certifiedEnterprises',
  'orders',
  'ordersInForce',
  'contractedEnergy',
  'settledEnergy',
  'settledAmount',
  'saving',
] as const;
export type PartnerMetric = (typeof partnerMetrics)[number];

/** Metrics that can be split by a classification (an enterprise has no product). */
export const classifiedMetrics = ['orders', 'contractedEnergy', 'settledEnergy', 'settledAmount', 'saving'] as const;
export type ClassifiedMetric = (typeof classifiedMetrics)[number];

/** What the institution comparison splits by: the product of the order, or its province. */
export const classifications = ['product', 'area'] as const;
export type Classification = (typeof classifications)[number];

/** How each metric is shown: a count, energy in MWh (3 decimals) or money in 元 (2 decimals). */
export const metricUnits: Record<PartnerMetric, 'count' | 'energy' | 'money'> = {
  registeredEnterprises: 'count',
  certifiedEnterprises: 'count',
  orders: 'count',
  ordersInForce: 'count',
  contractedEnergy: 'energy',
  settledEnergy: 'energy',
  settledAmount: 'money',
  saving: 'money',
};

/** Most institutions compared side by side. */
export const compareMaxPartners = 8;

/** Rows an export writes at most (stated in the file name's page and docs/partner.md). */
export const exportRowCap = 200_000;

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The current period at a granularity, in China time: `2026`, `2026-11` or `2026-11-22`. */
export function currentPeriod(yearType: YearType, at: Date = new Date()): string {
  const day = chinaDate(at);
  return yearType === 1 ? day.slice(0, 4) : yearType === 2 ? day.slice(0, 7) : day;
}

/** A granularity code: 1, 2 or 3 (anything else, such as a failed parse's leftover, is not). */
export function isYearType(value: unknown): value is YearType {
  return (yearTypes as readonly unknown[]).includes(value);
}

/**
 * A period text is well-formed for its granularity, within `periodYears` and, for a day, a real
 * calendar day. False for a granularity that is not 1–3.
 */
export function isPeriod(yearType: YearType, text: string): boolean {
  if (!isYearType(yearType) || !periodPatterns[yearType].test(text)) return false;
  const year = Number(text.slice(0, 4));
  if (year < periodYears.first || year > periodYears.last) return false;
  if (yearType !== 3) return true;
  const [, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The days a period covers, as a half-open range of calendar days `[start, next)`, both
 * `YYYY-MM-DD`: `2025` → 2025-01-01..2026-01-01, `2025-02` → 2025-02-01..2025-03-01.
 */
export function periodDays(yearType: YearType, period: string): { start: string; next: string } {
  if (yearType === 1) return { start: `${period}-01-01`, next: `${Number(period) + 1}-01-01` };
  if (yearType === 2) {
    const [year, month] = period.split('-').map(Number) as [number, number];
    const next = month === 12 ? `${year + 1}-01` : `${year}-${pad(month + 1)}`;
    return { start: `${period}-01`, next: `${next}-01` };
  }
  const [year, month, day] = period.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return { start: period, next: `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}` };
}

/** How many periods `from`..`to` spans, inclusive (0 when `from` is after `to`), without listing them. */
export function periodCount(yearType: YearType, from: string, to: string): number {
  const [fromYear, fromMonth = 1, fromDay = 1] = from.split('-').map(Number) as [number, number?, number?];
  const [toYear, toMonth = 1, toDay = 1] = to.split('-').map(Number) as [number, number?, number?];
  const count =
    yearType === 1
      ? toYear - fromYear
      : yearType === 2
        ? (toYear - fromYear) * 12 + (toMonth - fromMonth)
        : (Date.UTC(toYear, toMonth - 1, toDay) - Date.UTC(fromYear, fromMonth - 1, fromDay)) / 86_400_000;
  return Math.max(0, count + 1);
}

/**
 * The periods from `from` to `to` inclusive at a granularity (empty when `from` is after `to`).
 * The count is computed first and the loop runs exactly that often, never more than
 * `periodListLimit` times: a span beyond it is a caller's bug, thrown rather than looped over.
 */
export function periodsBetween(yearType: YearType, from: string, to: string): string[] {
  const count = periodCount(yearType, from, to);
  if (!Number.isInteger(count) || count > periodListLimit) {
    throw new RangeError(`periodsBetween: ${count} periods from ${from} to ${to} (limit ${periodListLimit})`);
  }
  const periods: string[] = [];
  let period = from;
  for (let index = 0; index < count; index++) {
    periods.push(period);
    const next = periodDays(yearType, period).next;
    period = yearType === 1 ? next.slice(0, 4) : yearType === 2 ? next.slice(0, 7) : next;
  }
  return periods;
}
