/**
 * The job queue (src/server/jobs/queue.ts) on the test database — PGlite, and PostgreSQL when the
 * suite runs there (CI does both): its tables made once and its settings brought up to date by
 * every later start (also by two workers starting together on a new database), jobs run by a
 * worker, deferred jobs waiting for their time and cancellable, and a job sent by one process
 * taken at once by another's idle worker.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createJobQueue, scheduleQueue, siteBuildQueue, type JobQueue } from '../../src/server/jobs/queue.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(() => createTestApp());
const logger = createLogger({ logLevel: 'silent' });
const queues: JobQueue[] = [];
const queue = (options: Partial<Parameters<typeof createJobQueue>[0]> = {}) => {
  const made = createJobQueue({ db: t.db, logger, expireSeconds: 600, ...options });
  queues.push(made);
  return made;
};

afterAll(async () => {
  for (const made of queues) await made.stop();
});

describe('the job queue', () => {
  it('starts in two workers at once on a database without its tables: one creates them, the other waits and goes on', async () => {
    // A race: three rounds make a lost one likely (before the fix, a round failed about one time in three).
    for (let round = 0; round < 3; round += 1) {
      await t.db.execute(sql`drop schema if exists pgboss cascade`);
      const [one, two] = [queue(), queue()];
      const ran: unknown[] = [];
      await two.work<{ n: number }>(siteBuildQueue, async (job) => void ran.push(job.data));
      await Promise.all([one.start(), two.start()]);
      // Each queue's connections still work: the one whose schema script lost the race sends and runs a job.
      for (const [n, jobs] of [one, two].entries()) await jobs.send(siteBuildQueue, { n });
      for (let i = 0; i < 200 && ran.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ran, `round ${round}`).toHaveLength(2);
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  it('starts again on a database that has it (the settings are updated), and a worker runs what is sent', async () => {
    const first = queue();
    await first.start();
    await first.stop();
    const again = queue();
    const ran: unknown[] = [];
    await again.work<{ n: number }>(siteBuildQueue, async (job) => void ran.push(job.data));
    await again.start();
    const id = await again.send(siteBuildQueue, { n: 1 });
    for (let i = 0; i < 100 && ran.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toEqual([{ n: 1 }]);
    for (let i = 0; i < 50 && (await again.job(siteBuildQueue, id))?.state !== 'completed'; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await again.job(siteBuildQueue, id))?.state).toBe('completed');
  });

  it('keeps a deferred job until its time, and a cancelled one never runs', async () => {
    const jobs = queue();
    const ran: unknown[] = [];
    await jobs.work<{ n: number }>(scheduleQueue, async (job) => void ran.push(job.data));
    const later = new Date(Date.now() + 3_600_000);
    const id = await jobs.send(scheduleQueue, { n: 2 }, { startAfter: later });
    const job = await jobs.job(scheduleQueue, id);
    expect(job?.state).toBe('created');
    expect(job?.startAfter.getTime()).toBe(later.getTime());
    await jobs.cancel(scheduleQueue, id);
    expect((await jobs.job(scheduleQueue, id))?.state).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(ran).toEqual([]);
  });

  it('wakes another process’s idle worker when a job is sent, instead of waiting for its poll', async () => {
    // The worker polls every 30 s here: only the notification can bring the job within seconds.
    const worker = queue({ handle: t.handle, pollSeconds: 30 });
    const ran: number[] = [];
    await worker.work<{ n: number }>(siteBuildQueue, async () => void ran.push(Date.now()));
    await worker.start();
    // Past the worker's first fetch, which finds nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sender = queue();
    const sentAt = Date.now();
    await sender.send(siteBuildQueue, { n: 3 });
    for (let i = 0; i < 200 && ran.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(ran).toHaveLength(1);
    expect(ran[0]! - sentAt).toBeLessThan(5_000);
  });
});
