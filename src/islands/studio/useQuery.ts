import { useMemo, useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('popstate', onChange);
  return () => window.removeEventListener('popstate', onChange);
};

/**
 * The page's query parameters: the studio's pages are static files, the item or kind they show
 * comes from the address (`/studio/edit?path=…`). Undefined while rendered on the server and
 * hydrated, so both renders agree; then the address's.
 */
export function useQuery(): URLSearchParams | undefined {
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => null,
  );
  return useMemo(() => (search === null ? undefined : new URLSearchParams(search)), [search]);
}
