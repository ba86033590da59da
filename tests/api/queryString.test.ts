import { describe, expect, it } from 'vitest';
import { formDataToObject, parseQueryString, splitKey } from '../../src/server/queryString.ts';

describe('parseQueryString', () => {
  it('reads plain, repeated, bracket and dotted keys', () => {
    expect(parseQueryString('?a=1&b=x+y&c=%E4%B8%AD')).toEqual({ a: '1', b: 'x y', c: '中' });
    expect(parseQueryString('a=1&a=2')).toEqual({ a: ['1', '2'] });
    expect(parseQueryString('a[]=1&a[]=2')).toEqual({ a: ['1', '2'] });
    expect(parseQueryString('a[1]=y&a[0]=x')).toEqual({ a: ['x', 'y'] });
    expect(parseQueryString('a[b][c]=1&a.d=2')).toEqual({ a: { b: { c: '1' }, d: '2' } });
    expect(parseQueryString('list[0][name]=a&list[1][name]=b')).toEqual({ list: [{ name: 'a' }, { name: 'b' }] });
    expect(parseQueryString('flag&empty=')).toEqual({ flag: '', empty: '' });
  });

  it('limits depth to 5', () => {
    expect(splitKey('a[b][c][d][e][f][g]')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', '[g]']);
    expect(parseQueryString('a[b][c][d][e][f][g]=x')).toEqual({
      a: { b: { c: { d: { e: { f: { '[g]': 'x' } } } } } },
    });
  });

  it('turns array indexes over 20 into object keys', () => {
    expect(parseQueryString('a[20]=x')).toEqual({ a: ['x'] });
    expect(parseQueryString('a[21]=x')).toEqual({ a: { '21': 'x' } });
    const many = Array.from({ length: 25 }, (_, i) => `a=${i}`).join('&');
    const parsed = parseQueryString(many) as { a: unknown };
    expect(Array.isArray(parsed.a)).toBe(false);
  });

  it('reads at most 1000 parameters', () => {
    const text = Array.from({ length: 1500 }, (_, i) => `k${i}=v`).join('&');
    expect(Object.keys(parseQueryString(text))).toHaveLength(1000);
  });

  it('drops keys that could reach the prototype', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&a[constructor][prototype][x]=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('survives malformed escapes and brackets', () => {
    expect(parseQueryString('a=%E0%A4%A&b[=1&c]=2')).toEqual({ a: '%E0%A4%A', 'b[': '1', 'c]': '2' });
  });
});

describe('formDataToObject', () => {
  it('uses the same key rules and keeps files', () => {
    const form = new FormData();
    form.append('tags[]', 'a');
    form.append('tags[]', 'b');
    form.append('user.name', '张三');
    const file = new File(['%PDF-1.4'], 'licence.pdf', { type: 'application/pdf' });
    form.append('file', file);
    const parsed = formDataToObject(form);
    expect(parsed['tags']).toEqual(['a', 'b']);
    expect(parsed['user']).toEqual({ name: '张三' });
    expect(parsed['file']).toBeInstanceOf(File);
  });
});
