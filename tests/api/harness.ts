/**
 * An in-process app on its own real database, for API tests.
 * @example
 * const t = await createTestApp();
 * const res = await t.app.request('/api/front/user/currentUser', { headers: { cookie: await t.login('demo_person') } });
 * await t.close();
 */
import { readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { runLogDestination } from './logScan.ts';
import { createApp } from '../../src/server/app.ts';
import { createJobQueue, type JobQueue } from '../../src/server/jobs/queue.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import {
  openPglite,
  openPostgres,
  type Database,
  type DatabaseHandle,
  type DatabaseKind,
} from '../../src/server/db/client.ts';
import { migrateDatabase } from '../../src/server/db/migrate.ts';
import { seedIfEmpty } from '../../src/server/seed/seed.ts';
import { createLogger, type Logger } from '../../src/server/logger.ts';
import { lazyKeys, type KeySource } from '../../src/server/secrets.ts';
import { createSession, hashSessionToken, sessionCookieName, sessionPolicy } from '../../src/server/session.ts';
import { findUserIdByUserName } from '../../src/server/services/users.ts';
import type { AppDeps, AppEnv } from '../../src/server/types.ts';
import { buildPgliteSnapshot, databaseUrl, dropDatabase, randomDatabaseName, testConfigEnv } from './snapshot.ts';

type TestDeps = Pick<AppDeps, 'siteBuild' | 'publication' | 'publisher' | 'objects'>;

export interface TestAppOptions {
  /** Serve this directory as the built site. */
  staticDir?: string;
  /** Environment overrides, as the server would read them (e.g. `{ PUBLIC_ORIGIN: … }`). */
  env?: Record<string, string>;
  logger?: Logger;
  /** Further app dependencies (e.g. the editors' rebuild with an injected build command). */
  /** More of the app's parts; a function is given the test database (for a publisher on it). */
  deps?: TestDeps | ((db: Database) => TestDeps);
}

export interface TestApp {
  app: Hono<AppEnv>;
  db: Database;
  /** The driver's handle (LISTEN/NOTIFY, raw client). */
  handle: DatabaseHandle;
  kind: DatabaseKind;
  config: Config;
  close(): Promise<void>;
  /** Creates a real session for a seeded user; returns the `Cookie` header value. */
  login(userName: string): Promise<string>;
  /** The app's server keys (secrets.ts): what a test needs to write a captcha answer's hash. */
  keys: KeySource;
  /** The app's job queue (a test reads the jobs a call sent, or runs a service beside the app on it). */
  jobs: JobQueue;
}

/** Connections a test database's pool may open: PGlite is one connection; PostgreSQL gets a few per file. */
export const testPoolMax = { pglite: 1, postgres: 4 } as const satisfies Record<DatabaseKind, number>;

/** Origin of `app.request('/…')` calls. */
export const testOrigin = 'http://localhost';

/** Headers every state-changing call of the browser client carries. */
export function apiHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-Requested-With': 'XMLHttpRequest', Origin: testOrigin, ...extra };
}

/** The session id (token hash) behind a cookie header from `login`. */
export function sessionIdOf(cookie: string): string {
  const token = cookie.split(';')[0]?.split('=')[1] ?? '';
  return hashSessionToken(token);
}

/** The value a Set-Cookie header gives the session cookie ('' when deleted), or undefined. */
export function sessionCookieFrom(response: Response): { value: string; attributes: string } | undefined {
  for (const line of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';');
    const [name, value = ''] = pair.split('=');
    if (name?.trim() === sessionCookieName) return { value, attributes: attributes.join(';') };
  }
  return undefined;
}

let snapshotBytes: Promise<Uint8Array> | undefined;

function pgliteSnapshot(): Promise<Uint8Array> {
  snapshotBytes ??= (async () => {
    const file = inject('pgliteSnapshot') as string | undefined;
    // Without the global setup (a file run on its own config), make one for this file.
    return file ? new Uint8Array(await readFile(file)) : buildPgliteSnapshot();
  })();
  return snapshotBytes;
}

async function openTestDatabase(config: Config): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const serverUrl = process.env['TEST_DATABASE_URL'];
  if (!serverUrl) {
    const bytes = await pgliteSnapshot();
    const handle = await openPglite({ loadDataDir: new Blob([bytes.slice()]) }, config);
    return { handle, drop: async () => {} };
  }
  const name = randomDatabaseName('test');
  const template = inject('postgresTemplate') as string | undefined;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const handle = openPostgres(databaseUrl(serverUrl, name), { ...config, dbPoolMax: testPoolMax.postgres });
  if (!template) {
    await migrateDatabase(handle);
    await seedIfEmpty(handle.db, { demoAccounts: true });
  }
  return { handle, drop: () => dropDatabase(serverUrl, name) };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ ...testConfigEnv, ...options.env });
  const { handle, drop } = await openTestDatabase(config);
  // The run's log, scanned for personal data at the end (logScan.ts); silent outside the API project.
  const runLogDir = inject('runLogDir');
  const logger =
    options.logger ??
    (runLogDir ? createLogger({ logLevel: 'debug' }, runLogDestination(runLogDir)) : createLogger(config));
  const keys = lazyKeys(handle.db, config);
  // The app's job queue, stopped before the database closes (it starts with the app's first job).
  const jobs = createJobQueue({ db: handle.db, logger, expireSeconds: config.rebuildTimeoutMinutes * 60 });
  const app = createApp({
    db: handle.db,
    config,
    logger,
    dbKind: handle.kind,
    keys,
    jobs,
    ...(options.staticDir === undefined ? {} : { staticDir: options.staticDir }),
    ...(typeof options.deps === 'function' ? options.deps(handle.db) : options.deps),
  });
  const policy = sessionPolicy(config);
  return {
    app,
    db: handle.db,
    handle,
    kind: handle.kind,
    config,
    keys,
    jobs,
    close: async () => {
      await jobs.stop();
      await handle.close();
      await drop();
    },
    login: async (userName) => {
      const userId = await findUserIdByUserName(handle.db, userName);
      if (userId === undefined) throw new Error(`no seeded user ${userName}`);
      const { token } = await createSession(handle.db, userId, { ip: '127.0.0.1', userAgent: 'vitest' }, policy);
      return `${sessionCookieName}=${token}`;
    },
  };
}

/**
 * One app (or fixture) for the whole test file: opened before its first test, closed after its
 * last (Vitest runs a file's beforeAll hooks in order, so later ones may use it). The answer
 * reads through to what `open` made, so tests write `t.db`, `t.login(…)` as on the app itself.
 * @example
 * const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));
 */
export function openPerFile<T extends { close(): Promise<void> }>(open: () => Promise<T>): T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.close();
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!opened) throw new Error('opened in beforeAll: use it inside tests and hooks, not at the top of the file');
      return Reflect.get(opened, key) as unknown;
    },
  });
}
