/**
 * The table-request engine (DOMAIN.md, "The table request"; docs/tables.md). A feature defines
 * its table once — what it reads from, its columns with their SQL, type and what each may be used
 * for, a default order and a unique tie-breaker — and every table call of that feature goes
 * through `runTable` (one page) or `streamTable` (exports, no paging, a stated row cap).
 *
 * Safety by construction: identifiers and SQL come only from the definition; every value of the
 * request is checked against the column's type, canonicalised and sent as a bound parameter with
 * an explicit cast, so the SQL text never contains anything the caller sent, and a value that
 * passes the check cannot make the database fail. Every field name is checked against the
 * allow-list of the part it is used in. Anything wrong answers 400 with a localized message
 * naming the field (the `table` message namespace), never a 500.
 * @example
 * const ordersTable = defineTable({
 *   from: sql`orders o`,
 *   columns: { orderNo: { sql: sql`o.order_no`, type: 'text', search: true, sort: true }, … },
 *   defaultSort: [{ key: 'createdAt', sort: 'descend' }],
 *   tieBreaker: sql`o.id`,
 * });
 * return ok(c, await runTable(db, ordersTable, await readTableRequest(c), { scope: sql`o.enterprise_id = ${id}` }));
 */
import { sql, type SQL } from 'drizzle-orm';
import { ApiCode } from '../../lib/apiCodes.ts';
import { chinaOffset } from '../../lib/chinaTime.ts';
import type { MessageKey, MessageVars } from '../../lib/i18n/index.ts';
import {
  normalizeDirection,
  tableRequestSchema,
  type SortDirection,
  type TableAnswer,
  type TableRequest,
  type TableValue,
} from '../../lib/schemas/table.ts';
import { isCleanText } from '../../lib/schemas/text.ts';
import { tableFieldPattern, tableLimits } from '../../lib/tableLimits.ts';
import { rowsOf, type Database } from '../db/client.ts';
import { ApiError } from '../apiError.ts';
import { type AnyContext } from '../envelope.ts';
import { readBody } from '../validate.ts';

export type ColumnType = 'text' | 'int' | 'number' | 'date' | 'month' | 'timestamp' | 'boolean';

/** What a value of each column type is in an answer row (null when the column is). */
export interface ColumnValues {
  text: string;
  int: number;
  number: number;
  /** `YYYY-MM-DD` */
  date: string;
  /** `YYYY-MM` (the column holds the month's first day as a `date`) */
  month: string;
  /** ISO 8601 in UTC, `2026-11-22T01:02:03.456Z` (the column is a `timestamptz`) */
  timestamp: string;
  boolean: boolean;
}

export interface ColumnDefinition {
  /** The column's value, e.g. sql`o.order_no`; written only by the feature, never from input. */
  sql: SQL;
  type: ColumnType;
  /** Returned in rows (default true); `false` for a column that only filters. */
  select?: boolean;
  /** Searched by `search.keyword` (default false). */
  search?: boolean;
  /** Usable in `liker` (default false). */
  like?: boolean;
  /**
   * What `search` and `liker` match instead of `sql`: a copy of the value kept on the `from`
   * table, for a column shown from a join (e.g. sql`s.enterprise_name` beside
   * sql`e.enterprise_name`), so a keyword reads no join. It reads from `from` alone (its column's
   * `join` is not added for it) and must always equal `sql`: the feature keeps it so (e.g. by
   * trigger). Only for a column with `search` or `like`.
   */
  match?: SQL;
  /** Usable in `range` (default false). */
  range?: boolean;
  /** Usable in `filter` (default false; not for timestamps: use a range). */
  filter?: boolean;
  /** Usable in `sorter` (default false). */
  sort?: boolean;
  /** The definition's `joins` this column reads from (added to a query only when it is used). */
  join?: string | readonly string[];
  /**
   * The column may hold null: it is then sorted NULLS LAST both ways, so empty values trail. A
   * column without it is sorted in PostgreSQL's own null order, which is what lets a plain index
   * on it (`created_at desc`) serve the sort in either direction.
   */
  nullable?: boolean;
}

export interface SortSpec<Field extends string = string> {
  key: Field;
  sort: SortDirection;
}

export interface TableDefinitionInput<Columns extends Record<string, ColumnDefinition>> {
  /** The FROM clause, e.g. sql`orders o`; joins every query needs may be part of it. */
  from: SQL;
  /**
   * Joins added to a statement only when one of its columns is used there, by name, in this
   * order: e.g. `{ enterprise: sql`left join enterprises e on e.id = o.enterprise_id` }` with
   * `join: 'enterprise'` on the enterprise's columns. A count that filters on no enterprise
   * column then reads `orders` alone, which lets PostgreSQL count from an index only (a join
   * it could remove still costs it that plan).
   */
  joins?: Readonly<Record<string, SQL>>;
  columns: Columns;
  /** A condition every call of this table has (e.g. not deleted); the caller's scope is added to it. */
  where?: SQL;
  /** The order when the request gives none. */
  defaultSort: readonly SortSpec<Extract<keyof Columns, string>>[];
  /** A unique expression (usually the primary key) ordered last, so pages never overlap or skip. */
  tieBreaker: SQL;
  /** Largest page this table serves (default and upper bound: 100). */
  maxPageSize?: number;
}

export interface TableDefinition<
  Columns extends Record<string, ColumnDefinition> = Record<string, ColumnDefinition>,
> extends TableDefinitionInput<Columns> {
  maxPageSize: number;
}

/** A row of a table: each selected column's value by its type (all columns when `select` is absent). */
export type TableRow<Columns extends Record<string, ColumnDefinition>> = {
  [Field in keyof Columns]: ColumnValues[Columns[Field]['type']] | null;
};

export interface RunOptions {
  /** The caller's ownership condition (e.g. sql`o.enterprise_id = ${enterpriseId}`), ANDed. */
  scope?: SQL;
  /** The definition's `joins` the scope reads from (none by default). */
  scopeJoins?: readonly string[];
}

export interface StreamOptions extends RunOptions {
  /** At most this many rows in all (the export's stated cap). */
  cap: number;
  /** Rows per query and per chunk (default 500). */
  chunkSize?: number;
}

/**
 * Checks and freezes a table definition. Mistakes in it are programming errors and throw at
 * start-up, not per request.
 */
export function defineTable<const Columns extends Record<string, ColumnDefinition>>(
  input: TableDefinitionInput<Columns>,
): TableDefinition<Columns> {
  const maxPageSize = input.maxPageSize ?? tableLimits.maxPageSize;
  if (!Number.isInteger(maxPageSize) || maxPageSize < 1 || maxPageSize > tableLimits.maxPageSize) {
    throw new Error(`table maxPageSize must be 1..${tableLimits.maxPageSize}`);
  }
  for (const [field, column] of Object.entries(input.columns)) {
    if (!tableFieldPattern.test(field)) throw new Error(`table column name "${field}" is not a field name`);
    for (const name of joinNames(column.join)) {
      if (!input.joins || !Object.hasOwn(input.joins, name))
        throw new Error(`table column "${field}" needs unknown join "${name}"`);
    }
    if (column.match && !column.search && !column.like) {
      throw new Error(`table column "${field}": match is only for a column with search or like`);
    }
    if (column.type === 'timestamp' && column.filter) {
      throw new Error(`table column "${field}": a timestamp cannot be a filter (exact instants); use range`);
    }
  }
  if (input.defaultSort.length === 0) throw new Error('table defaultSort needs at least one key');
  for (const spec of input.defaultSort) {
    if (!Object.hasOwn(input.columns, spec.key))
      throw new Error(`table defaultSort names unknown column "${spec.key}"`);
  }
  return Object.freeze({ ...input, maxPageSize });
}

function joinNames(join: string | readonly string[] | undefined): readonly string[] {
  if (join === undefined) return [];
  return typeof join === 'string' ? [join] : join;
}

/* ------------------------------------------------------------------ parsing the request */

function badRequest(key: MessageKey, vars?: MessageVars): ApiError {
  return new ApiError(ApiCode.BAD_REQUEST, key, vars);
}

/** A name from the request, shortened for a message (it is caller text). */
function shown(name: unknown): string {
  const text = String(name);
  return text.length > 64 ? `${text.slice(0, 61)}…` : text;
}

/**
 * The request from a form field (a JSON string), a JSON body's object, or nothing (defaults).
 * Bad JSON, a shape that is not the spec's, or limits exceeded → 400 with a localized message.
 */
export function parseTableRequest(input: unknown): TableRequest {
  let value = input;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw badRequest('table.badJson');
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('table.notObject');
  const parsed = tableRequestSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw issueError(parsed.error.issues[0]);
}

const tableParts = ['select', 'pager', 'search', 'liker', 'range', 'filter', 'sorter'] as const;

/**
 * The table request of a call: the body's `antTable` field (a JSON string, or an object in a JSON
 * body); a JSON body that is itself a table request (has one of its parts) is taken whole.
 */
export async function readTableRequest(c: AnyContext): Promise<TableRequest> {
  const body = await readBody(c);
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (Object.hasOwn(record, 'antTable')) return parseTableRequest(record['antTable']);
    if (tableParts.some((part) => Object.hasOwn(record, part))) return parseTableRequest(record);
  }
  return {};
}

interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
  input?: unknown;
  origin?: string;
  maximum?: unknown;
}

function issueError(issue: IssueLike | undefined): ApiError {
  if (!issue) return badRequest('table.invalid', { path: 'antTable' });
  const path = issue.path.map(String);
  const where = path.length ? path.join('.') : 'antTable';
  const last = path[path.length - 1] ?? '';
  if (issue.message === 'table.tooManyFields')
    return badRequest('table.tooManyFields', { part: where, max: tableLimits.maxFields });
  if (issue.message === 'table.badFieldName') return badRequest('table.badFieldName', { field: shown(last) });
  if (issue.code === 'unrecognized_keys') {
    return badRequest('table.unknownKey', { key: shown(issue.keys?.[0] ?? ''), part: where });
  }
  if (path[0] === 'pager' && (last === 'pageSize' || last === 'current')) {
    return last === 'pageSize'
      ? badRequest('table.pageSize', { max: tableLimits.maxPageSize })
      : badRequest('table.current', { max: tableLimits.maxCurrent });
  }
  if (path[0] === 'sorter' && last === 'sort') return badRequest('table.badSort');
  if (issue.code === 'invalid_format') return badRequest('table.badFieldName', { field: shown(issue.input) });
  if (issue.code === 'too_big') {
    if (issue.origin === 'string') return badRequest('table.tooLong', { part: where, max: Number(issue.maximum) });
    if (issue.origin === 'array') return badRequest('table.tooMany', { part: where, max: Number(issue.maximum) });
  }
  if (issue.code === 'too_small' && path[0] === 'filter')
    return badRequest('table.filterEmpty', { field: shown(path[1]) });
  return badRequest('table.invalid', { path: where });
}

/* ------------------------------------------------------------------ values */

type Part = 'select' | 'search' | 'liker' | 'range' | 'filter' | 'sorter';

const allowedFor: Record<Part, (column: ColumnDefinition) => boolean> = {
  select: (column) => column.select !== false,
  search: (column) => column.search === true,
  liker: (column) => column.like === true,
  range: (column) => column.range === true,
  filter: (column) => column.filter === true,
  sorter: (column) => column.sort === true,
};

function columnFor(table: TableDefinition, field: string, part: Part): ColumnDefinition {
  const column = Object.hasOwn(table.columns, field) ? table.columns[field] : undefined;
  if (!column) throw badRequest('table.unknownField', { field: shown(field) });
  if (!allowedFor[part](column)) throw badRequest('table.notAllowed', { field, part });
  return column;
}

const int4 = { min: -2_147_483_648, max: 2_147_483_647 };
/** Beyond this, numbers lose integer precision in JavaScript; no column of ours gets near it. */
const numberLimit = 1e15;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const monthPattern = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;
/** Full ISO 8601 time with an explicit zone: the caller says which instant it means. */
const instantPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:\d{2})$/;

/** A bound value, canonical text; undefined when the value does not fit the type. */
function coerce(type: ColumnType, value: TableValue): string | undefined {
  switch (type) {
    case 'text':
      if (typeof value !== 'string') return String(value);
      return isCleanText(value) ? value : undefined;
    case 'int': {
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^-?\d{1,10}$/.test(value)
            ? Number(value)
            : NaN;
      return Number.isInteger(number) && number >= int4.min && number <= int4.max ? String(number) : undefined;
    }
    case 'number': {
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^-?\d{1,15}(?:\.\d{1,9})?$/.test(value)
            ? Number(value)
            : NaN;
      return Number.isFinite(number) && Math.abs(number) < numberLimit ? String(number) : undefined;
    }
    case 'boolean':
      if (value === true || value === 'true' || value === 1 || value === '1') return 'true';
      if (value === false || value === 'false' || value === 0 || value === '0') return 'false';
      return undefined;
    case 'date': {
      const match = typeof value === 'string' ? datePattern.exec(value) : null;
      if (!match) return undefined;
      return isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) ? (value as string) : undefined;
    }
    case 'month': {
      const match = typeof value === 'string' ? monthPattern.exec(value) : null;
      if (!match) return undefined;
      const [, year = '', month = '', day] = match;
      if (!isCalendarDate(Number(year), Number(month), day === undefined ? 1 : Number(day))) return undefined;
      return `${year}-${month}-01`;
    }
    case 'timestamp':
      return instant(value);
  }
}

/** An instant as ISO text: a full ISO time with zone, or epoch milliseconds. */
function instant(value: TableValue): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0 || value > 253_402_300_799_999) return undefined;
    return new Date(value).toISOString();
  }
  if (typeof value !== 'string') return undefined;
  const match = instantPattern.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0'] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function coerceOrFail(column: ColumnDefinition, field: string, part: Part, value: TableValue): string {
  const coerced = coerce(column.type, value);
  if (coerced === undefined) throw badRequest(`table.badValue.${column.type}`, { field, part });
  return coerced;
}

const casts: Record<ColumnType, SQL> = {
  text: sql.raw('text'),
  int: sql.raw('int4'),
  number: sql.raw('numeric'),
  date: sql.raw('date'),
  month: sql.raw('date'),
  timestamp: sql.raw('timestamptz'),
  boolean: sql.raw('boolean'),
};

/**
 * A bound, explicitly cast parameter: the same meaning on every driver. Canonical text for every
 * type but boolean: postgres-js serializes a parameter the server describes as boolean by
 * `value === true`, so the text 'true' would arrive as false.
 */
function bound(type: ColumnType, value: string): SQL {
  if (type === 'boolean') return sql`${value === 'true'}::boolean`;
  return sql`${value}::${casts[type]}`;
}

/** The expression compared and sorted: text in byte order (the same on every server's locale). */
function comparable(column: ColumnDefinition): SQL {
  return column.type === 'text' ? sql`(${column.sql}) collate "C"` : sql`(${column.sql})`;
}

/** `%text%` with the LIKE wildcards and the escape character taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** `target ilike %text%`; `target` is the column's `match`, else its `sql`. */
function contains(column: ColumnDefinition, target: SQL, text: string): SQL {
  const value = column.type === 'text' ? sql`(${target})` : sql`(${target})::text`;
  return sql`${value} ilike ${containsPattern(text)}::text`;
}

/* ------------------------------------------------------------------ the queries */

/** A range bound given: not absent, null or an empty string. */
function given(value: string | number | null | undefined): value is string | number {
  return value !== undefined && value !== null && value !== '';
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** Start of a China calendar day and of the next one, for a date given to a timestamp column. */
function chinaDay(value: string): { start: string; next: string } | undefined {
  const match = datePattern.exec(value);
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]))) return undefined;
  const start = new Date(`${value}T00:00:00${chinaOffset}`);
  return { start: start.toISOString(), next: new Date(start.getTime() + 86_400_000).toISOString() };
}

/** The conditions of a range on one column. */
function rangeConditions(
  column: ColumnDefinition,
  field: string,
  bounds: {
    start?: string | number | null | undefined;
    end?: string | number | null | undefined;
    self?: boolean | undefined;
  },
): SQL[] {
  const inclusive = bounds.self !== false;
  const target = comparable(column);
  const conditions: SQL[] = [];
  for (const side of ['start', 'end'] as const) {
    const value = bounds[side];
    if (!given(value)) continue;
    // A plain date on a timestamp column means the whole China day (the portal's calendar).
    if (column.type === 'timestamp' && typeof value === 'string' && dayPattern.test(value)) {
      const day = chinaDay(value);
      if (!day) throw badRequest('table.badValue.timestamp', { field, part: 'range' });
      const at = side === 'start' ? (inclusive ? day.start : day.next) : inclusive ? day.next : day.start;
      conditions.push(
        side === 'start' ? sql`${target} >= ${bound('timestamp', at)}` : sql`${target} < ${bound('timestamp', at)}`,
      );
      continue;
    }
    const text = coerceOrFail(column, field, 'range', value);
    const parameter = column.type === 'text' ? sql`${bound('text', text)} collate "C"` : bound(column.type, text);
    if (side === 'start') conditions.push(inclusive ? sql`${target} >= ${parameter}` : sql`${target} > ${parameter}`);
    else conditions.push(inclusive ? sql`${target} <= ${parameter}` : sql`${target} < ${parameter}`);
  }
  return conditions;
}

interface CompiledRequest {
  fields: string[];
  /** Joins the conditions need (the count's), and those the page needs besides. */
  whereJoins: Set<string>;
  pageJoins: Set<string>;
  where: SQL;
  /** The conditions `where` joins, for a statement that adds its own. */
  conditions: SQL[];
  orderBy: SQL;
  /** The order's keys, the tie-breaker last: what a keyset continues after. */
  keys: { expr: SQL; type: ColumnType; direction: 'asc' | 'desc'; nullable: boolean }[];
  pageSize: number;
  offset: number;
}

function compile(table: TableDefinition, request: TableRequest, options: RunOptions): CompiledRequest {
  const conditions: SQL[] = [];
  for (const name of options.scopeJoins ?? []) {
    if (!table.joins || !Object.hasOwn(table.joins, name)) throw new Error(`table scope needs unknown join "${name}"`);
  }
  const whereJoins = new Set<string>(options.scopeJoins ?? []);
  const pageJoins = new Set<string>();
  const inWhere = (column: ColumnDefinition) => {
    for (const name of joinNames(column.join)) whereJoins.add(name);
    return column;
  };
  // What a keyword or liker compares: the column's `match` (no join), else its value (and its joins).
  const matched = (column: ColumnDefinition) => column.match ?? inWhere(column).sql;
  if (table.where) conditions.push(sql`(${table.where})`);
  if (options.scope) conditions.push(sql`(${options.scope})`);

  const fields = request.select?.length
    ? [...new Set(request.select)].filter((field) => columnFor(table, field, 'select'))
    : Object.keys(table.columns).filter((field) => allowedFor.select(table.columns[field] as ColumnDefinition));

  if (request.search) {
    const searched = request.search.select?.length
      ? [...new Set(request.search.select)].map((field) => columnFor(table, field, 'search'))
      : Object.values(table.columns).filter(allowedFor.search);
    const keyword = request.search.keyword?.trim() ?? '';
    if (!isCleanText(keyword)) throw badRequest('table.badValue.text', { field: 'keyword', part: 'search' });
    if (keyword !== '' && searched.length) {
      conditions.push(
        sql`(${sql.join(
          searched.map((column) => contains(column, matched(column), keyword)),
          sql` or `,
        )})`,
      );
    }
  }
  for (const [field, text] of Object.entries(request.liker ?? {})) {
    const column = columnFor(table, field, 'liker');
    if (!isCleanText(text)) throw badRequest('table.badValue.text', { field, part: 'liker' });
    if (text.trim() !== '') conditions.push(contains(column, matched(column), text.trim()));
  }
  for (const [field, bounds] of Object.entries(request.range ?? {})) {
    const conditionsOfRange = rangeConditions(columnFor(table, field, 'range'), field, bounds);
    if (conditionsOfRange.length) inWhere(table.columns[field] as ColumnDefinition);
    conditions.push(...conditionsOfRange);
  }
  for (const [field, values] of Object.entries(request.filter ?? {})) {
    const column = columnFor(table, field, 'filter');
    const coerced = [...new Set(values.map((value) => coerceOrFail(column, field, 'filter', value)))];
    // Plain equality (no collation): the same under every collation, and the column's index applies.
    const list = sql.join(
      coerced.map((value) => bound(column.type, value)),
      sql`, `,
    );
    conditions.push(sql`(${inWhere(column).sql}) in (${list})`);
  }

  const sorters: { column: ColumnDefinition; direction: 'asc' | 'desc' }[] = [];
  const seen = new Set<string>();
  for (const sorter of request.sorter?.length ? request.sorter : table.defaultSort) {
    if (seen.has(sorter.key)) continue;
    seen.add(sorter.key);
    const column = request.sorter?.length
      ? columnFor(table, sorter.key, 'sorter')
      : (table.columns[sorter.key] as ColumnDefinition);
    sorters.push({ column, direction: normalizeDirection(sorter.sort) });
    for (const name of joinNames(column.join)) pageJoins.add(name);
  }
  for (const field of fields) for (const name of joinNames(table.columns[field]?.join)) pageJoins.add(name);
  const lastDirection = sorters[sorters.length - 1]?.direction ?? 'asc';
  // Nullable columns: NULLS LAST both ways, so empty values trail whichever way a column is sorted.
  const orderBy = sql.join(
    [
      ...sorters.map(
        ({ column, direction }) =>
          sql`${comparable(column)} ${sql.raw(direction)}${sql.raw(column.nullable ? ' nulls last' : '')}`,
      ),
      sql`${table.tieBreaker} ${sql.raw(lastDirection)}`,
    ],
    sql`, `,
  );

  const pageSize = request.pager?.pageSize ?? Math.min(tableLimits.defaultPageSize, table.maxPageSize);
  if (pageSize > table.maxPageSize) throw badRequest('table.pageSize', { max: table.maxPageSize });
  const current = request.pager?.current ?? 1;

  return {
    fields,
    whereJoins,
    pageJoins,
    where: conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``,
    conditions,
    orderBy,
    keys: [
      ...sorters.map(({ column, direction }) => ({
        expr: comparable(column),
        type: column.type,
        direction,
        nullable: column.nullable === true,
      })),
      { expr: sql`(${table.tieBreaker})`, type: 'int' as const, direction: lastDirection, nullable: false },
    ],
    pageSize,
    offset: (current - 1) * pageSize,
  };
}

/** A column as it appears in an answer (text forms of dates and times, numbers as numbers). */
function output(column: ColumnDefinition, field: string): SQL {
  const alias = sql.identifier(field);
  switch (column.type) {
    case 'timestamp':
      return sql`to_char((${column.sql}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${alias}`;
    case 'date':
      return sql`to_char((${column.sql}), 'YYYY-MM-DD') as ${alias}`;
    case 'month':
      return sql`to_char((${column.sql}), 'YYYY-MM') as ${alias}`;
    case 'number':
      return sql`(${column.sql})::float8 as ${alias}`;
    default:
      return sql`(${column.sql}) as ${alias}`;
  }
}

export interface TableQueries {
  /** The rows of the page, in order. */
  page: SQL;
  /** `count(*)` of every row the request matches. */
  count: SQL;
  pageSize: number;
  offset: number;
  fields: string[];
}

/** The two statements a request makes; exported so tests can read the SQL and its parameters. */
export function buildTableQueries<Columns extends Record<string, ColumnDefinition>>(
  definition: TableDefinition<Columns>,
  request: TableRequest,
  options: RunOptions = {},
): TableQueries {
  const table = definition as unknown as TableDefinition;
  const compiled = compile(table, request, options);
  return {
    page: selectRows(table, compiled, compiled.pageSize, compiled.offset),
    count: sql`select count(*) as "totalCount" from ${fromClause(table, compiled.whereJoins)} ${compiled.where}`,
    pageSize: compiled.pageSize,
    offset: compiled.offset,
    fields: compiled.fields,
  };
}

/** `from` and the used joins, in the definition's order (a join may build on an earlier one). */
function fromClause(table: TableDefinition, used: Set<string>): SQL {
  const joins = Object.entries(table.joins ?? {})
    .filter(([name]) => used.has(name))
    .map(([, join]) => join);
  return joins.length ? sql`${table.from} ${sql.join(joins, sql` `)}` : table.from;
}

function selectRows(table: TableDefinition, compiled: CompiledRequest, limit: number, offset: number): SQL {
  const columns = sql.join(
    compiled.fields.map((field) => output(table.columns[field] as ColumnDefinition, field)),
    sql`, `,
  );
  const joins = new Set([...compiled.whereJoins, ...compiled.pageJoins]);
  return sql`select ${columns} from ${fromClause(table, joins)} ${compiled.where} order by ${compiled.orderBy} limit ${String(limit)}::int8 offset ${String(offset)}::int8`;
}

/** Rows strictly after the row whose order keys are `values`, in the order of `keys` (nulls last). */
function afterKeys(keys: CompiledRequest['keys'], values: readonly (string | null)[]): SQL {
  // One direction, no nulls (e.g. the default `settle_month desc, id desc`): a row comparison,
  // which PostgreSQL reads as a range of the matching index.
  const direction = keys[0]?.direction;
  if (keys.every((key, i) => key.direction === direction && !key.nullable && values[i] !== null)) {
    const left = sql.join(
      keys.map((key) => key.expr),
      sql`, `,
    );
    const right = sql.join(
      keys.map((key, i) => bound(key.type, values[i]!)),
      sql`, `,
    );
    return sql`(${left}) ${direction === 'desc' ? sql`<` : sql`>`} (${right})`;
  }
  const alternatives: SQL[] = [];
  const equal: SQL[] = [];
  keys.forEach((key, i) => {
    const value = values[i] ?? null;
    const beyond = key.direction === 'desc' ? sql`<` : sql`>`;
    if (value !== null) {
      const later = sql`${key.expr} ${beyond} ${bound(key.type, value)}`;
      alternatives.push(
        sql.join([...equal, key.nullable ? sql`(${later} or ${key.expr} is null)` : later], sql` and `),
      );
      equal.push(sql`${key.expr} = ${bound(key.type, value)}`);
    } else {
      // Nulls sort last: nothing but other nulls follows a null in this key.
      equal.push(sql`${key.expr} is null`);
    }
  });
  const after = sql`(${sql.join(
    alternatives.map((alternative) => sql`(${alternative})`),
    sql` or `,
  )})`;
  // The leading key's bound, redundant but an index condition: the scan starts there.
  const first = keys[0];
  const value = values[0] ?? null;
  if (!first || first.nullable || value === null) return after;
  return sql`${first.expr} ${first.direction === 'desc' ? sql`<=` : sql`>=`} ${bound(first.type, value)} and ${after}`;
}

/** int8 and numeric come back as text from both drivers: numbers in answers are numbers. */
function normalizeRows(
  table: TableDefinition,
  fields: string[],
  rows: Record<string, unknown>[],
): Record<string, unknown>[] {
  const numeric = fields.filter((field) => {
    const type = table.columns[field]?.type;
    return type === 'int' || type === 'number';
  });
  if (!numeric.length) return rows;
  for (const row of rows) {
    for (const field of numeric) {
      const value = row[field];
      if (typeof value === 'string' || typeof value === 'bigint') row[field] = Number(value);
    }
  }
  return rows;
}

/**
 * One page of a table: `{ result, totalCount }`. One query for the page and one `count(*)`
 * (skipped when the first page is not full: then the page is everything).
 */
export async function runTable<Columns extends Record<string, ColumnDefinition>>(
  db: Database,
  table: TableDefinition<Columns>,
  request: TableRequest,
  options: RunOptions = {},
): Promise<TableAnswer<TableRow<Columns>>> {
  const queries = buildTableQueries(table, request, options);
  const definition = table as unknown as TableDefinition;
  const countOf = async () => Number(rowsOf(await db.execute(queries.count))[0]?.['totalCount'] ?? 0);
  let rows: Record<string, unknown>[];
  let totalCount: number;
  if (queries.offset === 0) {
    // The first page often holds everything (a user's few orders): then it is its own count.
    rows = normalizeRows(definition, queries.fields, rowsOf(await db.execute(queries.page)));
    totalCount = rows.length < queries.pageSize ? rows.length : await countOf();
  } else {
    // Side by side on PostgreSQL's pool (PGlite queues them on its one connection).
    const [page, count] = await Promise.all([db.execute(queries.page), countOf()]);
    rows = normalizeRows(definition, queries.fields, rowsOf(page));
    totalCount = count;
  }
  return { result: rows as TableRow<Columns>[], totalCount };
}

/** How many rows a request matches (paging ignored): what an export tells before it streams. */
export async function countTable<Columns extends Record<string, ColumnDefinition>>(
  db: Database,
  table: TableDefinition<Columns>,
  request: TableRequest,
  options: RunOptions = {},
): Promise<number> {
  const queries = buildTableQueries(table, request, options);
  const [count] = rowsOf(await db.execute(queries.count));
  return Number(count?.['totalCount'] ?? 0);
}

/**
 * Every row a request matches, in its order, in chunks, for exports: the same checks
 * and filters as `runTable`, the pager ignored, at most `cap` rows. Each chunk is its own query
 * (a long transaction would hold PGlite's single connection for the whole download), so rows
 * written while an export runs may shift between chunks; the tie-breaker keeps the order total.
 */
export function streamTable<Columns extends Record<string, ColumnDefinition>>(
  db: Database,
  table: TableDefinition<Columns>,
  request: TableRequest,
  options: StreamOptions,
): AsyncGenerator<TableRow<Columns>[], void, undefined> {
  const definition = table as unknown as TableDefinition;
  const cap = Math.max(0, Math.trunc(options.cap));
  const chunkSize = Math.max(1, Math.trunc(options.chunkSize ?? 500));
  // Checked here, when called, so a bad request fails (400) before a download has started.
  const { pager: _pager, ...unpaged } = request;
  const compiled = compile(definition, unpaged, options);
  // Keyset paging: each chunk continues after the previous one's last row (its order keys), so a
  // chunk costs the same at the end of a 100 000-row export as at its start (an OFFSET would
  // re-read every row before it: quadratic time).
  const columns = sql.join(
    compiled.fields.map((field) => output(definition.columns[field] as ColumnDefinition, field)),
    sql`, `,
  );
  const keyColumns = sql.join(
    compiled.keys.map((key, i) => sql`(${key.expr})::text as ${sql.identifier(`__key${i}`)}`),
    sql`, `,
  );
  const joins = new Set([...compiled.whereJoins, ...compiled.pageJoins]);
  async function* chunks(): AsyncGenerator<TableRow<Columns>[], void, undefined> {
    let after: SQL | undefined;
    for (let done = 0; done < cap;) {
      const limit = Math.min(chunkSize, cap - done);
      const conditions = after ? [...compiled.conditions, after] : compiled.conditions;
      const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
      const raw = rowsOf(
        await db.execute(
          sql`select ${columns}, ${keyColumns} from ${fromClause(definition, joins)} ${where} order by ${compiled.orderBy} limit ${String(limit)}::int8`,
        ),
      );
      const last = raw[raw.length - 1];
      if (last)
        after = afterKeys(
          compiled.keys,
          compiled.keys.map((_, i) => last[`__key${i}`] as string | null),
        );
      for (const row of raw) for (let i = 0; i < compiled.keys.length; i++) delete row[`__key${i}`];
      const rows = normalizeRows(definition, compiled.fields, raw);
      if (rows.length) yield rows as TableRow<Columns>[];
      done += rows.length;
      if (rows.length < limit) return;
    }
  }
  return chunks();
}
