import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RequestData } from '../../../lib/api/encode.ts';
import {
  buildAntTable,
  defaultTableQuery,
  readTableQuery,
  updateTableQuery,
  writeTableQuery,
  type TableQueryOptions,
  type TableQueryState,
} from '../../../lib/tableRequest.ts';
import { pushSearch, useLocationSearch } from '../../locationSearch.ts';
import { callQuiet } from '../../quietCall.ts';
import type { TableLoad } from '../../table/DataTable.tsx';
import { nextSort } from '../../table/useUrlTable.ts';
import { useSessionReady } from '../../useSessionReady.ts';

export interface AnalysisTableOptions<P> {
  /** The analysis call (POST, `antTable` beside the page's own fields). */
  url: string;
  /** The table's defaults in the address (page size, default sort). */
  query?: TableQueryOptions;
  /** The page's own state from the address (analysisQuery.ts). */
  readParams: (search: URLSearchParams) => P;
  /** …and back into it (the table's keys stay). */
  writeParams: (params: P, base: URLSearchParams) => URLSearchParams;
  /** The call's fields beside `antTable`; undefined when the state cannot be asked yet (fewer than two institutions). */
  body: (params: P) => RequestData | undefined;
}

export type AnalysisLoad = TableLoad | 'idle';

interface Answer {
  result: unknown[];
  totalCount: number;
}

/**
 * An analysis table: like useSessionTable (src/islands/table/), the table's page, size and sort
 * live in the address, and so do the page's own fields (granularity, period, institutions…), in
 * one history entry per change, so reload, back/forward and a shared link show the same rows and
 * chart. The call carries those fields beside `antTable`, and the whole answer is kept (it says
 * which period or span the server used when the address named none; the last one stays on screen
 * while the next loads). Answers that arrive after a newer request are dropped; calls wait for the
 * session gate.
 */
export function useAnalysisTable<P, A extends Answer>({
  url,
  query,
  readParams,
  writeParams,
  body,
}: AnalysisTableOptions<P>) {
  const ready = useSessionReady();
  const config = useRef({ url, query, readParams, writeParams, body });
  useEffect(() => {
    config.current = { url, query, readParams, writeParams, body };
  });
  // The address is the state (useLocationSearch); undefined while hydrating.
  const search = useLocationSearch();
  const queryKey = JSON.stringify(query ?? {});
  const state = useMemo(() => {
    const options = JSON.parse(queryKey) as TableQueryOptions;
    return search === undefined ? defaultTableQuery(options) : readTableQuery(new URLSearchParams(search), options);
  }, [search, queryKey]);
  const params = useMemo(
    () => (search === undefined ? undefined : readParams(new URLSearchParams(search))),
    [search, readParams],
  );
  const [attempt, setAttempt] = useState(0);
  // The last answer and the request it answers: loading is derived from it, never set before a call.
  const [answered, setAnswered] = useState<{ key: string; load: AnalysisLoad; answer: A | undefined; failure: string }>(
    {
      key: '',
      load: 'loading',
      answer: undefined,
      failure: '',
    },
  );
  const latest = useRef(0);

  // The call's own fields as text: a change that only the chart uses (its metric) asks nothing new.
  // The request as text ('' until the address has been read): only a new text asks again.
  const requestKey = params === undefined ? '' : JSON.stringify([state, body(params) ?? null, attempt]);

  useEffect(() => {
    if (!ready || requestKey === '') return;
    const id = ++latest.current;
    const [asked, fields] = JSON.parse(requestKey) as [TableQueryState, RequestData | null, number];
    // Nothing to ask yet (fewer than two institutions): idle, no answer.
    const call = fields
      ? callQuiet<A>('POST', config.current.url, { ...fields, antTable: buildAntTable(asked) })
      : Promise.resolve(null);
    void call.then((outcome) => {
      if (id !== latest.current) return;
      setAnswered((last) =>
        outcome === null
          ? { key: requestKey, load: 'idle', answer: undefined, failure: '' }
          : outcome?.ok
            ? { key: requestKey, load: 'ready', answer: outcome.data, failure: '' }
            : { key: requestKey, load: 'failed', answer: last.answer, failure: outcome?.message ?? '' },
      );
    });
  }, [requestKey, ready]);

  const load: AnalysisLoad = answered.key === requestKey ? answered.load : 'loading';
  const { answer } = answered;
  const failure = load === 'failed' ? answered.failure : '';

  /** One history entry for a new table state and/or page state. */
  const change = useCallback((nextState: TableQueryState, nextParams: P) => {
    const { query: options, writeParams: write } = config.current;
    const base = new URLSearchParams(window.location.search);
    pushSearch(writeTableQuery(nextState, write(nextParams, base), options).toString());
  }, []);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // A page emptied under the reader (fewer rows under a new period): show the last page.
  useEffect(() => {
    if (
      load === 'ready' &&
      answer &&
      answer.result.length === 0 &&
      answer.totalCount > 0 &&
      state.page > 1 &&
      params !== undefined
    ) {
      change(updateTableQuery(state, { page: Math.max(1, Math.ceil(answer.totalCount / state.size)) }), params);
    }
  }, [load, answer, state, params, change]);

  const patchTable = (patch: Partial<TableQueryState>) => {
    if (params !== undefined) change(updateTableQuery(state, patch), params);
  };

  return {
    ready,
    /** The page's own state; undefined until the address has been read. */
    params,
    state,
    load,
    answer,
    failure,
    retry,
    /** New page fields: the table goes back to its first page. */
    setParams: (next: P) => change(updateTableQuery(state, { page: 1 }), next),
    /** A change that only the chart uses (the metric shown): same rows, same page. */
    setChartParams: (next: P) => change(state, next),
    /** What DataTable takes. */
    view: {
      load: (load === 'idle' ? 'ready' : load) as TableLoad,
      rows: (answer?.result ?? []) as A['result'],
      totalCount: answer?.totalCount ?? 0,
      page: state.page,
      pageSize: state.size,
      sort: state.sort[0],
      failure,
      onSort: (key: string) => patchTable({ sort: nextSort(state.sort, config.current.query?.sort ?? [], key) }),
      onPage: (page: number) => patchTable({ page }),
      onPageSize: (size: number) => patchTable({ size }),
      onRetry: retry,
    },
  };
}
