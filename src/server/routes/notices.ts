/**
 * /api/notices: the logged-in user's notices (spec §7; DOMAIN.md, Notice) — the list the notice
 * bell shows, the counts, mark one read, clear one type. 901 without a session.
 */
import { Hono } from 'hono';
import { noticeClearBody, noticeReadBody, noticesQuery } from '../../lib/schemas/account.ts';
import { localeOf, ok } from '../envelope.ts';
import { requireSession } from '../middleware/session.ts';
import { clearNoticeType, countNotices, listNotices, markNoticeRead } from '../services/notices.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createNoticeRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db } = deps;
  const routes = new Hono<AppEnv>();

  /** An array (the store's `loadNotices` reads it as it is), newest first. */
  routes.get(
    '/',
    describeCall({ summary: "The caller's notices, newest first", query: noticesQuery }),
    requireSession,
    async (c) => {
      const { type } = await validate(c, noticesQuery, 'query');
      return ok(c, await listNotices(db, c.var.user.id, { ...(type ? { type } : {}), locale: localeOf(c) }));
    },
  );

  routes.get('/counts', describeCall({ summary: 'Unread notices per type' }), requireSession, async (c) =>
    ok(c, await countNotices(db, c.var.user.id)),
  );

  routes.post(
    '/read',
    describeCall({ summary: 'Mark one notice read', body: noticeReadBody }),
    requireSession,
    async (c) => {
      const { id } = await validate(c, noticeReadBody, 'body');
      await markNoticeRead(db, c.var.user.id, id);
      return ok(c, await countNotices(db, c.var.user.id), 'auth.noticeRead');
    },
  );

  routes.post(
    '/clear',
    describeCall({ summary: 'Clear the notices of one type', body: noticeClearBody }),
    requireSession,
    async (c) => {
      const { type } = await validate(c, noticeClearBody, 'body');
      await clearNoticeType(db, c.var.user.id, type);
      return ok(c, await countNotices(db, c.var.user.id), 'auth.noticesCleared');
    },
  );

  return routes;
}
