/**
 * /api/front/hgdsel/set/*: the products-and-services catalogue — products, the sets (套餐) of a
 * product in a region with their scheme parameters and filters, and the selling sets with their
 * retail companies (spec §7, "Order and set"; getEnterpriseUserByOrgId belongs to the orders issue).
 */
import { Hono } from 'hono';
import {
  getDictionary,
  listSellingSets,
  listSets,
  productsOfArea,
  schemeParamsForProfile,
} from '../../content/query.ts';
import { chinaDate } from '../../lib/chinaTime.ts';
import {
  productListQuery,
  productQuery,
  schemeParamQuery,
  sellingSetQuery,
  sellingSetsQuery,
  setDetailListQuery,
  setQuery,
  setsByAreaQuery,
} from '../../lib/schemas/content.ts';
import { ApiCode } from '../../lib/apiCodes.ts';
import { ApiError } from '../apiError.ts';
import { localeOf, message, ok } from '../envelope.ts';
import {
  requireOnlineSet,
  requireProductOfArea,
  requireRegion,
  requireSellingSet,
  requireSet,
} from '../services/contentLookup.ts';
import { contentStore } from '../services/contentStore.ts';
import { productSummary, sellingSetView, setDetailView, setFilterView, setView } from '../services/contentViews.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppDeps, AppEnv } from '../types.ts';
import { validate } from '../validate.ts';

export function createSetRoutes(_deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  /** The products a region offers (the products menu), without their long descriptions. */
  routes.get('/getProductList', describeCall({ summary: 'Get product list', query: productListQuery }), async (c) => {
    const { areaCode } = await validate(c, productListQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    requireRegion(content, areaCode);
    return ok(c, productsOfArea(content, areaCode).map(productSummary));
  });

  routes.get('/getProductById', describeCall({ summary: 'Get product by id', query: productQuery }), async (c) => {
    const { productId } = await validate(c, productQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    // productId is one of id1…id5, all of which exist (products.yaml holds exactly five).
    return ok(
      c,
      content.products.find((product) => product.productId === productId),
    );
  });

  routes.get(
    '/getSetByAreaCode',
    describeCall({ summary: 'Get set by area code', query: setsByAreaQuery }),
    async (c) => {
      const { areaCode, productId } = await validate(c, setsByAreaQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      requireRegion(content, areaCode);
      return ok(
        c,
        listSets(content, areaCode, productId).map((set) => setView(content, set)),
      );
    },
  );

  /** The sets of a product in a region, each with its selling sets. */
  routes.get(
    '/getSetDetailListByProductId',
    describeCall({ summary: 'Get set detail list by product id', query: setDetailListQuery }),
    async (c) => {
      const { productId, areaCode } = await validate(c, setDetailListQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      requireProductOfArea(content, areaCode, productId);
      return ok(
        c,
        listSets(content, areaCode, productId).map((set) => setDetailView(content, set)),
      );
    },
  );

  routes.get('/getSetById', describeCall({ summary: 'Get set by id', query: setQuery }), async (c) => {
    const { setId } = await validate(c, setQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    return ok(c, setDetailView(content, requireSet(content, setId)));
  });

  /** Whether a set is online, and its selling sets that can be ordered today. */
  routes.get('/getSetOnlineBySet', describeCall({ summary: 'Get set online by set', query: setQuery }), async (c) => {
    const { setId } = await validate(c, setQuery, 'query');
    const content = contentStore.localized(localeOf(c));
    const set = requireSet(content, setId);
    const today = chinaDate();
    return ok(c, {
      setId: set.setId,
      online: set.online,
      sellingSets: listSellingSets(content, set.areaCode, { setId, today }).map((s) =>
        sellingSetView(content, s, today),
      ),
    });
  });

  /** Who an online set is for (voltage levels, consumption range, industries). */
  routes.get(
    '/getSetFilterBySetOnline',
    describeCall({ summary: 'Get set filter by set online', query: setQuery }),
    async (c) => {
      const { setId } = await validate(c, setQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      return ok(c, { setId, ...setFilterView(content, requireOnlineSet(content, setId)) });
    },
  );

  /** The scheme parameters an online set offers to a customer profile; an empty profile gets all. */
  routes.get(
    '/getSetSchemeParamBySetFilter',
    describeCall({
      summary: 'Get set scheme param by set filter',
      query: schemeParamQuery,
      codes: { 400: '`validation.enum`' },
    }),
    async (c) => {
      const { setId, voltageLevel, annualConsumption, industry } = await validate(c, schemeParamQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      const set = requireOnlineSet(content, setId);
      if (voltageLevel !== undefined) {
        const levels = getDictionary(content, 'voltageLevel') ?? [];
        if (!levels.some((level) => level.code === voltageLevel)) {
          const label = message(c, 'field.voltageLevel');
          throw new ApiError(ApiCode.BAD_REQUEST, 'validation.enum', {
            label,
            enum: levels.map((level) => level.code).join(', '),
          });
        }
      }
      const profile = {
        ...(voltageLevel === undefined ? {} : { voltageLevel }),
        ...(annualConsumption === undefined ? {} : { annualConsumption }),
        ...(industry === undefined ? {} : { industry }),
      };
      return ok(c, schemeParamsForProfile(set, profile));
    },
  );

  /** What can be ordered in a region today (optionally of one set), with the retail companies. */
  routes.get(
    '/getSellingSetByArea',
    describeCall({ summary: 'Get selling set by area', query: sellingSetsQuery }),
    async (c) => {
      const { areaCode, setId } = await validate(c, sellingSetsQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      requireRegion(content, areaCode);
      if (setId !== undefined) requireSet(content, setId);
      const today = chinaDate();
      const options = setId === undefined ? { today } : { setId, today };
      return ok(
        c,
        listSellingSets(content, areaCode, options).map((s) => sellingSetView(content, s, today)),
      );
    },
  );

  routes.get(
    '/getSellingSetById',
    describeCall({ summary: 'Get selling set by id', query: sellingSetQuery }),
    async (c) => {
      const { sellingSetId } = await validate(c, sellingSetQuery, 'query');
      const content = contentStore.localized(localeOf(c));
      return ok(c, sellingSetView(content, requireSellingSet(content, sellingSetId)));
    },
  );

  routes.get(
    '/getOrgComBySellingSetId',
    describeCall({ summary: 'Get org com by selling set id', query: sellingSetQuery }),
    async (c) => {
      const { sellingSetId } = await validate(c, sellingSetQuery, 'query');
      return ok(c, requireSellingSet(contentStore.localized(localeOf(c)), sellingSetId).orgCom);
    },
  );

  return routes;
}
