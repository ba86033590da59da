/**
 * The page address's query as an external store for the islands that keep their state there
 * (tables, analysis pages): read with useSyncExternalStore, so nothing copies the address into
 * React state in an effect. `undefined` while hydrating (the server rendered without an address),
 * then the address's query; back/forward (popstate) and `pushSearch` tell every reader.
 */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function useLocationSearch(): string | undefined {
  return useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => undefined,
  );
}

/** A new history entry with this query (the path and hash kept); every reader re-renders. */
export function pushSearch(search: string): void {
  const query = search.startsWith('?') ? search.slice(1) : search;
  window.history.pushState(null, '', `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`);
  for (const listener of listeners) listener();
}
