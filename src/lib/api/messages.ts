/**
 * The few interface texts the request client and the notifications need, in the page's locale.
 *
 * Nothing here imports a dictionary up front: each locale's JSON is a separate dynamic import,
 * so a page only downloads its own locale's dictionary, and only the first time a message has to
 * be shown. i18next is not used in the browser — `format` below fills `{name}` placeholders.
 */
import { defaultLocale, isLocale, matchLocale, type Locale } from '../i18n/locales.ts';
import type { CoreMessageKey as MessageKey } from '../i18n/index.ts';

export type Messages = Readonly<Record<MessageKey, string>>;
export type MessageVars = Readonly<Record<string, string | number>>;

/** One dynamic import per locale: the bundler emits one chunk each, loaded on demand. */
const loaders: Record<Locale, () => Promise<Messages>> = {
  'zh-CN': () => import('../i18n/messages/core/zh-CN.json').then((m) => m.default),
  'en-US': () => import('../i18n/messages/core/en-US.json').then((m) => m.default),
  'zh-TW': () => import('../i18n/messages/core/zh-TW.json').then((m) => m.default),
  'id-ID': () => import('../i18n/messages/core/id-ID.json').then((m) => m.default),
  'pt-BR': () => import('../i18n/messages/core/pt-BR.json').then((m) => m.default),
};

/**
 * Used only when the locale's dictionary cannot be loaded (typically: the network is down, so the
 * chunk cannot be fetched either). zh-CN, the default locale; tests/unit/api-messages.test.ts
 * checks these equal zh-CN.json so they cannot drift.
 */
export const fallbackMessages = {
  'request.errorTitle': '请求错误 {status}: {url}',
  'request.noResponse': '请求异常，服务校验失败',
  'request.noResponseTitle': '网络异常',
  'request.timeout': '请求超时（{ms} 毫秒）',
  'request.parseError': '响应内容无法解析',
  'common.close': '关闭',
  'session.secondFactorLink': '前往账户设置',
} as const satisfies Partial<Record<MessageKey, string>>;

const loaded = new Map<Locale, Messages>();
const pending = new Map<Locale, Promise<Messages | undefined>>();

/** The page's locale: `<html lang>` when it names (or maps to) a supported locale, else zh-CN. */
export function pageLocale(): Locale {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  if (isLocale(lang)) return lang;
  return matchLocale(lang) ?? defaultLocale;
}

/** Loads one locale's dictionary once; resolves undefined when it cannot be loaded. */
export function loadMessages(locale: Locale = pageLocale()): Promise<Messages | undefined> {
  const ready = loaded.get(locale);
  if (ready) return Promise.resolve(ready);
  let promise = pending.get(locale);
  if (!promise) {
    promise = loaders[locale]().then(
      (messages) => {
        loaded.set(locale, messages);
        pending.delete(locale);
        return messages;
      },
      () => {
        // Let a later call try again (the chunk may load once the network is back).
        pending.delete(locale);
        return undefined;
      },
    );
    pending.set(locale, promise);
  }
  return promise;
}

/** The dictionary if it is already loaded (no waiting), else undefined. */
export function loadedMessages(locale: Locale = pageLocale()): Messages | undefined {
  return loaded.get(locale);
}

/** Fills `{name}` placeholders; unknown placeholders are left as they are. */
export function format(message: string, vars: MessageVars = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    return value === undefined ? whole : String(value);
  });
}

/** A dictionary key, or a status-table key built at run time (`http.404`) that may not exist. */
export type TranslateKey = MessageKey | `http.${number}`;
export type Translate = (key: TranslateKey, vars?: MessageVars) => string | undefined;

/**
 * A translator over the loaded dictionary (or the fallback texts). Returns undefined for a key
 * the dictionary lacks, so callers can fall back (e.g. to the response's status text).
 */
export async function translator(locale: Locale = pageLocale()): Promise<Translate> {
  const messages = await loadMessages(locale);
  const table: Readonly<Record<string, string | undefined>> = messages ?? fallbackMessages;
  return (key, vars) => {
    const text = Object.hasOwn(table, key) ? table[key] : undefined;
    return text === undefined ? undefined : format(text, vars);
  };
}
