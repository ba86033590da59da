/** /api/front/hgdsys/hgdClient/*: the province list and the check of the visitor's area choice. */
import { Hono } from 'hono';
import { setProvinceBody } from '../../lib/schemas/system.ts';
import { ok } from '../envelope.ts';
import { listProvinces, requireEnabledRegion } from '../services/regions.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createAreaRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const routes = new Hono<AppEnv>();

  routes.get('/getProvinceList', describeCall({ summary: 'Get province list' }), async (c) =>
    ok(c, await listProvinces(db)),
  );

  /** Checks the chosen area; the browser then stores areaCode and areaName itself (spec §1). */
  routes.post(
    '/setProvince',
    describeCall({
      summary: 'Check the chosen area (the browser then stores it)',
      body: setProvinceBody,
      codes: { 400: '`area.disabled`', 404: '`area.unknown`' },
    }),
    async (c) => {
      const { areaCode } = await validate(c, setProvinceBody, 'body');
      return ok(c, await requireEnabledRegion(db, areaCode));
    },
  );

  return routes;
}
