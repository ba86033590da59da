import { describe, expect, it } from 'vitest';
import { parseQualityList } from '../../src/lib/qualityValues.ts';

describe('quality lists', () => {
  it('orders by q, then by position, and keeps q=0 entries', () => {
    expect(parseQualityList('gzip;q=0.5, br, *;q=0, deflate')).toEqual([
      { token: 'br', q: 1 },
      { token: 'deflate', q: 1 },
      { token: 'gzip', q: 0.5 },
      { token: '*', q: 0 },
    ]);
  });

  it('treats a malformed q as 0 and skips empty parts', () => {
    expect(parseQualityList('en;q=abc, , zh')).toEqual([
      { token: 'zh', q: 1 },
      { token: 'en', q: 0 },
    ]);
    expect(parseQualityList(undefined)).toEqual([]);
  });
});
