import { useCallback, useEffect, useState } from 'react';
import type { EnterpriseData } from '../../lib/schemas/enterprise.ts';
import { useSessionReady } from '../useSessionReady.ts';
import { loadEnterprise, type EnterpriseLoad } from './enterpriseCalls.ts';

export type OwnEnterpriseView = { state: 'loading' } | EnterpriseLoad<EnterpriseData>;

/**
 * The signed-in user's own enterprise record, loaded once the session gate has confirmed the
 * user: `view` (loading, ready, none or failed), `load` to load it again (retry), and `setView`
 * for an island that gets the new record from its own call (saved, certified, deleted).
 */
export function useOwnEnterprise() {
  const [view, setView] = useState<OwnEnterpriseView>({ state: 'loading' });

  const load = useCallback(async () => {
    setView({ state: 'loading' });
    const loaded = await loadEnterprise<EnterpriseData>();
    // undefined: the session expired and the browser is already on its way to the login page.
    if (loaded) setView(loaded);
  }, []);

  const ready = useSessionReady();
  useEffect(() => {
    if (ready) void load();
  }, [ready, load]);

  return { view, setView, load };
}
