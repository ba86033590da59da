/**
 * The table-request engine against a real PGlite database: examples of every part and error, then
 * property tests — random valid requests answer exactly what an in-memory reference computes;
 * random and hostile requests answer 200 or a localized 400, never a 500, never SQL made from
 * their text, and the table is still there afterwards.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/apiError.ts';
import {
  buildTableQueries,
  containsPattern,
  countTable,
  defineTable,
  parseTableRequest,
  runTable,
  streamTable,
} from '../../src/server/table/antTable.ts';
import { tableRequestSchema, type TableRequest } from '../../src/lib/schemas/table.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';
import { locales } from '../../src/lib/i18n/locales.ts';
import { fixtureNames, fixtureTable, groupLabels, openFixture, reference, type FixtureField } from './tableFixture.ts';
import { openPerFile } from './harness.ts';

const fixture = openPerFile(openFixture);

interface Envelope {
  code: number;
  message: string;
  data: { result?: Record<string, unknown>[]; totalCount?: number };
}

async function call(
  antTable: unknown,
  options: { json?: boolean; locale?: string } = {},
): Promise<{ status: number; body: Envelope }> {
  const headers: Record<string, string> = { 'Accept-Language': options.locale ?? 'zh-CN' };
  let body: string;
  if (options.json) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({ antTable });
  } else {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams({
      antTable: typeof antTable === 'string' ? antTable : JSON.stringify(antTable),
    }).toString();
  }
  const response = await fixture.app.request('/t', { method: 'POST', headers, body });
  return { status: response.status, body: (await response.json()) as Envelope };
}

const run = (request: TableRequest) => runTable(fixture.db, fixtureTable, request);
const expected = (request: TableRequest) => reference(fixture.rows, request);

async function tableStillThere(): Promise<void> {
  const result = await fixture.db.execute(sql`select count(*)::int as n from table_fixture`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { n: number }[] }).rows) as {
    n: number;
  }[];
  expect(rows[0]?.n).toBe(fixture.rows.length);
}

describe('answers', () => {
  it('gives the first page in the default order with every selectable column', async () => {
    const answer = await run({});
    expect(answer).toEqual(expected({}));
    expect(answer.result).toHaveLength(10);
    expect(answer.totalCount).toBe(60);
    expect(Object.keys(answer.result[0] ?? {}).sort()).toEqual([
      'amount',
      'at',
      'code',
      'day',
      'flag',
      'groupLabel',
      'id',
      'month',
      'name',
      'note',
      'qty',
    ]);
    expect(answer.result[0]?.['at']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(answer.result[0]?.['month']).toMatch(/^\d{4}-\d{2}$/);
  });

  it('returns only the selected columns', async () => {
    const answer = await run({ select: ['name', 'id', 'name'] });
    expect(Object.keys(answer.result[0] ?? {}).sort()).toEqual(['id', 'name']);
  });

  it('arrives as a form field, as a JSON string in JSON and as an object in JSON', async () => {
    const request = {
      pager: { current: 2, pageSize: 7 },
      filter: { flag: [true] },
      sorter: [{ key: 'id', sort: 'ascend' as const }],
    };
    const want = expected(request);
    for (const answer of [
      await call(request),
      await call(JSON.stringify(request), { json: true }),
      await call(request, { json: true }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(200);
      expect(answer.body.data).toEqual(want);
    }
  });

  it('treats LIKE wildcards and the escape character as text', async () => {
    for (const text of ['%', '_', '\\', "'", 'a%b', 'A_B']) {
      const answer = await run({ liker: { name: text }, pager: { pageSize: 100 } });
      expect(answer).toEqual(expected({ liker: { name: text }, pager: { pageSize: 100 } }));
      for (const row of answer.result) expect(String(row['name']).toLowerCase()).toContain(text.toLowerCase());
    }
    expect(containsPattern('50%_\\')).toBe('%50\\%\\_\\\\%');
  });

  it('searches the keyword over the listed or all searchable fields', async () => {
    const all = await run({ search: { keyword: ' alpha ' }, pager: { pageSize: 100 } });
    expect(all.totalCount).toBeGreaterThan(0);
    expect(all).toEqual(expected({ search: { keyword: ' alpha ' }, pager: { pageSize: 100 } }));
    const code = await run({ search: { keyword: 'hgd', select: ['code'] }, pager: { pageSize: 100 } });
    expect(code.totalCount).toBe(60);
    expect((await run({ search: { keyword: 'hgd', select: ['name'] } })).totalCount).toBe(0);
  });

  it('reads a plain date on a timestamp as the whole China day', async () => {
    const request = { range: { at: { start: '2026-11-20', end: '2026-11-20' } }, pager: { pageSize: 100 } };
    const answer = await run(request);
    expect(answer).toEqual(expected(request));
    const start = Date.parse('2026-11-20T00:00:00+08:00');
    for (const row of answer.result) {
      const at = Date.parse(String(row['at']));
      expect(at >= start && at < start + 86_400_000).toBe(true);
    }
    const exclusive = {
      range: { at: { start: '2026-11-19', end: '2026-11-21', self: false } },
      pager: { pageSize: 100 },
    };
    expect(await run(exclusive)).toEqual(answer);
  });

  it('sorts empty values last in both directions and pages without overlap', async () => {
    const descending = await run({ sorter: [{ key: 'qty', sort: 'desc' }], pager: { pageSize: 100 } });
    const ascending = await run({ sorter: [{ key: 'qty', sort: 'asc' }], pager: { pageSize: 100 } });
    expect(descending.result.at(-1)?.['qty']).toBeNull();
    expect(ascending.result.at(-1)?.['qty']).toBeNull();
    // Many rows share a flag: only the tie-breaker makes pages of 7 add up to the whole list.
    const pages = [];
    for (let current = 1; current <= 9; current++) {
      pages.push(...(await run({ sorter: [{ key: 'flag', sort: 'ascend' }], pager: { current, pageSize: 7 } })).result);
    }
    const whole = await run({ sorter: [{ key: 'flag', sort: 'ascend' }], pager: { pageSize: 100 } });
    expect(pages.map((row) => row['id'])).toEqual(whole.result.map((row) => row['id']));
    expect(new Set(pages.map((row) => row['id'])).size).toBe(60);
  });

  it('ANDs the caller’s scope and the table’s own condition', async () => {
    const scoped = defineTable({ ...fixtureTable, where: sql`f.qty is not null` });
    const answer = await runTable(fixture.db, scoped, { pager: { pageSize: 100 } }, { scope: sql`f.id <= ${30}` });
    const want = fixture.rows.filter((row) => row.qty !== null && row.id <= 30);
    expect(answer.totalCount).toBe(want.length);
    expect(new Set(answer.result.map((row) => row.id))).toEqual(new Set(want.map((row) => row.id)));
  });

  it('joins a table only into the statements that use its columns', async () => {
    const text = (request: TableRequest) => {
      const queries = buildTableQueries(fixtureTable, request);
      return { page: dialect.sqlToQuery(queries.page).sql, count: dialect.sqlToQuery(queries.count).sql };
    };
    const plain = text({ select: ['id', 'name'], filter: { qty: [1] } });
    expect(plain.page).not.toContain('table_fixture_group');
    expect(plain.count).not.toContain('table_fixture_group');
    const shown = text({ filter: { qty: [1] } });
    expect(shown.page).toContain('left join table_fixture_group');
    expect(shown.count).not.toContain('table_fixture_group');
    const sorted = text({ select: ['id'], sorter: [{ key: 'groupLabel', sort: 'asc' }] });
    expect(sorted.page).toContain('table_fixture_group');
    expect(sorted.count).not.toContain('table_fixture_group');
    const filtered = text({ select: ['id'], filter: { groupLabel: ['一组'] } });
    expect(filtered.count).toContain('table_fixture_group');
    const request: TableRequest = {
      filter: { groupLabel: ['一组', 'group_2'] },
      sorter: [{ key: 'groupLabel', sort: 'desc' }],
      pager: { pageSize: 100 },
    };
    expect(await run(request)).toEqual(expected(request));
    expect((await run(request)).totalCount).toBe(
      fixture.rows.filter((row) => row.id % 4 === 1 || row.id % 4 === 2).length,
    );
  });

  it('matches a keyword and a liker against a column’s `match`, without its join; the page still shows the joined value', async () => {
    // The group's label as an expression of the fixture's own row: equal to the joined g.label.
    const copy = sql.raw(
      `(case f.id % 4 ${Object.entries(groupLabels)
        .map(([id, label]) => `when ${id} then '${label}'`)
        .join(' ')} end)`,
    );
    const matched = defineTable({
      ...fixtureTable,
      columns: {
        ...fixtureTable.columns,
        groupLabel: { ...fixtureTable.columns.groupLabel, match: copy, search: true },
      },
    });
    for (const request of [
      { liker: { groupLabel: 'GROUP' }, pager: { pageSize: 100 } },
      { liker: { groupLabel: '_' }, pager: { pageSize: 100 } },
      {
        search: { keyword: '一组', select: ['groupLabel'] },
        sorter: [{ key: 'groupLabel', sort: 'asc' }],
        pager: { pageSize: 100 },
      },
    ] satisfies TableRequest[]) {
      const queries = buildTableQueries(matched, request);
      expect(dialect.sqlToQuery(queries.count).sql).not.toContain('table_fixture_group');
      expect(dialect.sqlToQuery(queries.page).sql).toContain('left join table_fixture_group');
      const answer = await runTable(fixture.db, matched, request);
      expect(answer).toEqual(expected(request));
      expect(answer.totalCount).toBeGreaterThan(0);
    }
    expect(() =>
      defineTable({
        ...fixtureTable,
        columns: { ...fixtureTable.columns, day: { ...fixtureTable.columns.day, match: sql`f.day` } },
      }),
    ).toThrow();
  });

  it('puts nulls last only for nullable columns, so a plain index serves the others', async () => {
    const orderBy = (request: TableRequest) =>
      dialect.sqlToQuery(buildTableQueries(fixtureTable, request).page).sql.split(' order by ')[1];
    expect(orderBy({ sorter: [{ key: 'at', sort: 'descend' }] })).toMatch(/^\("?f"?\.?"?at"?\) desc, /);
    expect(orderBy({ sorter: [{ key: 'at', sort: 'descend' }] })).not.toContain('nulls');
    expect(orderBy({ sorter: [{ key: 'qty', sort: 'descend' }] })).toContain('desc nulls last');
    // Nullable values trail in both directions.
    for (const sort of ['asc', 'desc'] as const) {
      const answer = await run({ select: ['id', 'qty'], sorter: [{ key: 'qty', sort }], pager: { pageSize: 100 } });
      const firstNull = answer.result.findIndex((row) => row.qty === null);
      expect(firstNull).toBeGreaterThan(0);
      expect(answer.result.slice(firstNull).every((row) => row.qty === null)).toBe(true);
    }
  });

  it('answers a page past the end with no rows and the full count', async () => {
    expect(await run({ pager: { current: 99, pageSize: 10 } })).toEqual({ result: [], totalCount: 60 });
  });

  it('streams every matching row in order, in chunks, up to the cap', async () => {
    const request: TableRequest = {
      filter: { flag: [false] },
      sorter: [{ key: 'amount', sort: 'descend' }],
      pager: { current: 3, pageSize: 2 },
    };
    const chunks = [];
    for await (const chunk of streamTable(fixture.db, fixtureTable, request, { cap: 1000, chunkSize: 4 }))
      chunks.push(chunk);
    const all = expected({ ...request, pager: { current: 1, pageSize: 1000 } });
    expect(chunks.flat()).toEqual(all.result);
    expect(chunks.every((chunk) => chunk.length <= 4)).toBe(true);
    expect(await countTable(fixture.db, fixtureTable, request)).toBe(all.totalCount);
    const capped = [];
    for await (const chunk of streamTable(fixture.db, fixtureTable, request, { cap: 5, chunkSize: 4 }))
      capped.push(...chunk);
    expect(capped).toEqual(all.result.slice(0, 5));
    expect(() =>
      streamTable(fixture.db, fixtureTable, { sorter: [{ key: 'note', sort: 'asc' }] }, { cap: 10 }),
    ).toThrow(ApiError);
  });

  it('streams the same rows as one big page for every order, however the chunks fall (keyset continuation)', async () => {
    // Each chunk continues after the previous chunk's last row: ties, nulls (last both ways),
    // mixed directions and a joined column must neither skip nor repeat a row at a chunk edge.
    const fields: FixtureField[] = ['name', 'qty', 'amount', 'day', 'month', 'at', 'flag', 'groupLabel', 'id'];
    const orders: TableRequest['sorter'][] = [
      undefined,
      ...fields.flatMap((key) => (['ascend', 'descend'] as const).map((sort) => [{ key, sort }])),
      [
        { key: 'flag', sort: 'descend' },
        { key: 'qty', sort: 'ascend' },
      ],
      [
        { key: 'groupLabel', sort: 'ascend' },
        { key: 'amount', sort: 'descend' },
        { key: 'day', sort: 'ascend' },
      ],
      [
        { key: 'month', sort: 'descend' },
        { key: 'name', sort: 'descend' },
      ],
    ];
    for (const sorter of orders) {
      for (const chunkSize of [1, 3, 7]) {
        const request: TableRequest = sorter ? { sorter } : {};
        const streamed = [];
        for await (const chunk of streamTable(fixture.db, fixtureTable, request, { cap: 1000, chunkSize }))
          streamed.push(...chunk);
        expect(streamed, `${JSON.stringify(sorter)} by ${chunkSize}`).toEqual(
          expected({ ...request, pager: { current: 1, pageSize: 1000 } }).result,
        );
      }
    }
  });
});

describe('refusals (400, localized, naming the field)', () => {
  const cases: [string, unknown, RegExp][] = [
    ['malformed JSON', '{"pager":', /不是有效的 JSON/],
    ['not an object', '[1,2]', /必须是一个对象/],
    ['an unknown part', { pagination: {} }, /未知的键“pagination”/],
    ['an unknown key in a part', { pager: { page: 1 } }, /pager 中有未知的键“page”/],
    ['page size over 100', { pager: { pageSize: 101 } }, /1 到 100 之间/],
    ['page 0', { pager: { current: 0 } }, /页码/],
    ['an unknown field', { filter: { nope: [1] } }, /没有字段“nope”/],
    ['a prototype key', JSON.parse('{"liker":{"__proto__":"x"}}') as unknown, /“__proto__”不是有效的字段名/],
    ['constructor', { sorter: [{ key: 'constructor', sort: 'asc' }] }, /没有字段“constructor”/],
    ['a hidden column in select', { select: ['secret'] }, /“secret”不能用于 select/],
    ['an unsortable column', { sorter: [{ key: 'note', sort: 'asc' }] }, /“note”不能用于 sorter/],
    ['a timestamp filter', { filter: { at: ['2026-11-20'] } }, /“at”不能用于 filter/],
    ['a bad direction', { sorter: [{ key: 'id', sort: 'up' }] }, /排序方向/],
    ['a word for a number', { filter: { qty: ['ten'] } }, /filter 中“qty”的值必须是整数/],
    ['a number beyond int4', { range: { qty: { start: 2_147_483_648 } } }, /必须是整数/],
    ['an impossible date', { range: { day: { start: '2026-02-30' } } }, /日期（YYYY-MM-DD）/],
    ['month 13', { filter: { month: ['2026-13'] } }, /月份（YYYY-MM）/],
    ['a time without zone', { range: { at: { start: '2026-11-20T10:00' } } }, /时间（ISO 8601）/],
    ['a word for a boolean', { filter: { flag: ['yes'] } }, /true 或 false/],
    ['an empty filter', { filter: { qty: [] } }, /至少需要一个值/],
    ['a keyword over 100 characters', { search: { keyword: 'x'.repeat(101) } }, /超过 100 个字符/],
    ['six sorters', { sorter: Array.from({ length: 6 }, () => ({ key: 'id', sort: 'asc' })) }, /最多 5 项/],
    ['an array for an object', { liker: ['name'] }, /无效/],
    ['a huge number', '{"pager":{"current":1e400}}', /页码/],
    ['a NUL character in a keyword', { search: { keyword: 'a\u0000b' } }, /“keyword”的值必须是文本/],
    ['a NUL character in a filter', { filter: { name: ['\u0000'] } }, /“name”的值必须是文本/],
  ];
  for (const [name, input, pattern] of cases) {
    it(`refuses ${name}`, async () => {
      const answer = await call(input);
      expect(answer.status).toBe(200);
      expect(answer.body.code).toBe(400);
      expect(answer.body.message).toMatch(pattern);
      expect(answer.body.data).toEqual({});
    });
  }

  it('says it in each of the five locales', async () => {
    const messages = new Set<string>();
    for (const locale of locales) {
      const answer = await call({ filter: { qty: ['ten'] } }, { locale });
      expect(answer.body.code).toBe(400);
      expect(answer.body.message).toContain('qty');
      expect(answer.body.message).not.toMatch(/[{}]|table\./);
      messages.add(answer.body.message);
    }
    expect(messages.size).toBe(locales.length);
  });

  it('holds a table to its own smaller page size', async () => {
    const small = defineTable({ ...fixtureTable, maxPageSize: 20 });
    await expect(runTable(fixture.db, small, { pager: { pageSize: 21 } })).rejects.toMatchObject({
      key: 'table.pageSize',
      vars: { max: 20 },
    });
    expect((await runTable(fixture.db, small, { pager: { pageSize: 20 } })).result).toHaveLength(20);
  });

  it('refuses broken definitions at start-up', () => {
    expect(() => defineTable({ ...fixtureTable, maxPageSize: 500 })).toThrow();
    expect(() => defineTable({ ...fixtureTable, defaultSort: [] })).toThrow();
    expect(() =>
      defineTable({ ...fixtureTable, columns: { 'a b': { sql: sql`1`, type: 'int' } }, defaultSort: [] }),
    ).toThrow();
    expect(() =>
      defineTable({
        ...fixtureTable,
        columns: { at: { sql: sql`f.at`, type: 'timestamp', filter: true } },
        defaultSort: [{ key: 'at', sort: 'asc' }],
      }),
    ).toThrow();
  });
});

/* ------------------------------------------------------------------ properties */

const fields = Object.keys(fixtureTable.columns) as FixtureField[];
const allowed = (flag: 'select' | 'search' | 'like' | 'range' | 'filter' | 'sort') =>
  fields.filter((field) => {
    const column = fixtureTable.columns[field] as { select?: boolean } & Record<string, unknown>;
    return flag === 'select' ? column.select !== false : column[flag] === true;
  });

/** Text the oracle can fold like PostgreSQL on any locale: ASCII, the fixture's CJK, wildcards. */
const keywordArb = fc.oneof(
  fc.constantFrom(
    ...fixtureNames.filter((name) => !/[^\x20-\x7e峰谷电价广州力]/.test(name)),
    'al',
    'A',
    '%',
    '_',
    '\\',
    "'",
    '峰',
    'hgd00',
    'note',
    ' ',
  ),
  fc.string({ unit: fc.constantFrom('a', 'B', '%', '_', '\\', "'", ' ', '峰', '1', ';', '-'), maxLength: 6 }),
);

const dayArb = fc
  .date({ min: new Date(Date.UTC(2026, 8, 25)), max: new Date(Date.UTC(2027, 0, 5)), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const instantArb = fc.oneof(
  dayArb.filter((day) => day >= '2026-11-10' && day <= '2026-11-30'),
  fc
    .integer({ min: Date.UTC(2026, 10, 17), max: Date.UTC(2026, 10, 26) })
    .map((ms) => new Date(ms - (ms % 1000)).toISOString()),
  fc.integer({ min: Date.UTC(2026, 10, 17), max: Date.UTC(2026, 10, 26) }),
  fc
    .integer({ min: Date.UTC(2026, 10, 17), max: Date.UTC(2026, 10, 26) })
    .map((ms) => new Date(ms).toISOString().replace('Z', '+08:00')),
);

/** A request value for a field: mostly one the fixture holds (so filters find rows), else any valid one. */
function valueArb(field: FixtureField): fc.Arbitrary<string | number | boolean> {
  const held = fixture.rows.flatMap((row) => {
    const value = field === 'month' ? row.month : row[field];
    return value === null || typeof value === 'boolean' ? [] : [value];
  });
  if (held.length === 0 || fixtureTable.columns[field].type === 'boolean') return anyValueArb(field);
  return fc.oneof({ arbitrary: fc.constantFrom(...held), weight: 2 }, { arbitrary: anyValueArb(field), weight: 1 });
}

function anyValueArb(field: FixtureField): fc.Arbitrary<string | number | boolean> {
  switch (fixtureTable.columns[field].type) {
    case 'int':
      return fc.oneof(fc.integer({ min: -6, max: 62 }), fc.integer({ min: -6, max: 62 }).map(String));
    case 'number':
      return fc.oneof(
        fc.constantFrom(...fixture.rows.flatMap((row) => (row.amount === null ? [] : [row.amount]))),
        fc.integer({ min: 0, max: 100_000 }).map((n) => n / 1000),
      );
    case 'date':
      return dayArb;
    case 'month':
      return fc.oneof(
        dayArb.map((day) => day.slice(0, 7)),
        dayArb,
      );
    case 'timestamp':
      return instantArb;
    case 'boolean':
      return fc.constantFrom(true, false, 'true', 'false', 1, 0, '1', '0');
    case 'text':
      return field === 'secret'
        ? fc.integer({ min: 0, max: 70 }).map((n) => `s${n}`)
        : fc.oneof(
            fc.constantFrom(...fixtureNames, ...Object.values(groupLabels)),
            fc.constantFrom(...fixture.rows.map((row) => row.code)),
            keywordArb,
          );
  }
}

function fieldDictionary<T>(
  names: FixtureField[],
  value: (field: FixtureField) => fc.Arbitrary<T>,
  maxLength = 3,
): fc.Arbitrary<Record<string, T>> {
  return fc
    .subarray(names, { maxLength })
    .chain((chosen) => fc.tuple(...chosen.map((field) => value(field).map((v): [string, T] => [field, v]))))
    .map((entries) => Object.fromEntries(entries));
}

const direction = fc.constantFrom('ascend' as const, 'descend' as const, 'asc' as const, 'desc' as const);

/** A part in about one request of three: with every part at once, most answers would be empty. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary, weight: 1 });

const validRequestArb: fc.Arbitrary<TableRequest> = fc
  .record({
    select: sometimes(fc.subarray(allowed('select'), { minLength: 1 })),
    pager: fc.record(
      { current: fc.integer({ min: 1, max: 4 }), pageSize: fc.integer({ min: 1, max: 25 }) },
      { requiredKeys: [] },
    ),
    search: sometimes(
      fc.record(
        { keyword: keywordArb, select: fc.subarray(allowed('search'), { minLength: 1 }) },
        { requiredKeys: [] },
      ),
    ),
    liker: sometimes(fieldDictionary(allowed('like'), () => keywordArb)),
    range: sometimes(
      fieldDictionary(allowed('range'), (field) =>
        fc.record(
          {
            start: fc.option(valueArb(field) as fc.Arbitrary<string | number>, { nil: undefined }),
            end: fc.option(valueArb(field) as fc.Arbitrary<string | number>, { nil: undefined }),
            self: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
      ),
    ),
    filter: sometimes(
      fieldDictionary(allowed('filter'), (field) => fc.array(valueArb(field), { minLength: 1, maxLength: 4 }), 2),
    ),
    sorter: sometimes(
      fc.array(fc.record({ key: fc.constantFrom(...allowed('sort')), sort: direction }), { maxLength: 3 }),
    ),
  })
  .map((request) => {
    // Booleans and numbers travel as JSON; the range's value type is what the schema allows.
    const parsed = tableRequestSchema.parse(JSON.parse(JSON.stringify(request)));
    return parsed;
  });

const dialect = new PgDialect();
const compiled = (request: TableRequest) => {
  const queries = buildTableQueries(fixtureTable, request);
  return { page: dialect.sqlToQuery(queries.page), count: dialect.sqlToQuery(queries.count) };
};

/** Every value a request carries as text (keyword, contains-matches, filter values, range bounds). */
function valuesOf(request: TableRequest): string[] {
  const values: (string | number | boolean | null | undefined)[] = [
    request.search?.keyword,
    ...Object.values(request.liker ?? {}),
  ];
  for (const list of Object.values(request.filter ?? {})) values.push(...list);
  for (const bounds of Object.values(request.range ?? {})) values.push(bounds.start, bounds.end);
  return values.filter((value): value is string => typeof value === 'string');
}

/** The same request with every free text value replaced by "x": the SQL must not change. */
function neutralized(request: TableRequest): TableRequest {
  const copy = structuredClone(request);
  if (copy.search?.keyword !== undefined) copy.search.keyword = copy.search.keyword.trim() === '' ? '' : 'x';
  for (const field of Object.keys(copy.liker ?? {}))
    if (copy.liker) copy.liker[field] = copy.liker[field]?.trim() === '' ? '' : 'x';
  for (const [field, values] of Object.entries(copy.filter ?? {})) {
    // Distinct values stay distinct (duplicates are merged before the SQL is made).
    const neutral = new Map(values.map((value, index) => [value, `x${index}`]));
    if (fixtureTable.columns[field as FixtureField].type === 'text' && copy.filter)
      copy.filter[field] = values.map((value) => neutral.get(value) ?? 'x');
  }
  return copy;
}

describe('properties', () => {
  it('answers every valid request exactly as the reference', async () => {
    let withRows = 0;
    await fc.assert(
      fc.asyncProperty(validRequestArb, async (request) => {
        const answer = await run(request);
        expect(answer).toEqual(expected(request));
        if (answer.result.length) withRows += 1;
      }),
      { numRuns: 400 },
    );
    // The property only proves something when answers hold rows (about half of them do).
    expect(withRows).toBeGreaterThan(100);
  });

  it('answers every filter on one column exactly as the reference, in every type', async () => {
    let withRows = 0;
    const oneFilter = fc
      .constantFrom(...allowed('filter'))
      .chain((field) =>
        fc.array(valueArb(field), { minLength: 1, maxLength: 4 }).map((values) => ({ [field]: values })),
      )
      .map((filter) => tableRequestSchema.parse({ filter, pager: { pageSize: 100 } }));
    await fc.assert(
      fc.asyncProperty(oneFilter, async (request) => {
        const answer = await run(request);
        expect(answer).toEqual(expected(request));
        if (answer.result.length) withRows += 1;
      }),
      { numRuns: 150 },
    );
    // Values are mostly ones the fixture holds, so most filters find rows.
    expect(withRows).toBeGreaterThan(75);
  });

  it('never builds SQL from the request: the text is the same whatever the values, and holds none of them', () => {
    fc.assert(
      fc.property(validRequestArb, (request) => {
        const query = compiled(request);
        const neutral = compiled(neutralized(request));
        expect(query.page.sql).toBe(neutral.page.sql);
        expect(query.count.sql).toBe(neutral.count.sql);
        for (const text of valuesOf(request)) {
          // Column names appear in the text from the definition; values never do.
          if (text.trim().length >= 3 && !(text in fixtureTable.columns)) {
            expect(query.page.sql).not.toContain(text);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  const hostileText = fc.constantFrom(
    "'; drop table table_fixture; --",
    '" or 1=1 --',
    "') union select secret from table_fixture --",
    '$1',
    '\\',
    '%',
    '\u0000',
    '\ud800',
    '𝌆🙂',
    'ＡＢＣ',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'name collate "C"',
    'id desc',
    '1e309',
    '-0',
    'NaN',
    '9'.repeat(40),
  );
  const hostileValue = fc.oneof(
    hostileText,
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant(Array.from({ length: 200 }, (_, i) => i)),
  );
  const hostileField = fc.oneof(fc.constantFrom(...fields), hostileText, fc.string({ maxLength: 8 }));
  const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1), b: [nested(depth - 1)] });
  const hostileRequestArb = fc.oneof(
    fc.record(
      {
        select: fc.oneof(fc.array(hostileField), hostileValue),
        pager: fc.oneof(
          fc.record({ current: hostileValue, pageSize: hostileValue }, { requiredKeys: [] }),
          hostileValue,
        ),
        search: fc.oneof(
          fc.record({ keyword: hostileValue, select: fc.array(hostileField) }, { requiredKeys: [] }),
          hostileValue,
        ),
        liker: fc.oneof(fc.dictionary(hostileField, hostileValue, { maxKeys: 3 }), hostileValue),
        range: fc.oneof(
          fc.dictionary(
            hostileField,
            fc.record({ start: hostileValue, end: hostileValue, self: hostileValue }, { requiredKeys: [] }),
            { maxKeys: 3 },
          ),
          hostileValue,
        ),
        filter: fc.oneof(
          fc.dictionary(hostileField, fc.oneof(fc.array(hostileValue, { maxLength: 5 }), hostileValue), { maxKeys: 3 }),
          hostileValue,
        ),
        sorter: fc.oneof(
          fc.array(fc.record({ key: hostileField, sort: fc.oneof(direction, hostileValue) }), { maxLength: 6 }),
          hostileValue,
        ),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue({ maxDepth: 4 }),
    fc.string(),
    hostileText,
    fc.constant('{"__proto__":{"pager":{"pageSize":1000}}}'),
    fc.constant('{"constructor":{"prototype":{}}}'),
    fc.constant(JSON.stringify({ filter: { name: nested(12) } })),
    fc.constant(`${'['.repeat(5000)}${']'.repeat(5000)}`),
    fc.constant('{"pager":{"pageSize":"1e2"}}'),
  );

  // The placeholders of the engine's messages (`{field}`, `{max}`…): none may be left unfilled.
  // A request's own text may contain one (a field literally named `{field}` is quoted back).
  const placeholders = [
    ...new Set(
      Object.entries(dictionaries['zh-CN'])
        .filter(([key]) => key.startsWith('table.'))
        .flatMap(([, text]) => text.match(/\{\w+\}/g) ?? []),
    ),
  ];

  it('answers random and hostile requests with rows or a localized 400, never a 500, and leaves the table alone', async () => {
    let refused = 0;
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(hostileRequestArb, fc.boolean(), fc.constantFrom(...locales), async (request, json, locale) => {
        const answer = await call(request, { json, locale });
        expect(answer.status).toBe(200);
        expect([200, 400]).toContain(answer.body.code);
        if (answer.body.code === 400) {
          refused += 1;
          expect(answer.body.message).not.toMatch(/^table\./);
          const sent = JSON.stringify(request);
          for (const placeholder of placeholders)
            if (!sent.includes(placeholder)) expect(answer.body.message).not.toContain(placeholder);
          expect(answer.body.message.length).toBeGreaterThan(5);
          return;
        }
        answered += 1;
        const parsed = parseTableRequest(json || typeof request === 'string' ? request : JSON.stringify(request));
        // A request that got rows is a valid one: it must obey the reference too.
        expect(answer.body.data).toEqual(expected(parsed));
      }),
      { numRuns: 400 },
    );
    expect(refused).toBeGreaterThan(100);
    expect(answered).toBeGreaterThan(0);
    await tableStillThere();
  });

  it('parses to either a request or a 400 ApiError, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), hostileRequestArb), (input) => {
        try {
          parseTableRequest(input);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).code).toBe(400);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
