import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableRequestSchema } from '../../src/lib/schemas/table.ts';
import {
  buildAntTable,
  defaultTableQuery,
  fromTableRequest,
  readTableQuery,
  toTableRequest,
  toggleSort,
  updateTableQuery,
  writeTableQuery,
  type TableQueryState,
} from '../../src/lib/tableRequest.ts';

const query = (text: string) => new URLSearchParams(text);

describe('reading the address', () => {
  it('gives the defaults for a bare address', () => {
    expect(readTableQuery(query(''), { size: 20, sort: [{ key: 'createdAt', order: 'desc' }] })).toEqual({
      page: 1,
      size: 20,
      sort: [{ key: 'createdAt', order: 'desc' }],
      keyword: '',
      filters: {},
      likes: {},
      ranges: {},
    });
  });

  it('reads every part', () => {
    const state = readTableQuery(
      query(
        'page=3&size=50&q=峰谷&sort=createdAt:desc&sort=orderNo:asc&filter.status=10&filter.status=20' +
          '&like.setName=%25x&from.createdAt=2026-11-01&to.createdAt=2026-11-22&other=1',
      ),
    );
    expect(state).toEqual({
      page: 3,
      size: 50,
      sort: [
        { key: 'createdAt', order: 'desc' },
        { key: 'orderNo', order: 'asc' },
      ],
      keyword: '峰谷',
      filters: { status: ['10', '20'] },
      likes: { setName: '%x' },
      ranges: { createdAt: { start: '2026-11-01', end: '2026-11-22' } },
    });
  });

  it('drops nonsense instead of throwing', () => {
    const state = readTableQuery(
      query('page=0&size=101&sort=a:sideways&sort=__proto__:asc&filter.__proto__=1&filter.a.b=2&like.x=&page=abc'),
    );
    expect(state).toEqual(defaultTableQuery());
    expect(readTableQuery(query('page=-2&size=1e3')).page).toBe(1);
    expect(readTableQuery(query('sort=status:desc&sort=status:asc')).sort).toEqual([{ key: 'status', order: 'desc' }]);
  });

  it('reads only its own keys with a prefix', () => {
    const state = readTableQuery(query('page=4&t2.page=2&t2.filter.status=90'), { prefix: 't2.' });
    expect(state.page).toBe(2);
    expect(state.filters).toEqual({ status: ['90'] });
  });
});

describe('writing the address', () => {
  it('leaves defaults out and keeps the page’s other keys', () => {
    const base = query('sellingSetId=abc&page=9&filter.status=10');
    expect(writeTableQuery(defaultTableQuery({ size: 20 }), base, { size: 20 }).toString()).toBe('sellingSetId=abc');
  });

  it('writes what differs from the defaults', () => {
    const state: TableQueryState = {
      ...defaultTableQuery(),
      page: 2,
      size: 20,
      keyword: 'a b',
      sort: [{ key: 'createdAt', order: 'desc' }],
      filters: { status: ['10', '20'] },
      likes: { setName: 'x&y' },
      ranges: { createdAt: { start: '2026-11-01' } },
    };
    expect(writeTableQuery(state).toString()).toBe(
      'page=2&size=20&q=a+b&sort=createdAt%3Adesc&filter.status=10&filter.status=20&like.setName=x%26y&from.createdAt=2026-11-01',
    );
  });

  it('reads back what it wrote (any state)', () => {
    const field = fc.constantFrom('status', 'orderNo', 'createdAt', 'setName');
    const text = fc.string({ minLength: 1, maxLength: 20 });
    const state = fc.record({
      page: fc.integer({ min: 1, max: 100_000 }),
      size: fc.integer({ min: 1, max: 100 }),
      sort: fc.uniqueArray(fc.record({ key: field, order: fc.constantFrom('asc' as const, 'desc' as const) }), {
        selector: (sort) => sort.key,
        maxLength: 3,
      }),
      keyword: fc.string({ maxLength: 30 }).filter((s) => s.trim() === s),
      filters: fc.dictionary(field, fc.uniqueArray(text, { minLength: 1, maxLength: 4 })),
      likes: fc.dictionary(field, text),
      ranges: fc.dictionary(
        field,
        fc.record({ start: text, end: text }, { requiredKeys: [] }).filter((r) => Boolean(r.start ?? r.end)),
      ),
    });
    fc.assert(
      fc.property(state, (original) => {
        const written = writeTableQuery(original);
        const read = readTableQuery(new URLSearchParams(written.toString()));
        expect(read).toEqual(original);
      }),
    );
  });
});

describe('changing the state', () => {
  it('goes back to page 1 on any change but the page', () => {
    const state = { ...defaultTableQuery(), page: 5 };
    expect(updateTableQuery(state, { filters: { status: ['10'] } }).page).toBe(1);
    expect(updateTableQuery(state, { page: 6 }).page).toBe(6);
    expect(updateTableQuery(state, { filters: { status: [] }, likes: { a: '' }, ranges: { b: {} } })).toEqual({
      ...defaultTableQuery(),
      page: 1,
    });
  });

  it('cycles a column’s sort: ascending, descending, default', () => {
    let state = { ...defaultTableQuery(), page: 3 };
    state = toggleSort(state, 'createdAt');
    expect(state.sort).toEqual([{ key: 'createdAt', order: 'asc' }]);
    expect(state.page).toBe(1);
    state = toggleSort(state, 'createdAt');
    expect(state.sort).toEqual([{ key: 'createdAt', order: 'desc' }]);
    expect(toggleSort(state, 'createdAt').sort).toEqual([]);
    expect(toggleSort(state, 'status').sort).toEqual([{ key: 'status', order: 'asc' }]);
  });
});

describe('the antTable request', () => {
  const state: TableQueryState = {
    ...defaultTableQuery(),
    page: 2,
    size: 20,
    keyword: ' HGD ',
    sort: [{ key: 'createdAt', order: 'desc' }],
    filters: { status: ['10', '20'] },
    likes: { setName: '峰' },
    ranges: { createdAt: { start: '2026-11-01', end: '2026-11-22' }, contractStart: { end: '2027-01' } },
  };

  it('holds every part in the spec’s shape', () => {
    expect(toTableRequest(state, { searchFields: ['orderNo', 'setName'] })).toEqual({
      pager: { current: 2, pageSize: 20 },
      search: { keyword: 'HGD', select: ['orderNo', 'setName'] },
      liker: { setName: '峰' },
      filter: { status: ['10', '20'] },
      range: {
        createdAt: { start: '2026-11-01', end: '2026-11-22', self: true },
        contractStart: { end: '2027-01', self: true },
      },
      sorter: [{ key: 'createdAt', sort: 'descend' }],
    });
  });

  it('is a JSON string the shared schema accepts', () => {
    const parsed = tableRequestSchema.safeParse(JSON.parse(buildAntTable(state, { select: ['orderNo'] })));
    expect(parsed.success).toBe(true);
    expect(buildAntTable(defaultTableQuery())).toBe('{"pager":{"current":1,"pageSize":10}}');
  });

  it('turns back into the same state', () => {
    expect(fromTableRequest(toTableRequest(state))).toEqual({ ...state, keyword: 'HGD' });
    expect(fromTableRequest({ filter: { status: [10, true] }, range: { x: { start: 5, end: null } } })).toMatchObject({
      filters: { status: ['10', 'true'] },
      ranges: { x: { start: '5' } },
    });
  });
});

describe('the shared schema', () => {
  it('refuses unknown keys, bad directions, big pages and hostile field names', () => {
    const bad: unknown[] = [
      { pager: { current: 1, pageSize: 101 } },
      { pager: { current: 0 } },
      { pager: { current: 1.5 } },
      { pager: { size: 10 } },
      { extra: 1 },
      { sorter: [{ key: 'a', sort: 'up' }] },
      { sorter: Array.from({ length: 6 }, () => ({ key: 'a', sort: 'asc' })) },
      { filter: { status: [] } },
      { filter: { status: [null] } },
      { filter: { status: 10 } },
      { liker: { 'a;drop table orders': 'x' } },
      { liker: JSON.parse('{"__proto__":"x"}') as unknown },
      { range: { a: { start: 1, finish: 2 } } },
      { range: { a: [1, 2] } },
      { select: 'orderNo' },
      { search: { keyword: 'x'.repeat(101) } },
      { pager: { current: 1e400 } },
    ];
    for (const input of bad) expect(tableRequestSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });

  it('accepts digit strings in the pager (form posts)', () => {
    expect(tableRequestSchema.parse({ pager: { current: '3', pageSize: '20' } }).pager).toEqual({
      current: 3,
      pageSize: 20,
    });
  });
});
