/**
 * Content in more than one language. Content is written in zh-CN; an object that holds text a
 * visitor reads (a product, a set's plan, a banner, a help document…) may carry `translations`:
 * per locale, the same fields in that language, each optional, so a translator can do the title
 * today and the body tomorrow. The studio edits them beside the Chinese original.
 *
 * `localizeValue` gives a page (or an API answer) the content of its locale: every translated
 * field replaces its Chinese original, every other one stays Chinese and is remembered as such,
 * so the page can mark it `lang="zh-CN"` and show that it is not translated yet (`contentLang`).
 *
 * Pure (no Node, no Astro): the build, the server and the studio's islands share it.
 */
import { z } from 'zod/mini';
import { tagLocalized, unwrap } from './dependencies.ts';
import { defOf, wrappedSchema } from './schemaDefs.ts';

/** The locales a translation may be written in: every interface locale but the content's own (zh-CN). */
export const translationLocales = ['en-US', 'zh-TW', 'id-ID', 'pt-BR'] as const;
export type TranslationLocale = (typeof translationLocales)[number];
/** The language content is written in. */
export const contentSourceLocale = 'zh-CN';

/** The key of an object's translations. */
export const translationsKey = 'translations';

/**
 * The `translations` field of an object whose `fields` a visitor reads: per locale, any of those
 * fields, each checked by the schema given for it (schemas.ts gives short texts twice the Chinese
 * limit: alphabetic languages need about twice the characters for the same words).
 */
export function translationsOf<F extends Record<string, z.ZodMiniType>>(fields: F) {
  const perLocale = z.strictObject(
    Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, z.optional(schema)])) as {
      [K in keyof F]: z.ZodMiniOptional<F[K]>;
    },
  );
  return z.optional(
    z.strictObject(
      Object.fromEntries(translationLocales.map((locale) => [locale, z.optional(perLocale)])) as Record<
        TranslationLocale,
        z.ZodMiniOptional<typeof perLocale>
      >,
    ),
  );
}

/** Per localized object, which of its fields fell back to the Chinese original. */
const fellBack = new WeakMap<object, ReadonlySet<string>>();

/** The fields an object schema's `translations` may hold (none when it takes no translations). */
export function translatableFields(schema: z.core.$ZodType): readonly string[] {
  let def = defOf(schema);
  while (def.innerType && def.type !== 'object') def = defOf(def.innerType);
  const translations = def.shape?.[translationsKey];
  if (!translations) return [];
  let perLocale: z.core.$ZodType | undefined = defOf(translations).innerType;
  perLocale = perLocale && defOf(perLocale).shape?.[translationLocales[0]];
  perLocale = perLocale && defOf(perLocale).innerType;
  return Object.keys((perLocale && defOf(perLocale).shape) ?? {});
}

/**
 * `value` (parsed by `schema`) in `locale`: in every object that takes translations, the
 * translated fields replace the Chinese ones and the others are remembered as fallen back
 * (`contentLang`); `translations` themselves are dropped. Walks objects, lists, records and
 * wrappers like `mapMarkdownFields`. Copies; the input is not changed. In zh-CN the content is
 * answered as written, without its translations.
 */
export function localizeValue<T>(schema: z.core.$ZodType, value: T, locale: string): T {
  return localize(schema, value, locale) as T;
}

function localize(schema: z.core.$ZodType, value: unknown, locale: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  const def = defOf(schema);
  const wrapped = wrappedSchema(def);
  if (wrapped) return localize(wrapped, value, locale);
  switch (def.type) {
    case 'array':
      return Array.isArray(value) && def.element ? value.map((entry) => localize(def.element!, entry, locale)) : value;
    case 'record':
      return def.valueType
        ? Object.fromEntries(
            Object.entries(value).map(([key, entry]) => [key, localize(def.valueType!, entry, locale)]),
          )
        : value;
    case 'object': {
      if (!def.shape) return value;
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(value)) {
        if (key === translationsKey) continue;
        const field = def.shape[key];
        out[key] = field ? localize(field, entry, locale) : entry;
      }
      const fields = translatableFields(schema);
      if (fields.length && locale !== contentSourceLocale) {
        const own =
          (
            (value as Record<string, unknown>)[translationsKey] as Record<string, Record<string, unknown> | undefined>
          )?.[locale] ?? {};
        const untranslated = new Set<string>();
        for (const field of fields) {
          if (own[field] !== undefined) out[field] = own[field];
          else if (out[field] !== undefined) untranslated.add(field);
        }
        if (untranslated.size) fellBack.set(out, untranslated);
      }
      return tagLocalized(out, value, fields.length > 0 && locale !== contentSourceLocale);
    }
    default:
      return value;
  }
}

/**
 * The language `field` of a localized object is shown in: `'zh-CN'` when it fell back to the
 * Chinese original on a page of another locale (its element gets `lang="zh-CN"`), else undefined
 * (the page's own language). Pass the object the localized content holds, not a copy.
 */
export function contentLang(item: object, field: string): typeof contentSourceLocale | undefined {
  return fellBack.get(unwrap(item))?.has(field) ? contentSourceLocale : undefined;
}

/** `copy`, made from the localized object `item` (a summary, a view), answering `contentLang` like it. */
export function withLangOf<T extends object>(item: object, copy: T): T {
  const untranslated = fellBack.get(unwrap(item));
  if (untranslated) fellBack.set(unwrap(copy), untranslated);
  return copy;
}

/** Whether any of `fields` of a localized object is shown in Chinese on a page of another locale. */
export function isUntranslated(item: object, ...fields: string[]): boolean {
  return fields.some((field) => contentLang(item, field) !== undefined);
}
