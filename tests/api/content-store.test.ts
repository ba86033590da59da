/**
 * The content store and the regions table: publishing new content (as a rebuild does) changes
 * what the content calls answer at once, and syncs the regions that getProvinceList / setProvince
 * read, so the content's regions are the one source.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import type { SiteContent } from '../../src/content/schemas.ts';
import { contentStore, createContentStore, publishContent } from '../../src/server/services/contentStore.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';
import { getJson } from './contentClient.ts';

const t = openPerFile(createTestApp);
const original = loadContent('src/content');
// Runs before the app closes (Vitest runs a file's afterAll hooks last-registered first).
afterAll(async () => {
  await publishContent(t.db, original);
});

/** The original content with one region renamed and another disabled, as an editor might. */
function edited(): SiteContent {
  const copy = structuredClone(original);
  const [first, second] = copy.regions;
  if (!first || !second) throw new Error('the content has fewer than two regions');
  first.hotline = '400-830-1234';
  first.textBanners = [{ textBannerId: 'store-test', text: '测试：新内容已发布' }];
  second.enabled = false;
  return copy;
}

describe('content store', () => {
  it('loads lazily and counts replacements', () => {
    let loads = 0;
    const store = createContentStore(() => {
      loads += 1;
      return original;
    });
    expect(store.version()).toBe(0);
    expect(store.current()).toBe(original);
    expect(store.current()).toBe(original);
    expect(loads).toBe(1);
    store.replace(edited());
    expect(store.version()).toBe(2);
    expect(store.current()).not.toBe(original);
  });

  it('serves published content at once and syncs the regions table', async () => {
    const next = edited();
    const [first, second] = next.regions;
    await publishContent(t.db, next);
    expect(contentStore.current()).toBe(next);

    const settings = await getJson<{ hotline: string }>(t, '/api/front/hgdsys/hgdClient/getAreaSettings', {
      areaCode: first?.areaCode ?? '',
    });
    expect(settings.data.hotline).toBe('400-830-1234');
    const texts = await getJson<{ text: string }[]>(t, '/api/front/hgdbiz/banner/client/getHomePageRotationChat', {
      areaCode: first?.areaCode ?? '',
    });
    expect(texts.data.map((x) => x.text)).toEqual(['测试：新内容已发布']);

    const provinces = await getJson<{ areaCode: string; hotline: string }[]>(
      t,
      '/api/front/hgdsys/hgdClient/getProvinceList',
    );
    expect(provinces.data.map((p) => p.areaCode)).not.toContain(second?.areaCode);
    expect(provinces.data.find((p) => p.areaCode === first?.areaCode)?.hotline).toBe('400-830-1234');

    const res = await t.app.request('/api/front/hgdsys/hgdClient/setProvince', {
      method: 'POST',
      headers: apiHeaders({ 'Content-Type': 'application/x-www-form-urlencoded' }),
      body: new URLSearchParams({ areaCode: second?.areaCode ?? '' }).toString(),
    });
    expect(await res.json()).toMatchObject({ code: 400, message: '该地区暂未开通服务' });
    expect(
      (await getJson(t, '/api/front/hgdbiz/banner/client/getHomePageBannerList', { areaCode: second?.areaCode ?? '' }))
        .code,
    ).toBe(400);

    // Publishing the original again restores everything.
    await publishContent(t.db, original);
    const restored = await getJson<{ areaCode: string }[]>(t, '/api/front/hgdsys/hgdClient/getProvinceList');
    expect(restored.data.map((p) => p.areaCode)).toEqual(
      original.regions.filter((r) => r.enabled).map((r) => r.areaCode),
    );
  });

  it('disables a region that the content no longer has', async () => {
    const copy = structuredClone(original);
    const removed = copy.regions.pop();
    await publishContent(t.db, copy);
    const provinces = await getJson<{ areaCode: string }[]>(t, '/api/front/hgdsys/hgdClient/getProvinceList');
    expect(provinces.data.map((p) => p.areaCode)).not.toContain(removed?.areaCode);
    await publishContent(t.db, original);
  });
});
