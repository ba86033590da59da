/**
 * Inputs of the content calls (spec §7: banners, business, set catalogue, news, dictionaries,
 * help, customer notices, problem guides, area settings). Query values arrive as strings, so
 * numbers are coerced. Ids are the content's slugs (src/content/schemas.ts); a well-formed id
 * that matches nothing is a 404, a malformed or missing one a 400.
 */
import { z } from 'zod/mini';
import { areaCodeSchema, defaultAreaCode, preprocess } from './fields.ts';

/** Content ids: lower-case slugs, as in the content files' names. */
export const contentIdSchema = z.string().check(z.regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/));
export const productIdSchema = z.enum(['id1', 'id2', 'id3', 'id4', 'id5']);
/** Dictionary codes and category codes. */
export const dictionaryCodeSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,32}$/));

/**
 * An optional query parameter: an empty value (`?productId=`, as a form sends an unset select)
 * counts as absent rather than malformed.
 */
function optional<S extends z.ZodMiniType>(schema: S) {
  return preprocess((value) => (value === '' ? undefined : value), z.optional(schema));
}

/** An optional parameter with a default, empty counting as absent. */
function withDefault<S extends z.ZodMiniType>(schema: S, fallback: z.input<S>) {
  return preprocess((value) => (value === '' || value === undefined ? fallback : value), schema);
}

/** Spec §9: page number 1 first; news and problem guides 5 to a page. */
export const pageNoSchema = withDefault(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1);
export const maxPageSize = 50;
const pageSizeSchema = withDefault(z.coerce.number().check(z.int(), z.gte(1), z.lte(maxPageSize)), 5);

/** Calls whose region is optional fall back to the spec's default region (440000). */
const areaQuery = z.object({ areaCode: withDefault(areaCodeSchema, defaultAreaCode) });

/** GET banner/client/getHomePageBannerList, getHomePageRotationChat, getHomeNotices; hgdClient/getAreaSettings */
export const areaContentQuery = areaQuery;
export type AreaContentQuery = z.infer<typeof areaContentQuery>;

/** GET /api/front/business/getBizTypeList — `toTop=0` gives the menu's types; `areaCode` those a region offers. */
export const bizTypeListQuery = z.object({
  areaCode: optional(areaCodeSchema),
  toTop: optional(
    z.pipe(
      z.enum(['0', '1']),
      z.transform((value) => (value === '0' ? 0 : 1) as 0 | 1),
    ),
  ),
});
export type BizTypeListQuery = z.infer<typeof bizTypeListQuery>;

/** GET /api/front/business/getBizItemByAreaCodeAndBizTypeId */
export const bizItemsQuery = z.object({ areaCode: areaCodeSchema, bizTypeId: contentIdSchema });
export type BizItemsQuery = z.infer<typeof bizItemsQuery>;

/** GET /api/front/business/getBizItemById */
export const bizItemQuery = z.object({ bizItemId: contentIdSchema });

/** GET /api/front/business/getBizItemDescById */
export const bizItemDescQuery = z.object({ bizItemDescId: contentIdSchema });

/** GET set/getProductList */
export const productListQuery = areaQuery;
/** GET set/getProductById */
export const productQuery = z.object({ productId: productIdSchema });

/** GET set/getSetByAreaCode — every set of a region, optionally of one product. */
export const setsByAreaQuery = z.object({ areaCode: areaCodeSchema, productId: optional(productIdSchema) });
/** GET set/getSetDetailListByProductId */
export const setDetailListQuery = z.object({
  productId: productIdSchema,
  areaCode: withDefault(areaCodeSchema, defaultAreaCode),
});
/** GET set/getSetById, set/getSetOnlineBySet, set/getSetFilterBySetOnline */
export const setQuery = z.object({ setId: contentIdSchema });
/** GET set/getSellingSetByArea — what can be ordered in a region today (optionally of one set). */
export const sellingSetsQuery = z.object({ areaCode: areaCodeSchema, setId: optional(contentIdSchema) });
/** GET set/getOrgComBySellingSetId, set/getSellingSetById */
export const sellingSetQuery = z.object({ sellingSetId: contentIdSchema });

/** GET set/getSetSchemeParamBySetFilter — the scheme parameters a customer profile may choose. */
export const schemeParamQuery = z.object({
  setId: contentIdSchema,
  voltageLevel: optional(dictionaryCodeSchema),
  /** MWh per year. */
  annualConsumption: optional(z.coerce.number().check(z.gte(0), z.lte(100_000_000))),
  /** GB/T 4754 section letter. */
  industry: optional(z.string().check(z.regex(/^[A-T]$/))),
});
export type SchemeParamQuery = z.infer<typeof schemeParamQuery>;

/** GET hnyData/getDictionaryByCategoryCode */
export const dictionaryQuery = z.object({ categoryCode: dictionaryCodeSchema });

/** GET hnyData/searchPageNews — `newsTypeCode` omitted = every type. */
export const newsPageQuery = z.object({
  newsTypeCode: optional(dictionaryCodeSchema),
  pageNo: pageNoSchema,
  pageSize: pageSizeSchema,
});
export type NewsPageQuery = z.infer<typeof newsPageQuery>;

/** GET hnyData/getNewsById */
export const newsQuery = z.object({ newsId: contentIdSchema });

/** GET hnyData/getProblemGuidePage */
export const problemGuidePageQuery = z.object({ pageNo: pageNoSchema, pageSize: pageSizeSchema });

/** GET hnyData/getCustomerNoticeById */
export const customerNoticeQuery = z.object({ noticeId: contentIdSchema });

/** GET help/document/client/getDocumentInfo */
export const helpDocumentQuery = z.object({ documentId: contentIdSchema });
