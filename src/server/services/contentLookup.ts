/**
 * The content calls' lookups: the query functions of src/content/query.ts, plus the business
 * errors the API answers when an id matches nothing (404) or a region does not offer something.
 * Every lookup takes the request's content snapshot, never the store, so one request reads one
 * version of the content.
 */
import { ApiCode } from '../../lib/apiCodes.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import {
  bizTypesOfArea,
  getBizItem,
  getBizItemDesc,
  getBizType,
  getCustomerNotice,
  getDictionary,
  getHelpDocument,
  getNews,
  getProduct,
  getRegion,
  getSellingSet,
  getSet,
  productsOfArea,
} from '../../content/query.ts';
import type { BizType, Product, ProductSet, Region, SiteContent } from '../../content/schemas.ts';
import { ApiError } from '../apiError.ts';

function found<T>(value: T | undefined, key: MessageKey): T {
  if (value === undefined) throw new ApiError(ApiCode.NOT_FOUND, key);
  return value;
}

/** A region the visitor may choose: unknown → 404 `area.unknown`, disabled → 400 `area.disabled` (as setProvince). */
export function requireRegion(content: SiteContent, areaCode: string): Region {
  const region = found(getRegion(content, areaCode), 'area.unknown');
  if (!region.enabled) throw new ApiError(ApiCode.BAD_REQUEST, 'area.disabled');
  return region;
}

/** A business type the region offers. */
export function requireBizTypeOfArea(content: SiteContent, areaCode: string, bizTypeId: string): BizType {
  requireRegion(content, areaCode);
  const type = found(getBizType(content, bizTypeId), 'content.bizTypeUnknown');
  if (!bizTypesOfArea(content, areaCode, 'all').includes(type))
    throw new ApiError(ApiCode.NOT_FOUND, 'content.bizTypeNotOffered');
  return type;
}

/** A product the region offers. */
export function requireProductOfArea(content: SiteContent, areaCode: string, productId: string): Product {
  requireRegion(content, areaCode);
  const product = found(getProduct(content, productId), 'content.productNotOffered');
  if (!productsOfArea(content, areaCode).includes(product))
    throw new ApiError(ApiCode.NOT_FOUND, 'content.productNotOffered');
  return product;
}

export const requireBizItem = (content: SiteContent, bizItemId: string) =>
  found(getBizItem(content, bizItemId), 'content.bizItemUnknown');
export const requireBizItemDesc = (content: SiteContent, id: string) =>
  found(getBizItemDesc(content, id), 'content.bizItemDescUnknown');
export const requireSet = (content: SiteContent, setId: string): ProductSet =>
  found(getSet(content, setId), 'content.setUnknown');
export const requireSellingSet = (content: SiteContent, id: string) =>
  found(getSellingSet(content, id), 'content.sellingSetUnknown');
export const requireDictionary = (content: SiteContent, code: string) =>
  found(getDictionary(content, code), 'content.dictionaryUnknown');
export const requireNews = (content: SiteContent, newsId: string) =>
  found(getNews(content, newsId), 'content.newsUnknown');
export const requireHelpDocument = (content: SiteContent, id: string) =>
  found(getHelpDocument(content, id), 'content.helpDocumentUnknown');
export const requireCustomerNotice = (content: SiteContent, id: string) =>
  found(getCustomerNotice(content, id), 'content.customerNoticeUnknown');

/** An online set: offline sets are shown but have no online offer (`getSetOnlineBySet` says which). */
export function requireOnlineSet(content: SiteContent, setId: string): ProductSet {
  const set = requireSet(content, setId);
  if (!set.online) throw new ApiError(ApiCode.NOT_FOUND, 'content.setOffline');
  return set;
}
