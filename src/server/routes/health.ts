/** GET /api/health: the process answers and the database answers `select 1`. */
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { ok } from '../envelope.ts';
import type { AppDeps, AppEnv } from '../types.ts';

export function createHealthRoutes(deps: AppDeps): Hono<AppEnv> {
  const started = Date.now();
  const kind = deps.dbKind ?? (deps.config.databaseUrl ? 'postgres' : 'pglite');
  const routes = new Hono<AppEnv>();
  routes.get('/', async (c) => {
    await deps.db.execute(sql`select 1`);
    return ok(c, { status: 'ok', db: kind, uptime: Math.round((Date.now() - started) / 1000) });
  });
  return routes;
}
