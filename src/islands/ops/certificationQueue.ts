/**
 * The operator's certification queue in the page address: the shared table state (`?page=&q=&sort=`,
 * src/lib/tableRequest.ts, kept by useSessionTable) and `?id=` for the enterprise under review, so
 * reload and back show the same place. The queue lists only enterprises under review, oldest
 * submission first unless the operator sorts otherwise.
 */
import type { BuildOptions, TableQueryOptions, TableQueryState } from '../../lib/tableRequest.ts';

export const queueQuery: TableQueryOptions = { sort: [{ key: 'submittedAt', order: 'asc' }] };
/** What the keyword searches: the name and the codes an operator has in hand. */
export const queueBuild: BuildOptions = { searchFields: ['enterpriseName', 'creditCode', 'clearanceAccount'] };

/** The request's state: whatever the address says, only enterprises under review (status 1). */
export function underReview(state: TableQueryState): TableQueryState {
  return { ...state, filters: { ...state.filters, authStatus: ['1'] } };
}

/** The enterprise under review in a query string, if any. */
export function readReviewedId(search: string): number | undefined {
  const id = Number(new URLSearchParams(search).get('id'));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** The query string (with `?`, or '') with the enterprise under review set or cleared; the table's keys stay. */
export function writeReviewedId(search: string, id: number | undefined): string {
  const params = new URLSearchParams(search);
  if (id === undefined) params.delete('id');
  else params.set('id', String(id));
  const query = params.toString();
  return query ? `?${query}` : '';
}
