/**
 * The server's database runtime: open, migrate, seed when empty. One per process.
 */
import type { Config } from './config.ts';
import { openDatabase, type Database, type DatabaseHandle, type DatabaseKind } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { loadServerKeys, type ServerKeys } from './secrets.ts';
import { seedIfEmpty } from './seed/seed.ts';
import { useAuditKey } from './services/audit.ts';
import { loadContent } from '../content/load.ts';
import { publishContent } from './services/contentStore.ts';
import { objectStoreFromConfig } from './storage/fromConfig.ts';
import type { ObjectStore } from './storage/objectStore.ts';

export interface Runtime {
  db: Database;
  kind: DatabaseKind;
  close(): Promise<void>;
  /** True when this start seeded an empty database. */
  seeded: boolean;
  handle: DatabaseHandle;
  /** Where uploaded files are kept (STORAGE), checked reachable at start; hand it to createApp. */
  objects: ObjectStore;
  /** The server's keys (secrets.ts), read once here; hand them to createApp. */
  keys: ServerKeys;
}

/**
 * `contentDir`: the content the API answers from (CONTENT_DIR when omitted), loaded and published
 * now (regions table included); `null` leaves that to the caller — the server, which first asks
 * the database which build is published (site/sitePublisher.ts), so a starting process never writes
 * its own disk's regions over a publication.
 */
export async function openRuntime(config: Config, contentDir?: string | null): Promise<Runtime> {
  // Before the database: a bucket that is missing or refuses the credentials stops the start here,
  // with a message naming what to check (s3Store.ts `check`), not at the first upload.
  const objects = objectStoreFromConfig(config);
  await objects.check?.();
  const handle = await openDatabase(config);
  try {
    await migrateDatabase(handle);
    const keys = await loadServerKeys(handle.db, config);
    // Before the seed, which writes the first audit entries.
    useAuditKey(keys.auditChain);
    const seeded = await seedIfEmpty(handle.db, { demoAccounts: config.seedDemoAccounts, objects });
    // The content is loaded now, so a broken content directory stops the start, and
    // the regions table is synced from it (regions/*.yaml is the one source of regions).
    if (contentDir !== null) await publishContent(handle.db, loadContent(contentDir));
    return { db: handle.db, kind: handle.kind, close: handle.close, seeded, handle, objects, keys };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
