/** Stopping a process of ours on SIGINT / SIGTERM: `close` once, then exit 0, or 1 if it failed. */
import type { Logger } from './logger.ts';

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
