/**
 * The business outcome other than success that services and handlers throw: a code and a message
 * key with its values, never a rendered text. The envelope (envelope.ts) renders the key in the
 * caller's locale when it answers, so a service throws without the request, its locale or the
 * envelope — and this module imports nothing of the server, which keeps the services below it.
 */
import { ApiCode } from '../lib/apiCodes.ts';
import type { MessageKey, MessageVars } from '../lib/i18n/index.ts';

/**
 * `key` names the message in the dictionaries (localized when answered); `text` carries a message
 * that is already localized (validation builds its own from zod's issues); `field` names the form
 * field a 400 is about, answered in validation's shape (`data.errors`) so the form shows it there.
 * @example throw new ApiError(ApiCode.NOT_FOUND, 'area.unknown')
 */
export class ApiError extends Error {
  readonly code: number;
  readonly key: MessageKey;
  readonly vars: MessageVars | undefined;
  readonly data: unknown;
  readonly text: string | undefined;
  readonly field: string | undefined;

  constructor(code: number, key: MessageKey, vars?: MessageVars, data?: unknown, text?: string, field?: string) {
    super(text ?? key);
    this.name = 'ApiError';
    this.code = code;
    this.key = key;
    this.vars = vars;
    this.data = data;
    this.text = text;
    this.field = field;
  }

  static badRequest(key: MessageKey = 'validation.default', vars?: MessageVars): ApiError {
    return new ApiError(ApiCode.BAD_REQUEST, key, vars);
  }
  /** A 400 about one form field: the envelope answers `data.errors: [{ field, message }]`. */
  static field(field: string, key: MessageKey, vars?: MessageVars): ApiError {
    return new ApiError(ApiCode.BAD_REQUEST, key, vars, undefined, undefined, field);
  }
  static forbidden(key: MessageKey = 'api.forbidden'): ApiError {
    return new ApiError(ApiCode.FORBIDDEN, key);
  }
  static notFound(key: MessageKey = 'api.notFound', vars?: MessageVars): ApiError {
    return new ApiError(ApiCode.NOT_FOUND, key, vars);
  }
  static conflict(key: MessageKey = 'api.conflict', vars?: MessageVars): ApiError {
    return new ApiError(ApiCode.CONFLICT, key, vars);
  }
  static tooManyRequests(key: MessageKey = 'api.tooManyRequests', vars?: MessageVars): ApiError {
    return new ApiError(ApiCode.TOO_MANY_REQUESTS, key, vars);
  }
  static upstreamUnavailable(key: MessageKey, vars?: MessageVars): ApiError {
    return new ApiError(ApiCode.UPSTREAM_UNAVAILABLE, key, vars);
  }
  static sessionExpired(): ApiError {
    return new ApiError(ApiCode.SESSION_EXPIRED, 'api.sessionExpired');
  }
}
