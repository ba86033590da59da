/**
 * The visible institution tree (getAllPartnersByEmpId, spec §3 `partnerTree`) flattened into rows,
 * the one way every partner picker lists it: the tree widget walks the rows currently shown (each
 * with its depth and parent, so the arrow keys of the WAI-ARIA tree pattern are simple moves in one
 * list); the flat pickers (a native select, a checklist) list every row, indented by depth. Pure,
 * so it is tested without a DOM.
 */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { PartnerTreeNode } from '../../lib/schemas/partner.ts';

export const partnerTreeMessageKeys = [
  'partner.level.1',
  'partner.level.2',
  'partner.level.3',
  'settlement.tree.loadFailed',
  'settlement.tree.empty',
  'settlement.tree.retry',
  'common.loading',
] as const satisfies readonly MessageKey[];

export type PartnerTreeMessages = Record<(typeof partnerTreeMessageKeys)[number], string>;

export interface VisibleRow {
  node: PartnerTreeNode;
  /** 1 for a root (aria-level). */
  depth: number;
  parentId: number | null;
  /** Position among its siblings, 1-based, and their count (aria-posinset / aria-setsize). */
  position: number;
  siblings: number;
}

/** The rows shown when the nodes of `expanded` are open: depth-first, children under open parents only. */
export function visibleRows(
  roots: readonly PartnerTreeNode[],
  expanded: Pick<ReadonlySet<number>, 'has'>,
): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (nodes: readonly PartnerTreeNode[], depth: number, parentId: number | null) => {
    nodes.forEach((node, index) => {
      rows.push({ node, depth, parentId, position: index + 1, siblings: nodes.length });
      if (node.children.length > 0 && expanded.has(node.id)) walk(node.children, depth + 1, node.id);
    });
  };
  walk(roots, 1, null);
  return rows;
}

/** Every institution as if every one were open: depth-first in the tree's order (roots first, children by code). */
export function flattenTree(roots: readonly PartnerTreeNode[]): VisibleRow[] {
  return visibleRows(roots, { has: () => true });
}

/** A row's text in a native select or list: indented by depth (no-break spaces survive in options). */
export function indentedName(row: VisibleRow): string {
  return `${'\u00a0\u00a0\u00a0'.repeat(row.depth - 1)}${row.node.name}`;
}

/** Institution names by id, for names of chosen ids before an answer brings them. */
export function namesById(rows: readonly VisibleRow[]): Map<number, string> {
  return new Map(rows.map((row) => [row.node.id, row.node.name]));
}

/** The node with this id anywhere in the tree. */
export function findNode(roots: readonly PartnerTreeNode[], id: number): PartnerTreeNode | undefined {
  for (const node of roots) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** The ids from a root down to `id`'s parent (what must be open to show it); [] when not in the tree. */
export function ancestorsOf(roots: readonly PartnerTreeNode[], id: number): number[] {
  const walk = (nodes: readonly PartnerTreeNode[], trail: number[]): number[] | undefined => {
    for (const node of nodes) {
      if (node.id === id) return trail;
      const found = walk(node.children, [...trail, node.id]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(roots, []) ?? [];
}

/** What is open at first: the roots (a user sees their own institutions' direct children) and the way to the chosen one. */
export function initialExpanded(roots: readonly PartnerTreeNode[], selectedId: number | undefined): Set<number> {
  const open = new Set(roots.filter((node) => node.children.length > 0).map((node) => node.id));
  if (selectedId !== undefined) for (const id of ancestorsOf(roots, selectedId)) open.add(id);
  return open;
}

/** An institution id from the address (`?partnerId=17`), undefined when absent or not a positive integer. */
export function idFromText(text: string | null | undefined): number | undefined {
  if (!text || !/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= 2_147_483_647 ? id : undefined;
}
