/**
 * The seed content holds what the public pages need, and what it points at exists: banner images
 * under public/, and the site paths written in banners, text banners and Markdown (help documents,
 * announcements, products, packages, news) name content that is there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { productIds } from '../../src/content/schemas.ts';

const content = loadContent(path.resolve('src/content'));
const isoCodes = new Set(content.regions.map((r) => r.isoCode).filter((iso) => iso !== 'gd'));

describe('the seed content', () => {
  it('has the five regions with hotline, business types, products, banners, text banners and home notices', () => {
    expect(content.regions.map((r) => r.areaCode)).toEqual(['440000', '450000', '460000', '520000', '530000']);
    for (const region of content.regions) {
      expect(region.hotline, region.areaCode).toMatch(/\d/);
      expect(region.bizTypeIds.length, region.areaCode).toBeGreaterThanOrEqual(4);
      expect(region.productIds, region.areaCode).toEqual([...productIds]);
      expect(region.banners.length, region.areaCode).toBeGreaterThanOrEqual(2);
      expect(region.textBanners.length, region.areaCode).toBeGreaterThanOrEqual(1);
      expect(region.homeNotices.length, region.areaCode).toBeGreaterThanOrEqual(2);
    }
  });

  it('has at least 4 business types in the menu and, per region, items with tabs and products for each type offered', () => {
    expect(content.bizTypes.filter((t) => t.toTop === 0).length).toBeGreaterThanOrEqual(4);
    for (const region of content.regions) {
      for (const bizTypeId of region.bizTypeIds) {
        const items = content.bizItems.filter((i) => i.areaCode === region.areaCode && i.bizTypeId === bizTypeId);
        expect(items.length, `${region.areaCode} ${bizTypeId}`).toBeGreaterThanOrEqual(1);
        for (const item of items) {
          expect(item.descList.length, item.bizItemId).toBeGreaterThanOrEqual(2);
          expect(item.bizItemProducts.length, item.bizItemId).toBeGreaterThanOrEqual(1);
        }
      }
    }
  });

  it('has at least 2 packages per product per region, each with a company selling it', () => {
    for (const region of content.regions) {
      for (const productId of productIds) {
        const sets = content.sets.filter((s) => s.areaCode === region.areaCode && s.productId === productId);
        expect(sets.length, `${region.areaCode} ${productId}`).toBeGreaterThanOrEqual(2);
        for (const set of sets) {
          expect(
            content.sellingSets.some((s) => s.setId === set.setId),
            set.setId,
          ).toBe(true);
        }
      }
    }
  });

  it('has news of at least 3 types (30+ items, dated 2025–2026), a help catalogue, guides, notices and the 20 industry sections', () => {
    const types = content.dictionaries['newsType'] ?? [];
    expect(types.length).toBeGreaterThanOrEqual(3);
    expect(content.news.length).toBeGreaterThanOrEqual(30);
    for (const type of types)
      expect(content.news.filter((n) => n.newsTypeCode === type.code).length, type.code).toBeGreaterThanOrEqual(6);
    for (const news of content.news) expect(news.date, news.newsId).toMatch(/^202[56]-/);
    expect(content.helpSections.length).toBeGreaterThanOrEqual(3);
    expect(content.helpDocuments.length).toBeGreaterThanOrEqual(12);
    expect(content.problemGuides.length).toBeGreaterThanOrEqual(10);
    expect(content.customerNotices.length).toBeGreaterThanOrEqual(5);
    expect(content.industries.map((i) => i.code).join('')).toBe('ABCDEFGHIJKLMNOPQRST');
  });
});

/** The content a site path names, or undefined when the path is not one that names content. */
function missingTarget(link: string): string | undefined {
  const [pathname = ''] = link.split(/[?#]/);
  const segments = pathname.split('/').filter(Boolean);
  if (segments[0] !== undefined && isoCodes.has(segments[0])) segments.shift();
  const [section, first, second] = segments;
  const has = (list: readonly string[], id: string | undefined) => id === undefined || list.includes(id);
  switch (section) {
    case 'products':
      if (!has([...productIds], first)) return `product ${first}`;
      return has(
        content.sets.map((s) => s.setId),
        second,
      )
        ? undefined
        : `package ${second}`;
    case 'assistance':
      return first === 'faq' ||
        has(
          content.helpDocuments.map((d) => d.documentId),
          first,
        )
        ? undefined
        : `help document ${first}`;
    case 'business':
      if (
        !has(
          content.bizTypes.map((t) => t.bizTypeId),
          first,
        )
      )
        return `business type ${first}`;
      return has(
        content.bizItems.map((i) => i.bizItemId),
        second,
      )
        ? undefined
        : `business item ${second}`;
    case 'infomation':
      if (first === 'detail')
        return has(
          content.news.map((n) => n.newsId),
          second,
        )
          ? undefined
          : `news ${second}`;
      return undefined;
    case 'welcome':
      if (first === 'detail')
        return has(
          content.customerNotices.map((n) => n.noticeId),
          second,
        )
          ? undefined
          : `announcement ${second}`;
      return ['home', 'form', undefined].includes(first) ? undefined : `page /welcome/${first}`;
    default:
      return `unknown section /${section}`;
  }
}

describe('what the content points at', () => {
  it('banner images exist under public/', () => {
    for (const banner of content.regions.flatMap((r) => r.banners)) {
      expect(existsSync(path.join('public', banner.image)), banner.image).toBe(true);
    }
  });

  it('site paths in banners, text banners and Markdown name content that exists', () => {
    const links: { where: string; link: string }[] = [];
    for (const region of content.regions) {
      for (const b of region.banners)
        if (b.link) links.push({ where: `${region.areaCode} banner ${b.bannerId}`, link: b.link });
      for (const b of region.textBanners)
        if (b.link) links.push({ where: `${region.areaCode} text banner ${b.textBannerId}`, link: b.link });
    }
    const html: { where: string; html: string }[] = [
      ...content.helpDocuments.map((d) => ({ where: `help/${d.documentId}`, html: d.content })),
      ...content.problemGuides.map((g) => ({ where: `guide ${g.problemGuideId}`, html: g.answer })),
      ...content.customerNotices.map((n) => ({ where: `notice ${n.noticeId}`, html: n.content })),
      ...content.news.map((n) => ({ where: `news ${n.newsId}`, html: n.body })),
      ...content.bizItems.flatMap((i) => i.descList.map((d) => ({ where: `${i.bizItemId} ${d.tabId}`, html: d.desc }))),
    ];
    for (const { where, html: body } of html) {
      for (const match of body.matchAll(/href="(\/[^"]*)"/g)) links.push({ where, link: match[1] ?? '' });
    }
    expect(links.length).toBeGreaterThan(20);
    const broken = links.flatMap(({ where, link }) => {
      const missing = missingTarget(link);
      return missing ? [`${where}: ${link} (${missing})`] : [];
    });
    expect(broken).toEqual([]);
  });
});
