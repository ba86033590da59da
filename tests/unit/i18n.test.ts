import { describe, expect, it } from 'vitest';
import { dictionaries, format, locales, matchLocale, negotiateLocale, pick, pickLocale, t } from '../../src/lib/i18n/index.ts';

describe('dictionaries', () => {
  const keysOf = (locale: (typeof locales)[number]) => Object.keys(dictionaries[locale]).sort();

  it.each(locales)('%s has exactly the keys every other locale has', (locale) => {
    const union = [...new Set(locales.flatMap(keysOf))].sort();
    expect(keysOf(locale)).toEqual(union);
  });

  it.each(locales)('%s has no empty message and the same placeholders as zh-CN', (locale) => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(dictionaries[locale])) {
      expect(text.trim(), `${locale} ${key}`).not.toBe('');
      expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(dictionaries['zh-CN'][key as keyof (typeof dictionaries)['zh-CN']]));
    }
  });

  it('keeps the spec\'s fixed messages', () => {
    expect(t('zh-CN', 'api.logoutOk')).toBe('安全退出！');
    expect(t('zh-CN', 'validation.required', { label: '用户名' })).toBe('请输入用户名');
    expect(t('en-US', 'validation.required', { label: 'user name' })).toBe('Please enter user name');
    expect(t('en-US', 'request.errorTitle', { status: 404, url: '/api/x' })).toBe('Request error 404: /api/x');
  });
});

describe('locale matching', () => {
  it.each([
    ['zh-CN', 'zh-CN'], ['zh', 'zh-CN'], ['zh-Hans-CN', 'zh-CN'], ['zh-SG', 'zh-CN'],
    ['zh-TW', 'zh-TW'], ['zh-HK', 'zh-TW'], ['zh-Hant', 'zh-TW'], ['zh_MO', 'zh-TW'],
    ['en', 'en-US'], ['en-GB', 'en-US'], ['id', 'id-ID'], ['in-ID', 'id-ID'], ['pt', 'pt-BR'], ['pt-PT', 'pt-BR'],
    ['fr-FR', undefined], ['', undefined],
  ])('%s → %s', (tag, expected) => {
    expect(matchLocale(tag)).toBe(expected);
  });

  it('falls back to zh-CN', () => {
    expect(pickLocale(['fr', 'de'])).toBe('zh-CN');
    expect(negotiateLocale(undefined)).toBe('zh-CN');
  });

  it('orders Accept-Language by quality', () => {
    expect(negotiateLocale('fr;q=1, en-US;q=0.5, zh-TW;q=0.8')).toBe('zh-TW');
    expect(negotiateLocale('pt-BR,en;q=0.9')).toBe('pt-BR');
    expect(negotiateLocale('en;q=0, id')).toBe('id-ID');
  });
});

describe('island messages', () => {
  it('picks only the requested keys of one locale', () => {
    expect(pick('en-US', ['header.login', 'header.logout'])).toEqual({ 'header.login': 'Log in', 'header.logout': 'Log out' });
  });

  it('formats placeholders and leaves unknown ones', () => {
    expect(format('{a} of {b} {c}', { a: 1, b: 'two' })).toBe('1 of two {c}');
  });
});
