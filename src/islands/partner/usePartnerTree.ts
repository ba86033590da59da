import { useEffect, useState } from 'react';
import type { PartnerTreeNode } from '../../lib/schemas/partner.ts';
import { callQuiet } from '../quietCall.ts';
import { useSessionReady } from '../useSessionReady.ts';
import { PARTNER_API } from './partnerApi.ts';

export type PartnerTreeLoad =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; roots: PartnerTreeNode[] };

/**
 * The signed-in user's visible institutions (getAllPartnersByEmpId), loaded once the session gate
 * has confirmed a partner user; `reload` retries a failed load.
 */
export function usePartnerTree() {
  const ready = useSessionReady();
  const [load, setLoad] = useState<PartnerTreeLoad>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!ready) return;
    let current = true;
    setLoad({ state: 'loading' });
    void callQuiet<PartnerTreeNode[]>('GET', `${PARTNER_API}/getAllPartnersByEmpId`).then((answer) => {
      if (!current) return;
      if (answer?.ok) setLoad({ state: 'ready', roots: answer.data });
      else setLoad({ state: 'failed', message: answer?.message ?? '' });
    });
    return () => {
      current = false;
    };
  }, [ready, attempt]);

  return { ready, load, reload: () => setAttempt((n) => n + 1) };
}
