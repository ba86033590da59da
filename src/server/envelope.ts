/**
 * Every /api answer is `{ code, message, data }` (DOMAIN.md, API conventions): HTTP 200 for business
 * outcomes, whatever their code; HTTP 404 / 413 / 500 only for transport faults. Services throw
 * `ApiError` (apiError.ts); the app's error handler turns it into an envelope in the caller's locale.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiCode, type ApiEnvelope } from '../lib/apiCodes.ts';
import { defaultLocale, dictionaries, t, type MessageKey, type MessageVars } from '../lib/i18n/index.ts';
import { ApiError } from './apiError.ts';
import { databaseFault, databaseOutage } from './db/errors.ts';
import { ObjectStoreUnavailableError } from './storage/objectStore.ts';
import type { AppEnv } from './types.ts';

/** Any context of this app, whatever its path and the variables its middleware added. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Hono contexts are invariant in their env
export type AnyContext = Context<any>;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(dictionaries[defaultLocale], key);
}

/** The caller's message locale (set by the locale middleware; zh-CN before it ran). */
export function localeOf(c: AnyContext): AppEnv['Variables']['locale'] {
  return (c as Context<AppEnv>).get('locale') ?? defaultLocale;
}

/** Localizes a message key for this request. */
export function message(c: AnyContext, key: MessageKey, vars?: MessageVars): string {
  return t(localeOf(c), key, vars);
}

/** Answers an envelope; `data` null or undefined becomes `{}` (spec §3). */
export function envelope<T>(
  c: AnyContext,
  code: number,
  text: string,
  data?: T | null,
  status: ContentfulStatusCode = 200,
): Response {
  const body: ApiEnvelope<T | Record<string, never>> = { code, message: text, data: data ?? {} };
  return c.json(body, status);
}

/** Success: HTTP 200 `{ code: 200, message, data }`; message defaults to `api.ok`. */
export function ok<T>(c: AnyContext, data?: T | null, messageKey: MessageKey = 'api.ok', vars?: MessageVars): Response {
  return envelope(c, ApiCode.OK, message(c, messageKey, vars), data);
}

/** An ApiError's envelope: its message rendered in the caller's locale (a field's also at the field). */
export function apiErrorResponse(c: AnyContext, error: ApiError): Response {
  const text = error.text ?? message(c, error.key, error.vars);
  const data = error.field === undefined ? error.data : { errors: [{ field: error.field, message: text }] };
  return envelope(c, error.code, text, data);
}

export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** Unknown /api path: HTTP 404 with an envelope. */
export function unknownPath(c: AnyContext): Response {
  return envelope(c, ApiCode.NOT_FOUND, message(c, 'api.unknownPath'), {}, 404);
}

/** Body over the limit: HTTP 413 with an envelope. */
export function bodyTooLarge(c: AnyContext): Response {
  return envelope(c, ApiCode.PAYLOAD_TOO_LARGE, message(c, 'api.bodyTooLarge'), {}, 413);
}

/** The dependency an error says is out of reach (the database, the object store) and why, if any. */
function outageOf(error: unknown): { dependency: 'database' | 'object store'; reason: string } | undefined {
  if (error instanceof ObjectStoreUnavailableError) return { dependency: 'object store', reason: error.message };
  const code = databaseOutage(error);
  return code === undefined ? undefined : { dependency: 'database', reason: code };
}

/**
 * The app's error handler: ApiError → its envelope (HTTP 200); an outage of the database or
 * the object store → 503 `api.busy`; anything else is logged with its
 * stack and answered HTTP 500 with a localized envelope (never the stack) under /api, plain text
 * elsewhere.
 */
export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof ApiError) return apiErrorResponse(c, error);
  if (error instanceof HTTPException && error.status < 500) {
    if (error.status === 413) return bodyTooLarge(c);
    return error.getResponse();
  }
  const log = c.get('log');
  // A dependency that cannot be reached or did not answer in time is an outage, not a crash: the
  // call may succeed later, and one line per request names it (a stack per request says nothing more).
  const outage = outageOf(error);
  if (outage && isApiPath(c.req.path)) {
    log?.warn(
      { dependency: outage.dependency, reason: outage.reason, path: c.req.path },
      `${outage.dependency} unavailable`,
    );
    return envelope(c, ApiCode.SERVICE_UNAVAILABLE, message(c, 'api.busy'), {}, 503);
  }
  // A value the database could not take (the schemas should have refused it) is the caller's to fix;
  // a statement that ran out of time or met a deadlock may succeed later. Either way nothing was
  // written: every write runs in one transaction.
  const fault = databaseFault(error);
  if (fault && isApiPath(c.req.path)) {
    log?.warn({ err: error, path: c.req.path }, fault === 'badValue' ? 'database refused a value' : 'database busy');
    return fault === 'badValue'
      ? envelope(c, ApiCode.BAD_REQUEST, message(c, 'api.badValue'))
      : envelope(c, ApiCode.SERVICE_UNAVAILABLE, message(c, 'api.busy'), {}, 503);
  }
  log?.error({ err: error, path: c.req.path }, 'unhandled error');
  if (isApiPath(c.req.path)) {
    return envelope(c, ApiCode.SERVER_ERROR, message(c, 'api.serverError'), {}, 500);
  }
  return c.text('Internal Server Error', 500);
}
