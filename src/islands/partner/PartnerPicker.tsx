import { useId, useRef, useState } from 'react';
import type { PartnerTreeNode } from '../../lib/schemas/partner.ts';
import { useDismiss } from '../useDismiss.ts';
import PartnerTree from './PartnerTree.tsx';
import { findNode, type PartnerTreeMessages } from './partnerTree.ts';
import type { PartnerTreeLoad } from './usePartnerTree.ts';

interface Props {
  /** The field's visible label. */
  label: string;
  /** The tree's accessible name. */
  treeLabel: string;
  /** What "no institution chosen" means here (every visible institution). */
  allLabel: string;
  load: PartnerTreeLoad;
  selectedId: number | undefined;
  onChange: (id: number | undefined) => void;
  onRetry: () => void;
  messages: PartnerTreeMessages;
}

/**
 * A tree select: a button naming the chosen institution opens the visible tree below it
 * (PartnerTree, keyboard per the WAI-ARIA tree pattern); choosing one, or "all", closes it and
 * returns focus to the button; Escape or a click outside closes it unchanged (useDismiss).
 */
export default function PartnerPicker({
  label,
  treeLabel,
  allLabel,
  load,
  selectedId,
  onChange,
  onRetry,
  messages,
}: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, setOpen, root, button);

  const roots = load.state === 'ready' ? load.roots : [];
  const chosen = selectedId === undefined ? undefined : findNode(roots, selectedId);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (node: PartnerTreeNode | undefined) => {
    onChange(node?.id);
    close();
  };

  return (
    <div ref={root} className="fieldset relative py-0">
      <span id={`${id}-label`} className="fieldset-legend pb-1 text-sm">
        {label}
      </span>
      <button
        ref={button}
        type="button"
        className="select select-sm w-64 text-start"
        aria-labelledby={`${id}-label ${id}-value`}
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        aria-haspopup="tree"
        disabled={load.state !== 'ready'}
        onClick={() => setOpen((value) => !value)}
      >
        <span id={`${id}-value`} className="truncate">
          {load.state === 'loading' ? messages['common.loading'] : (chosen?.name ?? allLabel)}
        </span>
      </button>
      {load.state === 'failed' && (
        <p role="alert" className="mt-1 flex items-center gap-2 text-xs text-error">
          {load.message || messages['settlement.tree.loadFailed']}
          <button type="button" className="btn btn-xs" onClick={onRetry}>
            {messages['settlement.tree.retry']}
          </button>
        </p>
      )}
      {open && (
        <div
          id={`${id}-panel`}
          className="absolute top-full z-20 mt-1 max-h-96 w-80 overflow-auto rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
        >
          <button
            type="button"
            className={`btn btn-ghost btn-sm mb-1 w-full justify-start ${selectedId === undefined ? 'btn-active' : ''}`}
            onClick={() => choose(undefined)}
          >
            {allLabel}
          </button>
          {roots.length === 0 ? (
            <p className="p-2 text-sm text-base-content/70">{messages['settlement.tree.empty']}</p>
          ) : (
            <PartnerTree
              roots={roots}
              label={treeLabel}
              selectedId={selectedId}
              onSelect={choose}
              messages={messages}
              autoFocus
            />
          )}
        </div>
      )}
    </div>
  );
}
