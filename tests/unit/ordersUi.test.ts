/** Pure parts of the orders islands: the ordering steps in the address, day filters, status words. */
import { describe, expect, it } from 'vitest';
import { orderStatusLabel, orderStatusKeys } from '../../src/islands/order/orderView.ts';
import { isFiltered } from '../../src/islands/order/orderList.ts';
import { readWizard, startMonths, writeWizard } from '../../src/islands/order/orderWizard.ts';
import { daysAsInstants } from '../../src/islands/table/dayRange.ts';
import { nextSort } from '../../src/islands/table/useUrlTable.ts';
import { pick } from '../../src/lib/i18n/index.ts';
import { defaultTableQuery, updateTableQuery } from '../../src/lib/tableRequest.ts';

describe('the ordering steps in the address', () => {
  it('round-trips a complete state', () => {
    const state = {
      sellingSetId: 'gd-fixed-2027-yuehui',
      step: 'confirm' as const,
      schemeParamId: 'gd-fixed-2027-10kv',
      contractStart: '2027-01',
      contractMonths: '12',
      estimatedConsumption: '8600',
    };
    expect(readWizard(writeWizard(state))).toEqual(state);
  });

  it('falls back to the first step when a later step misses its inputs', () => {
    expect(readWizard('?sellingSetId=a&step=contract').step).toBe('set');
    expect(readWizard('?sellingSetId=a&schemeParamId=b&step=confirm&contractStart=2027-01').step).toBe('set');
    expect(readWizard('?sellingSetId=a&schemeParamId=b&step=contract').step).toBe('contract');
    expect(readWizard('?step=nonsense').step).toBe('set');
  });

  it('leaves the first step and empty values out of the address', () => {
    expect(writeWizard(readWizard(''))).toBe('');
    expect(writeWizard(readWizard('?sellingSetId=x'))).toBe('?sellingSetId=x');
  });

  it('bounds what a hand-edited address can carry', () => {
    expect(readWizard(`?sellingSetId=${'x'.repeat(500)}`).sellingSetId).toHaveLength(100);
  });

  it('offers the 12 months from next month (China time)', () => {
    // 2026-12-31 20:00 UTC is already 2027-01-01 in China: the window starts in February.
    const months = startMonths(new Date('2026-12-31T20:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2027-02');
    expect(months[11]).toBe('2028-01');
  });
});

describe('day filters', () => {
  it('send whole China-time days as instants and leave other ranges alone', () => {
    const state = updateTableQuery(defaultTableQuery(), {
      ranges: { createdAt: { start: '2026-11-01', end: '2026-11-22' }, contractStart: { start: '2027-01' } },
    });
    const sent = daysAsInstants('createdAt')(state);
    expect(sent.ranges.createdAt).toEqual({
      start: '2026-11-01T00:00:00.000+08:00',
      end: '2026-11-22T23:59:59.999+08:00',
    });
    expect(sent.ranges.contractStart).toEqual({ start: '2027-01' });
    expect(state.ranges.createdAt?.end).toBe('2026-11-22');
  });

  it('tell a narrowed table from an untouched one', () => {
    expect(isFiltered(defaultTableQuery())).toBe(false);
    expect(isFiltered(updateTableQuery(defaultTableQuery(), { filters: { status: ['30'] } }))).toBe(true);
    expect(isFiltered(updateTableQuery(defaultTableQuery(), { keyword: 'HGD' }))).toBe(true);
  });
});

describe('status words', () => {
  it('every order status has its word in every locale, unknown codes show themselves', () => {
    for (const locale of ['zh-CN', 'en-US', 'zh-TW', 'id-ID', 'pt-BR'] as const) {
      const messages = pick(locale, orderStatusKeys);
      for (const key of orderStatusKeys) expect(messages[key]).toBeTruthy();
      expect(orderStatusLabel(77, messages)).toBe('77');
    }
    expect(orderStatusLabel(30, pick('zh-CN', orderStatusKeys))).toBe('已生效');
  });
});

describe('sorting by a header', () => {
  const newest = [{ key: 'createdAt', order: 'desc' as const }];
  it('another column: ascending, descending, then the default order', () => {
    expect(nextSort(newest, newest, 'orderNo')).toEqual([{ key: 'orderNo', order: 'asc' }]);
    expect(nextSort([{ key: 'orderNo', order: 'asc' }], newest, 'orderNo')).toEqual([
      { key: 'orderNo', order: 'desc' },
    ]);
    expect(nextSort([{ key: 'orderNo', order: 'desc' }], newest, 'orderNo')).toEqual(newest);
  });
  it('the default column flips between its directions', () => {
    expect(nextSort(newest, newest, 'createdAt')).toEqual([{ key: 'createdAt', order: 'asc' }]);
    expect(nextSort([], newest, 'createdAt')).toEqual([{ key: 'createdAt', order: 'asc' }]);
    expect(nextSort([{ key: 'createdAt', order: 'asc' }], newest, 'createdAt')).toEqual(newest);
  });
});
