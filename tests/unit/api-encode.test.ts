import { describe, expect, test } from 'vitest';
import { flattenQuery, toDownloadQuery, toFormBody, toMultipart, withQuery } from '../../src/lib/api/encode.ts';

describe('toDownloadQuery (download and GET query)', () => {
  test('joins arrays with commas', () => {
    expect(toDownloadQuery({ ids: [1, 2, 3] })).toBe('ids=1%2C2%2C3');
    expect(decodeURIComponent(toDownloadQuery({ ids: ['a', 'b'] }))).toBe('ids=a,b');
  });

  test('flattens nested objects to key.subkey, at any depth', () => {
    const query = toDownloadQuery({ range: { start: '2024-01', end: '2024-12' }, a: { b: { c: 1 } } });
    expect(query).toBe('range.start=2024-01&range.end=2024-12&a.b.c=1');
  });

  test('skips null and undefined, also inside arrays; leaves out empty arrays', () => {
    expect(toDownloadQuery({ a: null, b: undefined, c: 0, d: false, e: '', f: [null, 1, undefined, 2], g: [] })).toBe(
      'c=0&d=false&e=&f=1%2C2',
    );
    expect(toDownloadQuery({ nested: { x: null, y: 'y' } })).toBe('nested.y=y');
    expect(toDownloadQuery()).toBe('');
  });

  test('percent-encodes keys and values (space as %20, Chinese as UTF-8)', () => {
    expect(toDownloadQuery({ 'k y': 'a b&c=d', name: '广东' })).toBe('k%20y=a%20b%26c%3Dd&name=%E5%B9%BF%E4%B8%9C');
  });

  test('dates become ISO strings', () => {
    expect(flattenQuery({ at: new Date(Date.UTC(2024, 0, 2)) })).toEqual([['at', '2024-01-02T00:00:00.000Z']]);
  });
});

describe('withQuery', () => {
  test('appends, keeps an existing query and the hash', () => {
    expect(withQuery('/api/x', { a: 1 })).toBe('/api/x?a=1');
    expect(withQuery('/api/x?z=0', { a: 1 })).toBe('/api/x?z=0&a=1');
    expect(withQuery('/api/x?', { a: 1 })).toBe('/api/x?a=1');
    expect(withQuery('/api/x#top', { a: 1 })).toBe('/api/x?a=1#top');
    expect(withQuery('/api/x', {})).toBe('/api/x');
    expect(withQuery('/api/x')).toBe('/api/x');
  });
});

describe('toFormBody (default body encoding)', () => {
  test('scalars as strings, null/undefined skipped', () => {
    expect(toFormBody({ userName: 'ab cd', n: 3, ok: true, none: null, gone: undefined }).toString()).toBe(
      'userName=ab+cd&n=3&ok=true',
    );
  });

  test('objects and arrays become a JSON string in their field (antTable)', () => {
    const antTable = { pager: { current: 1, pageSize: 10 }, sorter: [{ key: 'createdAt', sort: 'desc' }] };
    const asObject = toFormBody({ antTable });
    const asString = toFormBody({ antTable: JSON.stringify(antTable) });
    expect(asObject.get('antTable')).toBe(JSON.stringify(antTable));
    expect(asObject.toString()).toBe(asString.toString());
    expect(toFormBody({ ids: [1, 2] }).get('ids')).toBe('[1,2]');
  });
});

describe('toMultipart (upload body)', () => {
  test('files as files (named), other fields as strings, arrays as repeated fields', () => {
    const licence = new File(['%PDF-1.7'], 'licence.pdf', { type: 'application/pdf' });
    const blob = new Blob(['x'], { type: 'image/png' });
    const form = toMultipart({
      kind: 'licence',
      enterpriseId: 7,
      file: licence,
      extra: blob,
      many: [licence, licence],
      skip: null,
    });
    expect(form.get('kind')).toBe('licence');
    expect(form.get('enterpriseId')).toBe('7');
    const file = form.get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('licence.pdf');
    expect((file as File).type).toBe('application/pdf');
    expect(form.get('extra')).toBeInstanceOf(Blob);
    expect(form.getAll('many')).toHaveLength(2);
    expect(form.has('skip')).toBe(false);
  });

  test('a FormData is used as it is', () => {
    const form = new FormData();
    form.append('a', '1');
    expect(toMultipart(form)).toBe(form);
  });
});
