/** The analysis' pure parts (src/server/services/partnerAnalysis/): periods, spans, subtree sums and their unions. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/apiError.ts';
import { periodBefore, rollUp, unionOfSubtrees, windowOf } from '../../src/server/services/partnerAnalysis/rollup.ts';
import { trendSpan } from '../../src/server/services/partnerAnalysis/trend.ts';

const tree = [
  { id: 1, path: '/1/' },
  { id: 2, path: '/1/2/' },
  { id: 3, path: '/1/3/' },
  { id: 4, path: '/1/2/4/' },
  { id: 5, path: '/1/2/5/' },
  { id: 6, path: '/1/3/6/' },
];

describe('periods', () => {
  it('steps back over years, month ends and leap days', () => {
    expect(periodBefore(1, '2026', 4)).toBe('2022');
    expect(periodBefore(2, '2026-11', 11)).toBe('2025-12');
    expect(periodBefore(2, '2026-01', 1)).toBe('2025-12');
    expect(periodBefore(3, '2024-03-01', 1)).toBe('2024-02-29');
    expect(periodBefore(3, '2026-11-22', 29)).toBe('2026-10-24');
  });

  it('a window is China days: 00:00 UTC+8 is 16:00 UTC the day before', () => {
    expect(windowOf(1, '2026')).toEqual({
      startAt: '2025-12-31T16:00:00.000Z',
      nextAt: '2026-12-31T16:00:00.000Z',
      startDay: '2026-01-01',
      nextDay: '2027-01-01',
    });
    expect(windowOf(2, '2025-11', '2026-02')).toMatchObject({ startDay: '2025-11-01', nextDay: '2026-03-01' });
    expect(windowOf(3, '2024-02-29')).toMatchObject({ startDay: '2024-02-29', nextDay: '2024-03-01' });
  });

  it('trend spans: defaults up to the current period, refusals on `to`', () => {
    const now = new Date('2026-11-22T02:00:00Z');
    expect(trendSpan({ yearType: 1 }, now)).toEqual({ from: '2022', to: '2026' });
    expect(trendSpan({ yearType: 2, to: '2026-03' }, now)).toEqual({ from: '2025-04', to: '2026-03' });
    expect(trendSpan({ yearType: 3, from: '2026-11-01' }, now)).toEqual({
      from: '2026-11-01',
      to: '2026-11-22',
    });
    expect(trendSpan({ yearType: 2, from: '2027-05' }, now)).toEqual({ from: '2027-05', to: '2027-05' });
    const refused = (input: Parameters<typeof trendSpan>[0]) => {
      try {
        trendSpan(input, now);
        return undefined;
      } catch (error) {
        return error instanceof ApiError ? [error.code, error.key, error.field] : error;
      }
    };
    expect(refused({ yearType: 1, from: '2000' })).toEqual([400, 'partner.trendSpan.1', 'to']);
    expect(refused({ yearType: 2, from: '2026-05', to: '2026-04' })).toEqual([400, 'partner.trendOrder', 'to']);
    expect(refused({ yearType: 3, from: '2026-01-01', to: '2026-04-03' })).toEqual([400, 'partner.trendSpan.3', 'to']);
    expect(refused({ yearType: 3, from: '2026-01-01', to: '2026-04-02' })).toBeUndefined();
  });
});

describe('subtree sums', () => {
  const own = new Map([
    [1, { orders: 1, saving: 0.1 }],
    [4, { orders: 2, saving: 0.2 }],
    [5, { orders: 4, saving: 0.4 }],
    [6, { orders: 8, saving: -0.05 }],
  ]);

  it('each institution holds itself and its descendants, rounded to the unit (0.1 + 0.2 = 0.3)', () => {
    const rolled = rollUp(tree, own, ['orders', 'saving'] as const);
    expect(rolled.get(1)).toEqual({ orders: 15, saving: 0.65 });
    expect(rolled.get(2)).toEqual({ orders: 6, saving: 0.6 });
    expect(rolled.get(3)).toEqual({ orders: 8, saving: -0.05 });
    expect(rolled.get(4)).toEqual({ orders: 2, saving: 0.2 });
    expect(
      rollUp(
        tree,
        new Map([
          [4, { saving: 0.1 }],
          [5, { saving: 0.2 }],
        ]),
        ['saving'] as const,
      ).get(2),
    ).toEqual({ saving: 0.3 });
  });

  it("ancestors outside the listed institutions are not created (a branch user's head office)", () => {
    const branch = tree.filter((node) => node.path.startsWith('/1/2/'));
    const rolled = rollUp(branch, own, ['orders'] as const);
    expect([...rolled.keys()].sort()).toEqual([2, 4, 5]);
    expect(rolled.get(2)).toEqual({ orders: 6 });
  });

  it('the union of subtrees counts nested tops once', () => {
    expect(unionOfSubtrees(tree, [1, 2]).map((node) => node.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(unionOfSubtrees(tree, [2, 6]).map((node) => node.id)).toEqual([2, 4, 5, 6]);
    expect(unionOfSubtrees(tree, [4, 2, 4]).map((node) => node.id)).toEqual([2, 4, 5]);
    expect(unionOfSubtrees(tree, [])).toEqual([]);
  });
});
