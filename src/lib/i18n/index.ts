/**
 * Interface strings: flat JSON dictionaries per feature and locale, read through i18next.
 * zh-CN is the reference shape: a key missing there is a type error everywhere, and
 * tests/unit/i18n.test.ts fails when any locale misses a key another has.
 * Used at build time (pages) and by the server; islands get only the messages they need
 * as props (see `pick`), so no dictionary is shipped to the browser whole.
 */
import i18next, { type TOptions } from 'i18next';
import core from './messages/core/index.ts';
import sms from './messages/sms/index.ts';
import auth from './messages/auth/index.ts';
import account from './messages/account/index.ts';
import rebuild from './messages/rebuild/index.ts';
import content from './messages/content/index.ts';
import site from './messages/site/index.ts';
import table from './messages/table/index.ts';
import enterprise from './messages/enterprise/index.ts';
import order from './messages/order/index.ts';
import ordering from './messages/ordering/index.ts';
import ops from './messages/ops/index.ts';
import certify from './messages/certify/index.ts';
import partner from './messages/partner/index.ts';
import settlement from './messages/settlement/index.ts';
import analysis from './messages/analysis/index.ts';
import studio from './messages/studio/index.ts';
import audit from './messages/audit/index.ts';
import { defaultLocale, locales, type Locale } from './locales.ts';

export * from './locales.ts';

/**
 * One namespace per feature (`messages/<namespace>/<locale>.json` + an index.ts beside them),
 * merged into one flat dictionary per locale. Keys carry their namespace as a prefix
 * (`login.title`), so namespaces never collide. A new namespace: one import, one entry here.
 */
const namespaces = [
  core,
  sms,
  auth,
  account,
  site,
  content,
  rebuild,
  order,
  enterprise,
  table,
  ordering,
  ops,
  certify,
  partner,
  settlement,
  analysis,
  studio,
  audit,
] as const;

type Namespace = (typeof namespaces)[number];
type KeysOf<N> = N extends { 'zh-CN': infer D } ? keyof D : never;
export type MessageKey = KeysOf<Namespace>;
/** Site-wide keys only: what the request client loads in the browser (src/lib/api/messages.ts). */
export type CoreMessageKey = KeysOf<typeof core>;
export type Messages = Record<MessageKey, string>;
export type MessageVars = Record<string, string | number>;

export const dictionaries = Object.fromEntries(
  locales.map((locale) => [locale, Object.assign({}, ...namespaces.map((namespace) => namespace[locale])) as Messages]),
) as Record<Locale, Messages>;

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(Object.entries(dictionaries).map(([locale, translation]) => [locale, { translation }])),
  lng: defaultLocale,
  fallbackLng: defaultLocale,
  // Keys are flat strings with dots in them, not nested paths.
  keySeparator: false,
  nsSeparator: false,
  // `{label}` placeholders, as in the spec's validation messages; output is escaped by the renderer.
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  initAsync: false,
});

/** Translates one key for one locale, filling `{name}` placeholders from `vars`. */
export function t(locale: Locale, key: MessageKey, vars?: MessageVars): string {
  if (vars) return i18n.t(key, { lng: locale, ...vars } as TOptions);
  // Without values a message never changes: kept per locale (every API answer says `api.ok`).
  const known = plainMessages[locale];
  let text = known.get(key);
  if (text === undefined) {
    text = i18n.t(key, { lng: locale } as TOptions);
    known.set(key, text);
  }
  return text;
}

const plainMessages = Object.fromEntries(locales.map((locale) => [locale, new Map<MessageKey, string>()])) as Record<
  Locale,
  Map<MessageKey, string>
>;

/** A translator bound to one locale, for pages and request handlers. */
export function translator(locale: Locale): (key: MessageKey, vars?: MessageVars) => string {
  return (key, vars) => t(locale, key, vars);
}

/** The subset of one locale's messages an island needs, passed to it as a prop. */
export function pick<K extends MessageKey>(locale: Locale, keys: readonly K[]): Record<K, string> {
  const dictionary = dictionaries[locale];
  return Object.fromEntries(keys.map((key) => [key, dictionary[key]])) as Record<K, string>;
}

/** Fills `{name}` placeholders in an already-picked message (used by islands, without i18next). */
export function format(message: string, vars: MessageVars = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
