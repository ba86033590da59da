/**
 * GET /api/health: the process answers and the database answers `select 1`. The process answers
 * at once even while the database is busy: PGlite is one connection, so behind a long import its
 * `select 1` waits for the import's transaction. After `dbWaitMs` the answer is given without it,
 * `database: 'busy'` (still 200: the process serves static files and other calls, issue 15); a
 * database that fails answers an error as before.
 */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { ok } from '../envelope.ts';
import type { AppDeps, AppEnv } from '../types.ts';

const dbWaitMs = 1000;

export function createHealthRoutes(deps: AppDeps): Hono<AppEnv> {
  const started = Date.now();
  const kind = deps.dbKind ?? (deps.config.databaseUrl ? 'postgres' : 'pglite');
  const routes = new Hono<AppEnv>();
  routes.get('/', async (c) => {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<'busy'>((resolve) => {
      timer = setTimeout(() => resolve('busy'), dbWaitMs);
    });
    const answered = deps.db.execute(sql`select 1`).then(() => 'ok' as const);
    answered.catch(() => {}); // a failure after 'busy' was answered has no one left to tell
    const database = await Promise.race([answered, waited]).finally(() => clearTimeout(timer));
    return ok(c, { status: 'ok', db: kind, database, uptime: Math.round((Date.now() - started) / 1000) });
  });
  return routes;
}
