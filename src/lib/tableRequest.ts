/**
 * A table's state in the page address, and the `antTable` request built from it (browser side).
 * Tables keep page, size, sort, filters, keyword, contains-matches and ranges in the URL query so
 * that reload, back/forward and a shared link show the same rows. Pure functions only: the island
 * reads `location.search`, changes the state with `updateTableQuery`, writes it back with
 * `history.pushState` and sends `buildAntTable(state)` as the call's `antTable` field.
 *
 * Query keys (with an optional prefix when a page holds two tables):
 *   page=2  size=20  q=keyword  sort=createdAt:desc (repeated, first = primary)
 *   filter.status=10 (repeated: one key per value)  like.setName=峰谷
 *   from.createdAt=2026-11-01  to.createdAt=2026-11-22
 * Values the state's defaults already give are left out, so a fresh table has a bare address.
 * Reading is lenient (a hand-edited address never throws; nonsense is dropped) because the server
 * checks the request again and answers a clear 400 for anything a table does not allow.
 * @example
 * const state = readTableQuery(new URLSearchParams(location.search), { size: 20 });
 * const next = updateTableQuery(state, { filters: { status: ['10', '20'] } }); // back to page 1
 * history.pushState(null, '', `?${writeTableQuery(next, new URLSearchParams(location.search), { size: 20 })}`);
 * await api.post(path, { antTable: buildAntTable(next) });
 */
import type { TableRequestInput } from './schemas/table.ts';
import { tableFieldPattern, tableLimits } from './tableLimits.ts';

export type SortOrder = 'asc' | 'desc';

export interface TableSort {
  key: string;
  order: SortOrder;
}

export interface TableRange {
  start?: string;
  end?: string;
}

export interface TableQueryState {
  page: number;
  size: number;
  /** First entry is the primary order. */
  sort: TableSort[];
  keyword: string;
  /** Field → accepted values (any of them). */
  filters: Record<string, string[]>;
  /** Field → text the field must contain. */
  likes: Record<string, string>;
  /** Field → inclusive bounds. */
  ranges: Record<string, TableRange>;
}

export interface TableQueryOptions {
  /** Page size when the address gives none (default 10). */
  size?: number;
  /** Order when the address gives none (default: the table's own default order). */
  sort?: readonly TableSort[];
  /** Key prefix, for a second table on one page (e.g. `t2.` → `t2.page`). */
  prefix?: string;
}

/** The state of a table nobody has touched. */
export function defaultTableQuery(options: TableQueryOptions = {}): TableQueryState {
  return {
    page: 1,
    size: options.size ?? tableLimits.defaultPageSize,
    sort: [...(options.sort ?? [])],
    keyword: '',
    filters: {},
    likes: {},
    ranges: {},
  };
}

function isField(name: string): boolean {
  return tableFieldPattern.test(name);
}

/** A positive integer from a query value, else undefined. */
function positiveInt(value: string | null, max: number): number | undefined {
  if (value === null || !/^\d{1,9}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= 1 && number <= max ? number : undefined;
}

function parseSort(value: string): TableSort | undefined {
  const [key = '', order = 'asc', ...rest] = value.split(':');
  if (rest.length || !isField(key)) return undefined;
  if (order === 'asc' || order === 'ascend') return { key, order: 'asc' };
  if (order === 'desc' || order === 'descend') return { key, order: 'desc' };
  return undefined;
}

/** Reads a table's state from the URL query; anything malformed falls back to the defaults. */
export function readTableQuery(params: URLSearchParams, options: TableQueryOptions = {}): TableQueryState {
  const prefix = options.prefix ?? '';
  const state = defaultTableQuery(options);
  state.page = positiveInt(params.get(`${prefix}page`), tableLimits.maxCurrent) ?? 1;
  state.size = positiveInt(params.get(`${prefix}size`), tableLimits.maxPageSize) ?? state.size;
  const sorts = params
    .getAll(`${prefix}sort`)
    .map(parseSort)
    .filter((sort): sort is TableSort => sort !== undefined);
  const seen = new Set<string>();
  const unique = sorts.filter((sort) => !seen.has(sort.key) && seen.add(sort.key));
  if (unique.length) state.sort = unique.slice(0, tableLimits.maxSorters);
  state.keyword = (params.get(`${prefix}q`) ?? '').slice(0, tableLimits.maxText);

  for (const [key, value] of params) {
    if (!key.startsWith(prefix)) continue;
    const [part = '', field = '', ...rest] = key.slice(prefix.length).split('.');
    if (rest.length || !isField(field) || value === '') continue;
    const text = value.slice(0, tableLimits.maxText);
    if (part === 'filter') {
      const values = (state.filters[field] ??= []);
      if (!values.includes(text) && values.length < tableLimits.maxFilterValues) values.push(text);
    } else if (part === 'like') {
      state.likes[field] = text;
    } else if (part === 'from') {
      (state.ranges[field] ??= {}).start = text;
    } else if (part === 'to') {
      (state.ranges[field] ??= {}).end = text;
    }
  }
  return state;
}

const tablePart = /^(?:page|size|q|sort|(?:filter|like|from|to)\.[^.]+)$/;

/**
 * Writes the state into a copy of `base` (the page's other query keys stay), leaving out what the
 * defaults give; the result is what goes after `?`.
 */
export function writeTableQuery(
  state: TableQueryState,
  base: URLSearchParams = new URLSearchParams(),
  options: TableQueryOptions = {},
): URLSearchParams {
  const prefix = options.prefix ?? '';
  const defaults = defaultTableQuery(options);
  const params = new URLSearchParams();
  for (const [key, value] of base) {
    const own = key.startsWith(prefix) && tablePart.test(key.slice(prefix.length));
    if (!own) params.append(key, value);
  }
  if (state.page !== 1) params.set(`${prefix}page`, String(state.page));
  if (state.size !== defaults.size) params.set(`${prefix}size`, String(state.size));
  if (state.keyword.trim() !== '') params.set(`${prefix}q`, state.keyword);
  if (!sameSort(state.sort, defaults.sort)) {
    for (const sort of state.sort) params.append(`${prefix}sort`, `${sort.key}:${sort.order}`);
  }
  for (const [field, values] of Object.entries(state.filters)) {
    for (const value of values) params.append(`${prefix}filter.${field}`, value);
  }
  for (const [field, value] of Object.entries(state.likes)) {
    if (value !== '') params.set(`${prefix}like.${field}`, value);
  }
  for (const [field, range] of Object.entries(state.ranges)) {
    if (range.start) params.set(`${prefix}from.${field}`, range.start);
    if (range.end) params.set(`${prefix}to.${field}`, range.end);
  }
  return params;
}

function sameSort(a: readonly TableSort[], b: readonly TableSort[]): boolean {
  return a.length === b.length && a.every((sort, i) => sort.key === b[i]?.key && sort.order === b[i]?.order);
}

/**
 * A changed state: any change other than the page itself starts again on page 1 (page 7 of the
 * old filter means nothing under the new one). Empty filter lists, likes and ranges are removed.
 */
export function updateTableQuery(state: TableQueryState, patch: Partial<TableQueryState>): TableQueryState {
  const next: TableQueryState = { ...state, ...patch };
  const onlyPage = Object.keys(patch).every((key) => key === 'page');
  if (!onlyPage && patch.page === undefined) next.page = 1;
  next.filters = Object.fromEntries(Object.entries(next.filters).filter(([, values]) => values.length > 0));
  next.likes = Object.fromEntries(Object.entries(next.likes).filter(([, value]) => value !== ''));
  next.ranges = Object.fromEntries(
    Object.entries(next.ranges).filter(([, range]) => Boolean(range.start) || Boolean(range.end)),
  );
  return next;
}

/**
 * The next sort when a column header is activated: ascending → descending → the table's default
 * (none of ours); another column becomes the only sort.
 */
export function toggleSort(state: TableQueryState, key: string): TableQueryState {
  const current = state.sort[0]?.key === key ? state.sort[0].order : undefined;
  const sort: TableSort[] =
    current === undefined ? [{ key, order: 'asc' }] : current === 'asc' ? [{ key, order: 'desc' }] : [];
  return updateTableQuery(state, { sort });
}

export interface BuildOptions {
  /** Fields the keyword searches (default: every searchable field of the table). */
  searchFields?: readonly string[];
  /** Columns to fetch (default: every column the table shows). */
  select?: readonly string[];
}

/** The `antTable` request object for a state. */
export function toTableRequest(state: TableQueryState, options: BuildOptions = {}): TableRequestInput {
  const request: TableRequestInput = { pager: { current: state.page, pageSize: state.size } };
  if (options.select?.length) request.select = [...options.select];
  const keyword = state.keyword.trim();
  if (keyword !== '') {
    request.search = { keyword, ...(options.searchFields?.length ? { select: [...options.searchFields] } : {}) };
  }
  const likes = Object.entries(state.likes).filter(([, value]) => value.trim() !== '');
  if (likes.length) request.liker = Object.fromEntries(likes);
  const filters = Object.entries(state.filters).filter(([, values]) => values.length > 0);
  if (filters.length) request.filter = Object.fromEntries(filters.map(([field, values]) => [field, [...values]]));
  const ranges = Object.entries(state.ranges).filter(([, range]) => Boolean(range.start) || Boolean(range.end));
  if (ranges.length) {
    request.range = Object.fromEntries(
      ranges.map(([field, range]) => [
        field,
        { ...(range.start ? { start: range.start } : {}), ...(range.end ? { end: range.end } : {}), self: true },
      ]),
    );
  }
  if (state.sort.length)
    request.sorter = state.sort.map((sort) => ({ key: sort.key, sort: sort.order === 'asc' ? 'ascend' : 'descend' }));
  return request;
}

/** The `antTable` JSON string for a state: what a table call sends. */
export function buildAntTable(state: TableQueryState, options: BuildOptions = {}): string {
  return JSON.stringify(toTableRequest(state, options));
}

/**
 * The state a request describes (the reverse of `toTableRequest`): values become strings, the
 * keyword's field list and the column list are not part of the state.
 */
export function fromTableRequest(request: TableRequestInput, options: TableQueryOptions = {}): TableQueryState {
  const state = defaultTableQuery(options);
  state.page = Number(request.pager?.current ?? 1);
  state.size = Number(request.pager?.pageSize ?? state.size);
  state.keyword = request.search?.keyword ?? '';
  if (request.sorter?.length) {
    state.sort = request.sorter.map((sorter) => ({
      key: sorter.key,
      order: sorter.sort === 'ascend' || sorter.sort === 'asc' ? 'asc' : 'desc',
    }));
  }
  for (const [field, values] of Object.entries(request.filter ?? {})) state.filters[field] = values.map(String);
  for (const [field, value] of Object.entries(request.liker ?? {})) state.likes[field] = value;
  for (const [field, range] of Object.entries(request.range ?? {})) {
    const bounds: TableRange = {};
    if (range.start !== undefined && range.start !== null && range.start !== '') bounds.start = String(range.start);
    if (range.end !== undefined && range.end !== null && range.end !== '') bounds.end = String(range.end);
    state.ranges[field] = bounds;
  }
  return state;
}
