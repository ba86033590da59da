/**
 * /api/studio: scheduled publishing (docs/editing-content.md, "定时发布"), mounted by the studio's
 * routes (routes/studio.ts) behind their role check, audited like every studio change.
 *
 *   POST schedule {action, paths, runAt}  runAt: China wall clock `YYYY-MM-DDTHH:mm` (UTC+8)
 *   GET  schedules → { upcoming, recent }
 *   POST schedule/cancel {id}
 */
import type { Hono } from 'hono';
import { formatChinaDateTime } from '../../lib/chinaTime.ts';
import { studioScheduleBody, studioScheduleCancelBody } from '../../lib/schemas/studio.ts';
import { localeOf, ok, type AnyContext } from '../envelope.ts';
import { createScheduleService } from '../studio/schedules.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

export interface StudioRouteHelpers {
  /** The signed-in editor's id. */
  userId(c: AnyContext): number;
  /** Writes the studio's audit entry (who, when, what). */
  audit(c: AnyContext, action: string, target: string | null, detail?: Record<string, unknown>): Promise<void>;
}

export function mountScheduleRoutes(routes: Hono<AppEnv>, deps: RouteDeps, { userId, audit }: StudioRouteHelpers): void {
  const schedules = createScheduleService({ db: deps.db, jobs: deps.jobs, rebuilder: deps.rebuilder, logger: deps.logger });

  routes.post('/schedule', async (c) => {
    const { action, paths, runAt } = await validate(c, studioScheduleBody, 'body');
    const locale = localeOf(c);
    const row = await schedules.create({ action, paths, runAt, userId: userId(c), locale });
    await audit(c, 'content.schedule', `schedule:${row.id}`, { scheduleId: row.id, action, paths: row.paths, runAt: row.runAt.toISOString() });
    return ok(c, await schedules.get(row.id), 'rebuild.scheduled', { at: formatChinaDateTime(row.runAt, locale) });
  });

  routes.get('/schedules', async (c) => ok(c, await schedules.list()));

  routes.post('/schedule/cancel', async (c) => {
    const { id } = await validate(c, studioScheduleCancelBody, 'body');
    const row = await schedules.cancel(id);
    await audit(c, 'content.scheduleCancel', `schedule:${id}`, { scheduleId: id, action: row.action, paths: row.paths, runAt: row.runAt.toISOString() });
    return ok(c, await schedules.get(id), 'rebuild.scheduleCancelled');
  });
}
