/**
 * The locale of messages: the `locale` cookie (the visitor's explicit choice), else
 * Accept-Language, else zh-CN (spec §1).
 */
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { isLocale, localeStorageKey, negotiateLocale, type Locale } from '../../lib/i18n/index.ts';
import type { AnyContext } from '../envelope.ts';
import type { AppEnv } from '../types.ts';

export function requestLocale(c: AnyContext): Locale {
  const chosen = getCookie(c, localeStorageKey);
  if (isLocale(chosen)) return chosen;
  return negotiateLocale(c.req.header('accept-language'));
}

export const localeMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  c.set('locale', requestLocale(c));
  await next();
});
