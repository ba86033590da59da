/**
 * The envelope every API call answers with, and its codes (DOMAIN.md, "API conventions").
 * Business outcomes travel with HTTP 200 and one of these codes; HTTP error statuses are kept for
 * transport faults (unknown path 404, body too large 413, crash 500).
 * Shared by the server and the browser client: no server imports here.
 */
export const ApiCode = {
  OK: 200,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  /** An outside service the call depends on (SMS gateway, bank) failed or timed out; nothing changed. */
  UPSTREAM_UNAVAILABLE: 503,
  /** Transport-level codes, also sent with the matching HTTP status. */
  PAYLOAD_TOO_LARGE: 413,
  SERVER_ERROR: 500,
  /** The call ran out of its time budget, or the database was too busy to answer it in time. */
  SERVICE_UNAVAILABLE: 503,
  /** Session missing or expired: the client sends the user to the login page. */
  SESSION_EXPIRED: 901,
} as const;

export type ApiCodeName = keyof typeof ApiCode;
export type ApiCodeValue = (typeof ApiCode)[ApiCodeName];

export const OK = ApiCode.OK;
export const BAD_REQUEST = ApiCode.BAD_REQUEST;
export const FORBIDDEN = ApiCode.FORBIDDEN;
export const NOT_FOUND = ApiCode.NOT_FOUND;
export const CONFLICT = ApiCode.CONFLICT;
export const TOO_MANY_REQUESTS = ApiCode.TOO_MANY_REQUESTS;
export const SESSION_EXPIRED = ApiCode.SESSION_EXPIRED;

/** `{ code, message, data }`; `data` is `{}` when a call has nothing to return. */
export interface ApiEnvelope<T = Record<string, never>> {
  code: number;
  message: string;
  data: T;
}

/** One rejected field of a validation failure (code 400), listed in `data.errors`. */
export interface FieldError {
  field: string;
  message: string;
}

export interface ValidationErrorData {
  errors: FieldError[];
}

/** Name of the session cookie (HttpOnly; the browser code never reads it, only tests and docs). */
export const sessionCookieName = 'hgd_sid';

/**
 * Name of the signed-in hint cookie: set and cleared by the server together with the session
 * cookie, but readable by script and holding no secret (`account` or `mobile`, how the session
 * began), so every tab's header knows before any call that the browser has a session
 * (src/stores/loginStatus.ts). The server still decides: a stale hint ends at the first 901.
 */
export const signedInHintCookieName = 'hgd_signed_in';
