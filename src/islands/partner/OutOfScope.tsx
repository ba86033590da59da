import { format } from '../../lib/api/messages.ts';
import type { PartnerTreeNode } from '../../lib/schemas/partner.ts';
import type { PartnerTreeLoad } from './usePartnerTree.ts';

/** The texts of the notice, in every partner page's messages. */
export const outOfScopeMessageKeys = ['partner.scope.outside', 'partner.scope.own'] as const;
export type OutOfScopeMessages = Record<(typeof outOfScopeMessageKeys)[number], string>;

/**
 * The institutions an address names that are not among the user's visible ones (their tree,
 * usePartnerTree): a link from someone else, or an id typed by hand. Empty until the tree is
 * loaded. The server refuses such an id with the same 404 as a missing one (no probing); the
 * page, which knows the user's tree, says what that means instead of offering a retry.
 */
export function outsideScope(load: PartnerTreeLoad, ids: readonly (number | undefined)[]): number[] {
  if (load.state !== 'ready') return [];
  const visible = new Set(load.rows.map((row) => row.node.id));
  return ids.filter((id): id is number => id !== undefined && !visible.has(id));
}

interface Props {
  /** The user's own institutions (the tree's roots): one button each. */
  roots: readonly PartnerTreeNode[];
  messages: OutOfScopeMessages;
  /** Show this institution instead (the page puts it in the address). */
  onOwn: (root: PartnerTreeNode) => void;
}

/** Every partner page's answer to an institution outside the user's scope: say so, offer their own. */
export function OutOfScopeNotice({ roots, messages, onOwn }: Props) {
  return (
    <div role="alert" className="alert alert-warning flex flex-wrap items-center gap-3">
      <span>{messages['partner.scope.outside']}</span>
      {roots.length > 0 && (
        <span className="flex flex-wrap gap-2">
          {roots.map((root) => (
            <button key={root.id} type="button" className="btn btn-sm" onClick={() => onOwn(root)}>
              {format(messages['partner.scope.own'], { name: root.name })}
            </button>
          ))}
        </span>
      )}
    </div>
  );
}
