import { describe, expect, it } from 'vitest';
import {
  chinaDate,
  chinaDayEnd,
  chinaDayStart,
  chinaMonth,
  chinaYear,
  formatChinaDate,
  formatChinaDateTime,
  formatChinaDay,
  formatChinaMonth,
} from '../../src/lib/chinaTime.ts';
import { currentPeriod } from '../../src/lib/partner.ts';

// 16:30 UTC on 25 Nov is 00:30 on 26 Nov in China: the day boundary the helpers exist for.
const lateUtc = '2026-11-25T16:30:00Z';

describe('China time', () => {
  it('puts an instant on its China day, month and year, across the day boundary', () => {
    expect(chinaDate(lateUtc)).toBe('2026-11-26');
    expect(chinaDate('2026-11-25T15:59:59.999Z')).toBe('2026-11-25');
    expect(chinaDate(new Date('2026-11-25T16:00:00Z'))).toBe('2026-11-26');
    expect(chinaMonth('2026-11-30T16:00:00Z')).toBe('2026-12');
    expect(chinaYear('2026-12-31T16:00:00Z')).toBe(2027);
    expect(currentPeriod(3, new Date(lateUtc))).toBe('2026-11-26');
  });

  it('gives a China day its first and last instant', () => {
    expect(new Date(chinaDayStart('2026-11-26')).toISOString()).toBe('2026-11-25T16:00:00.000Z');
    expect(new Date(chinaDayEnd('2026-11-26')).toISOString()).toBe('2026-11-26T15:59:59.999Z');
  });

  it('formats in China time whatever the process time zone', () => {
    expect(formatChinaDateTime(lateUtc, 'zh-CN')).toBe('2026年11月26日 00:30');
    expect(formatChinaDateTime(lateUtc, 'en-US')).toBe('Nov 26, 2026, 12:30 AM');
    expect(formatChinaDate(lateUtc, 'zh-CN')).toBe('2026年11月26日');
    expect(formatChinaDate(lateUtc, 'pt-BR')).toBe('26 de nov. de 2026');
    expect(formatChinaDay('2026-11-26', 'en-US')).toBe('Nov 26, 2026');
    expect(formatChinaMonth('2026-11', 'zh-CN')).toBe('2026年11月');
    expect(formatChinaMonth('2026-11', 'en-US')).toBe('November 2026');
  });

  it('leaves text that is no date as it is', () => {
    expect(formatChinaDateTime('not a date', 'zh-CN')).toBe('not a date');
    expect(formatChinaDay('soon', 'zh-CN')).toBe('soon');
    expect(formatChinaMonth('2026', 'zh-CN')).toBe('2026');
  });
});
