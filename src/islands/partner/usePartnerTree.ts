import { useEffect, useState } from 'react';
import type { PartnerTreeNode } from '../../lib/schemas/partner.ts';
import { callQuiet } from '../quietCall.ts';
import { useSessionReady } from '../useSessionReady.ts';
import { PARTNER_API } from './partnerApi.ts';
import { flattenTree, type VisibleRow } from './partnerTree.ts';

export type PartnerTreeLoad =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  /** `rows`: the whole tree flattened once (partnerTree.ts), what the flat pickers list. */
  | { state: 'ready'; roots: PartnerTreeNode[]; rows: VisibleRow[] };

/**
 * The signed-in user's visible institutions (getAllPartnersByEmpId), loaded once the session gate
 * has confirmed a partner user; `reload` retries a failed load. Every partner page's institution
 * picker (tree, select, checklist) builds on this one load.
 */
export function usePartnerTree() {
  const ready = useSessionReady();
  const [load, setLoad] = useState<PartnerTreeLoad>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!ready) return;
    let current = true;
    // Starts as loading; `reload` shows loading first.
    void callQuiet<PartnerTreeNode[]>('GET', `${PARTNER_API}/getAllPartnersByEmpId`).then((answer) => {
      if (!current) return;
      if (answer?.ok) {
        const roots = Array.isArray(answer.data) ? answer.data : [];
        setLoad({ state: 'ready', roots, rows: flattenTree(roots) });
      } else setLoad({ state: 'failed', message: answer?.message ?? '' });
    });
    return () => {
      current = false;
    };
  }, [ready, attempt]);

  const reload = () => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  };
  return { ready, load, reload };
}
