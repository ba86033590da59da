/**
 * /api/front/hgdbiz/banner/client/*: what a region's home page shows above the fold — banners,
 * text banners (the spec's "rotation chat") and home notices. The spec's calls take no input; the
 * region comes as `areaCode` and defaults to 440000 (spec §1), so a call without it answers the
 * default region's home page.
 */
import { Hono } from 'hono';
import { areaContentQuery } from '../../lib/schemas/content.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRegion } from '../services/contentLookup.ts';
import { contentStore } from '../services/contentStore.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createBannerRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get(
    '/getHomePageBannerList',
    describeCall({ summary: 'Get home page banner list', query: areaContentQuery }),
    async (c) => {
      const { areaCode } = await validate(c, areaContentQuery, 'query');
      return ok(c, requireRegion(contentStore.localized(localeOf(c)), areaCode).banners);
    },
  );

  routes.get(
    '/getHomePageRotationChat',
    describeCall({ summary: 'Get home page rotation chat', query: areaContentQuery }),
    async (c) => {
      const { areaCode } = await validate(c, areaContentQuery, 'query');
      return ok(c, requireRegion(contentStore.localized(localeOf(c)), areaCode).textBanners);
    },
  );

  routes.get('/getHomeNotices', describeCall({ summary: 'Get home notices', query: areaContentQuery }), async (c) => {
    const { areaCode } = await validate(c, areaContentQuery, 'query');
    return ok(c, requireRegion(contentStore.localized(localeOf(c)), areaCode).homeNotices);
  });

  return routes;
}
