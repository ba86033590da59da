/**
 * Site search's pure parts (src/lib/search.ts): the query as the index holds it, the exact
 * phrases moved to the front, excerpts rendered as text with highlights only, result addresses,
 * the filters; and the build's side: the index step's progress lines, its studio step, and the
 * one source the page policy check lets the search page add ('wasm-unsafe-eval').
 */
import { loadQueryScripts } from '../../src/lib/queryScripts.ts';
import { describe, expect, it } from 'vitest';
import { countKey, phaseKey } from '../../src/islands/studio/buildProgress.ts';
import { pagePolicyProblems } from '../../src/integrations/pagePolicy.ts';
import { cspHash } from '../../src/lib/contentSecurityPolicy.ts';
import {
  excerptParts,
  phraseQuery,
  prepareQuery,
  regionFilter,
  resultPath,
  searchBodyAttributes,
  searchHit,
  searchSite,
  type PagefindApi,
  type PagefindResult,
} from '../../src/lib/search.ts';
import { compressProgress, indexProgress } from '../../src/server/site/buildCommand.ts';

describe('the query as the index holds it', () => {
  it('cuts Chinese into words and keeps Latin words whole, on every page alike', () => {
    expect(prepareQuery('电价')).toBe('电 价');
    expect(prepareQuery('企业认证')).toBe('企业 认证');
    expect(prepareQuery('  峰谷电价   U盾 ')).toBe('峰 谷 电 价 U 盾');
    expect(prepareQuery('green power')).toBe('green power');
    expect(prepareQuery('“电价”？')).toBe('电 价');
    expect(prepareQuery('   ')).toBe('');
  });

  it('asks for the Chinese words as typed, as exact phrases', () => {
    expect(phraseQuery('电价')).toBe('"电 价"');
    expect(phraseQuery('企业认证 流程')).toBe('"企业 认证"');
    expect(phraseQuery('峰谷电价 U盾')).toBe('"峰 谷 电 价" "U 盾"');
    expect(phraseQuery('认证')).toBeUndefined();
    expect(phraseQuery('green power')).toBeUndefined();
  });
});

function result(id: string): PagefindResult {
  return { id, data: () => Promise.resolve({ url: `/${id}/`, excerpt: '', meta: { title: id }, filters: {} }) };
}

describe('searchSite', () => {
  it("moves the pages that hold the words as typed to the front, in the ranking's order, in the region asked", async () => {
    const asked: { query: string; filters: unknown }[] = [];
    const pagefind: PagefindApi = {
      options: () => Promise.resolve(),
      init: () => Promise.resolve(),
      destroy: () => Promise.resolve(),
      search: (query, options) => {
        asked.push({ query, filters: options?.filters });
        const ids = query.startsWith('"') ? ['d', 'b'] : ['a', 'b', 'c', 'd'];
        return Promise.resolve({ results: ids.map(result) });
      },
    };
    const found = await searchSite(pagefind, '电价', '450000');
    expect(found.map((entry) => entry.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(asked).toEqual([
      { query: '电 价', filters: { region: { any: ['450000', 'all'] } } },
      { query: '"电 价"', filters: { region: { any: ['450000', 'all'] } } },
    ]);
    expect(await searchSite(pagefind, '  ', '440000')).toEqual([]);
  });
});

describe('traditional characters', () => {
  it('converts a query to the simplified characters the content is written in', async () => {
    const [toSimplified] = await loadQueryScripts('en-US');
    if (!toSimplified) throw new Error('no converter');
    expect(toSimplified('電價 企業認證 峰谷電價 綠電 發票 找回密碼 U盾')).toBe(
      '电价 企业认证 峰谷电价 绿电 发票 找回密码 U盾',
    );
    expect(toSimplified('电价 green power')).toBe('电价 green power');
  });

  /** A Pagefind that answers `ids` per query and keeps what it was asked in `asked`. */
  function askedPagefind(asked: string[], ids: Readonly<Record<string, string[]>> = {}): PagefindApi {
    return {
      options: () => Promise.resolve(),
      init: () => Promise.resolve(),
      destroy: () => Promise.resolve(),
      search: (query) => {
        asked.push(query);
        return Promise.resolve({ results: (ids[query] ?? []).map(result) });
      },
    };
  }

  it('searches a traditional query in both scripts, the simplified first, each page once', async () => {
    const asked: string[] = [];
    const pagefind = askedPagefind(asked, {
      '电 价': ['price', 'loose'],
      '"电 价"': ['price'],
      電價: ['loose', 'heading'],
    });
    const found = await searchSite(pagefind, '電價', '450000', await loadQueryScripts('zh-CN'));
    expect(found.map((entry) => entry.id)).toEqual(['price', 'loose', 'heading']);
    expect(asked).toEqual(['电 价', '"电 价"', '電價']);
    asked.length = 0;
    await searchSite(pagefind, '电价', '450000', await loadQueryScripts('zh-CN'));
    expect(asked).toEqual(['电 价', '"电 价"']);
  });

  it('on a zh-TW page also asks a simplified query in traditional characters, the translated pages’ script, first', async () => {
    const [toTraditional, toSimplified] = await loadQueryScripts('zh-TW');
    expect(toTraditional?.('电价 企业认证 软件')).toBe('電價 企業認證 軟體');
    expect(toSimplified?.('電價')).toBe('电价');
    const asked: string[] = [];
    await searchSite(askedPagefind(asked), '电价', '450000', await loadQueryScripts('zh-TW'));
    expect(asked).toEqual(['電價', '电 价', '"电 价"']);
  });
});

describe('results', () => {
  it('renders an excerpt as text: highlights become parts, anything else stays text', () => {
    expect(excerptParts('分时<mark>电</mark><mark>价</mark>套餐 &lt;b&gt; &amp; <img src=x>')).toEqual([
      { text: '分时', marked: false },
      { text: '电价', marked: true },
      { text: '套餐 <b> & ', marked: false },
    ]);
  });

  it('writes addresses as the site links them', () => {
    expect(resultPath('/assistance/faq/2/')).toBe('/assistance/faq/2');
    expect(resultPath('/assistance/faq/2/#switch-company')).toBe('/assistance/faq/2#switch-company');
    expect(resultPath('/')).toBe('/');
  });

  it('shows the best-matching section with a heading of its own, else the page', () => {
    const page = {
      url: '/assistance/faq/2/',
      excerpt: 'page',
      meta: { title: '常见问题' },
      filters: { type: ['faq'] },
    };
    expect(
      searchHit({
        ...page,
        sub_results: [
          { url: '/assistance/faq/2/', title: '常见问题', excerpt: 'top', locations: [1] },
          {
            url: '/assistance/faq/2/#switch-company',
            title: '换了售电公司怎么办？',
            excerpt: '<mark>售电</mark>',
            locations: [5, 9],
          },
        ],
      }),
    ).toEqual({
      path: '/assistance/faq/2#switch-company',
      title: '常见问题',
      section: '换了售电公司怎么办？',
      type: 'faq',
      excerpt: '<mark>售电</mark>',
    });
    expect(searchHit({ ...page, filters: { type: ['unknown'] } })).toEqual({
      path: '/assistance/faq/2',
      title: '常见问题',
      section: undefined,
      type: undefined,
      excerpt: 'page',
    });
  });

  it('marks a page with its kind and region, and asks for a region with the shared pages', () => {
    expect(searchBodyAttributes('set', '450000')).toEqual({
      body: { 'data-pagefind-body': '', 'data-pagefind-filter': 'type:set' },
      region: { 'data-pagefind-filter': 'region:450000' },
    });
    expect(searchBodyAttributes('news', undefined).region).toEqual({ 'data-pagefind-filter': 'region:all' });
    expect(regionFilter('530000')).toEqual({ region: { any: ['530000', 'all'] } });
  });
});

describe('the index step of a build', () => {
  it("is read from the build's output apart from compression", () => {
    const line = '23:31:07 [hgd:search-index] indexed 154 / 308 pages';
    expect(indexProgress(line)).toEqual({ done: 154, total: 308 });
    expect(compressProgress(line)).toBeUndefined();
    expect(indexProgress('23:31:08 [hgd:precompress] compressed 40 / 382')).toBeUndefined();
    expect(indexProgress('23:31:08 [hgd:search-index] search index written in 3.2 s (zh-CN 154)')).toBeUndefined();
  });

  it('is a step of its own for editors, counted in pages', () => {
    expect(phaseKey({ phase: 'index' })).toBe('studio.phase.index');
    expect(countKey({ phase: 'index' })).toBe('studio.build.count.build');
  });
});

describe("the search page's policy", () => {
  const page = (scriptSrc: string) => {
    const script = 'var x=1';
    return `<html><head><meta http-equiv="content-security-policy" content="default-src 'self'; script-src ${scriptSrc} '${cspHash(script)}'; style-src 'self'"></head><body><script>${script}</script></body></html>`;
  };

  it("may compile WebAssembly ('wasm-unsafe-eval' in script-src), and still nothing else", () => {
    expect(pagePolicyProblems(page("'self' 'wasm-unsafe-eval'"))).toEqual([]);
    expect(pagePolicyProblems(page("'self' 'unsafe-eval'"))).toEqual(["script-src allows 'unsafe-eval'"]);
    expect(
      pagePolicyProblems(page("'self'").replace("style-src 'self'", "style-src 'self' 'wasm-unsafe-eval'")),
    ).toEqual(["style-src allows 'wasm-unsafe-eval'"]);
  });
});
