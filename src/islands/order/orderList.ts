/** The orders tables' messages and address defaults (my orders, the overview's latest, the operator's queue). */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { TableQueryState, TableSort } from '../../lib/tableRequest.ts';
import { dataTableMessageKeys } from '../table/dataTable.ts';
import { daysAsInstants } from '../table/dayRange.ts';
import { orderStatusKeys } from './orderView.ts';

/** Newest first until the reader sorts otherwise. */
export const newestFirst: readonly TableSort[] = [{ key: 'createdAt', order: 'desc' }];

export const orderFilterMessageKeys = [
  ...orderStatusKeys,
  'ordering.filter.status',
  'ordering.filter.allStatuses',
  'ordering.filter.keyword',
  'ordering.filter.createdFrom',
  'ordering.filter.createdTo',
  'ordering.filter.search',
  'ordering.filter.reset',
] as const satisfies readonly MessageKey[];

export type OrderFilterMessages = Record<(typeof orderFilterMessageKeys)[number], string>;

export const orderColumnMessageKeys = [
  'ordering.col.orderNo',
  'ordering.col.setName',
  'ordering.col.orgComName',
  'ordering.col.schemeParamName',
  'ordering.col.contractStart',
  'ordering.col.contractMonths',
  'ordering.col.estimatedConsumption',
  'ordering.col.status',
  'ordering.col.createdAt',
] as const satisfies readonly MessageKey[];

export const orderListMessageKeys = [
  ...dataTableMessageKeys,
  ...orderFilterMessageKeys,
  ...orderColumnMessageKeys,
  'page.order.title',
  'ordering.filter.label',
  'ordering.filter.keywordHint',
  'ordering.list.empty',
  'ordering.list.emptyFiltered',
  'ordering.list.newOrder',
  'ordering.gate.noEnterprise',
  'ordering.gate.bind',
] as const satisfies readonly MessageKey[];

export type OrderListMessages = Record<(typeof orderListMessageKeys)[number], string>;

/** The order-date filter's whole days as China-time instants (see dayRange.ts). */
export const createdDaysAsInstants = daysAsInstants('createdAt');

/** Whether the reader has narrowed the table (an empty answer then means "nothing matches"). */
export function isFiltered(state: TableQueryState): boolean {
  return (
    state.keyword.trim() !== '' ||
    Object.keys(state.filters).length > 0 ||
    Object.keys(state.ranges).length > 0 ||
    Object.keys(state.likes).length > 0
  );
}
