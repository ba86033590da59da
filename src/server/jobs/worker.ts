/**
 * The worker role: the handlers of the queue's jobs. `npm run worker` (src/server/worker.ts) runs
 * it in processes of its own; with SITE_WORKER=embedded the API process runs it too (app.ts).
 */
import type { BuildJobData, BuildRunner } from '../site/buildJob.ts';
import type { ScheduleJobData, ScheduleService } from '../studio/schedules.ts';
import { scheduleQueue, siteBuildQueue, type JobQueue } from './queue.ts';

export interface WorkerRole {
  /** Runs `site-build` jobs. */
  builds: BuildRunner;
  /** Runs `scheduled-publication` jobs (studio/schedules.ts: createScheduleService). */
  schedules: Pick<ScheduleService, 'run'>;
}

/** Registers the role's handlers; they run once the queue has started. */
export async function attachWorker(jobs: JobQueue, role: WorkerRole): Promise<void> {
  await jobs.work<BuildJobData>(siteBuildQueue, (job) => role.builds.runJob(job.data, job));
  await jobs.work<ScheduleJobData>(scheduleQueue, (job) => role.schedules.run(job.data));
}
