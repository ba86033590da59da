import { useStore } from '@nanostores/react';
import { sessionGate } from '../stores/session.ts';

/**
 * True once the page's session gate (src/components/SessionGate.astro) has confirmed who is logged
 * in and that they may use the page. Islands of signed-in pages wait for it before their own
 * calls, so a missing session is handled once, by the gate (901 → login), a user without the
 * page's role sees the gate's message instead of a refused call, and a failed check leaves the
 * page waiting rather than firing calls that cannot succeed.
 *
 * Hydration renders with the gate's initial value ('pending', what the server rendered) even when
 * the gate has already answered: a fast answer before the island's code arrived made the first
 * client render differ from the server HTML (React error #418); the real value follows at once.
 */
export function useSessionReady(): boolean {
  return useStore(sessionGate, { ssr: 'initial' }) === 'ready';
}
