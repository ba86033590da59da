/**
 * PostgreSQL's LISTEN/NOTIFY on both drivers: postgres-js keeps a dedicated listening connection
 * (and re-listens after a reconnect); PGlite delivers its own notifications in process. A NOTIFY
 * sent inside a transaction is delivered at its commit, never for a rollback.
 */
import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from './client.ts';

/** Subscribes to a channel; resolves once listening, to a function that stops it. */
export async function listenToChannel(
  handle: DatabaseHandle,
  channel: string,
  onMessage: (payload: string) => void,
): Promise<() => Promise<void>> {
  if (handle.kind === 'pglite') {
    const unsubscribe = await handle.client.listen(channel, onMessage);
    return () => unsubscribe();
  }
  const { unlisten } = await handle.client.listen(channel, onMessage);
  return () => unlisten();
}

/** Sends a notification (inside `tx`, delivered when it commits). */
export async function notify(tx: Database, channel: string, payload: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}
