import { useCallback, useEffect, useRef, useState } from 'react';
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
 * A server-paged table whose state lives in the URL query (src/lib/tableRequest.ts): read at
 * load and on back/forward, written with pushState on every change, so reload, back and a
 * shared link show the same rows. Answers that arrive after a newer request are dropped.
 */
export function useUrlTable<Row>({ url, query, build, toRequest, fields, ready }: UrlTableOptions) {
  const [state, setState] = useState<TableQueryState>(() => defaultTableQuery(query));
  const [fromUrl, setFromUrl] = useState(false);
  const [load, setLoad] = useState<TableLoad>('loading');
  const [page, setPage] = useState<Page<Row>>({ result: [], totalCount: 0 });
  const [failure, setFailure] = useState({ code: 0, message: '' });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  // The options are the caller's constants; keep them out of the effects' dependencies.
  const config = useRef({ url, query, build, toRequest, fields });
  config.current = { url, query, build, toRequest, fields };

  useEffect(() => {
    const read = () => setState(readTableQuery(new URLSearchParams(window.location.search), config.current.query));
    read();
    setFromUrl(true);
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, []);

  useEffect(() => {
    if (!ready || !fromUrl) return;
    const id = ++latest.current;
    setLoad('loading');
    const { url: target, build: buildOptions, toRequest: convert, fields: extra } = config.current;
    const body = { ...extra?.(state), antTable: buildAntTable(convert ? convert(state) : state, buildOptions) };
    void callQuiet<Page<Row>>('POST', target, body).then((answer) => {
      if (id !== latest.current) return;
      if (answer?.ok) {
        setPage(answer.data);
        setFailure({ code: 0, message: '' });
        setLoad('ready');
      } else {
        setFailure(answer ? { code: answer.code, message: answer.message } : { code: 0, message: '' });
        setLoad('failed');
      }
    });
  }, [state, ready, fromUrl, attempt]);

  const change = useCallback((next: TableQueryState) => {
    const params = writeTableQuery(next, new URLSearchParams(window.location.search), config.current.query).toString();
    window.history.pushState(null, '', `${window.location.pathname}${params ? `?${params}` : ''}${window.location.hash}`);
    setState(next);
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
    sortBy: (key: string) => change(updateTableQuery(state, { sort: nextSort(state.sort, config.current.query?.sort ?? [], key) })),
    retry,
  };
}
