/** The data table's messages, page sizes and sort state (DataTable.tsx; docs/orders-ui.md). */
import type { MessageKey } from '../../lib/i18n/index.ts';

/** The page sizes offered; the server accepts 1..100 (spec §3). */
export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;

export const dataTableMessageKeys = [
  'common.loading',
  'ordering.table.empty',
  'ordering.table.loadFailed',
  'ordering.table.retry',
  'ordering.table.sortedAsc',
  'ordering.table.sortedDesc',
  'ordering.table.sortBy',
  'ordering.table.pagination',
  'ordering.table.prev',
  'ordering.table.next',
  'ordering.table.first',
  'ordering.table.last',
  'ordering.table.pageOf',
  'ordering.table.summary',
  'ordering.table.pageSize',
] as const satisfies readonly MessageKey[];

export type DataTableMessages = Record<(typeof dataTableMessageKeys)[number], string>;
