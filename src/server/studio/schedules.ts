/**
 * Scheduled publishing (docs/editing-content.md, "定时发布"): an editor chooses a time to publish
 * chosen drafts, or to take chosen published items off the site; a job on the queue
 * (`scheduled-publication`, jobs/queue.ts, deferred with `startAfter`) runs it then.
 *
 *   create  checks the items now (publish: each has a draft or a pending deletion and the content
 *           check passes; unpublish: each is on the site with no pending change), then sends the
 *           job and records the row with its job id: the row's id is reserved first and the job
 *           carries it, so there is never a row without a job; a job whose row was never written
 *           (the process stopped in between) finds no row and does nothing
 *   run     at the time (the worker): publish → a publication of exactly those drafts as they are
 *           then; unpublish → the items marked for deletion by the scheduling editor, then a
 *           publication of exactly those. A discarded draft, or an unpublished change on an item
 *           to remove, fails the schedule with the reason and changes nothing. Another build
 *           running: the marks are taken back and the job throws, so the queue tries again
 *   cancel  only while it waits (409 once started or over); the row first (the run checks it), then the job
 *   list    upcoming and recent; rows are brought up to date as they are read: a started one
 *           becomes done or failed with its publication's build, one whose job the queue gave up
 *           on becomes failed with the queue's reason
 */
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { kindOfPath, titleOf, type ContentKind } from '../../content/paths.ts';
import { ApiCode } from '../../lib/apiCodes.ts';
import type { ScheduleAction } from '../../lib/schemas/studio.ts';
import {
  scheduleFailureReasons,
  type ScheduleFailure,
  type ScheduleFailureReason,
  type ScheduleList,
  type ScheduleView,
} from '../../lib/studio/schedules.ts';
import { rowsOf, type Database } from '../db/client.ts';
import {
  contentItems,
  scheduledPublications,
  siteBuilds,
  type ContentItemRow,
  type ScheduledPublicationRow,
  type ScheduleStatus,
} from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { scheduleQueue, type JobQueue } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import { writeAudit } from '../services/audit.ts';
import { reasonOf } from '../site/buildJob.ts';
import type { SiteRebuilder } from '../site/rebuild.ts';
import { deletionMark, stateOf, userNames } from './contentRepo.ts';
import { buildAuditActions, checkContent } from './views.ts';

/** What a `scheduled-publication` job carries. */
export interface ScheduleJobData {
  scheduleId: number;
}

export interface ScheduleOrder {
  action: ScheduleAction;
  paths: readonly string[];
  runAt: Date;
  userId: number;
}

export interface ScheduleService {
  /** Records a schedule and its job (400 at `paths` when an item is not in the state the action needs). */
  create(order: ScheduleOrder): Promise<ScheduledPublicationRow>;
  list(): Promise<ScheduleList>;
  /** One schedule as the list shows it (404 unknown). */
  get(id: number): Promise<ScheduleView>;
  /** Calls off a waiting schedule (404 unknown, 409 started or over). */
  cancel(id: number): Promise<ScheduledPublicationRow>;
  /** The job's handler: runs the schedule now. Throws to have the queue try again (another build is running). */
  run(data: ScheduleJobData): Promise<void>;
}

export interface ScheduleServiceOptions {
  db: Database;
  jobs: JobQueue;
  rebuilder: Pick<SiteRebuilder, 'start' | 'get'>;
  logger: Logger;
}

/** How long finished schedules stay in the list. */
const recentDays = 30;
const listLimit = 200;

/** A schedule that did not happen, with its reason (stored in `error` as `<reason>: <detail>`). */
class ScheduleFailed extends Error {
  readonly reason: ScheduleFailureReason;
  readonly detail: string;

  constructor(reason: ScheduleFailureReason, detail: string) {
    super(`${reason}: ${detail}`);
    this.name = 'ScheduleFailed';
    this.reason = reason;
    this.detail = detail;
  }
}

/** The `error` column of a failed schedule: `<reason>: <detail>` (paths joined by ", "), readable in the database too. */
function failureText(reason: ScheduleFailureReason, detail: string): string {
  return `${reason}: ${detail}`;
}

/** The stored `error` read back as a reason; text of another shape is a failed job's detail. */
export function failureOf(error: string | null): ScheduleFailure | null {
  if (error === null) return null;
  const colon = error.indexOf(': ');
  const head = colon === -1 ? error : error.slice(0, colon);
  const detail = colon === -1 ? '' : error.slice(colon + 2);
  const reason = scheduleFailureReasons.find((known) => known === head);
  if (!reason) return { reason: 'jobFailed', paths: [], detail: error };
  const listsPaths = reason === 'draftGone' || reason === 'hasDraft';
  return { reason, paths: listsPaths && detail ? detail.split(', ') : [], detail: listsPaths ? '' : detail };
}

const isOnSite = (row: ContentItemRow) => row.published !== null && row.published !== undefined;

export function createScheduleService(options: ScheduleServiceOptions): ScheduleService {
  const { db, jobs, rebuilder, logger } = options;

  async function itemsOf(paths: readonly string[]): Promise<Map<string, ContentItemRow>> {
    if (!paths.length) return new Map();
    const rows = await db
      .select()
      .from(contentItems)
      .where(inArray(contentItems.path, [...paths]));
    return new Map(rows.map((row) => [row.path, row]));
  }

  /** Refuses an order whose items are not in the state its action needs, naming the first such item. */
  async function checkOrder(action: ScheduleAction, paths: readonly string[]): Promise<void> {
    const rows = await itemsOf(paths);
    for (const path of paths) {
      const row = rows.get(path);
      if (!row) throw ApiError.field('paths', 'rebuild.scheduleUnknownItem', { path });
      if (action === 'publish' && stateOf(row) === 'published')
        throw ApiError.field('paths', 'rebuild.noSuchDraft', { path });
      if (action === 'unpublish' && !isOnSite(row))
        throw ApiError.field('paths', 'rebuild.scheduleNotPublished', { path });
      if (action === 'unpublish' && stateOf(row) !== 'published')
        throw ApiError.field('paths', 'rebuild.scheduleHasDraft', { path });
    }
    // What the build would refuse, said now (as the publish call does): the drafts as they are.
    if (action === 'publish') await checkContent(db, paths);
  }

  /** Ends a schedule unless it has moved on meanwhile (`from`: the state it was read in). */
  async function finish(
    from: Pick<ScheduledPublicationRow, 'id' | 'status'>,
    status: ScheduleStatus,
    error: string | null,
    at = new Date(),
  ): Promise<void> {
    await db
      .update(scheduledPublications)
      .set({ status, error, finishedAt: at })
      .where(and(eq(scheduledPublications.id, from.id), eq(scheduledPublications.status, from.status)));
  }

  /** Brings rows up to date with their publication's build and their job (see the header). */
  async function settle(rows: readonly ScheduledPublicationRow[]): Promise<boolean> {
    let changed = false;
    const now = Date.now();
    for (const row of rows) {
      if (row.status === 'running' && row.buildId !== null) {
        const build = await rebuilder.get(row.buildId).catch((error: unknown) => {
          if (error instanceof ApiError && error.code === ApiCode.NOT_FOUND) return undefined;
          throw error;
        });
        if (build?.status === 'running') continue;
        if (build?.status === 'succeeded') await finish(row, 'done', null, build.finishedAt ?? new Date());
        else
          await finish(
            row,
            'failed',
            failureText('buildFailed', build?.error ?? `build ${row.buildId} is gone`),
            build?.finishedAt ?? new Date(),
          );
        changed = true;
        continue;
      }
      const due = row.status === 'scheduled' && row.runAt.getTime() <= now;
      const starting = row.status === 'running';
      if (!due && !starting) continue;
      const job = row.jobId === null ? null : await jobs.job(scheduleQueue, row.jobId);
      if (job && !['failed', 'cancelled', 'completed'].includes(job.state)) continue;
      // Read again: the run may have moved it on between the two reads.
      const [again] = await db.select().from(scheduledPublications).where(eq(scheduledPublications.id, row.id));
      if (!again || again.status !== row.status || again.buildId !== null) continue;
      if (job?.state === 'cancelled') await finish(row, 'cancelled', null);
      else if (job?.state === 'failed')
        await finish(
          row,
          'failed',
          failureText('jobFailed', reasonOf((job.output as { message?: string } | null)?.message ?? 'the job failed')),
        );
      else
        await finish(
          row,
          'failed',
          failureText('jobLost', job ? 'the job ended without running it' : 'the job is no longer in the queue'),
        );
      changed = true;
    }
    return changed;
  }

  async function views(rows: readonly ScheduledPublicationRow[]): Promise<ScheduleView[]> {
    const names = await userNames(
      db,
      rows.map((row) => row.createdBy),
    );
    const items = await itemsOf([...new Set(rows.flatMap((row) => row.paths))]);
    const buildIds = rows.map((row) => row.buildId).filter((id): id is number => id !== null);
    const builds = new Map(
      buildIds.length
        ? (
            await db
              .select({ id: siteBuilds.id, status: siteBuilds.status })
              .from(siteBuilds)
              .where(inArray(siteBuilds.id, buildIds))
          ).map((build) => [build.id, build.status])
        : [],
    );
    return rows.map((row) => ({
      id: row.id,
      action: row.action,
      items: row.paths.map((path) => {
        const item = items.get(path);
        return {
          path,
          title: titleOf(path, item ? (item.draft ?? item.published) : null),
          kind: (kindOfPath(path)?.kind ?? null) as ContentKind | null,
        };
      }),
      runAt: row.runAt.toISOString(),
      status: row.status,
      createdBy: row.createdBy === null ? null : (names.get(row.createdBy) ?? null),
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      buildId: row.buildId,
      buildStatus: row.buildId === null ? null : (builds.get(row.buildId) ?? null),
      failure: row.status === 'failed' ? failureOf(row.error) : null,
    }));
  }

  /** Takes back deletion marks a run made (unless someone changed the item since). */
  async function unmark(marked: ReadonlyMap<string, number>): Promise<void> {
    for (const [path, revision] of marked) {
      await db
        .update(contentItems)
        .set({ draftDeleted: false, draftBy: null, draftAt: null, revision: revision + 1 })
        .where(
          and(eq(contentItems.path, path), eq(contentItems.revision, revision), eq(contentItems.draftDeleted, true)),
        );
    }
  }

  /**
   * What the run publishes, checked and prepared in one transaction (the items locked): publish →
   * the drafts (each must still be there); unpublish → the items marked for deletion, by the
   * scheduling editor (items already off the site are left out; one with an unpublished change
   * fails it). `marked`: the marks it made, path → the revision they gave.
   */
  async function prepare(row: ScheduledPublicationRow): Promise<{ paths: string[]; marked: Map<string, number> }> {
    return db.transaction(async (tx) => {
      const rows = new Map(
        (await tx.select().from(contentItems).where(inArray(contentItems.path, row.paths)).for('update')).map(
          (item) => [item.path, item],
        ),
      );
      const marked = new Map<string, number>();
      if (row.action === 'publish') {
        const gone = row.paths.filter((path) => {
          const item = rows.get(path);
          return !item || stateOf(item) === 'published';
        });
        if (gone.length) throw new ScheduleFailed('draftGone', gone.join(', '));
        return { paths: [...row.paths], marked };
      }
      const onSite = row.paths
        .map((path) => rows.get(path))
        .filter((item): item is ContentItemRow => item !== undefined && isOnSite(item));
      const changed = onSite.filter((item) => stateOf(item) === 'changed').map((item) => item.path);
      if (changed.length) throw new ScheduleFailed('hasDraft', changed.join(', '));
      for (const item of onSite) {
        if (item.draftDeleted) continue;
        const mark = deletionMark(item, row.createdBy);
        await tx.update(contentItems).set(mark).where(eq(contentItems.path, item.path));
        marked.set(item.path, mark.revision);
      }
      return { paths: onSite.map((item) => item.path), marked };
    });
  }

  return {
    async create({ action, paths: wanted, runAt, userId }) {
      const paths = [...new Set(wanted)];
      await checkOrder(action, paths);
      // The id first, so the job can carry it and the row is written with its job: never a row without a job.
      const [reserved] = rowsOf<{ id: number }>(
        await db.execute(sql`select nextval(pg_get_serial_sequence('scheduled_publications', 'id'))::int4 as id`),
      );
      if (!reserved) throw new Error('no schedule id was reserved');
      const data: ScheduleJobData = { scheduleId: reserved.id };
      const jobId = await jobs.send(scheduleQueue, data, { startAfter: runAt });
      try {
        const [row] = await db
          .insert(scheduledPublications)
          .overridingSystemValue()
          .values({ id: reserved.id, action, paths, runAt, status: 'scheduled', jobId, createdBy: userId })
          .returning();
        if (!row) throw new Error('scheduled_publications insert returned no row');
        return row;
      } catch (error) {
        await jobs
          .cancel(scheduleQueue, jobId)
          .catch((cancelError: unknown) =>
            logger.warn(
              { err: cancelError, jobId },
              'a scheduled job without its row could not be cancelled; it will find no row',
            ),
          );
        throw error;
      }
    },

    async list() {
      const since = new Date(Date.now() - recentDays * 86_400_000);
      const read = () =>
        Promise.all([
          db
            .select()
            .from(scheduledPublications)
            .where(inArray(scheduledPublications.status, ['scheduled', 'running']))
            .orderBy(asc(scheduledPublications.runAt), asc(scheduledPublications.id))
            .limit(listLimit),
          db
            .select()
            .from(scheduledPublications)
            .where(
              and(
                inArray(scheduledPublications.status, ['done', 'failed', 'cancelled']),
                or(
                  gt(scheduledPublications.finishedAt, since),
                  and(isNull(scheduledPublications.finishedAt), gt(scheduledPublications.createdAt, since)),
                ),
              ),
            )
            .orderBy(desc(scheduledPublications.finishedAt), desc(scheduledPublications.id))
            .limit(listLimit),
        ]);
      let [upcoming, recent] = await read();
      if (await settle(upcoming)) [upcoming, recent] = await read();
      return { upcoming: await views(upcoming), recent: await views(recent) };
    },

    async get(id) {
      const [row] = await db.select().from(scheduledPublications).where(eq(scheduledPublications.id, id));
      if (!row) throw ApiError.notFound('rebuild.scheduleUnknown');
      const [view] = await views([row]);
      return view!;
    },

    async cancel(id) {
      const [cancelled] = await db
        .update(scheduledPublications)
        .set({ status: 'cancelled', finishedAt: new Date() })
        .where(and(eq(scheduledPublications.id, id), eq(scheduledPublications.status, 'scheduled')))
        .returning();
      if (!cancelled) {
        const [row] = await db
          .select({ id: scheduledPublications.id })
          .from(scheduledPublications)
          .where(eq(scheduledPublications.id, id));
        throw row ? ApiError.conflict('rebuild.scheduleNotCancellable') : ApiError.notFound('rebuild.scheduleUnknown');
      }
      // The row says cancelled, so a run that starts now does nothing; the job is cancelled too.
      if (cancelled.jobId)
        await jobs
          .cancel(scheduleQueue, cancelled.jobId)
          .catch((error: unknown) =>
            logger.warn(
              { err: error, scheduleId: id },
              'cancelled schedule: its job could not be cancelled (it will find the schedule cancelled)',
            ),
          );
      return cancelled;
    },

    async run({ scheduleId }) {
      // Claimed: waiting, or started by an earlier try that stopped before its publication began.
      const [row] = await db
        .update(scheduledPublications)
        .set({ status: 'running' })
        .where(
          and(
            eq(scheduledPublications.id, scheduleId),
            isNull(scheduledPublications.buildId),
            or(eq(scheduledPublications.status, 'scheduled'), eq(scheduledPublications.status, 'running')),
          ),
        )
        .returning();
      if (!row) {
        logger.info(
          { scheduleId },
          'scheduled publication: nothing to run (cancelled, already run, or never recorded)',
        );
        return;
      }
      let prepared: { paths: string[]; marked: Map<string, number> } | undefined;
      try {
        prepared = await prepare(row);
        if (prepared.paths.length) await checkContent(db, prepared.paths);
      } catch (error) {
        const failure =
          error instanceof ScheduleFailed
            ? error
            : error instanceof ApiError && error.key === 'rebuild.contentInvalid'
              ? new ScheduleFailed('contentInvalid', String(error.vars?.['detail'] ?? error.message))
              : undefined;
        if (prepared) await unmark(prepared.marked);
        if (!failure) {
          await db
            .update(scheduledPublications)
            .set({ status: 'scheduled' })
            .where(and(eq(scheduledPublications.id, row.id), eq(scheduledPublications.status, 'running')));
          throw error;
        }
        await finish(row, 'failed', failureText(failure.reason, failure.detail));
        logger.info(
          { scheduleId, reason: failure.reason, detail: failure.detail },
          'scheduled publication failed; nothing changed',
        );
        return;
      }
      if (!prepared.paths.length) {
        // Every item to remove is off the site already: nothing to build.
        await finish(row, 'done', null);
        return;
      }
      let buildId: number;
      try {
        ({ buildId } = await rebuilder.start({ purpose: 'publish', drafts: prepared.paths, userId: row.createdBy }));
      } catch (error) {
        // Another build is running (409) or the queue refused it: as it was, and the queue tries again.
        await unmark(prepared.marked);
        await db
          .update(scheduledPublications)
          .set({ status: 'scheduled' })
          .where(and(eq(scheduledPublications.id, row.id), eq(scheduledPublications.status, 'running')));
        const busy = error instanceof ApiError && error.code === ApiCode.CONFLICT;
        throw busy ? new Error('another build was running; the queue tries again shortly', { cause: error }) : error;
      }
      await db.update(scheduledPublications).set({ buildId }).where(eq(scheduledPublications.id, row.id));
      // The publication's audit entry, as the publish call writes it (the publications page reads the drafts it carried from it).
      await writeAudit(db, {
        userId: row.createdBy,
        action: buildAuditActions.publish,
        target: `build:${buildId}`,
        detail: { buildId, paths: prepared.paths, scheduleId: row.id, scheduled: row.action },
      }).catch((error: unknown) =>
        logger.error({ err: error, scheduleId, buildId }, 'scheduled publication: audit entry not written'),
      );
      logger.info({ scheduleId, buildId, action: row.action, paths: prepared.paths }, 'scheduled publication started');
    },
  };
}
