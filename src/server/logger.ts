/**
 * The pino logger. Request lines carry method, path, status, duration, request id and user id;
 * secrets never reach a log line: the request logger picks its fields instead of dumping the
 * request, and `redact` removes the usual secret-bearing keys from anything else that is logged.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';

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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
    base: { service: 'hgd-api' },
    redact: { paths: redactPaths, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
