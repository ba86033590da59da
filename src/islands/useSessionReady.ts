import { useStore } from '@nanostores/react';
import { sessionGate } from '../stores/session.ts';

/**
 * True once the page's session gate (src/components/SessionGate.astro) has confirmed who is logged
 * in and that they may use the page. Islands of signed-in pages wait for it before their own
 * calls, so a missing session is handled once, by the gate (901 → login), a user without the
 * page's role sees the gate's message instead of a refused call, and a failed check leaves the
 * page waiting rather than firing calls that cannot succeed.
 */
export function useSessionReady(): boolean {
  return useStore(sessionGate) === 'ready';
}
