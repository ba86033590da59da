import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { matchLocale } from '../../src/lib/i18n/locales.ts';
import { prepaintLocaleScript } from '../../src/lib/i18n/prepaint.ts';

interface Visit {
  pageLang: string;
  pathname: string;
  stored?: string | null;
  languages?: string[];
  search?: string;
  hash?: string;
  userAgent?: string;
}

const chromeUa =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** Runs the inlined script against a fake document/window; returns where it navigated, if anywhere, and what it stored. */
function visit({
  pageLang,
  pathname,
  stored = null,
  languages = [],
  search = '',
  hash = '',
  userAgent = chromeUa,
}: Visit) {
  let replacedWith: string | null = null;
  const storage = new Map<string, string>(stored === null ? [] : [['locale', stored]]);
  const style: Record<string, string> = {};
  const window = {
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
    },
    navigator: { languages, language: languages[0] ?? '', userAgent },
    location: { pathname, search, hash, protocol: 'https:', replace: (url: string) => (replacedWith = url) },
  } as Record<string, unknown>;
  const document = { documentElement: { lang: pageLang, style }, cookie: '' };
  runInNewContext(prepaintLocaleScript, { window, document });
  return {
    replacedWith: replacedWith as string | null,
    hidden: style['visibility'] === 'hidden',
    window,
    stored: storage.get('locale'),
    cookie: document.cookie,
  };
}

describe('pre-paint language rule', () => {
  it('stays when the page is already in the chosen locale', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/welcome/home', languages: ['zh-CN'] }).replacedWith).toBeNull();
    expect(
      visit({ pageLang: 'en-US', pathname: '/en-US/business', stored: 'en-US', languages: ['zh-CN'] }).replacedWith,
    ).toBeNull();
  });

  it('an unprefixed address prefers the stored locale over the browser language', () => {
    const result = visit({
      pageLang: 'zh-CN',
      pathname: '/business',
      stored: 'zh-TW',
      languages: ['en-US'],
      search: '?a=1',
      hash: '#x',
    });
    expect(result.replacedWith).toBe('/zh-TW/business?a=1#x');
    expect(result.hidden).toBe(true);
  });

  it('an unprefixed address uses the browser languages in order when nothing is stored', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/assistance', languages: ['fr-FR', 'pt-PT'] }).replacedWith).toBe(
      '/pt-BR/assistance',
    );
  });

  it('an unprefixed address falls back to zh-CN, where it already is', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/assistance', languages: ['fr'] }).replacedWith).toBeNull();
    expect(visit({ pageLang: 'zh-CN', pathname: '/', stored: 'xx', languages: [] }).replacedWith).toBeNull();
  });

  it('maps the locale root correctly', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/', stored: 'id-ID' }).replacedWith).toBe('/id-ID');
  });

  it('an address that names its locale is never moved, and becomes the stored choice', () => {
    // A zh-CN browser opening a shared English link; an en-US browser opening an Indonesian one; a stored other choice.
    for (const [pathname, languages, stored, locale] of [
      ['/en-US/business', ['zh-CN'], null, 'en-US'],
      ['/id-ID/assistance', ['en-US'], null, 'id-ID'],
      ['/pt-BR/welcome/home', ['zh-CN'], 'zh-TW', 'pt-BR'],
      ['/zh-TW', ['fr'], null, 'zh-TW'],
    ] as const) {
      const result = visit({ pageLang: locale, pathname, languages: [...languages], stored });
      expect(result.replacedWith, pathname).toBeNull();
      expect(result.hidden).toBe(false);
      expect(result.stored).toBe(locale);
      expect(result.cookie).toBe(`locale=${locale}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`);
    }
  });

  it('never moves an editor’s preview page (it would leave the preview for the live site)', () => {
    expect(
      visit({
        pageLang: 'zh-CN',
        pathname: '/studio-preview/12/infomation/detail/a',
        stored: 'en-US',
        languages: ['en-US'],
      }).replacedWith,
    ).toBeNull();
  });

  it('never moves a crawler from the unprefixed address', () => {
    for (const userAgent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
      'Mozilla/5.0 (compatible; Baiduspider-render/2.0; +http://www.baidu.com/search/spider.html)',
      'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)',
    ]) {
      expect(
        visit({ pageLang: 'zh-CN', pathname: '/business', languages: ['en-US'], userAgent }).replacedWith,
        userAgent,
      ).toBeNull();
    }
  });

  it('matches tags exactly as matchLocale does', () => {
    const { window } = visit({ pageLang: 'zh-CN', pathname: '/', languages: ['zh-CN'] });
    const inline = window['hgdMatchLocale'] as (tag: string) => string;
    for (const tag of [
      'zh',
      'zh-Hant-TW',
      'zh-hk',
      'zh_MO',
      'zh-Hans',
      'en-GB',
      'in',
      'id-ID',
      'pt',
      'pt-BR',
      'fr',
      'EN-us',
      '',
    ]) {
      expect(inline(tag) || undefined, tag).toBe(matchLocale(tag));
    }
  });
});
