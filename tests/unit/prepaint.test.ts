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
}

/** Runs the inlined script against a fake document/window; returns where it navigated, if anywhere. */
function visit({ pageLang, pathname, stored = null, languages = [], search = '', hash = '' }: Visit) {
  let replacedWith: string | null = null;
  const style: Record<string, string> = {};
  const window = {
    localStorage: { getItem: (key: string) => (key === 'locale' ? stored : null) },
    navigator: { languages, language: languages[0] ?? '' },
    location: { pathname, search, hash, replace: (url: string) => (replacedWith = url) },
  } as Record<string, unknown>;
  const document = { documentElement: { lang: pageLang, style } };
  runInNewContext(prepaintLocaleScript, { window, document });
  return { replacedWith: replacedWith as string | null, hidden: style['visibility'] === 'hidden', window };
}

describe('pre-paint language rule', () => {
  it('stays when the page is already in the chosen locale', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/welcome/home', languages: ['zh-CN'] }).replacedWith).toBeNull();
    expect(visit({ pageLang: 'en-US', pathname: '/en-US/business', stored: 'en-US', languages: ['zh-CN'] }).replacedWith).toBeNull();
  });

  it('prefers the stored locale over the browser language', () => {
    const result = visit({ pageLang: 'zh-CN', pathname: '/business', stored: 'zh-TW', languages: ['en-US'], search: '?a=1', hash: '#x' });
    expect(result.replacedWith).toBe('/zh-TW/business?a=1#x');
    expect(result.hidden).toBe(true);
  });

  it('uses the browser languages in order when nothing is stored', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/assistance', languages: ['fr-FR', 'pt-PT'] }).replacedWith).toBe('/pt-BR/assistance');
  });

  it('falls back to zh-CN', () => {
    expect(visit({ pageLang: 'en-US', pathname: '/en-US/assistance', languages: ['fr'] }).replacedWith).toBe('/assistance');
    expect(visit({ pageLang: 'en-US', pathname: '/en-US', stored: 'xx', languages: [] }).replacedWith).toBe('/');
  });

  it('maps the locale root correctly', () => {
    expect(visit({ pageLang: 'zh-CN', pathname: '/', stored: 'id-ID' }).replacedWith).toBe('/id-ID');
  });

  it('matches tags exactly as matchLocale does', () => {
    const { window } = visit({ pageLang: 'zh-CN', pathname: '/', languages: ['zh-CN'] });
    const inline = window['hgdMatchLocale'] as (tag: string) => string;
    for (const tag of ['zh', 'zh-Hant-TW', 'zh-hk', 'zh_MO', 'zh-Hans', 'en-GB', 'in', 'id-ID', 'pt', 'pt-BR', 'fr', 'EN-us', '']) {
      expect(inline(tag) || undefined, tag).toBe(matchLocale(tag));
    }
  });
});
