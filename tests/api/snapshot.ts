/**
 * Databases for the API tests, made once per run by globalSetup.ts:
 * - PGlite (default): a migrated + seeded database dumped to a tarball; every test app opens an
 *   in-memory copy of it (~0.4 s instead of 3–4 s for a fresh one).
 * - PostgreSQL (TEST_DATABASE_URL set): a migrated + seeded template database; every test app
 *   gets `CREATE DATABASE test_<random> TEMPLATE <template>` and drops it at close.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite, openPostgres } from '../../src/server/db/client.ts';
import { migrateDatabase } from '../../src/server/db/migrate.ts';
import { seedIfEmpty } from '../../src/server/seed/seed.ts';

export const testConfigEnv = { LOG_LEVEL: 'silent', SEED_DEMO_ACCOUNTS: '1' } as const;

/** Makes the PGlite snapshot; returns the tarball's bytes. */
export async function buildPgliteSnapshot(): Promise<Uint8Array> {
  const config = loadConfig(testConfigEnv);
  const handle = await openPglite({}, config);
  try {
    await migrateDatabase(handle);
    await seedIfEmpty(handle.db, { demoAccounts: true });
    const dump = await handle.client.dumpDataDir();
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await handle.close();
  }
}

/** Writes the snapshot to a temporary file; returns its path and a cleanup. */
export async function writePgliteSnapshot(): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hgd-api-snapshot-'));
  const file = path.join(dir, 'pglite.tar');
  await writeFile(file, await buildPgliteSnapshot());
  return { file, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function randomDatabaseName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Creates, migrates and seeds a template database on the server; returns its name and a cleanup. */
export async function createPostgresTemplate(
  serverUrl: string,
): Promise<{ name: string; cleanup: () => Promise<void> }> {
  const name = randomDatabaseName('hgd_test_template');
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const config = loadConfig(testConfigEnv);
  const handle = openPostgres(databaseUrl(serverUrl, name), { ...config, dbPoolMax: 2 });
  try {
    await migrateDatabase(handle);
    await seedIfEmpty(handle.db, { demoAccounts: true });
  } finally {
    await handle.close();
  }
  return { name, cleanup: () => dropDatabase(serverUrl, name) };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}
