import { useCallback, useEffect, useState } from 'react';
import { useSessionReady } from '../useSessionReady.ts';

export type Loaded<T> = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; value: T };

/**
 * Loads what an island shows once the session gate has let the user in, and again on `reload()`
 * or when `read` changes (keep it stable: a module function, or useCallback on what it reads).
 * `read` resolves undefined when the load failed (the request client has already said why);
 * stale answers are ignored.
 */
export function useLoad<T>(read: () => Promise<T | undefined>): {
  loaded: Loaded<T>;
  reload: () => void;
  setValue: (value: T) => void;
} {
  const ready = useSessionReady();
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!ready) return;
    let live = true;
    void read().then((value) => {
      if (live) setLoaded(value === undefined ? { state: 'failed' } : { state: 'ready', value });
    });
    return () => {
      live = false;
    };
  }, [ready, round, read]);

  const reload = useCallback(() => {
    setLoaded((current) => (current.state === 'failed' ? { state: 'loading' } : current));
    setRound((value) => value + 1);
  }, []);
  const setValue = useCallback((value: T) => setLoaded({ state: 'ready', value }), []);
  return { loaded, reload, setValue };
}
