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

  // undefined: the session expired and the browser is already on its way to the login page.
  const show = useCallback((loaded: EnterpriseLoad<EnterpriseData> | undefined) => loaded && setView(loaded), []);

  /** Again (a retry): loading, then the answer. */
  const load = useCallback(async () => {
    setView({ state: 'loading' });
    show(await loadEnterprise<EnterpriseData>());
  }, [show]);

  // The view starts as loading: the first load only sets the answer.
  const ready = useSessionReady();
  useEffect(() => {
    if (ready) void loadEnterprise<EnterpriseData>().then(show);
  }, [ready, show]);

  return { view, setView, load };
}
