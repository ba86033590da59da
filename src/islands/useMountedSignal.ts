import { useEffect, type RefObject } from 'react';

/**
 * Tells the `client:intent` directive that this island has mounted, so a click held during
 * hydration can be replayed on the live node (src/integrations/intent-directive.ts).
 */
export function useMountedSignal(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    ref.current?.dispatchEvent(new Event('island:mounted', { bubbles: true }));
  }, [ref]);
}
