/**
 * The settlement query (/partner/query/settlement): its messages, the month range it starts
 * with, how the address's state becomes the call's fields, and numbers in the page's language.
 */
import type { MessageKey } from '../../../lib/i18n/index.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { currentPeriod, settlementStatuses } from '../../../lib/partner.ts';
import type { TableQueryState, TableSort } from '../../../lib/tableRequest.ts';
import { dataTableMessageKeys } from '../../table/dataTable.ts';
import { exportMessageKeys } from '../../table/exportFile.ts';
import { outOfScopeMessageKeys } from '../OutOfScope.tsx';
import { partnerTreeMessageKeys } from '../partnerTree.ts';

export const settlementQueryMessageKeys = [
  ...dataTableMessageKeys,
  ...partnerTreeMessageKeys,
  ...exportMessageKeys,
  ...outOfScopeMessageKeys,
  'page.settlement.title',
  'partner.settlementStatus.1',
  'partner.settlementStatus.2',
  'settlement.filter.label',
  'settlement.filter.partner',
  'settlement.filter.allPartners',
  'settlement.filter.from',
  'settlement.filter.to',
  'settlement.filter.keyword',
  'settlement.filter.keywordHint',
  'settlement.filter.status',
  'settlement.filter.anyStatus',
  'settlement.filter.search',
  'settlement.filter.reset',
  'settlement.filter.monthOrder',
  'settlement.tree.label',
  'settlement.col.orderNo',
  'settlement.col.enterpriseName',
  'settlement.col.partnerName',
  'settlement.col.setName',
  'settlement.col.settleMonth',
  'settlement.col.settledEnergy',
  'settlement.col.contractPrice',
  'settlement.col.marketPrice',
  'settlement.col.settledAmount',
  'settlement.col.saving',
  'settlement.col.status',
  'settlement.empty',
  'settlement.export.hint',
] as const satisfies readonly MessageKey[];

export type SettlementQueryMessages = Record<(typeof settlementQueryMessageKeys)[number], string>;

export const statusOptions = settlementStatuses;

/** The table's own order (the server's default): newest month first. */
export const defaultSort: TableSort[] = [{ key: 'settleMonth', order: 'desc' }];

/**
 * The institution whose subtree is listed lives in the address as `filter.subtree=17`, so the
 * table machinery keeps it with the other filters (reload, back, page 1 on change); it is not a
 * column, so it leaves the table request and goes as the call's own `partnerId` field.
 */
export const SUBTREE = 'subtree';

function shiftMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (number - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The months shown when the address names none: the last three months before the current one
 * (China time). A month is settled after it ends, so the current month has nothing yet; last
 * month's results are provisional, the two before it usually final.
 */
export function defaultMonths(at: Date = new Date()): { start: string; end: string } {
  const current = currentPeriod(2, at);
  return { start: shiftMonth(current, -3), end: shiftMonth(current, -1) };
}

/** The month range in effect: the address's, each missing end from the default. */
export function monthsOf(state: TableQueryState): { start: string; end: string } {
  const range = state.ranges['settleMonth'];
  const fallback = defaultMonths();
  return {
    start: range?.start ?? (range?.end ? '' : fallback.start),
    end: range?.end ?? (range?.start ? '' : fallback.end),
  };
}

/** The table request's state: the default months filled in, the subtree taken out. */
export function toRequest(state: TableQueryState): TableQueryState {
  const { [SUBTREE]: _subtree, ...filters } = state.filters;
  const { start, end } = monthsOf(state);
  return {
    ...state,
    filters,
    ranges: { ...state.ranges, settleMonth: { ...(start ? { start } : {}), ...(end ? { end } : {}) } },
  };
}

/** The call's fields beside the table request: the chosen institution, if any. */
export function callFields(state: TableQueryState): Record<string, string> {
  const partnerId = state.filters[SUBTREE]?.[0];
  return partnerId ? { partnerId } : {};
}

const formats = new Map<string, Intl.NumberFormat>();

/** A number with exactly `digits` decimals in the page's language (MWh 3, 元/kWh 5, 元 2). */
export function formatFixed(value: number | null | undefined, locale: Locale, digits: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  const key = `${locale}:${digits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format.format(value);
}
