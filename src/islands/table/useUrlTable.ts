import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  buildAntTable,
  defaultTableQuery,
  readTableQuery,
  updateTableQuery,
  writeTableQuery,
  type BuildOptions,
  type TableQueryOptions,
  type TableQueryState,
  type TableSort,
} from '../../lib/tableRequest.ts';
import { pushSearch, useLocationSearch } from '../locationSearch.ts';
import { callQuiet } from '../quietCall.ts';
import type { TableLoad } from './DataTable.tsx';

export interface UrlTableOptions {
  /** The table call (POST, `antTable` form field). */
  url: string;
  /** Defaults of the address (page size, default sort, prefix). */
  query?: TableQueryOptions;
  /** Keyword fields and columns of the request. */
  build?: BuildOptions;
  /** Turns the address's state into the state sent (e.g. whole days into China-time instants). */
  toRequest?: (state: TableQueryState) => TableQueryState;
  /**
   * Fields the call takes beside `antTable`, from the address's state (e.g. the settlement
   * table's institution subtree `partnerId`, kept in the address as a pseudo-filter that
   * `toRequest` takes out of the table request).
   */
  fields?: (state: TableQueryState) => Record<string, string>;
  /** False until the session gate has confirmed the user. */
  ready: boolean;
}

/**
 * The order after a header is activated: another column starts ascending, then descending, then
 * the table's default order; the default column itself (newest first) flips between its two
 * directions, so activating it always visibly does something.
 */
export function nextSort(current: readonly TableSort[], defaults: readonly TableSort[], key: string): TableSort[] {
  const shown = (current.length ? current : defaults)[0];
  const order = shown?.key === key ? shown.order : undefined;
  if (order === undefined) return [{ key, order: 'asc' }];
  if (order === 'asc') return [{ key, order: 'desc' }];
  return defaults[0]?.key === key ? [{ key, order: 'asc' }] : [...defaults];
}

interface Page<Row> {
  result: Row[];
  totalCount: number;
}

/**
 * A server-paged table whose state lives in the URL query (src/lib/tableRequest.ts): read from
 * the address (useLocationSearch: at load and on back/forward), written with pushState on every
 * change, so reload, back and a shared link show the same rows. Loading is derived from which
 * request the last answer belongs to (the previous rows stay until the new ones arrive);
 * answers that arrive after a newer request are dropped.
 */
export function useUrlTable<Row>({ url, query, build, toRequest, fields, ready }: UrlTableOptions) {
  const search = useLocationSearch();
  // The options as text: plain data, so a caller's new object with the same values changes nothing.
  const queryKey = JSON.stringify(query ?? {});
  const state = useMemo(() => {
    const options = JSON.parse(queryKey) as TableQueryOptions;
    return search === undefined ? defaultTableQuery(options) : readTableQuery(new URLSearchParams(search), options);
  }, [search, queryKey]);
  const [attempt, setAttempt] = useState(0);
  const [answered, setAnswered] = useState<Answered<Row>>({
    key: '',
    load: 'loading',
    page: { result: [], totalCount: 0 },
    failure: noFailure,
  });
  const latest = useRef(0);
  // The options are the caller's constants; keep them out of the effects' dependencies.
  const config = useRef({ url, query, build, toRequest, fields });
  useEffect(() => {
    config.current = { url, query, build, toRequest, fields };
  });

  // The request of this render, as text: the address's state and the attempt (a retry asks
  // again); '' until the address has been read. Only a new text asks again (another island's
  // own keys in the address, a re-render, change nothing).
  const requestKey = search === undefined ? '' : JSON.stringify([state, attempt]);

  useEffect(() => {
    if (!ready || requestKey === '') return;
    const id = ++latest.current;
    const [asked] = JSON.parse(requestKey) as [TableQueryState, number];
    const { url: target, build: buildOptions, toRequest: convert, fields: extra } = config.current;
    const body = { ...extra?.(asked), antTable: buildAntTable(convert ? convert(asked) : asked, buildOptions) };
    void callQuiet<Page<Row>>('POST', target, body).then((answer) => {
      if (id !== latest.current) return;
      setAnswered((last) =>
        answer?.ok
          ? { key: requestKey, load: 'ready', page: answer.data, failure: noFailure }
          : {
              key: requestKey,
              load: 'failed',
              page: last.page,
              failure: answer ? { code: answer.code, message: answer.message } : noFailure,
            },
      );
    });
  }, [requestKey, ready]);

  const load: TableLoad = answered.key === requestKey ? answered.load : 'loading';
  const page = answered.page;
  const failure = load === 'failed' ? answered.failure : noFailure;

  const change = useCallback((next: TableQueryState) => {
    pushSearch(writeTableQuery(next, new URLSearchParams(window.location.search), config.current.query).toString());
  }, []);

  // Stable, so an island may reload from an effect (e.g. on returning to the list).
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // A page emptied under the reader (the last order of it deleted elsewhere): show the last page.
  useEffect(() => {
    if (load === 'ready' && page.result.length === 0 && page.totalCount > 0 && state.page > 1) {
      change(updateTableQuery(state, { page: Math.max(1, Math.ceil(page.totalCount / state.size)) }));
    }
  }, [load, page, state, change]);

  return {
    state,
    load,
    rows: page.result,
    totalCount: page.totalCount,
    /** The server's refusal of the last load (its message), '' when none. */
    failure: failure.message,
    /** Its code (403: the caller may not see this table at all), 0 when none. */
    failureCode: failure.code,
    change,
    patch: (patch: Partial<TableQueryState>) => change(updateTableQuery(state, patch)),
    sortBy: (key: string) =>
      change(updateTableQuery(state, { sort: nextSort(state.sort, config.current.query?.sort ?? [], key) })),
    retry,
  };
}

interface Answered<Row> {
  /** The request it answers (state and attempt). */
  key: string;
  load: TableLoad;
  page: Page<Row>;
  failure: { code: number; message: string };
}

const noFailure = { code: 0, message: '' };
