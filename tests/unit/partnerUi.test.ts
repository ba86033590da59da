/**
 * The partner pages' pure parts: the tree the keyboard walks (partnerTree.ts), the settlement
 * query's months and call fields (settlementQuery.ts) and the import's file rules.
 */
import { describe, expect, it } from 'vitest';
import type { PartnerTreeNode } from '../../src/lib/schemas/partner.ts';
import { defaultTableQuery, updateTableQuery } from '../../src/lib/tableRequest.ts';
import {
  ancestorsOf,
  findNode,
  flattenTree,
  idFromText,
  initialExpanded,
  visibleRows,
} from '../../src/islands/partner/partnerTree.ts';
import { outsideScope } from '../../src/islands/partner/OutOfScope.tsx';
import {
  SUBTREE,
  callFields,
  defaultMonths,
  formatFixed,
  monthsOf,
  toRequest,
} from '../../src/islands/partner/settlement/settlementQuery.ts';
import { fileProblem, maxImportBytes } from '../../src/islands/ops/settlementImport.ts';

function node(
  id: number,
  name: string,
  level: 1 | 2 | 3,
  children: PartnerTreeNode[] = [],
  parentId: number | null = null,
): PartnerTreeNode {
  return { id, code: `C${id}`, name, parentId, level, areaCode: null, children };
}

const tree = [
  node(1, '总行', 1, [
    node(2, '广东省分行', 2, [node(4, '天河支行', 3, [], 2), node(5, '越秀支行', 3, [], 2)], 1),
    node(3, '广西区分行', 2, [node(6, '青秀支行', 3, [], 3)], 1),
  ]),
];

describe('partnerTree', () => {
  it('shows children only under open institutions, with level, position and parent', () => {
    const rows = visibleRows(tree, new Set([1]));
    expect(rows.map((row) => [row.node.id, row.depth, row.position, row.siblings, row.parentId])).toEqual([
      [1, 1, 1, 1, null],
      [2, 2, 1, 2, 1],
      [3, 2, 2, 2, 1],
    ]);
    expect(visibleRows(tree, new Set([1, 2])).map((row) => row.node.id)).toEqual([1, 2, 4, 5, 3]);
  });

  it('opens the roots and the way to the chosen institution', () => {
    expect(ancestorsOf(tree, 6)).toEqual([1, 3]);
    expect(ancestorsOf(tree, 99)).toEqual([]);
    expect([...initialExpanded(tree, 6)].sort()).toEqual([1, 3]);
    expect(findNode(tree, 5)?.name).toBe('越秀支行');
  });

  it('reads an id from the address only when it is a positive integer', () => {
    expect(idFromText('17')).toBe(17);
    for (const text of ['', '0', '-1', '1e3', 'abc', '99999999999', null]) expect(idFromText(text)).toBeUndefined();
  });
});

describe('settlementQuery', () => {
  it('defaults to the three months before the current one in China time', () => {
    // 2026-01-31 20:00 UTC is already 1 February in China.
    expect(defaultMonths(new Date('2026-01-31T20:00:00Z'))).toEqual({ start: '2025-11', end: '2026-01' });
    expect(defaultMonths(new Date('2026-11-22T04:00:00Z'))).toEqual({ start: '2026-08', end: '2026-10' });
  });

  it('sends the chosen institution as partnerId, not as a table filter, and fills the default months', () => {
    const state = updateTableQuery(defaultTableQuery(), { filters: { [SUBTREE]: ['7'], status: ['2'] } });
    expect(callFields(state)).toEqual({ partnerId: '7' });
    const sent = toRequest(state);
    expect(sent.filters).toEqual({ status: ['2'] });
    expect(sent.ranges['settleMonth']).toEqual(defaultMonths());
    expect(callFields(defaultTableQuery())).toEqual({});
  });

  it('keeps an open-ended range the reader chose', () => {
    const state = updateTableQuery(defaultTableQuery(), { ranges: { settleMonth: { start: '2025-01' } } });
    expect(monthsOf(state)).toEqual({ start: '2025-01', end: '' });
    expect(toRequest(state).ranges['settleMonth']).toEqual({ start: '2025-01' });
  });

  it('writes numbers with fixed decimals in the page language', () => {
    expect(formatFixed(1234.5, 'zh-CN', 3)).toBe('1,234.500');
    expect(formatFixed(1234.5, 'pt-BR', 2)).toBe('1.234,50');
    expect(formatFixed(undefined, 'en-US', 2)).toBe('-');
  });
});

describe('settlement import file rules', () => {
  const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
  it('accepts .csv and .xlsx up to 5 MB', () => {
    expect(fileProblem(file('结算.csv', 10))).toBeUndefined();
    expect(fileProblem(file('settle.XLSX', maxImportBytes))).toBeUndefined();
    expect(fileProblem(undefined)).toBe('noFile');
    expect(fileProblem(file('a.csv', 0))).toBe('noFile');
    expect(fileProblem(file('a.xls', 10))).toBe('badType');
    expect(fileProblem(file('a.csv', maxImportBytes + 1))).toBe('tooLarge');
  });
});

describe("an institution outside the user's scope", () => {
  const node = (id: number, children: PartnerTreeNode[] = []): PartnerTreeNode => ({
    id,
    code: `C${id}`,
    name: `机构${id}`,
    parentId: null,
    level: 2,
    areaCode: null,
    children,
  });
  const roots = [node(4, [node(17), node(18)])];
  const ready = { state: 'ready' as const, roots, rows: flattenTree(roots) };

  it("is an id of the address that the user's tree does not hold; nothing is judged before the tree is loaded", () => {
    expect(outsideScope(ready, [17])).toEqual([]);
    expect(outsideScope(ready, [undefined])).toEqual([]);
    expect(outsideScope(ready, [1, 17, 99])).toEqual([1, 99]);
    expect(outsideScope({ state: 'loading' }, [1])).toEqual([]);
    expect(outsideScope({ state: 'failed', message: '' }, [1])).toEqual([]);
  });
});
