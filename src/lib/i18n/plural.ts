/**
 * Count messages ("1 row" / "3 rows") use i18next's plural keys: `<key>_one` and `<key>_other`
 * (CLDR categories, chosen by Intl.PluralRules, as i18next does). Every locale carries both, so
 * the dictionaries keep one key set: in zh-CN, zh-TW and id-ID, which have no singular form, the
 * two say the same. Pages and the server pass the base key through `countKey` to `t(…, { count })`
 * and i18next picks the form; islands (no i18next in the browser) get both forms picked and call
 * `formatCount`.
 */
import type { MessageKey, MessageVars } from './index.ts';
import type { Locale } from './locales.ts';

/** The base of a count message: `site.products.setCount` for `site.products.setCount_one`/`_other`. */
export type CountKey = MessageKey extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;

/** The base key as i18next takes it: with `count` among the variables it picks `_one` or `_other`. */
export function countKey(key: CountKey): MessageKey {
  return key as unknown as MessageKey;
}

/** Both forms of a count message, for an island's `pick` list. */
export function countKeys<K extends CountKey>(key: K): [`${K}_one`, `${K}_other`] {
  return [`${key}_one`, `${key}_other`];
}

const rules = new Map<Locale, Intl.PluralRules>();

/**
 * An island's count message: the locale's plural form of `key` among the picked `messages`, with
 * `{count}` written in the locale's digits and the other placeholders filled.
 */
export function formatCount(
  messages: Readonly<Record<string, string>>,
  key: CountKey,
  locale: Locale,
  count: number,
  vars: MessageVars = {},
): string {
  let rule = rules.get(locale);
  if (!rule) {
    rule = new Intl.PluralRules(locale);
    rules.set(locale, rule);
  }
  const message = messages[`${key}_${rule.select(count)}`] ?? messages[`${key}_other`] ?? key;
  const filled: MessageVars = { ...vars, count: new Intl.NumberFormat(locale).format(count) };
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    filled[name] === undefined ? whole : String(filled[name]),
  );
}
