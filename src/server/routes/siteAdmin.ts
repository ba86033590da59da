/**
 * /api/admin/site/*: the editors' rebuild (docs/editing-content.md).
 *
 *   POST /rebuild   queues a rebuild, publishing every pending draft of the editors' studio → the
 *                   new `site_builds` row (status running); `full=1` builds every page (else only
 *                   the pages the changes touch, when it can); 409 `rebuild.running` while one runs
 *   GET  /rebuild   the latest rebuild (status, times, pages, why it failed), `{}` before the first
 *   GET  /builds    the recent builds, newest first, and which one is published now
 *   POST /rollback  `buildId`: publish an earlier successful build again, on every API process
 *                   (404 `rebuild.unknownBuild`, 409 `rebuild.buildGone` once no longer kept)
 *
 * All need `Authorization: Bearer $REBUILD_TOKEN`. Without REBUILD_TOKEN the calls do not exist
 * (HTTP 404, as an unknown path), so an unconfigured server offers nothing to guess at. A missing
 * or wrong token answers 403 `rebuild.forbidden`; wrong tokens are rate limited per IP.
 */
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { siteRebuildBody, siteRollbackBody } from '../../lib/schemas/site.ts';
import { bearerToken, tokenMatches } from '../bearerToken.ts';
import { ApiError } from '../apiError.ts';
import { ok, unknownPath } from '../envelope.ts';
import { clientIp } from '../request.ts';
import { hitLimit, peekLimit, type RateRule } from '../services/rateLimit.ts';
import { siteBuildViewSchema } from '../../lib/studio/answers.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

/** Wrong tokens allowed per IP before the calls answer 429 for the rest of the window. */
export const rebuildTokenRule: RateRule = { name: 'rebuild.token.ip', limit: 10, windowSeconds: 15 * 60 };

export function createSiteAdminRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { config, db } = deps;
  const routes = new Hono<AppEnv>();
  const expected = config.rebuildToken;
  if (expected === undefined) {
    routes.all('*', unknownPath);
    return routes;
  }

  const { rebuilder } = deps;

  const requireToken = createMiddleware<AppEnv>(async (c, next) => {
    const subject = clientIp(c, config) ?? 'unknown';
    if ((await peekLimit(db, rebuildTokenRule, subject)) >= rebuildTokenRule.limit) {
      throw ApiError.tooManyRequests();
    }
    if (!tokenMatches(bearerToken(c.req.header('authorization')), expected)) {
      c.get('log').warn({ ip: subject }, 'rebuild call with a missing or wrong token');
      await hitLimit(db, rebuildTokenRule, subject);
      throw ApiError.forbidden('rebuild.forbidden');
    }
    await next();
  });

  routes.use('/rebuild', requireToken);
  routes.use('/builds', requireToken);
  routes.use('/rollback', requireToken);
  routes.post(
    '/rebuild',
    describeCall({
      internal: true,
      summary: 'Queue a rebuild that publishes every pending draft',
      answer: siteBuildViewSchema,
      body: siteRebuildBody,
    }),
    async (c) => {
      const { full } = await validate(c, siteRebuildBody, 'body');
      return ok(c, await rebuilder.start({ purpose: 'publish', full: full === '1' }), 'rebuild.started');
    },
  );
  routes.get('/rebuild', describeCall({ internal: true, summary: 'The latest rebuild' }), async (c) => {
    const latest = await rebuilder.latest();
    return latest ? ok(c, latest) : ok(c, {}, 'rebuild.none');
  });
  routes.get(
    '/builds',
    describeCall({ internal: true, summary: 'The recent builds and the published one' }),
    async (c) => ok(c, await rebuilder.history()),
  );
  routes.post(
    '/rollback',
    describeCall({
      internal: true,
      summary: 'Publish an earlier build again',
      answer: siteBuildViewSchema,
      body: siteRollbackBody,
    }),
    async (c) => {
      const { buildId } = await validate(c, siteRollbackBody, 'body');
      return ok(c, await rebuilder.rollback(buildId), 'rebuild.rolledBack');
    },
  );
  return routes;
}
