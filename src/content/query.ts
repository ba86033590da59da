/**
 * Pure questions over the loaded content. The pages (at build time) and the content API (at
 * request time) both call these, so a page and the call behind it always answer from the same
 * content. Functions return `undefined` (or an empty list) for an unknown id; the caller decides
 * whether that is a 404 page, a 404 envelope, or nothing to show.
 *
 * Names are stable: pages and routes import them; add new functions rather than renaming.
 */
import type {
  Banner,
  BizItem,
  BizItemDesc,
  BizType,
  CustomerNotice,
  DictionaryEntry,
  HelpDocument,
  HelpSection,
  HomeNotice,
  Industry,
  News,
  OrgCom,
  ProblemGuide,
  Product,
  ProductSet,
  Region,
  SchemeParam,
  SellingSet,
  SiteContent,
  TextBanner,
  LegalDocument,
  LegalDocumentId,
} from './schemas.ts';
import { withLangOf } from './translations.ts';

/** Spec §9: news and problem guides come 5 to a page, page 1 first; the home page shows 2 news. */
export const newsPageSize = 5;
export const problemGuidePageSize = 5;
export const homeNewsCount = 2;
/** The default region (spec §1). */
export const defaultAreaCode = '440000';

export interface Page<T> {
  /** The rows of this page. */
  data: T[];
  /** Rows in all pages. */
  recordsTotal: number;
  pageNo: number;
  pageSize: number;
  /** At least 1, so that page 1 of an empty list exists. */
  pageCount: number;
}

/** Page `pageNo` (1-based) of `rows`; a page past the end is empty. */
export function paginate<T>(rows: readonly T[], pageNo: number, pageSize: number): Page<T> {
  const start = (pageNo - 1) * pageSize;
  return {
    data: rows.slice(start, start + pageSize),
    recordsTotal: rows.length,
    pageNo,
    pageSize,
    pageCount: Math.max(1, Math.ceil(rows.length / pageSize)),
  };
}

// ---------------------------------------------------------------------------------------------
// Regions and area settings

/** Enabled regions in display order. */
export function listRegions(content: SiteContent): Region[] {
  return content.regions.filter((region) => region.enabled);
}

/** A region by area code (enabled or not). */
export function getRegion(content: SiteContent, areaCode: string): Region | undefined {
  return content.regions.find((region) => region.areaCode === areaCode);
}

/** A region by its lower-case ISO code (`gx`), as used in URLs. */
export function getRegionByIsoCode(content: SiteContent, isoCode: string): Region | undefined {
  return content.regions.find((region) => region.isoCode === isoCode);
}

export interface AreaSettings {
  areaCode: string;
  areaName: string;
  shortName: string;
  hotline: string;
  bizTypes: BizType[];
  products: Product[];
  banners: Banner[];
  textBanners: TextBanner[];
  homeNotices: HomeNotice[];
}

/** What a region offers and shows on its home page; undefined for an unknown or disabled region. */
export function getAreaSettings(content: SiteContent, areaCode: string): AreaSettings | undefined {
  const region = getRegion(content, areaCode);
  if (!region?.enabled) return undefined;
  return {
    areaCode: region.areaCode,
    areaName: region.name,
    shortName: region.shortName,
    hotline: region.hotline,
    bizTypes: bizTypesOfArea(content, areaCode, 'menu'),
    products: productsOfArea(content, areaCode),
    banners: region.banners,
    textBanners: region.textBanners,
    homeNotices: region.homeNotices,
  };
}

// ---------------------------------------------------------------------------------------------
// Business

/** Every business type in order; `toTop: 0` keeps only the menu's types (spec: menu data, toTop 0). */
export function listBizTypes(content: SiteContent, filter: { toTop?: 0 | 1 } = {}): BizType[] {
  return content.bizTypes.filter((type) => filter.toTop === undefined || type.toTop === filter.toTop);
}

export function getBizType(content: SiteContent, bizTypeId: string): BizType | undefined {
  return content.bizTypes.find((type) => type.bizTypeId === bizTypeId);
}

/**
 * The business types a region offers, in the region's order. `'menu'`: only those shown in menus,
 * tabs and home cards (`toTop: 0`); `'all'`: every offered type, also those kept out of the menu
 * (`toTop: 1`), which still have their pages and can be ordered or asked about.
 */
export function bizTypesOfArea(content: SiteContent, areaCode: string, which: 'menu' | 'all'): BizType[] {
  const region = getRegion(content, areaCode);
  if (!region) return [];
  const offered = region.bizTypeIds.flatMap((id) => getBizType(content, id) ?? []);
  return which === 'menu' ? offered.filter((type) => type.toTop === 0) : offered;
}

/** Business items of one type in one region, in display order. */
export function listBizItems(content: SiteContent, areaCode: string, bizTypeId: string): BizItem[] {
  return content.bizItems.filter((item) => item.areaCode === areaCode && item.bizTypeId === bizTypeId);
}

/** Every business item of a region (all its types). */
export function bizItemsOfArea(content: SiteContent, areaCode: string): BizItem[] {
  return content.bizItems.filter((item) => item.areaCode === areaCode);
}

/** A business item by id; with `areaCode`, only when it belongs to that region. */
export function getBizItem(content: SiteContent, bizItemId: string, areaCode?: string): BizItem | undefined {
  return content.bizItems.find(
    (item) => item.bizItemId === bizItemId && (areaCode === undefined || item.areaCode === areaCode),
  );
}

/** A description tab by its id, with the item it belongs to. */
export function getBizItemDesc(
  content: SiteContent,
  bizItemDescId: string,
): (BizItemDesc & { bizItemId: string; areaCode: string }) | undefined {
  for (const item of content.bizItems) {
    const desc = item.descList.find((d) => d.bizItemDescId === bizItemDescId);
    if (desc) return withLangOf(desc, { ...desc, bizItemId: item.bizItemId, areaCode: item.areaCode });
  }
  return undefined;
}

/** The panel id of a description tab (spec §9: tab id and item id joined with `--`). */
export function tabPanelId(tabId: string, bizItemId: string): string {
  return `${tabId}--${bizItemId}`;
}

// ---------------------------------------------------------------------------------------------
// Products, sets, selling sets

export function listProducts(content: SiteContent): Product[] {
  return content.products;
}

export function getProduct(content: SiteContent, productId: string): Product | undefined {
  return content.products.find((product) => product.productId === productId);
}

/** The products a region offers, in the region's order. */
export function productsOfArea(content: SiteContent, areaCode: string): Product[] {
  const region = getRegion(content, areaCode);
  if (!region) return [];
  return region.productIds.flatMap((id) => getProduct(content, id) ?? []);
}

/** Sets of a region, optionally of one product, in display order. */
export function listSets(content: SiteContent, areaCode: string, productId?: string): ProductSet[] {
  return content.sets.filter(
    (set) => set.areaCode === areaCode && (productId === undefined || set.productId === productId),
  );
}

export function getSet(content: SiteContent, setId: string): ProductSet | undefined {
  return content.sets.find((set) => set.setId === setId);
}

export function getOrgCom(content: SiteContent, orgComId: string): OrgCom | undefined {
  return content.orgComs.find((orgCom) => orgCom.orgComId === orgComId);
}

/** A selling set with its retail company attached. */
export type SellingSetView = SellingSet & { orgCom: OrgCom };

function withOrgCom(content: SiteContent, selling: SellingSet): SellingSetView {
  // load.ts guarantees every orgComId resolves.
  return { ...selling, orgCom: getOrgCom(content, selling.orgComId) as OrgCom };
}

/** Whether a selling set is within its validity dates on `today` (YYYY-MM-DD). */
export function isSellingOn(selling: SellingSet, today: string): boolean {
  return selling.validFrom <= today && today <= selling.validTo;
}

/**
 * Selling sets of a region (optionally of one set). With `today`, only those valid that day and
 * whose set is online: what a customer can order now.
 */
export function listSellingSets(
  content: SiteContent,
  areaCode: string,
  options: { setId?: string; today?: string } = {},
): SellingSetView[] {
  return content.sellingSets
    .filter(
      (selling) => selling.areaCode === areaCode && (options.setId === undefined || selling.setId === options.setId),
    )
    .filter(
      (selling) =>
        options.today === undefined ||
        (isSellingOn(selling, options.today) && getSet(content, selling.setId)?.online === true),
    )
    .map((selling) => withOrgCom(content, selling));
}

/** Selling sets of one set (any region: a set belongs to one region). */
export function sellingSetsOfSet(content: SiteContent, setId: string): SellingSetView[] {
  return content.sellingSets
    .filter((selling) => selling.setId === setId)
    .map((selling) => withOrgCom(content, selling));
}

export function getSellingSet(content: SiteContent, sellingSetId: string): SellingSetView | undefined {
  const selling = content.sellingSets.find((s) => s.sellingSetId === sellingSetId);
  return selling ? withOrgCom(content, selling) : undefined;
}

/** A customer's profile, as set filters and scheme parameters are matched against it. */
export interface CustomerProfile {
  voltageLevel?: string;
  /** Annual consumption in MWh. */
  annualConsumption?: number;
  /** GB/T 4754 section letter. */
  industry?: string;
}

function inRange(value: number | undefined, min: number, max: number | undefined): boolean {
  return value === undefined || (value >= min && (max === undefined || value <= max));
}

/** Whether a set's filter admits the profile (an unspecified profile field matches). */
export function setMatchesProfile(set: ProductSet, profile: CustomerProfile): boolean {
  const { filter } = set;
  return (
    (profile.voltageLevel === undefined ||
      filter.voltageLevels.length === 0 ||
      filter.voltageLevels.includes(profile.voltageLevel)) &&
    inRange(profile.annualConsumption, filter.consumptionMin, filter.consumptionMax) &&
    (profile.industry === undefined || filter.industries.length === 0 || filter.industries.includes(profile.industry))
  );
}

/** The scheme parameters of a set that apply to a profile (all of them for an empty profile). */
export function schemeParamsForProfile(set: ProductSet, profile: CustomerProfile): SchemeParam[] {
  if (!setMatchesProfile(set, profile)) return [];
  return set.schemeParams.filter(
    (param) =>
      (profile.voltageLevel === undefined || param.voltageLevels.includes(profile.voltageLevel)) &&
      inRange(profile.annualConsumption, param.consumptionMin, param.consumptionMax),
  );
}

// ---------------------------------------------------------------------------------------------
// Dictionaries and industries

/** A dictionary's entries by category code (`newsType`, `voltageLevel`…); undefined if unknown. */
export function getDictionary(content: SiteContent, categoryCode: string): DictionaryEntry[] | undefined {
  return Object.hasOwn(content.dictionaries, categoryCode) ? content.dictionaries[categoryCode] : undefined;
}

/** The news tabs (the `newsType` dictionary), first tab first. */
export function listNewsTypes(content: SiteContent): DictionaryEntry[] {
  return getDictionary(content, 'newsType') ?? [];
}

/** The name of a dictionary code, or the code itself when unknown. */
export function dictionaryName(content: SiteContent, categoryCode: string, code: string): string {
  return getDictionary(content, categoryCode)?.find((entry) => entry.code === code)?.name ?? code;
}

export function listIndustries(content: SiteContent): Industry[] {
  return content.industries;
}

// ---------------------------------------------------------------------------------------------
// News

/** News of one type (or all types), pinned first, then newest first. */
export function listNews(content: SiteContent, newsTypeCode?: string): News[] {
  const rows = content.news.filter((item) => newsTypeCode === undefined || item.newsTypeCode === newsTypeCode);
  return [...rows.filter((item) => item.pinned), ...rows.filter((item) => !item.pinned)];
}

/** One page of a type's news (spec: searchPageNews → data and recordsTotal; page size 5). */
export function pageNews(
  content: SiteContent,
  query: { newsTypeCode?: string; pageNo?: number; pageSize?: number } = {},
): Page<News> {
  return paginate(listNews(content, query.newsTypeCode), query.pageNo ?? 1, query.pageSize ?? newsPageSize);
}

/** The latest news of every type (the home page shows 2). */
export function latestNews(content: SiteContent, count: number = homeNewsCount): News[] {
  return content.news.slice(0, count);
}

export function getNews(content: SiteContent, newsId: string): News | undefined {
  return content.news.find((item) => item.newsId === newsId);
}

/** News without the body, for lists. */
export type NewsSummary = Omit<News, 'body'>;
export function newsSummary(item: News): NewsSummary {
  const { body: _body, ...summary } = item;
  return withLangOf(item, summary);
}

// ---------------------------------------------------------------------------------------------
// Help

export interface HelpCatalogueSection {
  key: string;
  title: string;
  documents: { documentId: string; title: string; updated: string }[];
}

/** The help catalogue: sections with their documents' ids and titles (spec: getHelpCenter). */
export function helpCatalogue(content: SiteContent): HelpCatalogueSection[] {
  return content.helpSections.map((section: HelpSection) =>
    withLangOf(section, {
      key: section.key,
      title: section.title,
      documents: section.documents.flatMap((id) => {
        const doc = getHelpDocument(content, id);
        return doc ? [withLangOf(doc, { documentId: doc.documentId, title: doc.title, updated: doc.updated })] : [];
      }),
    }),
  );
}

export function getHelpDocument(content: SiteContent, documentId: string): HelpDocument | undefined {
  return content.helpDocuments.find((doc) => doc.documentId === documentId);
}

/** The document shown on entering help: the first of the first section (spec: loads on entry). */
export function firstHelpDocument(content: SiteContent): HelpDocument | undefined {
  const id = content.helpSections[0]?.documents[0];
  return id === undefined ? undefined : getHelpDocument(content, id);
}

/** The section a document is listed in. */
export function helpSectionOf(content: SiteContent, documentId: string): HelpSection | undefined {
  return content.helpSections.find((section) => section.documents.includes(documentId));
}

// ---------------------------------------------------------------------------------------------
// Problem guides and customer notices

export function listProblemGuides(content: SiteContent): ProblemGuide[] {
  return content.problemGuides;
}

/** One page of problem guides (spec: getProblemGuidePage, page size 5). */
export function pageProblemGuides(
  content: SiteContent,
  query: { pageNo?: number; pageSize?: number } = {},
): Page<ProblemGuide> {
  return paginate(content.problemGuides, query.pageNo ?? 1, query.pageSize ?? problemGuidePageSize);
}

/** Customer notices, newest first. */
export function listCustomerNotices(content: SiteContent): CustomerNotice[] {
  return content.customerNotices;
}

export function getLegalDocument(content: SiteContent, documentId: LegalDocumentId): LegalDocument {
  const document = content.legalDocuments.find((candidate) => candidate.documentId === documentId);
  // load.ts refuses a content without both.
  if (!document) throw new Error(`the content has no legal/${documentId}.md`);
  return document;
}

export function getCustomerNotice(content: SiteContent, noticeId: string): CustomerNotice | undefined {
  return content.customerNotices.find((notice) => notice.noticeId === noticeId);
}
