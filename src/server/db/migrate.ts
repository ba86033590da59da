/**
 * Applies the generated migrations in ./migrations (drizzle's migrator, one per driver).
 * On PostgreSQL several processes may start at once, so the migration runs on its own connection
 * holding an advisory lock; the others wait, then find nothing left to do.
 */
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { pgliteDrizzle, type DatabaseHandle } from './client.ts';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Advisory lock key shared by migration and seeding ("hgd" + 1). */
export const schemaLockKey = 6_849_636_401;

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(pgliteDrizzle(handle.client), { migrationsFolder });
    return;
  }
  const sql = postgres(handle.url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${schemaLockKey})`;
    await migratePostgres(drizzlePostgres({ client: sql }), { migrationsFolder });
    await sql`select pg_advisory_unlock(${schemaLockKey})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
