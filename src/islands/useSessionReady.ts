import { useStore } from '@nanostores/react';
import { currentUser } from '../stores/session.ts';

/**
 * True once the page's session gate (src/components/SessionGate.astro) has confirmed who is logged
 * in. Islands of signed-in pages wait for it before their own calls, so a missing session is
 * handled once, by the gate (901 → login), and a failed check leaves the page waiting rather
 * than firing calls that cannot succeed.
 */
export function useSessionReady(): boolean {
  return useStore(currentUser).id !== undefined;
}
