/**
 * /api/studio: scheduled publishing (docs/editing-content.md, "定时发布"). Editors and operators,
 * as every studio call; audited like every studio change.
 *
 *   POST schedule {action, paths, runAt}  runAt: China wall clock `YYYY-MM-DDTHH:mm` (UTC+8)
 *   GET  schedules → { upcoming, recent }
 *   POST schedule/cancel {id}
 */
import type { AuditAction } from '../../lib/auditTrail.ts';
import { Hono } from 'hono';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import { studioScheduleBody, studioScheduleCancelBody } from '../../lib/schemas/studio.ts';
import { localeOf, ok, type AnyContext } from '../envelope.ts';
import { requireRole } from '../middleware/session.ts';
import { clientIp } from '../request.ts';
import { writeAudit } from '../services/audit.ts';
import { createScheduleService } from '../studio/schedules.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export function createStudioScheduleRoutes(deps: RouteDeps): Hono<AppEnv> {
  const schedules = createScheduleService({
    db: deps.db,
    jobs: deps.jobs,
    rebuilder: deps.rebuilder,
    logger: deps.logger,
  });
  const routes = new Hono<AppEnv>();
  routes.use('*', requireRole('editor', 'operator'));
  const userId = (c: AnyContext): number => {
    const user = c.get('user') as { id: number } | undefined;
    if (!user) throw new Error('studio route reached without a session');
    return user.id;
  };
  const audit = (c: AnyContext, action: AuditAction, target: string, detail: Record<string, unknown>) =>
    writeAudit(deps.db, { userId: userId(c), action, target, detail, ip: clientIp(c, deps.config) });

  routes.post(
    '/schedule',
    describeCall({ summary: 'Schedule a publication or an unpublication', body: studioScheduleBody }),
    async (c) => {
      const { action, paths, runAt } = await validate(c, studioScheduleBody, 'body');
      const locale = localeOf(c);
      const row = await schedules.create({ action, paths, runAt, userId: userId(c) });
      await audit(c, 'content.schedule', `schedule:${row.id}`, {
        scheduleId: row.id,
        action,
        paths: row.paths,
        runAt: row.runAt.toISOString(),
      });
      return ok(c, await schedules.get(row.id), 'rebuild.scheduled', { at: formatChinaDateTime(row.runAt, locale) });
    },
  );

  routes.get('/schedules', describeCall({ summary: 'Upcoming and recent scheduled publications' }), async (c) =>
    ok(c, await schedules.list()),
  );

  routes.post(
    '/schedule/cancel',
    describeCall({ summary: 'Cancel a scheduled publication', body: studioScheduleCancelBody }),
    async (c) => {
      const { id } = await validate(c, studioScheduleCancelBody, 'body');
      const row = await schedules.cancel(id);
      await audit(c, 'content.scheduleCancel', `schedule:${id}`, {
        scheduleId: id,
        action: row.action,
        paths: row.paths,
        runAt: row.runAt.toISOString(),
      });
      return ok(c, await schedules.get(id), 'rebuild.scheduleCancelled');
    },
  );
  return routes;
}
