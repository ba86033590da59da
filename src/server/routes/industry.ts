/**
 * GET /api/front/system/getIndustryList: the GB/T 4754 sections (industries.yaml). Mounted on the
 * same base as system.ts, which holds the account calls of that group.
 */
import { Hono } from 'hono';
import { listIndustries } from '../../content/query.ts';
import { localeOf, ok } from '../envelope.ts';
import { contentStore } from '../services/contentStore.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';

export function createIndustryRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/getIndustryList', describeCall({ summary: 'Get industry list' }), (c) =>
    ok(c, listIndustries(contentStore.localized(localeOf(c)))),
  );
  return routes;
}
