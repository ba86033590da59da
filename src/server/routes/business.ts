/**
 * /api/front/business/*: business types (the menu: `toTop=0`), business items of a region and
 * type, one item, and one description tab (spec §7, "Banners, business, requirement").
 */
import { Hono } from 'hono';
import { bizTypesOfArea, listBizItems, listBizTypes } from '../../content/query.ts';
import { bizItemDescQuery, bizItemQuery, bizItemsQuery, bizTypeListQuery } from '../../lib/schemas/content.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireBizItem, requireBizItemDesc, requireBizTypeOfArea, requireRegion } from '../services/contentLookup.ts';
import { contentStore } from '../services/contentStore.ts';
import { bizItemView } from '../services/contentViews.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createBusinessRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  /** Every type, or those a region offers (in its order); `toTop=0` keeps the menu's. */
  routes.get('/getBizTypeList', describeCall({ summary: 'Get biz type list', query: bizTypeListQuery }), async (c) => {
    const { areaCode, toTop } = await validate(c, bizTypeListQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    if (areaCode === undefined) return ok(c, listBizTypes(content, toTop === undefined ? {} : { toTop }));
    requireRegion(content, areaCode);
    return ok(
      c,
      bizTypesOfArea(content, areaCode, 'all').filter((type) => toTop === undefined || type.toTop === toTop),
    );
  });

  routes.get(
    '/getBizItemByAreaCodeAndBizTypeId',
    describeCall({ summary: 'Get biz item by area code and biz type id', query: bizItemsQuery }),
    async (c) => {
      const { areaCode, bizTypeId } = await validate(c, bizItemsQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      requireBizTypeOfArea(content, areaCode, bizTypeId);
      return ok(
        c,
        listBizItems(content, areaCode, bizTypeId).map((item) => bizItemView(content, item)),
      );
    },
  );

  routes.get('/getBizItemById', describeCall({ summary: 'Get biz item by id', query: bizItemQuery }), async (c) => {
    const { bizItemId } = await validate(c, bizItemQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    return ok(c, bizItemView(content, requireBizItem(content, bizItemId)));
  });

  routes.get(
    '/getBizItemDescById',
    describeCall({ summary: 'Get biz item desc by id', query: bizItemDescQuery }),
    async (c) => {
      const { bizItemDescId } = await validate(c, bizItemDescQuery, 'query');
      return ok(c, requireBizItemDesc(contentStore.localized(localeOf(c)), bizItemDescId));
    },
  );

  return routes;
}
