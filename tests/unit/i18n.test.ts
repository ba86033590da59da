import { describe, expect, it } from 'vitest';
import {
  dictionaries,
  format,
  locales,
  matchLocale,
  negotiateLocale,
  pick,
  pickLocale,
  t,
  type MessageKey,
  type MessageVars,
} from '../../src/lib/i18n/index.ts';
import { z } from 'zod';
import { inSentence, localizeIssue } from '../../src/lib/schemas/issues.ts';
import { countKey, countKeys, formatCount } from '../../src/lib/i18n/plural.ts';

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
      expect(placeholders(text), `${locale} ${key}`).toEqual(
        placeholders(dictionaries['zh-CN'][key as keyof (typeof dictionaries)['zh-CN']]),
      );
    }
  });

  it("keeps the spec's fixed messages", () => {
    expect(t('zh-CN', 'api.logoutOk')).toBe('安全退出！');
    expect(t('zh-CN', 'validation.required', { label: '用户名' })).toBe('请输入用户名');
    expect(t('en-US', 'validation.required', { label: 'user name' })).toBe('Please enter user name');
    expect(t('en-US', 'request.errorTitle', { status: 404, url: '/api/x' })).toBe('Request error 404: /api/x');
  });
});

describe('locale matching', () => {
  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh_MO', 'zh-TW'],
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['id', 'id-ID'],
    ['in-ID', 'id-ID'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['fr-FR', undefined],
    ['', undefined],
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
    expect(pick('en-US', ['header.login', 'header.logout'])).toEqual({
      'header.login': 'Log in',
      'header.logout': 'Log out',
    });
  });

  it('formats placeholders and leaves unknown ones', () => {
    expect(format('{a} of {b} {c}', { a: 1, b: 'two' })).toBe('1 of two {c}');
  });
});

describe('count messages (i18next plural keys)', () => {
  const bases = [
    ...new Set(
      Object.keys(dictionaries['zh-CN'])
        .filter((key) => /_(one|other)$/.test(key))
        .map((key) => key.replace(/_(one|other)$/, '')),
    ),
  ];

  it('every count message has both forms in every locale, and no unsuffixed twin', () => {
    expect(bases.length).toBeGreaterThanOrEqual(4);
    for (const locale of locales) {
      for (const base of bases) {
        expect(dictionaries[locale], `${locale} ${base}`).toHaveProperty(`${base}_one`);
        expect(dictionaries[locale], `${locale} ${base}`).toHaveProperty(`${base}_other`);
        expect(dictionaries[locale], `${locale} ${base}`).not.toHaveProperty(base);
      }
    }
  });

  it('i18next picks the singular for 1 and the plural otherwise, per locale', () => {
    expect(t('en-US', countKey('site.products.setCount'), { count: 1 })).toBe('1 package in this region');
    expect(t('en-US', countKey('site.products.setCount'), { count: 3 })).toBe('3 packages in this region');
    expect(t('pt-BR', countKey('partner.import.rejected'), { count: 1 })).toMatch(/^1 linha tem erros/);
    expect(t('pt-BR', countKey('partner.import.rejected'), { count: 2 })).toMatch(/^2 linhas têm erros/);
    expect(t('zh-CN', countKey('site.products.setCount'), { count: 1 })).toBe('本地区 1 个套餐');
    expect(t('id-ID', countKey('site.products.setCount'), { count: 1 })).toBe('1 paket di wilayah ini');
  });

  it("islands pick the same form with formatCount, digits in the locale's style", () => {
    const en = pick('en-US', countKeys('settlement.import.rejected'));
    expect(formatCount(en, 'settlement.import.rejected', 'en-US', 1)).toMatch(/^The file has 1 problem;/);
    expect(formatCount(en, 'settlement.import.rejected', 'en-US', 1200)).toMatch(/^The file has 1,200 problems;/);
    const pt = pick('pt-BR', countKeys('site.form.errorSummary'));
    expect(formatCount(pt, 'site.form.errorSummary', 'pt-BR', 1)).toBe(
      'A solicitação não foi enviada. Corrija 1 item:',
    );
    expect(formatCount(pt, 'site.form.errorSummary', 'pt-BR', 2)).toBe(
      'A solicitação não foi enviada. Corrija 2 itens:',
    );
  });

  it('no English, Indonesian or Portuguese message counts with a hedged plural ("item(s)")', () => {
    for (const locale of ['en-US', 'id-ID', 'pt-BR'] as const) {
      for (const [key, text] of Object.entries(dictionaries[locale]))
        expect(text, `${locale} ${key}`).not.toMatch(/\w\((s|ns|es)\)/);
    }
  });
});

describe('currency', () => {
  it('amounts are in 元 in Chinese and CNY in every other locale, on every page', () => {
    for (const locale of ['en-US', 'id-ID', 'pt-BR'] as const) {
      for (const [key, text] of Object.entries(dictionaries[locale]))
        expect(text, `${locale} ${key}`).not.toMatch(/\byuan\b|\bRMB\b|元/i);
    }
    for (const locale of ['zh-CN', 'zh-TW'] as const) {
      for (const [key, text] of Object.entries(dictionaries[locale]))
        expect(text, `${locale} ${key}`).not.toMatch(/\bCNY\b|\byuan\b/i);
    }
  });
});

describe('t', () => {
  it('gives each locale its own message, the same on every call, and fills values when given (messages without values are kept per locale)', () => {
    for (let round = 0; round < 2; round += 1) {
      for (const locale of locales) {
        expect(t(locale, 'api.ok')).toBe(dictionaries[locale]['api.ok']);
        expect(t(locale, 'validation.required', { label: 'X' })).toBe(
          format(dictionaries[locale]['validation.required'], { label: 'X' }),
        );
      }
    }
    expect(t('en-US', 'api.ok')).not.toBe(t('zh-CN', 'api.ok'));
    // A message with placeholders asked without values, then with them: the values still fill it.
    const bare = t('en-US', 'validation.required');
    expect(t('en-US', 'validation.required', { label: 'Name' })).toBe('Please enter Name');
    expect(t('en-US', 'validation.required')).toBe(bare);
  });
});

describe('field labels', () => {
  it('writes every field label as a label (a capital first) in the locales that have case', () => {
    for (const locale of ['en-US', 'id-ID', 'pt-BR'] as const) {
      const lower = Object.entries(dictionaries[locale]).filter(
        ([key, text]) => key.startsWith('field.') && text.charAt(0) !== text.charAt(0).toUpperCase(),
      );
      expect(lower, locale).toEqual([]);
    }
  });

  it('names a field in lower case inside a sentence, keeping abbreviations and scripts without case', () => {
    expect(inSentence('Enterprise name')).toBe('enterprise name');
    expect(inSentence('SMS code')).toBe('SMS code');
    expect(inSentence('Nama perusahaan')).toBe('nama perusahaan');
    expect(inSentence('企业名称')).toBe('企业名称');
    const [issue] = z.safeParse(z.object({ enterpriseName: z.string() }), {}).error!.issues;
    const context = {
      t: (key: MessageKey, vars?: MessageVars) => t('en-US', key, vars),
      hasKey: (key: string): key is MessageKey => key in dictionaries['en-US'],
      input: {},
    };
    expect(localizeIssue(issue!, context).message).toBe('Please enter enterprise name');
  });
});
