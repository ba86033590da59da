/**
 * The shapes the content calls answer with, built from loaded content: names of referenced
 * products, sets, types and dictionary codes are attached so that a caller needs one call, not
 * one per reference. Documented in docs/content-api.md.
 */
import {
  dictionaryName,
  getProduct,
  getSet,
  listIndustries,
  newsSummary,
  sellingSetsOfSet,
  isSellingOn,
} from '../../content/query.ts';
import { chinaDate } from '../../lib/chinaTime.ts';
import type { BizItem, News, Product, ProductSet, SiteContent } from '../../content/schemas.ts';
import type { SellingSetView } from '../../content/query.ts';
import { localizeSiteContent } from '../../content/localized.ts';

/** A product without its long description (lists). */
export function productSummary(product: Product): Omit<Product, 'description'> {
  const { description: _description, ...summary } = product;
  return summary;
}

/** A business item with the names of its related products and sets. */
export function bizItemView(content: SiteContent, item: BizItem) {
  return {
    ...item,
    bizItemProducts: item.bizItemProducts.map((related) => ({
      ...related,
      productName: getProduct(content, related.productId)?.name ?? related.productId,
      ...(related.setId === undefined ? {} : { setName: getSet(content, related.setId)?.name ?? related.setId }),
    })),
  };
}

/** A selling set as answered: validity, whether it can be ordered today, its set and retail company. */
export function sellingSetView(content: SiteContent, selling: SellingSetView, today: string = chinaDate()) {
  const set = getSet(content, selling.setId);
  return {
    sellingSetId: selling.sellingSetId,
    setId: selling.setId,
    setName: set?.name ?? selling.setId,
    productId: set?.productId,
    areaCode: selling.areaCode,
    validFrom: selling.validFrom,
    validTo: selling.validTo,
    /** On sale today (China time) and its set online: an order may be placed. */
    orderable: isSellingOn(selling, today) && set?.online === true,
    orgCom: selling.orgCom,
  };
}

/** A set with the names of its filter's codes, for lists. */
export function setView(content: SiteContent, set: ProductSet) {
  return {
    ...set,
    productName: getProduct(content, set.productId)?.name ?? set.productId,
    filter: setFilterView(content, set),
  };
}

/** A set with its selling sets (all of them, each flagged `orderable`). */
export function setDetailView(content: SiteContent, set: ProductSet) {
  const today = chinaDate();
  return {
    ...setView(content, set),
    sellingSets: sellingSetsOfSet(content, set.setId).map((selling) => sellingSetView(content, selling, today)),
  };
}

/** A set's filter with dictionary names beside the codes. */
export function setFilterView(content: SiteContent, set: ProductSet) {
  const industries = listIndustries(content);
  return {
    ...set.filter,
    voltageLevelNames: set.filter.voltageLevels.map((code) => dictionaryName(content, 'voltageLevel', code)),
    industryNames: set.filter.industries.map((code) => industries.find((i) => i.code === code)?.name ?? code),
  };
}

const keptNameTables = new WeakMap<SiteContent, Map<string, ReadonlyMap<string, string>>>();

/**
 * Names an order or a notice kept as they were when it was written (a package's, a retail
 * company's, a plan's; zh-CN), as a reader of `locale` sees them: the catalogue's translation
 * while the catalogue still names something so (and only one thing), else the name as kept.
 */
export function keptNames(content: SiteContent, locale: string): (name: string) => string {
  let byLocale = keptNameTables.get(content);
  if (!byLocale) keptNameTables.set(content, (byLocale = new Map()));
  let table = byLocale.get(locale);
  if (!table) {
    const shown = localizeSiteContent(content, locale);
    const pairs: [string, string][] = [
      ...content.sets.flatMap((set, index) => {
        const other = shown.sets[index]!;
        return [
          [set.name, other.name] as [string, string],
          ...set.schemeParams.map((param, at): [string, string] => [param.name, other.schemeParams[at]!.name]),
        ];
      }),
      ...content.orgComs.map((orgCom, index): [string, string] => [orgCom.name, shown.orgComs[index]!.name]),
    ];
    const found = new Map<string, string | null>();
    for (const [kept, translated] of pairs) {
      const before = found.get(kept);
      found.set(kept, before === undefined || before === translated ? translated : null);
    }
    table = new Map([...found].filter((entry): entry is [string, string] => entry[1] !== null));
    byLocale.set(locale, table);
  }
  const names = table;
  return (name) => names.get(name) ?? name;
}

/** A news item for lists (no body), with its type's name. */
export function newsListItem(content: SiteContent, item: News) {
  return { ...newsSummary(item), newsTypeName: dictionaryName(content, 'newsType', item.newsTypeCode) };
}

/** A news item in full, with its type's name. */
export function newsDetail(content: SiteContent, item: News) {
  return { ...item, newsTypeName: dictionaryName(content, 'newsType', item.newsTypeCode) };
}
