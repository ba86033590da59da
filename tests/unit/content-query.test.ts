/**
 * The pure query functions the pages and the content API share: paging, the region's offers,
 * customer-profile matching of sets and scheme parameters, selling-set validity, China dates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import {
  bizTypesOfArea,
  firstHelpDocument,
  getAreaSettings,
  getRegionByIsoCode,
  isSellingOn,
  listNews,
  listSellingSets,
  pageNews,
  paginate,
  productsOfArea,
  schemeParamsForProfile,
  setMatchesProfile,
  tabPanelId,
} from '../../src/content/query.ts';
import { chinaDate } from '../../src/lib/chinaTime.ts';
import type { ProductSet } from '../../src/content/schemas.ts';

const content = loadContent('src/content');

/** A set built for the matching rules, independent of the seed content. */
function makeSet(): ProductSet {
  return {
    setId: 'test-set',
    areaCode: '440000',
    productId: 'id1',
    name: '测试套餐',
    summary: '测试',
    description: '<p>测试</p>',
    sort: 0,
    online: true,
    filter: { voltageLevels: ['kv10', 'kv35'], consumptionMin: 1000, consumptionMax: 50000, industries: ['C'] },
    schemeParams: [
      {
        schemeParamId: 'a',
        name: 'A',
        priceType: 'energyPrice',
        energyPrice: 0.45,
        contractMonths: [12],
        voltageLevels: ['kv10'],
        consumptionMin: 1000,
        consumptionMax: 10000,
      },
      {
        schemeParamId: 'b',
        name: 'B',
        priceType: 'shareRatio',
        shareRatio: 30,
        contractMonths: [12, 24],
        voltageLevels: ['kv10', 'kv35'],
        consumptionMin: 5000,
      },
    ],
  };
}

describe('paginate', () => {
  it('covers every row exactly once across its pages', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 60 }), fc.integer({ min: 1, max: 12 }), (rows, size) => {
        const first = paginate(rows, 1, size);
        const pages = Array.from({ length: first.pageCount }, (_, i) => paginate(rows, i + 1, size).data);
        expect(pages.flat()).toEqual(rows);
        expect(first.recordsTotal).toBe(rows.length);
        expect(paginate(rows, first.pageCount + 1, size).data).toEqual([]);
      }),
    );
  });

  it('pages news 5 at a time by default, pinned first', () => {
    const page = pageNews(content);
    expect(page.pageSize).toBe(5);
    expect(page.data).toEqual(listNews(content).slice(0, 5));
    const all = listNews(content);
    const firstUnpinned = all.findIndex((n) => !n.pinned);
    if (firstUnpinned >= 0) expect(all.slice(firstUnpinned).every((n) => !n.pinned)).toBe(true);
  });
});

describe('regions', () => {
  it('answers area settings from the region file, and nothing for an unknown region', () => {
    for (const region of content.regions.filter((r) => r.enabled)) {
      const settings = getAreaSettings(content, region.areaCode);
      expect(settings?.bizTypes).toEqual(bizTypesOfArea(content, region.areaCode, 'menu'));
      expect(settings?.products.map((p) => p.productId)).toEqual(region.productIds);
      expect(getRegionByIsoCode(content, region.isoCode)?.areaCode).toBe(region.areaCode);
    }
    expect(getAreaSettings(content, '110000')).toBeUndefined();
    expect(productsOfArea(content, '110000')).toEqual([]);
  });

  it('keeps business types marked toTop 1 out of the menu, tabs and home cards, but not out of the region', () => {
    // 440000 offers five types; 电费金融服务 (bill-finance) is marked "not in the menu".
    expect(bizTypesOfArea(content, '440000', 'all').map((type) => type.bizTypeId)).toEqual([
      'retail-purchase',
      'green-power',
      'demand-response',
      'energy-efficiency',
      'bill-finance',
    ]);
    expect(bizTypesOfArea(content, '440000', 'menu').map((type) => type.bizTypeId)).toEqual([
      'retail-purchase',
      'green-power',
      'demand-response',
      'energy-efficiency',
    ]);
    expect(getAreaSettings(content, '440000')?.bizTypes.map((type) => type.bizTypeId)).not.toContain('bill-finance');
    for (const region of content.regions) {
      expect(bizTypesOfArea(content, region.areaCode, 'menu').every((type) => type.toTop === 0)).toBe(true);
    }
  });

  it('joins tab and item ids with --', () => {
    expect(tabPanelId('intro', 'gd-agency')).toBe('intro--gd-agency');
  });

  it('opens help on the first document of the first section', () => {
    expect(firstHelpDocument(content)?.documentId).toBe(content.helpSections[0]?.documents[0]);
  });
});

describe('matching a customer profile', () => {
  it('admits a profile only inside the set filter', () => {
    const set = makeSet();
    expect(setMatchesProfile(set, {})).toBe(true);
    expect(setMatchesProfile(set, { voltageLevel: 'kv10', annualConsumption: 2000, industry: 'C' })).toBe(true);
    expect(setMatchesProfile(set, { voltageLevel: 'kv110' })).toBe(false);
    expect(setMatchesProfile(set, { annualConsumption: 999 })).toBe(false);
    expect(setMatchesProfile(set, { annualConsumption: 50001 })).toBe(false);
    expect(setMatchesProfile(set, { industry: 'F' })).toBe(false);
  });

  it('keeps the scheme parameters whose voltage and consumption fit', () => {
    const set = makeSet();
    const ids = (profile: Parameters<typeof schemeParamsForProfile>[1]) =>
      schemeParamsForProfile(set, profile).map((p) => p.schemeParamId);
    expect(ids({})).toEqual(['a', 'b']);
    expect(ids({ voltageLevel: 'kv35' })).toEqual(['b']);
    expect(ids({ annualConsumption: 2000 })).toEqual(['a']);
    expect(ids({ annualConsumption: 20000, voltageLevel: 'kv10' })).toEqual(['b']);
    expect(ids({ industry: 'F' })).toEqual([]);
  });
});

describe('selling sets', () => {
  it('are on sale from validFrom to validTo inclusive', () => {
    const selling = {
      sellingSetId: 's',
      orgComId: 'o',
      validFrom: '2026-10-01',
      validTo: '2027-03-31',
      setId: 'x',
      areaCode: '440000',
    };
    expect(isSellingOn(selling, '2026-09-30')).toBe(false);
    expect(isSellingOn(selling, '2026-10-01')).toBe(true);
    expect(isSellingOn(selling, '2027-03-31')).toBe(true);
    expect(isSellingOn(selling, '2027-04-01')).toBe(false);
  });

  it('lists only orderable ones when asked for a day', () => {
    const today = chinaDate();
    for (const region of content.regions) {
      for (const selling of listSellingSets(content, region.areaCode, { today })) {
        expect(isSellingOn(selling, today)).toBe(true);
        expect(content.sets.find((s) => s.setId === selling.setId)?.online).toBe(true);
        expect(selling.orgCom.orgComId).toBe(selling.orgComId);
      }
    }
  });

  it('dates the business day in China time', () => {
    expect(chinaDate(new Date('2026-11-22T15:59:59Z'))).toBe('2026-11-22');
    expect(chinaDate(new Date('2026-11-22T16:00:00Z'))).toBe('2026-11-23');
  });
});
