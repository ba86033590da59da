/**
 * Request id (`X-Request-Id`, kept from the client when well-formed, else generated) and one log
 * line per request: method, path, matched route pattern, status, duration, request id, user id.
 * Picked fields only — never headers, cookies or bodies. Query values are never logged; under
 * /api/front/system/* (phones, SMS codes, captchas) not even the parameter names.
 *
 * The same request is measured (`http_request_duration_seconds`, metrics/instruments.ts) by its
 * route pattern, never its URL, with its request id as the exemplar: a slow bucket leads to its line.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { LogFn } from 'pino';
import { isApiPath, unknownPath } from '../envelope.ts';
import type { Logger } from '../logger.ts';
import type { HttpMetrics } from '../metrics/instruments.ts';
import { metricsPath } from '../metrics/endpoint.ts';
import { isSiteHandler } from '../static.ts';
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

/** The base of the health calls (routes/health.ts), polled by load balancers. */
const healthRoutes = '/api/health';

/** The route of a path no route answers: an unknown /api path (its URL is never a label). */
export const unmatchedRoute = 'unmatched';
/** The route of every file of the published site (and of a page it does not have). */
export const staticRoute = 'static';

/**
 * The pattern of the route that answers a request (`/api/front/user/currentUser`,
 * `/images/uploads/*`), as registered with the sub-app's base: the first matched handler — a
 * middleware takes `next` too, a handler only the context. The same whichever middleware answered
 * first (a CSRF refusal of a known call keeps the call's route).
 */
export function routeOf(c: Context): string {
  for (const route of matchedRoutes(c)) {
    if (route.handler.length >= 2) continue;
    if (route.handler === unknownPath) return unmatchedRoute;
    // The published site's handler is mounted for every path (`/*`), which is not a label.
    return isSiteHandler(route.handler) ? staticRoute : route.path;
  }
  return isApiPath(c.req.path) ? unmatchedRoute : staticRoute;
}

/**
 * The request's logger: pino's child carrying the request id, made when the request first logs
 * (most never do beyond their request line; what a child costs is measured in docs/performance.md).
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

/** `http`: where the app measures requests (none with METRICS_ENABLED=false). */
export function requestLog(logger: Logger, http?: HttpMetrics) {
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
      const route = routeOf(c);
      const ms = performance.now() - started;
      http?.observe(c.req.method, route, status, ms / 1000, requestId);
      const line = {
        reqId: requestId,
        method: c.req.method,
        path,
        route,
        query: loggableQuery(c.req.url, path),
        status,
        ms: Math.round(ms * 10) / 10,
        userId: c.get('user')?.id,
      };
      // Static files that went fine are routine: debug, so production logs stay about the API.
      const routine = !path.startsWith('/api/') && status < 400;
      // A load balancer's health polls and a scraper's /metrics come every few seconds: debug too.
      // A 503 from /api/health/ready is its answer, not a fault (health.ts logs when readiness changes).
      const probe = route.startsWith(healthRoutes) || route === metricsPath;
      if (status >= 500 && !(probe && status === 503)) logger.error(line, 'request');
      else if (routine || probe) logger.debug(line, 'request');
      else logger.info(line, 'request');
    }
  });
}
