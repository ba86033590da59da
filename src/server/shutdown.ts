/**
 * Stopping a process of ours on SIGINT / SIGTERM: `close` once, then exit 0, or 1 if it failed.
 * And the drain that a stopping server begins with: from its first moment /api/health/ready
 * answers 503 (routes/health.ts), so a load balancer sends no new users while the open requests
 * finish and the process closes.
 */
import type { Logger } from './logger.ts';

/** Whether this process has begun to stop. */
export interface Drain {
  readonly draining: boolean;
  begin(): void;
}

export function createDrain(): Drain {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
  };
}

export function exitOnSignals(logger: Logger, close: () => Promise<unknown>, what = 'shutting down'): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, what);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
