/**
 * The server's database runtime: open, migrate, seed when empty. One per process.
 */
import type { Config } from './config.ts';
import { openDatabase, type Database, type DatabaseHandle, type DatabaseKind } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { seedIfEmpty } from './db/seed.ts';

export interface Runtime {
  db: Database;
  kind: DatabaseKind;
  close(): Promise<void>;
  /** True when this start seeded an empty database. */
  seeded: boolean;
  handle: DatabaseHandle;
}

export async function openRuntime(config: Config): Promise<Runtime> {
  const handle = await openDatabase(config);
  try {
    await migrateDatabase(handle);
    const seeded = await seedIfEmpty(handle.db, { demoAccounts: config.seedDemoAccounts });
    return { db: handle.db, kind: handle.kind, close: handle.close, seeded, handle };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
