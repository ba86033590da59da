/**
 * What the studio's schedule calls answer (GET /api/studio/schedules; docs/editing-content.md,
 * "定时发布"): one definition for the server that writes it (src/server/studio/schedules.ts) and
 * the islands that read it.
 */
import type { ContentKind } from '../../content/paths.ts';
import type { ScheduleAction } from '../schemas/studio.ts';

export type { ScheduleAction } from '../schemas/studio.ts';

/** Waiting for its time · started (its publication under way) · published · did not happen · called off. */
export type ScheduleStatus = 'scheduled' | 'running' | 'done' | 'failed' | 'cancelled';

/**
 * Why a scheduled publication did not happen:
 * - `draftGone`: a draft it was to publish was discarded (or published some other way) meanwhile;
 * - `hasDraft`: an item it was to take off the site has an unpublished change now (not dropped unseen);
 * - `contentInvalid`: the content check refused the publication (`detail`: where and why);
 * - `buildFailed`: its publication's build failed (`detail`: the build's error);
 * - `jobFailed`: the job queue gave up on it (another build kept running, or its worker stopped);
 * - `jobLost`: its job is no longer in the queue.
 */
export const scheduleFailureReasons = [
  'draftGone',
  'hasDraft',
  'contentInvalid',
  'buildFailed',
  'jobFailed',
  'jobLost',
] as const;
export type ScheduleFailureReason = (typeof scheduleFailureReasons)[number];

export interface ScheduleFailure {
  reason: ScheduleFailureReason;
  /** The items concerned (`draftGone`, `hasDraft`). */
  paths: string[];
  /** The technical detail (the content check's or the build's words), '' when none. */
  detail: string;
}

export interface ScheduleView {
  id: number;
  action: ScheduleAction;
  items: { path: string; title: string; kind: ContentKind | null }[];
  /** When it runs (an instant; shown in China time). */
  runAt: string;
  status: ScheduleStatus;
  /** The editor who scheduled it. */
  createdBy: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The publication it started (site_builds), and that build's state. */
  buildId: number | null;
  buildStatus: 'running' | 'succeeded' | 'failed' | null;
  failure: ScheduleFailure | null;
}

export interface ScheduleList {
  /** Waiting or under way, soonest first. */
  upcoming: ScheduleView[];
  /** Done, failed or cancelled in the last 30 days, latest first. */
  recent: ScheduleView[];
}
