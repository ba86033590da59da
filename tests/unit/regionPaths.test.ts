import { describe, expect, it } from 'vitest';
import {
  areaCodeOfSegment,
  isRegionPath,
  queryFormTarget,
  regionSegment,
  sitePath,
  splitSitePath,
  switchLocalePath,
  switchRegionPath,
} from '../../src/lib/paths.ts';

describe('region paths', () => {
  it('leaves the default region unprefixed and uses lower-case ISO 3166-2 codes for the others', () => {
    expect(sitePath('zh-CN', '/welcome/home')).toBe('/welcome/home');
    expect(sitePath('zh-CN', '/welcome/home', '440000')).toBe('/welcome/home');
    expect(sitePath('zh-CN', '/welcome/home', '450000')).toBe('/gx/welcome/home');
    expect(sitePath('en-US', '/products/id2', '530000')).toBe('/en-US/yn/products/id2');
    expect(sitePath('zh-TW', '/business/b1/i1', '460000')).toBe('/zh-TW/hi/business/b1/i1');
    expect(regionSegment('520000')).toBe('gz');
    expect(() => regionSegment('999999')).toThrow(/999999/);
  });

  it('never puts a region on a shared page', () => {
    expect(sitePath('zh-CN', '/infomation/list', '450000')).toBe('/infomation/list');
    expect(sitePath('pt-BR', '/assistance/faq/2', '530000')).toBe('/pt-BR/assistance/faq/2');
    expect(isRegionPath('/welcome/detail')).toBe(false);
    expect(isRegionPath('/welcome/home')).toBe(true);
    expect(isRegionPath('/businesses')).toBe(false);
  });

  it('splits a pathname into locale, region and route path', () => {
    expect(splitSitePath('/en-US/yn/products/id2')).toEqual({
      locale: 'en-US',
      areaCode: '530000',
      path: '/products/id2',
    });
    expect(splitSitePath('/gx/welcome/home/')).toEqual({ locale: 'zh-CN', areaCode: '450000', path: '/welcome/home' });
    expect(splitSitePath('/business')).toEqual({ locale: 'zh-CN', areaCode: '440000', path: '/business' });
    // Guangdong's own code is never a URL segment, and a region only prefixes region pages.
    expect(splitSitePath('/gd/welcome/home')).toEqual({
      locale: 'zh-CN',
      areaCode: '440000',
      path: '/gd/welcome/home',
    });
    expect(splitSitePath('/gx/infomation/list')).toEqual({
      locale: 'zh-CN',
      areaCode: '440000',
      path: '/gx/infomation/list',
    });
    expect(areaCodeOfSegment('gd')).toBeUndefined();
    expect(areaCodeOfSegment('hi')).toBe('460000');
  });

  it('switches region and locale independently', () => {
    expect(switchRegionPath('/en-US/gx/products/id1', '440000')).toBe('/en-US/products/id1');
    expect(switchRegionPath('/products/id1', '520000')).toBe('/gz/products/id1');
    expect(switchRegionPath('/id-ID/infomation/list', '520000')).toBe('/id-ID/infomation/list');
    expect(switchLocalePath('/gx/welcome/home', 'en-US')).toBe('/en-US/gx/welcome/home');
    expect(switchLocalePath('/en-US/gx/welcome/home', 'zh-CN')).toBe('/gx/welcome/home');
  });

  it('turns the spec query forms into path forms, keeping region, locale and the rest of the query', () => {
    expect(queryFormTarget('/products', '?id=id3')).toBe('/products/id3');
    expect(queryFormTarget('/en-US/gx/products/', '?id=id3&x=1')).toBe('/en-US/gx/products/id3?x=1');
    expect(queryFormTarget('/infomation/detail', '?newsId=n-2024-001')).toBe('/infomation/detail/n-2024-001');
    expect(queryFormTarget('/zh-TW/welcome/detail', '?noticeId=cn5')).toBe('/zh-TW/welcome/detail/cn5');
    expect(queryFormTarget('/assistance', '?documentId=doc-3')).toBe('/assistance/doc-3');
  });

  it('leaves other addresses and unsafe ids alone', () => {
    expect(queryFormTarget('/products', '')).toBeUndefined();
    expect(queryFormTarget('/products', '?id=')).toBeUndefined();
    expect(queryFormTarget('/products', '?id=..%2F..%2Fetc')).toBeUndefined();
    expect(queryFormTarget('/products', '?id=//evil.example')).toBeUndefined();
    expect(queryFormTarget('/infomation/list', '?newsId=1')).toBeUndefined();
    expect(queryFormTarget('/products/id1', '?id=id2')).toBeUndefined();
  });
});
