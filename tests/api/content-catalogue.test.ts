/**
 * Content API, region-dependent calls: area settings, banners, rotation texts, home notices,
 * business types and items, products, sets, selling sets. Expectations are computed from the
 * same content (src/content) through query.ts, never from fixed counts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { localizeSiteContent } from '../../src/content/localized.ts';
import {
  bizTypesOfArea,
  listBizItems,
  listSellingSets,
  listSets,
  productsOfArea,
  schemeParamsForProfile,
} from '../../src/content/query.ts';
import { chinaDate } from '../../src/lib/chinaTime.ts';
import type { SiteContent } from '../../src/content/schemas.ts';
import { createTestApp, openPerFile } from './harness.ts';
import { getJson } from './contentClient.ts';

const t = openPerFile(createTestApp);
let content: SiteContent;
beforeAll(async () => {
  // What the calls answer a zh-CN reader: the content as written, without its translations.
  content = localizeSiteContent(loadContent('src/content'), 'zh-CN');
});

const banner = '/api/front/hgdbiz/banner/client';
const business = '/api/front/business';
const set = '/api/front/hgdsel/set';

/** A region, business type and item that exist together in the content. */
function someItem() {
  const item = content.bizItems[0];
  if (!item) throw new Error('the content has no business item');
  return item;
}
function someSet() {
  const found = content.sets.find((s) => s.online) ?? content.sets[0];
  if (!found) throw new Error('the content has no set');
  return found;
}

describe('area settings, banners, rotation texts, home notices', () => {
  it('answers the area settings of every region', async () => {
    for (const region of content.regions) {
      const body = await getJson<{
        areaCode: string;
        hotline: string;
        bizTypes: { bizTypeId: string }[];
        products: { productId: string; description?: string }[];
      }>(t, '/api/front/hgdsys/hgdClient/getAreaSettings', { areaCode: region.areaCode });
      expect(body.code).toBe(200);
      expect(body.data.areaCode).toBe(region.areaCode);
      expect(body.data.hotline).toBe(region.hotline);
      expect(body.data.bizTypes.map((b) => b.bizTypeId)).toEqual(
        bizTypesOfArea(content, region.areaCode, 'menu').map((b) => b.bizTypeId),
      );
      expect(body.data.products.map((p) => p.productId)).toEqual(
        productsOfArea(content, region.areaCode).map((p) => p.productId),
      );
      expect(body.data.products[0]?.description).toBeUndefined();
    }
  });

  it('answers banners, rotation texts and home notices per region, 440000 by default', async () => {
    const gd = content.regions.find((r) => r.areaCode === '440000');
    const banners = await getJson<unknown[]>(t, `${banner}/getHomePageBannerList`);
    expect(banners).toMatchObject({ code: 200, data: gd?.banners });
    for (const region of content.regions) {
      expect((await getJson(t, `${banner}/getHomePageBannerList`, { areaCode: region.areaCode })).data).toEqual(
        region.banners,
      );
      expect((await getJson(t, `${banner}/getHomePageRotationChat`, { areaCode: region.areaCode })).data).toEqual(
        region.textBanners,
      );
      expect((await getJson(t, `${banner}/getHomeNotices`, { areaCode: region.areaCode })).data).toEqual(
        region.homeNotices,
      );
    }
  });

  it('rejects a malformed area code with 400 and an unknown one with 404, localized', async () => {
    for (const path of [
      `${banner}/getHomePageBannerList`,
      `${banner}/getHomePageRotationChat`,
      `${banner}/getHomeNotices`,
      '/api/front/hgdsys/hgdClient/getAreaSettings',
    ]) {
      expect(await getJson(t, path, { areaCode: '44' })).toMatchObject({ code: 400, message: '地区编码格式不正确' });
      expect(await getJson(t, path, { areaCode: '110000' })).toMatchObject({ code: 404, message: '暂不支持该地区' });
    }
    expect((await getJson(t, `${banner}/getHomeNotices`, { areaCode: 'x' }, 'en-US')).code).toBe(400);
    expect((await getJson(t, `${banner}/getHomeNotices`, { areaCode: '110000' }, 'en-US')).message).toBe(
      'This region is not supported',
    );
  });
});

describe('business', () => {
  it("lists every business type in order, the menu with toTop=0, and a region's", async () => {
    const all = await getJson<{ bizTypeId: string; toTop: number }[]>(t, `${business}/getBizTypeList`);
    expect(all.data.map((b) => b.bizTypeId)).toEqual(content.bizTypes.map((b) => b.bizTypeId));
    const menu = await getJson<{ toTop: number }[]>(t, `${business}/getBizTypeList`, { toTop: '0' });
    expect(menu.data.length).toBe(content.bizTypes.filter((b) => b.toTop === 0).length);
    expect(menu.data.every((b) => b.toTop === 0)).toBe(true);
    const area = await getJson<{ bizTypeId: string }[]>(t, `${business}/getBizTypeList`, { areaCode: '450000' });
    expect(area.data.map((b) => b.bizTypeId)).toEqual(bizTypesOfArea(content, '450000', 'all').map((b) => b.bizTypeId));
  });

  it('treats empty optional parameters as absent', async () => {
    const body = await getJson<{ bizTypeId: string }[]>(t, `${business}/getBizTypeList`, { areaCode: '', toTop: '' });
    expect(body.data.map((b) => b.bizTypeId)).toEqual(content.bizTypes.map((b) => b.bizTypeId));
    const s = someSet();
    const sets = await getJson<{ setId: string }[]>(t, `${set}/getSetByAreaCode`, {
      areaCode: s.areaCode,
      productId: '',
    });
    expect(sets.data.length).toBe(listSets(content, s.areaCode).length);
    const params = await getJson<unknown[]>(t, `${set}/getSetSchemeParamBySetFilter`, {
      setId: s.setId,
      voltageLevel: '',
      annualConsumption: '',
      industry: '',
    });
    expect(params.code).toBe(s.online ? 200 : 404);
    expect((await getJson(t, `${banner}/getHomePageBannerList`, { areaCode: '' })).code).toBe(200);
  });

  it('rejects a bad toTop or area', async () => {
    expect((await getJson(t, `${business}/getBizTypeList`, { toTop: '2' })).code).toBe(400);
    expect((await getJson(t, `${business}/getBizTypeList`, { areaCode: '999999' })).code).toBe(404);
  });

  it('lists the items of a region and type, with tabs and related products', async () => {
    const item = someItem();
    const body = await getJson<
      {
        bizItemId: string;
        descList: { bizItemDescId: string; tabId: string; desc: string }[];
        bizItemProducts: { productId: string; productName: string }[];
      }[]
    >(t, `${business}/getBizItemByAreaCodeAndBizTypeId`, { areaCode: item.areaCode, bizTypeId: item.bizTypeId });
    expect(body.code).toBe(200);
    expect(body.data.map((i) => i.bizItemId)).toEqual(
      listBizItems(content, item.areaCode, item.bizTypeId).map((i) => i.bizItemId),
    );
    const answered = body.data.find((i) => i.bizItemId === item.bizItemId);
    expect(answered?.descList.map((d) => d.tabId)).toEqual(item.descList.map((d) => d.tabId));
    expect(answered?.descList[0]?.desc).toMatch(/<\w+>/);
    for (const related of answered?.bizItemProducts ?? []) expect(related.productName).not.toBe('');
  });

  it('answers an item and a description tab by id', async () => {
    const item = someItem();
    const one = await getJson<{ bizItemId: string; title: string }>(t, `${business}/getBizItemById`, {
      bizItemId: item.bizItemId,
    });
    expect(one.data).toMatchObject({ bizItemId: item.bizItemId, title: item.title });
    const desc = item.descList[0];
    const tab = await getJson<{ bizItemDescId: string; desc: string; bizItemId: string }>(
      t,
      `${business}/getBizItemDescById`,
      {
        bizItemDescId: desc?.bizItemDescId ?? '',
      },
    );
    expect(tab.data).toMatchObject({
      bizItemDescId: desc?.bizItemDescId,
      tabId: desc?.tabId,
      desc: desc?.desc,
      bizItemId: item.bizItemId,
    });
  });

  it('answers 400 for missing or malformed parameters and 404 for unknown ids', async () => {
    const item = someItem();
    const items = `${business}/getBizItemByAreaCodeAndBizTypeId`;
    expect(await getJson(t, items, { areaCode: item.areaCode })).toMatchObject({
      code: 400,
      message: '请输入业务类型',
    });
    expect(await getJson(t, items, { bizTypeId: item.bizTypeId })).toMatchObject({
      code: 400,
      message: '请输入地区编码',
    });
    expect((await getJson(t, items, { areaCode: item.areaCode, bizTypeId: 'Bad Id' })).code).toBe(400);
    expect(await getJson(t, items, { areaCode: item.areaCode, bizTypeId: 'no-such-type' })).toMatchObject({
      code: 404,
      message: '业务类型不存在',
    });
    expect(await getJson(t, items, { areaCode: '110000', bizTypeId: item.bizTypeId })).toMatchObject({ code: 404 });
    expect(await getJson(t, `${business}/getBizItemById`, { bizItemId: 'no-such-item' })).toMatchObject({
      code: 404,
      message: '售电业务不存在',
    });
    expect((await getJson(t, `${business}/getBizItemById`)).code).toBe(400);
    expect(await getJson(t, `${business}/getBizItemDescById`, { bizItemDescId: 'no-such-tab' }, 'en-US')).toMatchObject(
      {
        code: 404,
        message: 'This business description does not exist.',
      },
    );
    expect((await getJson(t, `${business}/getBizItemDescById`, { bizItemDescId: '' })).code).toBe(400);
  });

  it('says when a region does not offer a business type', async () => {
    const region = content.regions.find((r) => content.bizTypes.some((b) => !r.bizTypeIds.includes(b.bizTypeId)));
    if (!region) return; // every region offers every type: nothing to refuse
    const missing = content.bizTypes.find((b) => !region.bizTypeIds.includes(b.bizTypeId));
    const body = await getJson(t, `${business}/getBizItemByAreaCodeAndBizTypeId`, {
      areaCode: region.areaCode,
      bizTypeId: missing?.bizTypeId ?? '',
    });
    expect(body).toMatchObject({ code: 404, message: '该地区暂未开展此项售电业务' });
  });
});

describe('products and sets', () => {
  it('lists the products of a region and answers one product', async () => {
    const list = await getJson<{ productId: string }[]>(t, `${set}/getProductList`, { areaCode: '440000' });
    expect(list.data.map((p) => p.productId)).toEqual(productsOfArea(content, '440000').map((p) => p.productId));
    const one = await getJson<{ productId: string; description: string }>(t, `${set}/getProductById`, {
      productId: 'id3',
    });
    expect(one.data.productId).toBe('id3');
    expect(one.data.description).toMatch(/<p>/);
    expect((await getJson(t, `${set}/getProductById`, { productId: 'id6' })).code).toBe(400);
    expect((await getJson(t, `${set}/getProductList`, { areaCode: '000000' })).code).toBe(404);
  });

  it('lists the sets of a region, optionally of one product', async () => {
    const s = someSet();
    const all = await getJson<{ setId: string }[]>(t, `${set}/getSetByAreaCode`, { areaCode: s.areaCode });
    expect(all.data.map((x) => x.setId)).toEqual(listSets(content, s.areaCode).map((x) => x.setId));
    const ofProduct = await getJson<
      { setId: string; productId: string; productName: string; filter: { voltageLevelNames: string[] } }[]
    >(t, `${set}/getSetByAreaCode`, { areaCode: s.areaCode, productId: s.productId });
    expect(ofProduct.data.map((x) => x.setId)).toEqual(listSets(content, s.areaCode, s.productId).map((x) => x.setId));
    expect(ofProduct.data.every((x) => x.productId === s.productId && x.productName !== '')).toBe(true);
    expect((await getJson(t, `${set}/getSetByAreaCode`)).code).toBe(400);
    expect((await getJson(t, `${set}/getSetByAreaCode`, { areaCode: s.areaCode, productId: 'idx' })).code).toBe(400);
  });

  it("answers a product's set details with their selling sets and retail companies", async () => {
    const s = someSet();
    const body = await getJson<
      {
        setId: string;
        schemeParams: unknown[];
        sellingSets: { sellingSetId: string; orgCom: { name: string }; orderable: boolean }[];
      }[]
    >(t, `${set}/getSetDetailListByProductId`, { productId: s.productId, areaCode: s.areaCode });
    expect(body.code).toBe(200);
    expect(body.data.map((x) => x.setId)).toEqual(listSets(content, s.areaCode, s.productId).map((x) => x.setId));
    const mine = body.data.find((x) => x.setId === s.setId);
    expect(mine?.schemeParams.length).toBe(s.schemeParams.length);
    const selling = content.sellingSets.filter((x) => x.setId === s.setId);
    expect(mine?.sellingSets.map((x) => x.sellingSetId)).toEqual(selling.map((x) => x.sellingSetId));
    for (const x of mine?.sellingSets ?? []) expect(x.orgCom.name).not.toBe('');
    expect((await getJson(t, `${set}/getSetDetailListByProductId`, { areaCode: s.areaCode })).code).toBe(400);
    expect(
      (await getJson(t, `${set}/getSetDetailListByProductId`, { productId: s.productId, areaCode: '123456' })).code,
    ).toBe(404);
  });

  it('answers a set, whether it is online, and its filter', async () => {
    const s = someSet();
    expect((await getJson<{ setId: string }>(t, `${set}/getSetById`, { setId: s.setId })).data.setId).toBe(s.setId);
    const online = await getJson<{ online: boolean; sellingSets: { sellingSetId: string }[] }>(
      t,
      `${set}/getSetOnlineBySet`,
      { setId: s.setId },
    );
    expect(online.data.online).toBe(s.online);
    expect(online.data.sellingSets.map((x) => x.sellingSetId)).toEqual(
      listSellingSets(content, s.areaCode, { setId: s.setId, today: chinaDate() }).map((x) => x.sellingSetId),
    );
    const filter = await getJson<{ voltageLevels: string[]; industries: string[]; voltageLevelNames: string[] }>(
      t,
      `${set}/getSetFilterBySetOnline`,
      { setId: s.setId },
    );
    if (s.online) {
      expect(filter.data.voltageLevels).toEqual(s.filter.voltageLevels);
      expect(filter.data.industries).toEqual(s.filter.industries);
      expect(filter.data.voltageLevelNames.length).toBe(s.filter.voltageLevels.length);
    } else {
      expect(filter).toMatchObject({ code: 404, message: '该套餐暂未上线，无法在线办理' });
    }
    for (const path of ['getSetById', 'getSetOnlineBySet', 'getSetFilterBySetOnline']) {
      expect(await getJson(t, `${set}/${path}`, { setId: 'no-such-set' })).toMatchObject({
        code: 404,
        message: '套餐不存在',
      });
      expect(await getJson(t, `${set}/${path}`)).toMatchObject({ code: 400, message: '请输入套餐' });
    }
  });

  it('refuses the filter and scheme parameters of an offline set', async () => {
    const offline = content.sets.find((x) => !x.online);
    if (!offline) return; // every set is online
    expect((await getJson(t, `${set}/getSetFilterBySetOnline`, { setId: offline.setId })).code).toBe(404);
    expect((await getJson(t, `${set}/getSetSchemeParamBySetFilter`, { setId: offline.setId })).code).toBe(404);
  });

  it('answers the scheme parameters that fit a customer profile', async () => {
    const s = content.sets.find((x) => x.online);
    if (!s) throw new Error('the content has no online set');
    const path = `${set}/getSetSchemeParamBySetFilter`;
    const all = await getJson<{ schemeParamId: string }[]>(t, path, { setId: s.setId });
    expect(all.data.map((p) => p.schemeParamId)).toEqual(s.schemeParams.map((p) => p.schemeParamId));
    const param = s.schemeParams[0];
    const voltageLevel = param?.voltageLevels[0] ?? '';
    const annualConsumption = param?.consumptionMin ?? 0;
    const fit = await getJson<{ schemeParamId: string }[]>(t, path, {
      setId: s.setId,
      voltageLevel,
      annualConsumption: String(annualConsumption),
    });
    expect(fit.data.map((p) => p.schemeParamId)).toEqual(
      schemeParamsForProfile(s, { voltageLevel, annualConsumption }).map((p) => p.schemeParamId),
    );
    // Consumption far beyond every range fits nothing that has an upper bound.
    const huge = await getJson<{ consumptionMax?: number }[]>(t, path, {
      setId: s.setId,
      annualConsumption: '99999999',
    });
    expect(huge.data.every((p) => p.consumptionMax === undefined)).toBe(true);
    expect(await getJson(t, path, { setId: s.setId, voltageLevel: 'kv9999' })).toMatchObject({ code: 400 });
    expect((await getJson(t, path, { setId: s.setId, annualConsumption: 'lots' })).code).toBe(400);
    expect((await getJson(t, path, { setId: s.setId, annualConsumption: '-1' })).code).toBe(400);
    expect((await getJson(t, path, { setId: s.setId, industry: 'Z' })).code).toBe(400);
    expect((await getJson(t, path, { setId: 'no-such-set' })).code).toBe(404);
  });

  it('answers the selling sets of a region that can be ordered today, and their retail company', async () => {
    const s = someSet();
    const today = chinaDate();
    const body = await getJson<{ sellingSetId: string; orderable: boolean; orgCom: { orgComId: string } }[]>(
      t,
      `${set}/getSellingSetByArea`,
      { areaCode: s.areaCode },
    );
    expect(body.data.map((x) => x.sellingSetId)).toEqual(
      listSellingSets(content, s.areaCode, { today }).map((x) => x.sellingSetId),
    );
    expect(body.data.every((x) => x.orderable)).toBe(true);
    const ofSet = await getJson<{ setId: string }[]>(t, `${set}/getSellingSetByArea`, {
      areaCode: s.areaCode,
      setId: s.setId,
    });
    expect(ofSet.data.every((x) => x.setId === s.setId)).toBe(true);
    expect((await getJson(t, `${set}/getSellingSetByArea`, { areaCode: s.areaCode, setId: 'no-such-set' })).code).toBe(
      404,
    );
    expect((await getJson(t, `${set}/getSellingSetByArea`)).code).toBe(400);

    const selling = content.sellingSets[0];
    if (!selling) throw new Error('the content has no selling set');
    const orgCom = await getJson<{ orgComId: string; name: string }>(t, `${set}/getOrgComBySellingSetId`, {
      sellingSetId: selling.sellingSetId,
    });
    expect(orgCom.data.orgComId).toBe(selling.orgComId);
    const one = await getJson<{ sellingSetId: string; setId: string }>(t, `${set}/getSellingSetById`, {
      sellingSetId: selling.sellingSetId,
    });
    expect(one.data).toMatchObject({ sellingSetId: selling.sellingSetId, setId: selling.setId });
    expect(await getJson(t, `${set}/getOrgComBySellingSetId`, { sellingSetId: 'no-such-selling' })).toMatchObject({
      code: 404,
      message: '在售套餐不存在',
    });
    expect((await getJson(t, `${set}/getOrgComBySellingSetId`)).code).toBe(400);
    expect((await getJson(t, `${set}/getSellingSetById`, { sellingSetId: 'NOPE' })).code).toBe(400);
  });
});
