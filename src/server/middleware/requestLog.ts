/**
 * Request id (`X-Request-Id`, kept from the client when well-formed, else generated) and one log
 * line per request: method, path, status, duration, request id, user id. Picked fields only —
 * never headers, cookies or bodies. Query values are never logged; under /api/front/system/*
 * (phones, SMS codes, captchas) not even the parameter names.
 */
import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { LogFn } from 'pino';
import type { Logger } from '../logger.ts';
import type { AppEnv, RequestLogger } from '../types.ts';
import { setAnswerHeader } from './answerHeader.ts';

const incomingId = /^[A-Za-z0-9._:-]{8,128}$/;

/** What the log may say about the query string of a URL. */
export function loggableQuery(url: string, pathname: string): string[] | undefined {
  if (pathname.startsWith('/api/front/system/')) return undefined;
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  const names = new URLSearchParams(url.slice(start + 1)).keys();
  return [...new Set(names)].slice(0, 20);
}

/**
 * The request's logger: pino's child carrying the request id, made when the request first logs
 * (most never do beyond their request line; a child costs ~5 µs, a tenth of a session-checked read's).
 */
export function requestLogger(logger: Logger, reqId: string): RequestLogger {
  let child: Logger | undefined;
  const level =
    (name: 'debug' | 'info' | 'warn' | 'error'): LogFn =>
    (...args: Parameters<LogFn>) => {
      child ??= logger.child({ reqId });
      child[name](...args);
    };
  return { debug: level('debug'), info: level('info'), warn: level('warn'), error: level('error') };
}

export function requestLog(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const requestId = given && incomingId.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.set('log', requestLogger(logger, requestId));
    c.set('session', null);
    c.set('user', null);
    try {
      await next();
    } finally {
      setAnswerHeader(c, 'X-Request-Id', requestId);
      const path = c.req.path;
      const status = c.res.status;
      const line = {
        reqId: requestId,
        method: c.req.method,
        path,
        query: loggableQuery(c.req.url, path),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        userId: c.get('user')?.id,
      };
      // Static files that went fine are routine: debug, so production logs stay about the API.
      const routine = !path.startsWith('/api/') && status < 400;
      if (status >= 500) logger.error(line, 'request');
      else if (routine) logger.debug(line, 'request');
      else logger.info(line, 'request');
    }
  });
}
