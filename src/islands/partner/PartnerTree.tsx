/**
 * The partner institution tree widget, shared by the organisation page and the settlement query's
 * picker: one flat list of the shown institutions, each named by its own line.
 */
import { useEffect, useEffectEvent, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { PartnerTreeNode } from '../../lib/schemas/partner.ts';
import { initialExpanded, visibleRows, type PartnerTreeMessages, type VisibleRow } from './partnerTree.ts';

interface Props {
  roots: readonly PartnerTreeNode[];
  /** The tree's accessible name. */
  label: string;
  selectedId: number | undefined;
  onSelect: (node: PartnerTreeNode) => void;
  messages: PartnerTreeMessages;
  /** Focus the chosen (or first) item once shown, e.g. when the tree opens in a picker. */
  autoFocus?: boolean;
}

/**
 * The visible institutions as a WAI-ARIA tree (https://www.w3.org/WAI/ARIA/apg/patterns/treeview/):
 * one tab stop (roving tabindex), ↑/↓ move through the shown items, → opens or enters an
 * institution, ← closes it or goes to its parent, Home/End jump, Enter/Space choose. A click on
 * the triangle opens or closes, a click on the name chooses.
 *
 * The shown rows (partnerTree.ts) are one flat list of items, each declaring its place in the
 * hierarchy (aria-level, aria-posinset, aria-setsize), as ARIA allows when the DOM does not nest:
 * an item then holds only its own line, so its name comes from its content and is exactly the text
 * seen ("广州天河支行 支行"). Nested `group` lists would put an open item's whole subtree inside it,
 * and a name narrowed with aria-labelledby would no longer hold its visible text (WCAG 2.5.3).
 */
export default function PartnerTree({ roots, label, selectedId, onSelect, messages, autoFocus = false }: Props) {
  const [expanded, setExpanded] = useState(() => initialExpanded(roots, selectedId));
  const rows = useMemo(() => visibleRows(roots, expanded), [roots, expanded]);
  const [focusedId, setFocusedId] = useState<number | undefined>(undefined);
  const items = useRef(new Map<number, HTMLLIElement>());

  // The tab stop: the focused item, else the chosen one when shown, else the first.
  const tabStop =
    rows.find((row) => row.node.id === focusedId)?.node.id ??
    rows.find((row) => row.node.id === selectedId)?.node.id ??
    rows[0]?.node.id;

  // A newly chosen institution deep in the tree: open the way to it (while rendering, as React
  // advises for state that follows a prop; the reader's own opening and closing stays).
  const [openedFor, setOpenedFor] = useState({ roots, selectedId });
  if (openedFor.roots !== roots || openedFor.selectedId !== selectedId) {
    setOpenedFor({ roots, selectedId });
    const needed = selectedId === undefined ? [] : [...initialExpanded(roots, selectedId)];
    if (!needed.every((id) => expanded.has(id))) setExpanded(new Set([...expanded, ...needed]));
  }

  // Only when the tree appears (a picker opening), not on every move: the tab stop is read then.
  const focusTabStop = useEffectEvent(() => {
    if (tabStop !== undefined) items.current.get(tabStop)?.focus();
  });
  useEffect(() => {
    if (autoFocus) focusTabStop();
  }, [autoFocus]);

  const focus = (id: number | undefined) => {
    if (id === undefined) return;
    setFocusedId(id);
    items.current.get(id)?.focus();
  };

  const toggle = (id: number, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open) next.add(id);
      else next.delete(id);
      return next;
    });

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, id: number) => {
    const index = rows.findIndex((row) => row.node.id === id);
    const row = rows[index];
    if (!row) return;
    const hasChildren = row.node.children.length > 0;
    const open = expanded.has(id);
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        focus(rows[index + 1]?.node.id);
        break;
      case 'ArrowUp':
        focus(rows[index - 1]?.node.id);
        break;
      case 'ArrowRight':
        if (hasChildren && !open) toggle(id, true);
        else if (hasChildren) focus(row.node.children[0]?.id);
        break;
      case 'ArrowLeft':
        if (hasChildren && open) toggle(id, false);
        else focus(row.parentId ?? undefined);
        break;
      case 'Home':
        focus(rows[0]?.node.id);
        break;
      case 'End':
        focus(rows[rows.length - 1]?.node.id);
        break;
      case 'Enter':
      case ' ':
        onSelect(row.node);
        break;
      default:
        handled = false;
    }
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const renderRow = ({ node, depth, position, siblings }: VisibleRow) => {
    const hasChildren = node.children.length > 0;
    const open = expanded.has(node.id);
    const selected = node.id === selectedId;
    return (
      <li
        key={node.id}
        ref={(element) => {
          if (element) items.current.set(node.id, element);
          else items.current.delete(node.id);
        }}
        role="treeitem"
        aria-level={depth}
        aria-posinset={position}
        aria-setsize={siblings}
        aria-expanded={hasChildren ? open : undefined}
        aria-selected={selected}
        tabIndex={node.id === tabStop ? 0 : -1}
        data-partner-id={node.id}
        className="rounded outline-none focus-visible:[&>div]:outline-2 focus-visible:[&>div]:outline-primary"
        onKeyDown={(event) => onKeyDown(event, node.id)}
        onFocus={() => setFocusedId(node.id)}
      >
        <div
          className={`flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 ${selected ? 'bg-primary text-primary-content' : 'hover:bg-base-200'}`}
          style={{ paddingInlineStart: `${(depth - 1) * 1.25 + 0.25}rem` }}
          onClick={() => {
            focus(node.id);
            onSelect(node);
          }}
        >
          <span
            aria-hidden="true"
            className={`inline-flex w-4 justify-center text-xs ${hasChildren ? '' : 'invisible'}`}
            onClick={(event) => {
              event.stopPropagation();
              focus(node.id);
              toggle(node.id, !open);
            }}
          >
            {open ? '▾' : '▸'}
          </span>
          <span className="truncate">{node.name}</span>
          {/* A space between name and level, so the text read is the text seen ("广州天河支行 支行"). */}{' '}
          <span className={`ms-1 shrink-0 text-xs ${selected ? 'text-primary-content/80' : 'text-muted'}`}>
            {messages[`partner.level.${node.level}`]}
          </span>
        </div>
      </li>
    );
  };

  return (
    <ul role="tree" aria-label={label} className="grid gap-0.5 text-sm">
      {rows.map(renderRow)}
    </ul>
  );
}
