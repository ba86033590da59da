/**
 * A small table on a real PGlite database for the table engine's tests, its definition, and an
 * in-memory reference of what a table request must answer (filters, ranges, search, sort, paging),
 * written independently of the engine's SQL.
 */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import postgres from 'postgres';
import { openPglite, openPostgres, type Database, type DatabaseHandle } from '../../src/server/db/client.ts';
import { handleError, ok } from '../../src/server/envelope.ts';
import { localeMiddleware } from '../../src/server/middleware/locale.ts';
import { defineTable, readTableRequest, runTable, type TableDefinition } from '../../src/server/table/antTable.ts';
import type { AppEnv } from '../../src/server/types.ts';
import { databaseUrl, randomDatabaseName } from './snapshot.ts';
import { normalizeDirection, type TableRequest } from '../../src/lib/schemas/table.ts';

export interface FixtureRow {
  id: number;
  name: string;
  code: string;
  qty: number | null;
  amount: number | null;
  day: string;
  /** `YYYY-MM` as answered; stored as the month's first day. */
  month: string;
  /** ISO in UTC with milliseconds, as answered. */
  at: string;
  flag: boolean | null;
  note: string | null;
  secret: string;
  /** From the joined group table: id % 4, where group 3 does not exist. */
  groupLabel: string | null;
}

/** The joined table's labels by group id (id % 4); group 3 has no row. */
export const groupLabels: Record<number, string> = { 0: 'Group zero', 1: '一组', 2: 'group_2' };

export const fixtureNames = [
  'Alpha',
  'alpha',
  'BETA_1',
  '50% off',
  'back\\slash',
  "O'Brien",
  '峰谷电价',
  '广州电力',
  'Zeta',
  '',
  'a_b',
  'a%b',
  'Robert"); drop table table_fixture;--',
  'ÄBC',
] as const;

/** A deterministic pseudo-random sequence (the fixture must be the same on every run). */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export function fixtureRows(count = 60): FixtureRow[] {
  const random = sequence(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const rows: FixtureRow[] = [];
  // Around China midnight (16:00 UTC) on a few November days, so whole-day ranges have edges.
  const base = Date.UTC(2026, 10, 18, 15, 0, 0);
  for (let id = 1; id <= count; id++) {
    const day = new Date(Date.UTC(2026, 9, 1 + Math.floor(random() * 90)));
    rows.push({
      id,
      name: pick(fixtureNames),
      code: `HGD${String(1000 + Math.floor(random() * 30)).padStart(6, '0')}`,
      qty: random() < 0.2 ? null : Math.floor(random() * 21) - 5,
      amount: random() < 0.2 ? null : Math.round(random() * 100_000) / 1000,
      day: day.toISOString().slice(0, 10),
      month: day.toISOString().slice(0, 7),
      at: new Date(
        base + Math.floor((random() * 6 * 86_400_000) / 3_600_000) * 3_600_000 + (id % 7) * 1000 + (id % 3),
      ).toISOString(),
      flag: random() < 0.15 ? null : random() < 0.5,
      note: random() < 0.3 ? null : pick(['峰', 'note A', 'NOTE b', '100%', 'x_y', '']),
      secret: `s${id}`,
      groupLabel: groupLabels[id % 4] ?? null,
    });
  }
  return rows;
}

export const fixtureTable = defineTable({
  from: sql`table_fixture f`,
  joins: { group: sql`left join table_fixture_group g on g.id = f.id % 4` },
  columns: {
    id: { sql: sql`f.id`, type: 'int', filter: true, range: true, sort: true },
    name: { sql: sql`f.name`, type: 'text', search: true, like: true, filter: true, range: true, sort: true },
    code: { sql: sql`f.code`, type: 'text', search: true, like: true, filter: true },
    qty: { sql: sql`f.qty`, type: 'int', nullable: true, filter: true, range: true, sort: true },
    amount: { sql: sql`f.amount`, type: 'number', nullable: true, filter: true, range: true, sort: true },
    day: { sql: sql`f.day`, type: 'date', filter: true, range: true, sort: true },
    month: { sql: sql`f.month`, type: 'month', filter: true, range: true, sort: true },
    at: { sql: sql`f.at`, type: 'timestamp', range: true, sort: true },
    flag: { sql: sql`f.flag`, type: 'boolean', nullable: true, filter: true, sort: true },
    note: { sql: sql`f.note`, type: 'text', nullable: true, like: true },
    secret: { sql: sql`f.secret`, type: 'text', select: false, filter: true },
    groupLabel: {
      sql: sql`g.label`,
      type: 'text',
      nullable: true,
      join: 'group',
      like: true,
      filter: true,
      sort: true,
    },
  },
  defaultSort: [{ key: 'at', sort: 'descend' }],
  tieBreaker: sql`f.id`,
});

export type FixtureField = keyof typeof fixtureTable.columns;

export interface Fixture {
  db: Database;
  kind: DatabaseHandle['kind'];
  rows: FixtureRow[];
  /** A minimal app: POST /t runs the fixture table, with the real locale and error handling. */
  app: Hono<AppEnv>;
  close(): Promise<void>;
}

/** A database of its own: in-memory PGlite, or a throwaway database on TEST_DATABASE_URL's server. */
async function openDatabaseForFixture(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env['TEST_DATABASE_URL'];
  if (!serverUrl) return { handle: await openPglite({}, { dbStatementTimeoutMs: 10_000 }), drop: async () => {} };
  const name = randomDatabaseName('test_table');
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const onServer = (statement: string) => admin.unsafe(statement).then(() => undefined);
  await onServer(`create database "${name}"`);
  return {
    handle: openPostgres(databaseUrl(serverUrl, name), { dbStatementTimeoutMs: 10_000, dbPoolMax: 4 }),
    drop: async () => {
      await onServer(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

export async function openFixture(): Promise<Fixture> {
  const { handle, drop } = await openDatabaseForFixture();
  await handle.db.execute(sql`
    create table table_fixture (
      id integer primary key,
      name text not null,
      code varchar(20) not null,
      qty integer,
      amount numeric(14, 3),
      day date not null,
      month date not null,
      at timestamptz not null,
      flag boolean,
      note text,
      secret text not null
    )`);
  await handle.db.execute(sql`create table table_fixture_group (id integer primary key, label text not null)`);
  for (const [id, label] of Object.entries(groupLabels)) {
    await handle.db.execute(sql`insert into table_fixture_group values (${Number(id)}, ${label})`);
  }
  const rows = fixtureRows();
  for (const row of rows) {
    await handle.db.execute(
      sql`insert into table_fixture values (${row.id}, ${row.name}, ${row.code}, ${row.qty}, ${
        row.amount === null ? null : String(row.amount)
      }, ${row.day}::date, ${`${row.month}-01`}::date, ${row.at}::timestamptz, ${row.flag}, ${row.note}, ${row.secret})`,
    );
    // groupLabel is not stored here: it comes from the join.
  }
  const app = new Hono<AppEnv>();
  app.use('*', localeMiddleware);
  app.post('/t', async (c) => ok(c, await runTable(handle.db, fixtureTable, await readTableRequest(c))));
  app.onError(handleError);
  return {
    db: handle.db,
    kind: handle.kind,
    rows,
    app,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
}

/* ------------------------------------------------------------------ the reference */

/** UTF-8 byte order = code point order (PostgreSQL's "C" collation). */
function compareText(a: string, b: string): number {
  const x = [...a].map((char) => char.codePointAt(0) ?? 0);
  const y = [...b].map((char) => char.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return x.length - y.length;
}

/** ILIKE on the fixture's texts: ASCII letters fold; the fixture and keywords hold nothing else that folds. */
function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (char) => char.toLowerCase());
}

function containsText(value: unknown, text: string): boolean {
  if (value === null || value === undefined) return false;
  return foldAscii(String(value)).includes(foldAscii(text));
}

type Comparable = string | number | boolean;

/** The value of a row's field as it is compared. */
function key(row: FixtureRow, field: FixtureField): Comparable | null {
  switch (field) {
    case 'at':
      return Date.parse(row.at);
    case 'month':
      return `${row.month}-01`;
    default:
      return row[field];
  }
}

function compareValues(field: FixtureField, a: Comparable, b: Comparable): number {
  const type = fixtureTable.columns[field].type;
  if (type === 'text') return compareText(String(a), String(b));
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'number') return a - (b as number);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A request value (already valid) as the compared value of a field. */
function requestValue(field: FixtureField, value: string | number | boolean): Comparable {
  const type = fixtureTable.columns[field].type;
  switch (type) {
    case 'int':
    case 'number':
      return Number(value);
    case 'boolean':
      return value === true || value === 'true' || value === 1 || value === '1';
    case 'month':
      return `${String(value).slice(0, 7)}-01`;
    case 'timestamp':
      return typeof value === 'number' ? value : Date.parse(String(value));
    default:
      return String(value);
  }
}

const chinaDayStart = (day: string) => Date.parse(`${day}T00:00:00+08:00`);

function inRange(row: FixtureRow, field: FixtureField, bounds: NonNullable<TableRequest['range']>[string]): boolean {
  const value = key(row, field);
  const inclusive = bounds.self !== false;
  const type = fixtureTable.columns[field].type;
  for (const side of ['start', 'end'] as const) {
    const bound = bounds[side];
    if (bound === undefined || bound === null || bound === '') continue;
    if (value === null) return false;
    if (type === 'timestamp' && typeof bound === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(bound)) {
      const start = chinaDayStart(bound);
      const next = start + 86_400_000;
      const at = value as number;
      if (side === 'start' && !(at >= (inclusive ? start : next))) return false;
      if (side === 'end' && !(at < (inclusive ? next : start))) return false;
      continue;
    }
    const order = compareValues(field, value, requestValue(field, bound));
    if (side === 'start' && (inclusive ? order < 0 : order <= 0)) return false;
    if (side === 'end' && (inclusive ? order > 0 : order >= 0)) return false;
  }
  return true;
}

/** What a valid request must answer, computed without SQL. */
export function reference(
  rows: readonly FixtureRow[],
  request: TableRequest,
): { result: Record<string, unknown>[]; totalCount: number } {
  const columns = fixtureTable.columns as TableDefinition['columns'];
  let matched = rows.filter((row) => {
    const keyword = request.search?.keyword?.trim() ?? '';
    if (keyword !== '') {
      const fields = (request.search?.select?.length ? request.search.select : ['name', 'code']) as FixtureField[];
      if (!fields.some((field) => containsText(row[field], keyword))) return false;
    }
    for (const [field, text] of Object.entries(request.liker ?? {})) {
      if (text.trim() !== '' && !containsText(row[field as FixtureField], text.trim())) return false;
    }
    for (const [field, bounds] of Object.entries(request.range ?? {})) {
      if (!inRange(row, field as FixtureField, bounds)) return false;
    }
    for (const [field, values] of Object.entries(request.filter ?? {})) {
      const value = key(row, field as FixtureField);
      if (value === null) return false;
      if (
        !values.some(
          (candidate) =>
            compareValues(field as FixtureField, value, requestValue(field as FixtureField, candidate)) === 0,
        )
      ) {
        return false;
      }
    }
    return true;
  });

  const sorters = (request.sorter?.length ? request.sorter : fixtureTable.defaultSort).filter(
    (sorter, index, all) => all.findIndex((other) => other.key === sorter.key) === index,
  );
  const lastDirection = normalizeDirection(sorters[sorters.length - 1]?.sort ?? 'asc');
  matched = [...matched].sort((a, b) => {
    for (const sorter of sorters) {
      const field = sorter.key as FixtureField;
      const x = key(a, field);
      const y = key(b, field);
      if (x === null || y === null) {
        if (x === y) continue;
        return x === null ? 1 : -1; // nulls last, both ways
      }
      const order = compareValues(field, x, y);
      if (order !== 0) return normalizeDirection(sorter.sort) === 'asc' ? order : -order;
    }
    return lastDirection === 'asc' ? a.id - b.id : b.id - a.id;
  });

  const fields = request.select?.length
    ? [...new Set(request.select)]
    : Object.keys(columns).filter((field) => columns[field]?.select !== false);
  const pageSize = request.pager?.pageSize ?? 10;
  const current = request.pager?.current ?? 1;
  const page = matched.slice((current - 1) * pageSize, current * pageSize);
  return {
    result: page.map((row) => Object.fromEntries(fields.map((field) => [field, row[field as FixtureField]]))),
    totalCount: matched.length,
  };
}
