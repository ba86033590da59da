/**
 * Every API module and the base it is mounted under, mirroring the spec's path groups (§7).
 * A new module: write routes/<module>.ts exporting `create…Routes(deps)`, add one line here.
 */
import type { Hono } from 'hono';
import type { AppEnv, RouteDeps } from '../types.ts';
import { createAreaRoutes } from './area.ts';
import { createHealthRoutes } from './health.ts';
import { createNoticeRoutes } from './notices.ts';
import { createSystemRoutes } from './system.ts';
import { createUserRoutes } from './user.ts';

export interface ApiModule {
  base: string;
  create: (deps: RouteDeps) => Hono<AppEnv>;
}

export const apiModules: readonly ApiModule[] = [
  { base: '/api/health', create: createHealthRoutes },
  { base: '/api/front/system', create: createSystemRoutes },
  { base: '/api/front/hgdsys/hgdClient', create: createAreaRoutes },
  { base: '/api/front/user', create: createUserRoutes },
  { base: '/api/notices', create: createNoticeRoutes },
];
