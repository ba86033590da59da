/**
 * The studio's scheduled-publishing calls (/api/studio/schedule, schedules, schedule/cancel;
 * docs/editing-content.md, "定时发布"), through the project's request client like studio.ts.
 */
import { get, post, type ApiEnvelope } from './index.ts';
import type { ScheduleAction, ScheduleList, ScheduleView } from '../studio/schedules.ts';
import { STUDIO_API } from './studio.ts';

export type {
  ScheduleAction,
  ScheduleFailure,
  ScheduleList,
  ScheduleStatus,
  ScheduleView,
} from '../studio/schedules.ts';

export const loadSchedules = () => get<ScheduleList>(`${STUDIO_API}/schedules`);

/** Schedules `action` on `paths` at `runAt`, a China wall clock (`2026-12-01T09:00`); quiet: the form shows the verdict. */
export const scheduleItems = (
  action: ScheduleAction,
  paths: readonly string[],
  runAt: string,
): Promise<ApiEnvelope<ScheduleView> | undefined> =>
  post<ScheduleView>(`${STUDIO_API}/schedule`, { action, paths: [...paths], runAt }, { json: true, quiet: true });

export const cancelSchedule = (id: number): Promise<ApiEnvelope<ScheduleView> | undefined> =>
  post<ScheduleView>(`${STUDIO_API}/schedule/cancel`, { id }, { json: true, quiet: true });
