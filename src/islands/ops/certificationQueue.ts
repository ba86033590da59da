/**
 * The operator's certification queue in the page address: `?page=&q=` for the list (the shared
 * table state, src/lib/tableRequest.ts) and `?id=` for the enterprise under review, so reload and
 * back show the same place. The queue is always "under review, oldest submission first".
 */
import { buildAntTable, readTableQuery, writeTableQuery, type TableQueryState, type TableSort } from '../../lib/tableRequest.ts';

export const QUEUE_PAGE_SIZE = 10;
const queueSort: readonly TableSort[] = [{ key: 'submittedAt', order: 'asc' }];
const queueOptions = { size: QUEUE_PAGE_SIZE, sort: queueSort };
/** What the keyword searches: the name and the codes an operator has in hand. */
const searchFields = ['enterpriseName', 'creditCode', 'clearanceAccount'];

export interface QueueAddress {
  table: TableQueryState;
  /** The enterprise being reviewed, if any. */
  id: number | undefined;
}

export function readQueueAddress(search: string): QueueAddress {
  const params = new URLSearchParams(search);
  const id = Number(params.get('id'));
  return { table: readTableQuery(params, queueOptions), id: Number.isInteger(id) && id > 0 ? id : undefined };
}

/** The query string (with `?`, or '' for the bare queue) of an address. */
export function writeQueueAddress(address: QueueAddress): string {
  const params = writeTableQuery(address.table, new URLSearchParams(), queueOptions);
  if (address.id !== undefined) params.set('id', String(address.id));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The table request of the queue: only enterprises under review (status 1). */
export function queueRequest(table: TableQueryState): string {
  return buildAntTable({ ...table, filters: { ...table.filters, authStatus: ['1'] } }, { searchFields });
}
