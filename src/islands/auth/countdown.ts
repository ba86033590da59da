import { useCallback, useEffect, useState } from 'react';

/** Seconds between two SMS codes to one phone (DOMAIN.md: 60 s between sends). */
export const SMS_RESEND_SECONDS = 60;

/** Whole seconds left until `endsAt` (ms since epoch), never negative. */
export function secondsLeft(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

/**
 * A countdown measured against the clock, not by counting ticks: a background tab's timers are
 * throttled, and the server's 60 s rule runs on real time.
 */
export function useCountdown(): { remaining: number; start: (seconds: number) => void } {
  const [endsAt, setEndsAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const remaining = secondsLeft(endsAt, now);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [remaining]);

  const start = useCallback((seconds: number) => {
    const current = Date.now();
    setNow(current);
    setEndsAt(current + seconds * 1000);
  }, []);

  return { remaining, start };
}
