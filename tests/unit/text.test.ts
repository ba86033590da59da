import { describe, expect, it } from 'vitest';
import { controlCharacterIssues, isCleanText } from '../../src/lib/schemas/text.ts';
import { cpuMillis } from '../cpuTime.ts';

describe('isCleanText', () => {
  it.each(['', '广州明珠精密制造有限公司', 'line one\r\nline two\tend', '😀 emoji pair', 'Ünïcödé'])(
    'accepts %j',
    (text) => {
      expect(isCleanText(text)).toBe(true);
    },
  );
  it.each([
    'a\u0000b',
    '\u0001',
    'esc\u001b[31m',
    'del\u007f',
    'c1\u0085',
    'vt\u000b',
    'lone \ud800 high',
    'lone \udc00 low',
  ])('refuses %j', (text) => {
    expect(isCleanText(text)).toBe(false);
  });
});

describe('controlCharacterIssues', () => {
  it('names the field of each unclean string, keys and nested values included, in input order', () => {
    const issues = controlCharacterIssues({
      name: 'ok',
      address: 'a\u0000',
      list: ['x', 'y\u0007'],
      nested: { 'k\u0000': 1 },
    });
    expect(issues.map((issue) => issue.path)).toEqual([['address'], ['list', 1], ['nested', 'k\u0000']]);
    expect(issues.every((issue) => issue.message === 'validation.controlChars')).toBe(true);
  });

  it('finds nothing in clean input', () => {
    expect(controlCharacterIssues({ a: 'fine', b: [1, true, null, { c: '多行\n文本' }] })).toEqual([]);
  });

  it("checks an uploaded file's name", () => {
    expect(controlCharacterIssues({ file: new File(['x'], 'licence\u0000.pdf') })[0]?.path).toEqual(['file']);
  });

  it('stays linear on a hostile body: 200 000 levels deep, and 500 000 strings wide', async () => {
    let deep: unknown = 'bottom\u0000';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    const wide = Array.from({ length: 500_000 }, () => 'x\u0000');
    const ms = await cpuMillis(() => {
      controlCharacterIssues(deep);
      expect(controlCharacterIssues(wide)).toHaveLength(20);
    });
    expect(ms).toBeLessThan(1_000);
  });
});
