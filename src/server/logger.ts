/**
 * The pino logger. Request lines carry method, path, status, duration, request id and user id;
 * no request value reaches a log line: the request logger picks its fields instead of dumping the
 * request, `redact` removes the usual secret-bearing keys from anything else that is logged, and
 * errors are written by `safeError`, which keeps what names a fault (type, SQLSTATE, the failed
 * statement's text with its `$n` placeholders, stack frames) and drops what quotes values (a query's
 * parameters, a database message or detail, quoted parts of any other message).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { databaseOutage, describeDatabaseError, sqlStateOf } from './db/errors.ts';
import { ObjectStoreUnavailableError } from './storage/objectStore.ts';

export type { Logger } from 'pino';

/** Keys that must never appear in a log line, at the top level or one level down. */
export const redactedKeys = [
  'cookie',
  'authorization',
  'password',
  'oldPassword',
  'newPassword',
  'passwordHash',
  'code',
  'smsCode',
  'captcha',
  'token',
  'sessionId',
  'sid',
  'phone',
  'mobile',
] as const;

export const redactPaths = [
  ...redactedKeys,
  ...redactedKeys.map((key) => `*.${key}`),
  'req.headers.cookie',
  'req.headers.authorization',
  'headers.cookie',
  'headers.authorization',
  'res.headers["set-cookie"]',
];

/**
 * Quoted parts of a message ("…", '…', `…`), long digit runs and non-ASCII text: where engines put
 * the values they choke on, and what a typed phone, name or address looks like.
 */
const valueLike = /"[^"]*"|'[^']*'|`[^`]*`|\d{4,}|[^\x00-\x7F]+/g;

function stackFrames(stack: string | undefined): string | undefined {
  // The stack's first line repeats the message; only the frames say where, and they hold no values.
  const frames = stack
    ?.split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 20);
  return frames?.length ? frames.join('\n') : undefined;
}

/**
 * An error as a log line may carry it (the `err` serializer). A database error keeps its SQLSTATE
 * and the names of the objects involved; drizzle's query error keeps its statement text (values
 * are bound parameters, never in the text) but not `params`; any other error keeps its message
 * with quoted parts and long numbers masked. Causes follow, three deep.
 */
export function safeError(value: unknown, depth = 0): Record<string, unknown> {
  if (!(value instanceof Error)) return { type: value === null ? 'null' : typeof value };
  // An outage is named by its code: a stack on every failed call or heartbeat says nothing more.
  const outage = depth === 0 ? databaseOutage(value) : undefined;
  if (outage !== undefined) return { type: value.name, outage: 'database', code: outage };
  if (depth === 0 && value instanceof ObjectStoreUnavailableError)
    return { type: value.name, outage: 'object store', message: value.message.slice(0, 300) };
  const error = value as Error & { code?: unknown; query?: unknown; params?: unknown };
  const described: Record<string, unknown> = { type: error.name };
  if (sqlStateOf(error) !== undefined && sqlStateOf(error) === error.code) {
    Object.assign(described, describeDatabaseError(error));
  } else if ('params' in error && typeof error.query === 'string') {
    described['query'] = error.query.slice(0, 1000);
  } else {
    described['message'] = error.message.replace(valueLike, '…').slice(0, 300);
    if (typeof error.code === 'string') described['code'] = error.code;
  }
  described['stack'] = stackFrames(error.stack);
  if (error.cause !== undefined && depth < 3) described['cause'] = safeError(error.cause, depth + 1);
  return described;
}

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'hgd-api' },
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: { err: (error: unknown) => safeError(error) },
  };
  return destination ? pino(options, destination) : pino(options);
}
