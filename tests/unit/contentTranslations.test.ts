/**
 * Content in every locale (src/content/translations.ts, localized.ts): translated fields replace
 * the Chinese ones, the others stay Chinese and say so, the translations never reach a page or an
 * answer, a page reading a translated field depends on the translations, and the schemas accept
 * translations only of the fields a visitor reads.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { tagSource, trackReads } from '../../src/content/dependencies.ts';
import { loadContent } from '../../src/content/load.ts';
import { localizeSiteContent } from '../../src/content/localized.ts';
import { getProduct, getSet, newsSummary, helpCatalogue } from '../../src/content/query.ts';
import { newsFrontSchema, productSchema, type SiteContent } from '../../src/content/schemas.ts';
import {
  contentLang,
  isUntranslated,
  localizeValue,
  translatableFields,
  translationLocales,
  translationsOf,
  withLangOf,
} from '../../src/content/translations.ts';
import { defaultLocale, locales } from '../../src/lib/i18n/locales.ts';

const item = z.strictObject({
  id: z.string(),
  title: z.string(),
  body: z.optional(z.string()),
  parts: z.array(z.strictObject({ label: z.string(), translations: translationsOf({ label: z.string() }) })),
  translations: translationsOf({ title: z.string(), body: z.string() }),
});
const value = {
  id: 'a',
  title: '标题',
  body: '正文',
  parts: [{ label: '第一', translations: { 'en-US': { label: 'First' } } }, { label: '第二' }],
  translations: { 'en-US': { title: 'Title' }, 'pt-BR': { title: 'Título', body: 'Corpo' } },
};

describe('localizing a value', () => {
  it('takes every locale but the content’s own as a translation locale', () => {
    expect([...translationLocales].sort()).toEqual(locales.filter((locale) => locale !== defaultLocale).sort());
  });

  it('replaces translated fields and marks the others as shown in Chinese', () => {
    const english = localizeValue(item, value, 'en-US');
    expect(english.title).toBe('Title');
    expect(english.body).toBe('正文');
    expect(contentLang(english, 'title')).toBeUndefined();
    expect(contentLang(english, 'body')).toBe('zh-CN');
    expect(isUntranslated(english, 'title', 'body')).toBe(true);
    expect(english.parts.map((part) => part.label)).toEqual(['First', '第二']);
    expect(english.parts.map((part) => contentLang(part, 'label'))).toEqual([undefined, 'zh-CN']);
    expect('translations' in english).toBe(false);
    expect(english.parts.some((part) => 'translations' in part)).toBe(false);
  });

  it('answers zh-CN as written, without its translations and with nothing marked', () => {
    const chinese = localizeValue(item, value, 'zh-CN');
    expect(chinese).toEqual({ id: 'a', title: '标题', body: '正文', parts: [{ label: '第一' }, { label: '第二' }] });
    expect(contentLang(chinese, 'title')).toBeUndefined();
  });

  it('marks every field of an object with no translation at all, and no field the object lacks', () => {
    const indonesian = localizeValue(item, { ...value, body: undefined, translations: undefined }, 'id-ID');
    expect(contentLang(indonesian, 'title')).toBe('zh-CN');
    expect(contentLang(indonesian, 'body')).toBeUndefined();
    expect(contentLang(indonesian, 'id')).toBeUndefined();
  });

  it('leaves its input unchanged', () => {
    const before = structuredClone(value);
    localizeValue(item, value, 'pt-BR');
    expect(value).toEqual(before);
  });

  it('keeps the marks on a copy made with withLangOf', () => {
    const english = localizeValue(item, value, 'en-US');
    const { body: _body, ...summary } = english;
    expect(contentLang(summary, 'body')).toBeUndefined();
    expect(contentLang(withLangOf(english, { ...summary }), 'body')).toBe('zh-CN');
  });

  it('reads the translatable fields from the schema', () => {
    expect(translatableFields(item)).toEqual(['title', 'body']);
    expect(translatableFields(productSchema)).toEqual(['name', 'summary', 'description']);
    expect(translatableFields(newsFrontSchema)).toEqual(['title', 'source', 'summary', 'body']);
    expect(translatableFields(z.strictObject({ id: z.string() }))).toEqual([]);
  });
});

describe('translations in the schemas', () => {
  it('accepts a partial translation and refuses a field that takes none, an unknown locale or an empty text', () => {
    const product = { productId: 'id1', name: '固定价格套餐', summary: '摘要', description: '说明', sort: 1 };
    expect(z.safeParse(productSchema, { ...product, translations: { 'en-US': { name: 'Fixed price' } } }).success).toBe(
      true,
    );
    expect(z.safeParse(productSchema, { ...product, translations: { 'en-US': { sort: 2 } } }).success).toBe(false);
    expect(z.safeParse(productSchema, { ...product, translations: { 'fr-FR': { name: 'Prix fixe' } } }).success).toBe(
      false,
    );
    expect(z.safeParse(productSchema, { ...product, translations: { 'en-US': { name: '  ' } } }).success).toBe(false);
  });

  it('gives a translation twice the room of the Chinese text', () => {
    const product = { productId: 'id1', name: '固定价格套餐', summary: '摘要', description: '说明', sort: 1 };
    const withName = (name: string) => ({ ...product, translations: { 'en-US': { name } } });
    expect(z.safeParse(productSchema, withName('x'.repeat(64))).success).toBe(true);
    expect(z.safeParse(productSchema, withName('x'.repeat(65))).success).toBe(false);
  });
});

describe('the demo content in every locale', () => {
  const content = loadContent(path.resolve(import.meta.dirname, '../../src/content'));

  it('translates every product, package, business item, help document and announcement into every locale', () => {
    for (const locale of translationLocales) {
      const localized = localizeSiteContent(content, locale);
      const untranslated = [
        ...localized.products.filter((product) => isUntranslated(product, 'name', 'summary', 'description')),
        ...localized.sets.filter((set) => isUntranslated(set, 'name', 'summary', 'description')),
        ...localized.bizItems.filter((entry) => isUntranslated(entry, 'title', 'summary')),
        ...localized.helpDocuments.filter((doc) => isUntranslated(doc, 'title', 'content')),
        ...localized.customerNotices.filter((notice) => isUntranslated(notice, 'title', 'content')),
        ...localized.regions.flatMap((region) => region.banners.filter((banner) => isUntranslated(banner, 'alt'))),
      ];
      expect(untranslated, locale).toEqual([]);
    }
  });

  it('renders a translated Markdown body as sanitized HTML, like the original', () => {
    const english = localizeSiteContent(content, 'en-US');
    const description = getProduct(english, 'id1')?.description ?? '';
    expect(description).toContain('<strong>');
    expect(description).not.toMatch(/\p{Script=Han}/u);
  });

  it('caches one localized content per locale and keeps marks through the query functions', () => {
    expect(localizeSiteContent(content, 'en-US')).toBe(localizeSiteContent(content, 'en-US'));
    const english = localizeSiteContent(content, 'en-US');
    const news = english.news[0]!;
    expect(contentLang(newsSummary(news), 'title')).toBe(contentLang(news, 'title'));
    const section = helpCatalogue(english)[0]!;
    expect(contentLang(section, 'title')).toBeUndefined();
    expect(getSet(english, 'gd-fixed-2027')?.name).not.toMatch(/\p{Script=Han}/u);
  });

  it('records the translations as read when a page reads a field of a localized item', () => {
    const raw = {
      news: [
        tagSource({ newsId: 'n', title: '标题', translations: { 'en-US': { title: 'Title' } } }, 'news/n.md'),
        tagSource({ newsId: 'm', title: '另一条', translations: { 'pt-BR': { title: 'Outra' } } }, 'news/m.md'),
      ],
    };
    const english = localizeSiteContent(raw as unknown as SiteContent, 'en-US');
    const keys = new Set<string>();
    const tracked = trackReads(english, () => (key) => keys.add(key));
    expect(tracked.news[0]?.title).toBe('Title');
    expect(keys).toContain('news/n.md#title');
    expect(keys).toContain('news/n.md#translations');
    // The marks are found through the recording proxy a build's pages read.
    expect(contentLang(tracked.news[1]!, 'title')).toBe('zh-CN');
    expect(contentLang(withLangOf(tracked.news[1]!, { ...tracked.news[1]! }), 'title')).toBe('zh-CN');
  });
});
