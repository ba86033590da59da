/**
 * /api/front/hgdsys/hgdClient/getAreaSettings: the "area settings" the spec loads after an area
 * is chosen (its path is not shown there): hotline, the business types and products the region
 * offers, banners, text banners and home notices, in one answer. Mounted beside area.ts
 * (getProvinceList, setProvince), which reads the regions table synced from the same content.
 */
import { Hono } from 'hono';
import { getAreaSettings } from '../../content/query.ts';
import { areaContentQuery } from '../../lib/schemas/content.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireRegion } from '../services/contentLookup.ts';
import { contentStore } from '../services/contentStore.ts';
import { productSummary } from '../services/contentViews.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createAreaSettingsRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/getAreaSettings', describeCall({ summary: 'Get area settings', query: areaContentQuery }), async (c) => {
    const { areaCode } = await validate(c, areaContentQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    requireRegion(content, areaCode);
    // requireRegion passed, so the region is known and enabled.
    const settings = getAreaSettings(content, areaCode);
    return ok(c, settings && { ...settings, products: settings.products.map(productSummary) });
  });

  return routes;
}
