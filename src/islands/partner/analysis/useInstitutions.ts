import { useEffect, useState } from 'react';
import type { PartnerTreeNode } from '../../../lib/schemas/partner.ts';
import { callQuiet } from '../../quietCall.ts';
import { useSessionReady } from '../../useSessionReady.ts';
import { flattenTree, type InstitutionOption } from './institutions.ts';

export const PARTNER_API = '/api/front/hgdarc/partner';

export type InstitutionsLoad = 'loading' | 'failed' | 'ready';

/** The visible institutions, loaded once the session gate has confirmed a partner user. */
export function useInstitutions() {
  const ready = useSessionReady();
  const [load, setLoad] = useState<InstitutionsLoad>('loading');
  const [options, setOptions] = useState<InstitutionOption[]>([]);
  const [failure, setFailure] = useState('');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!ready) return;
    let current = true;
    setLoad('loading');
    void callQuiet<PartnerTreeNode[]>('GET', `${PARTNER_API}/getAllPartnersByEmpId`).then((outcome) => {
      if (!current) return;
      if (outcome?.ok) {
        setOptions(flattenTree(Array.isArray(outcome.data) ? outcome.data : []));
        setLoad('ready');
      } else {
        setFailure(outcome?.message ?? '');
        setLoad('failed');
      }
    });
    return () => {
      current = false;
    };
  }, [ready, attempt]);

  return { load, options, failure, retry: () => setAttempt((n) => n + 1) };
}
