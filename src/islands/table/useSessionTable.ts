import { useSessionReady } from '../useSessionReady.ts';
import { useUrlTable, type UrlTableOptions } from './useUrlTable.ts';

/**
 * A list of the signed-in area: the URL-kept table (useUrlTable) loading once the session gate
 * has confirmed the user, with `view`, the state and handlers DataTable takes, so every island
 * spreads the same props instead of wiring paging, sorting and retry by hand.
 */
export function useSessionTable<Row>(options: Omit<UrlTableOptions, 'ready'>) {
  const ready = useSessionReady();
  const table = useUrlTable<Row>({ ...options, ready });
  const { state } = table;
  return {
    ...table,
    /** False until the session gate has confirmed the user. */
    ready,
    view: {
      load: table.load,
      rows: table.rows,
      totalCount: table.totalCount,
      page: state.page,
      pageSize: state.size,
      sort: state.sort[0],
      failure: table.failure,
      onSort: table.sortBy,
      onPage: (page: number) => table.patch({ page }),
      onPageSize: (size: number) => table.patch({ size }),
      onRetry: table.retry,
    },
  };
}
