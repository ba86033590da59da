/**
 * Scheduled publishing (/api/studio/schedule, schedules, schedule/cancel; src/server/studio/schedules.ts)
 * on a real database and job queue, with an injected build command: who may schedule, the form's
 * rules (China wall clock, in the future, at most a year ahead) in the caller's locale, the items'
 * states each action needs, the job sent with the right startAfter, the list, cancelling; and
 * what happens at the time: a publication of exactly those drafts as they are then, a removal from
 * the site, a discarded draft or a new change failing it with its reason, another build making
 * the queue try again, the worker role running it from the queue.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { chinaDate, chinaDateTimeLocal } from '../../src/lib/chinaTime.ts';
import type { ScheduleList, ScheduleView } from '../../src/lib/studio/schedules.ts';
import { auditLog, contentItems, scheduledPublications, siteBuilds } from '../../src/server/db/schema/index.ts';
import { scheduleQueue, type JobQueue } from '../../src/server/jobs/queue.ts';
import { attachWorker } from '../../src/server/jobs/worker.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createContentStore } from '../../src/server/services/contentStore.ts';
import type { BuildRequest } from '../../src/server/site/buildCommand.ts';
import type { BuildRunner } from '../../src/server/site/buildJob.ts';
import { createPublishedSite } from '../../src/server/site/servedSite.ts';
import { createSitePublisher } from '../../src/server/site/sitePublisher.ts';
import { createSiteRebuilder } from '../../src/server/site/rebuild.ts';
import { objectStoreFromConfig } from '../../src/server/storage/fromConfig.ts';
import {
  createScheduleService,
  type ScheduleJobData,
  type ScheduleService,
} from '../../src/server/studio/schedules.ts';
import { apiHeaders, createTestApp, type TestApp } from './harness.ts';

interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}
interface FieldErrors {
  errors: { field: string; message: string }[];
}
interface Item {
  path: string;
  state: string;
  revision: number;
  draftBy: string | null;
}
interface Build {
  buildId: number;
  status: string;
  paths: string[];
}

let root: string;
let t: TestApp;
let editor: string;
let schedules: ScheduleService;
/** What the injected build does; a test may hold it. */
let build: (request: BuildRequest) => Promise<void>;

/** A build that writes the home page and one page per news item, from its content snapshot. */
async function pagesFromContent({ contentDir, outDir }: BuildRequest): Promise<void> {
  const content = loadContent(contentDir);
  mkdirSync(path.join(outDir, 'welcome/home'), { recursive: true });
  writeFileSync(
    path.join(outDir, 'welcome/home/index.html'),
    `<!doctype html><title>home: ${content.news.length} news</title>`,
  );
  for (const news of content.news) {
    mkdirSync(path.join(outDir, 'infomation/detail', news.newsId), { recursive: true });
    writeFileSync(
      path.join(outDir, 'infomation/detail', news.newsId, 'index.html'),
      `<!doctype html><title>${news.title}</title>`,
    );
  }
}

async function call<T = Record<string, unknown>>(
  url: string,
  options: { body?: unknown; cookie?: string; locale?: string; headers?: Record<string, string> } = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = {
    cookie: options.cookie ?? editor,
    'Accept-Language': options.locale ?? 'zh-CN',
  };
  const response =
    options.body === undefined
      ? await t.app.request(url, { headers })
      : await t.app.request(url, {
          method: 'POST',
          headers: options.headers
            ? { ...headers, ...options.headers }
            : apiHeaders({ ...headers, 'Content-Type': 'application/json' }),
          body: JSON.stringify(options.body),
        });
  return (await response.json()) as Envelope<T>;
}

async function page(url: string): Promise<{ status: number; text: string }> {
  const response = await t.app.request(url);
  return { status: response.status, text: await response.text() };
}

const newsData = (title: string) => ({
  newsTypeCode: 'company',
  title,
  date: '2026-11-24',
  source: '编辑部',
  summary: '定时发布测试。',
  body: `## ${title}\n\n正文。`,
});

async function saveNews(id: string, title: string): Promise<Item> {
  const current = await call<Item>(`/api/studio/item?path=news/${id}.md`);
  const saved = await call<Item>('/api/studio/item', {
    body: { path: `news/${id}.md`, data: newsData(title), revision: current.code === 200 ? current.data.revision : 0 },
  });
  expect(saved.code).toBe(200);
  return saved.data;
}

/** A China wall clock `hours` from now, to the minute (what the form sends). */
const inHours = (hours: number) => chinaDateTimeLocal(Date.now() + hours * 3600_000);

async function schedule(
  action: 'publish' | 'unpublish',
  paths: string[],
  runAt = inHours(1),
): Promise<Envelope<ScheduleView>> {
  return call<ScheduleView>('/api/studio/schedule', { body: { action, paths, runAt } });
}

async function list(): Promise<ScheduleList> {
  const answer = await call<ScheduleList>('/api/studio/schedules');
  expect(answer.code).toBe(200);
  return answer.data;
}

async function viewOf(id: number): Promise<ScheduleView> {
  const { upcoming, recent } = await list();
  const view = [...upcoming, ...recent].find((entry) => entry.id === id);
  if (!view) throw new Error(`schedule ${id} is not listed`);
  return view;
}

/** Reads the list until the schedule has ended (its publication's build done). */
async function settled(id: number): Promise<ScheduleView> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const view = await viewOf(id);
    if (!['scheduled', 'running'].includes(view.status)) return view;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`schedule ${id} did not end`);
}

async function rowOf(id: number) {
  const [row] = await t.db.select().from(scheduledPublications).where(eq(scheduledPublications.id, id));
  if (!row) throw new Error(`no schedule ${id}`);
  return row;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'hgd-schedules-'));
  const dataDir = path.join(root, 'data');
  const oldDist = path.join(root, 'dist');
  mkdirSync(path.join(oldDist, 'welcome/home'), { recursive: true });
  writeFileSync(path.join(oldDist, 'welcome/home/index.html'), '<!doctype html><title>old site</title>');
  t = await createTestApp({
    staticDir: oldDist,
    env: { DATA_DIR: dataDir },
    deps: { siteBuild: { command: (request) => build(request) } },
  });
  editor = await t.login('demo_editor');
  // The service as the worker role has it: on the app's database and queue; its publications'
  // builds are run by the app's embedded worker, like any other.
  const logger = createLogger({ logLevel: 'silent' });
  const objects = objectStoreFromConfig(t.config);
  const publisher = createSitePublisher({
    db: t.db,
    objects,
    dataDir,
    site: createPublishedSite(undefined),
    store: createContentStore(),
    logger,
  });
  const rebuilder = createSiteRebuilder({ db: t.db, logger, dataDir, objects, publisher, jobs: t.jobs });
  schedules = createScheduleService({ db: t.db, jobs: t.jobs, rebuilder, logger });
});

afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

beforeEach(() => {
  build = pagesFromContent;
});

describe('who may schedule', () => {
  it('signed out: 901; an individual: 403; a POST without the browser client’s headers: 403; editors and operators: allowed', async () => {
    await saveNews('sched-who', '谁可以计划');
    const body = { action: 'publish', paths: ['news/sched-who.md'], runAt: inHours(2) };
    expect((await call('/api/studio/schedules', { cookie: '' })).code).toBe(901);
    expect((await call('/api/studio/schedule', { cookie: '', body })).code).toBe(901);
    expect((await call('/api/studio/schedules', { cookie: await t.login('demo_person') })).code).toBe(403);
    expect((await call('/api/studio/schedule', { cookie: await t.login('demo_person'), body })).code).toBe(403);
    const before = (await t.db.select().from(scheduledPublications)).length;
    expect((await call('/api/studio/schedule', { body, headers: { 'Content-Type': 'application/json' } })).code).toBe(
      403,
    );
    expect((await t.db.select().from(scheduledPublications)).length).toBe(before);
    const byOperator = await call<ScheduleView>('/api/studio/schedule', {
      cookie: await t.login('demo_operator'),
      body,
    });
    expect(byOperator.code).toBe(200);
    expect(
      (
        await call('/api/studio/schedule/cancel', {
          cookie: await t.login('demo_operator'),
          body: { id: byOperator.data.id },
        })
      ).code,
    ).toBe(200);
  });
});

describe('the form’s rules', () => {
  it('the time is a China wall clock, in the future and at most a year ahead: 400 at runAt, in the caller’s locale', async () => {
    const paths = ['news/sched-who.md'];
    const past = await call<FieldErrors>('/api/studio/schedule', {
      body: { action: 'publish', paths, runAt: inHours(-1) },
    });
    expect(past.code).toBe(400);
    expect(past.data.errors).toEqual([{ field: 'runAt', message: '执行时间必须晚于现在（北京时间）。' }]);
    const pastEn = await call<FieldErrors>('/api/studio/schedule', {
      body: { action: 'publish', paths, runAt: inHours(-1) },
      locale: 'en-US',
    });
    expect(pastEn.data.errors).toEqual([
      { field: 'runAt', message: 'The run time must be later than now (China time).' },
    ]);
    const far = await call<FieldErrors>('/api/studio/schedule', {
      body: { action: 'publish', paths, runAt: inHours(24 * 367) },
    });
    expect(far.data.errors).toEqual([{ field: 'runAt', message: '执行时间不能晚于一年之后。' }]);
    for (const runAt of [
      '2026-02-30T09:00',
      '2026-12-01 09:00',
      '2026-12-01T24:00',
      '2026-12-01T09:00:00+08:00',
      'tomorrow',
    ]) {
      const wrong = await call<FieldErrors>('/api/studio/schedule', { body: { action: 'publish', paths, runAt } });
      expect(wrong.code, runAt).toBe(400);
      expect(wrong.data.errors, runAt).toEqual([{ field: 'runAt', message: '请按“年-月-日 时:分”选择执行时间。' }]);
    }
    const missing = await call<FieldErrors>('/api/studio/schedule', {
      body: { action: 'later', paths: [] },
      locale: 'pt-BR',
    });
    expect(missing.data.errors.map((error) => error.field).sort()).toEqual(['action', 'paths', 'runAt']);
    expect(missing.data.errors.find((error) => error.field === 'runAt')?.message).toBe('Informe horário de execução');
    expect(
      await t.db.select().from(scheduledPublications).where(eq(scheduledPublications.status, 'scheduled')),
    ).toEqual([]);
  });

  it('each item must be in the state its action needs: 400 at paths, naming it', async () => {
    const refused = async (action: 'publish' | 'unpublish', target: string) => {
      const answer = await call<FieldErrors>('/api/studio/schedule', {
        body: { action, paths: [target], runAt: inHours(1) },
      });
      expect(answer.code, `${action} ${target}`).toBe(400);
      expect(answer.data.errors[0]?.field).toBe('paths');
      return answer.data.errors[0]?.message ?? '';
    };
    expect(await refused('publish', 'news/sched-nothing.md')).toBe('news/sched-nothing.md：没有这个内容条目。');
    expect(await refused('publish', 'news/20250108-platform-launch.md')).toBe(
      'news/20250108-platform-launch.md 没有待发布的修改。',
    );
    // sched-who is a new draft: not on the site.
    expect(await refused('unpublish', 'news/sched-who.md')).toBe('news/sched-who.md 不在公开网站上，无需移除。');
    const launch = await call<Item>('/api/studio/item?path=news/20250115-market-annual-gd.md');
    await call('/api/studio/item', {
      body: { path: 'news/20250115-market-annual-gd.md', data: newsData('已改的新闻'), revision: launch.data.revision },
    });
    expect(await refused('unpublish', 'news/20250115-market-annual-gd.md')).toContain('有未发布的修改');
    await call('/api/studio/item/discard', { body: { path: 'news/20250115-market-annual-gd.md' } });
    // The content check, as at publishing: a draft the build would refuse is refused now.
    await call('/api/studio/item', {
      body: {
        path: 'news/sched-orphan.md',
        data: { ...newsData('无类型'), newsTypeCode: 'no-such-type' },
        revision: 0,
      },
    });
    const invalid = await call<{ path: string; field: string }>('/api/studio/schedule', {
      body: { action: 'publish', paths: ['news/sched-orphan.md'], runAt: inHours(1) },
    });
    expect(invalid.code).toBe(400);
    expect(invalid.data).toMatchObject({ path: 'news/sched-orphan.md', field: 'newsTypeCode' });
    await call('/api/studio/item/discard', { body: { path: 'news/sched-orphan.md' } });
    expect(
      await t.db.select().from(scheduledPublications).where(eq(scheduledPublications.status, 'scheduled')),
    ).toEqual([]);
  });
});

describe('scheduling, the list and cancelling', () => {
  let id = 0;
  let jobId = '';

  it('records the schedule with its job, deferred to the China wall clock’s instant, and audits it', async () => {
    const day = chinaDate(Date.now() + 2 * 86_400_000);
    const answer = await schedule('publish', ['news/sched-who.md', 'news/sched-who.md'], `${day}T09:30`);
    expect(answer.code).toBe(200);
    expect(answer.message).toMatch(/^已计划：将于北京时间 .*09:30 执行。$/);
    // 09:30 in China is 01:30 UTC, whatever the server's zone.
    expect(answer.data).toMatchObject({
      action: 'publish',
      runAt: `${day}T01:30:00.000Z`,
      status: 'scheduled',
      createdBy: '陈静',
      items: [{ path: 'news/sched-who.md', title: '谁可以计划', kind: 'news' }],
      buildId: null,
      failure: null,
    });
    id = answer.data.id;
    const row = await rowOf(id);
    expect(row.paths).toEqual(['news/sched-who.md']);
    expect(row.jobId).toEqual(expect.any(String));
    jobId = row.jobId!;
    const job = await t.jobs.job<ScheduleJobData>(scheduleQueue, jobId);
    expect(job).toMatchObject({ state: 'created', data: { scheduleId: id } });
    expect(job?.startAfter.toISOString()).toBe(`${day}T01:30:00.000Z`);
    const [audited] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'content.schedule'), eq(auditLog.target, `schedule:${id}`)));
    expect(audited?.detail).toMatchObject({
      scheduleId: id,
      action: 'publish',
      paths: ['news/sched-who.md'],
      runAt: `${day}T01:30:00.000Z`,
    });
  });

  it('lists what is upcoming, soonest first, with who, when, what and its state', async () => {
    const sooner = await schedule('publish', ['news/sched-who.md'], inHours(3));
    const { upcoming } = await list();
    const ids = upcoming.map((entry) => entry.id);
    expect(ids.indexOf(sooner.data.id)).toBeLessThan(ids.indexOf(id));
    expect(upcoming.find((entry) => entry.id === id)).toMatchObject({
      status: 'scheduled',
      createdBy: '陈静',
      action: 'publish',
    });
    await call('/api/studio/schedule/cancel', { body: { id: sooner.data.id } });
  });

  it('cancelling cancels the job and the row, once; it is then among the recent ones', async () => {
    const cancelled = await call<ScheduleView>('/api/studio/schedule/cancel', { body: { id } });
    expect(cancelled.code).toBe(200);
    expect(cancelled.message).toBe('计划已取消，到时不会执行。');
    expect(cancelled.data).toMatchObject({ id, status: 'cancelled', finishedAt: expect.any(String) });
    expect((await t.jobs.job(scheduleQueue, jobId))?.state).toBe('cancelled');
    const again = await call('/api/studio/schedule/cancel', { body: { id } });
    expect(again.code).toBe(409);
    expect(again.message).toBe('这项计划已开始执行或已经结束，不能再取消。');
    expect((await call('/api/studio/schedule/cancel', { body: { id: 999_999 } })).code).toBe(404);
    expect((await call<FieldErrors>('/api/studio/schedule/cancel', { body: { id: 'x' } })).code).toBe(400);
    const { upcoming, recent } = await list();
    expect(upcoming.map((entry) => entry.id)).not.toContain(id);
    expect(recent.find((entry) => entry.id === id)?.status).toBe('cancelled');
    expect(
      await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'content.scheduleCancel'), eq(auditLog.target, `schedule:${id}`))),
    ).toHaveLength(1);
    // Its job, run anyway (sent before the cancel reached it), does nothing.
    await schedules.run({ scheduleId: id });
    expect((await rowOf(id)).status).toBe('cancelled');
    // A job whose row was never written does nothing either.
    await expect(schedules.run({ scheduleId: 999_999 })).resolves.toBeUndefined();
  });

  it('a started schedule cannot be cancelled', async () => {
    const started = await schedule('publish', ['news/sched-who.md']);
    await t.db
      .update(scheduledPublications)
      .set({ status: 'running' })
      .where(eq(scheduledPublications.id, started.data.id));
    expect((await call('/api/studio/schedule/cancel', { body: { id: started.data.id } })).code).toBe(409);
    await t.db
      .update(scheduledPublications)
      .set({ status: 'scheduled' })
      .where(eq(scheduledPublications.id, started.data.id));
    expect((await call('/api/studio/schedule/cancel', { body: { id: started.data.id } })).code).toBe(200);
  });

  it('a due schedule whose job is gone from the queue is failed when read, with its reason', async () => {
    const lost = await schedule('publish', ['news/sched-who.md']);
    await t.jobs.cancel(scheduleQueue, (await rowOf(lost.data.id)).jobId!);
    await t.db
      .update(scheduledPublications)
      .set({ runAt: new Date(Date.now() - 60_000), jobId: '00000000-0000-4000-8000-000000000000' })
      .where(eq(scheduledPublications.id, lost.data.id));
    const view = await viewOf(lost.data.id);
    expect(view).toMatchObject({ status: 'failed', failure: { reason: 'jobLost', paths: [] } });
  });
});

describe('at the time', () => {
  it('publishes exactly the scheduled drafts, as they are then (changed after scheduling), and says which build', async () => {
    await saveNews('sched-a', '定时新闻 A');
    await saveNews('sched-b', '不在计划里的新闻 B');
    const created = await schedule('publish', ['news/sched-a.md']);
    await saveNews('sched-a', '定时新闻 A（计划后又改）');
    await schedules.run({ scheduleId: created.data.id });
    expect((await rowOf(created.data.id)).status).toBe('running');
    const view = await settled(created.data.id);
    expect(view).toMatchObject({
      status: 'done',
      buildStatus: 'succeeded',
      failure: null,
      finishedAt: expect.any(String),
    });
    expect((await page('/infomation/detail/sched-a/')).text).toContain('<title>定时新闻 A（计划后又改）</title>');
    expect((await page('/infomation/detail/sched-b/')).status).toBe(404);
    expect((await call<Item>('/api/studio/item?path=news/sched-a.md')).data.state).toBe('published');
    expect((await call<Item>('/api/studio/item?path=news/sched-b.md')).data.state).toBe('new');
    // The publication is the scheduling editor's, and the publications page knows what it carried.
    const built = await call<Build>(`/api/studio/build?buildId=${view.buildId}`);
    expect(built.data).toMatchObject({ status: 'succeeded', paths: ['news/sched-a.md'] });
    const versions = await call<{ versions: { publishedBy: string; buildId: number }[] }>(
      '/api/studio/versions?path=news/sched-a.md',
    );
    expect(versions.data.versions[0]).toMatchObject({ publishedBy: '陈静', buildId: view.buildId });
    // Run again (a second delivery of its job): nothing more happens.
    await schedules.run({ scheduleId: created.data.id });
    expect((await rowOf(created.data.id)).buildId).toBe(view.buildId);
  });

  it('a draft discarded meanwhile fails the schedule, naming it; nothing is published', async () => {
    await saveNews('sched-c', '定时新闻 C');
    const created = await schedule('publish', ['news/sched-c.md', 'news/sched-b.md']);
    await call('/api/studio/item/discard', { body: { path: 'news/sched-c.md' } });
    await schedules.run({ scheduleId: created.data.id });
    const view = await viewOf(created.data.id);
    expect(view).toMatchObject({
      status: 'failed',
      buildId: null,
      failure: { reason: 'draftGone', paths: ['news/sched-c.md'] },
    });
    expect((await call<Item>('/api/studio/item?path=news/sched-b.md')).data.state).toBe('new');
    expect((await page('/infomation/detail/sched-b/')).status).toBe(404);
  });

  it('a removal marks the item for deletion by the scheduling editor and publishes exactly that', async () => {
    const target = 'news/20250210-policy-136.md';
    expect((await page('/infomation/detail/20250210-policy-136/')).status).toBe(200);
    const created = await schedule('unpublish', [target]);
    expect(created.data.items[0]?.title).not.toBe('');
    const other = await t.login('demo_operator');
    await schedules.run({ scheduleId: created.data.id });
    const view = await settled(created.data.id);
    expect(view).toMatchObject({ status: 'done', action: 'unpublish', buildStatus: 'succeeded' });
    expect((await page('/infomation/detail/20250210-policy-136/')).status).toBe(404);
    expect((await page('/infomation/detail/sched-a/')).status).toBe(200);
    const [item] = await t.db.select().from(contentItems).where(eq(contentItems.path, target));
    expect(item).toMatchObject({ published: null, draftDeleted: false });
    const versions = await call<{ versions: { deleted: boolean; publishedBy: string }[] }>(
      `/api/studio/versions?path=${target}`,
      { cookie: other },
    );
    expect(versions.data.versions[0]).toMatchObject({ deleted: true, publishedBy: '陈静' });
    // sched-b, an unrelated draft, is still a draft.
    expect((await call<Item>('/api/studio/item?path=news/sched-b.md')).data.state).toBe('new');
  });

  it('an item to remove that got a change meanwhile fails the schedule; its draft stays', async () => {
    const target = 'news/20250226-platform-usbkey.md';
    const created = await schedule('unpublish', [target]);
    const current = await call<Item>(`/api/studio/item?path=${target}`);
    await call('/api/studio/item', {
      body: { path: target, data: newsData('计划后修改'), revision: current.data.revision },
    });
    await schedules.run({ scheduleId: created.data.id });
    expect(await viewOf(created.data.id)).toMatchObject({
      status: 'failed',
      failure: { reason: 'hasDraft', paths: [target] },
    });
    expect((await call<Item>(`/api/studio/item?path=${target}`)).data.state).toBe('changed');
    expect((await page('/infomation/detail/20250226-platform-usbkey/')).status).toBe(200);
    await call('/api/studio/item/discard', { body: { path: target } });
  });

  it('another build running: the run throws for the queue to try again, the schedule waits and its marks are taken back', async () => {
    const target = 'news/20250305-market-yn-hydro.md';
    const created = await schedule('unpublish', [target]);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    build = async (request) => {
      await held;
      await pagesFromContent(request);
    };
    const other = await call<Build>('/api/studio/preview', { body: { paths: ['news/sched-b.md'] } });
    expect(other.code).toBe(200);
    try {
      await expect(schedules.run({ scheduleId: created.data.id })).rejects.toThrow(/another build was running/);
      expect(await rowOf(created.data.id)).toMatchObject({ status: 'scheduled', buildId: null });
      expect((await call<Item>(`/api/studio/item?path=${target}`)).data.state).toBe('published');
      // Still waiting: it can be cancelled until it starts.
      expect((await viewOf(created.data.id)).status).toBe('scheduled');
    } finally {
      release();
    }
    for (
      let attempt = 0;
      attempt < 400 && (await call<Build>(`/api/studio/build?buildId=${other.data.buildId}`)).data.status === 'running';
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // The queue's next try finds no build running.
    await schedules.run({ scheduleId: created.data.id });
    expect(await settled(created.data.id)).toMatchObject({ status: 'done', buildStatus: 'succeeded' });
    expect((await page('/infomation/detail/20250305-market-yn-hydro/')).status).toBe(404);
  });

  it('a failing publication fails the schedule with the build’s error; the site and the draft stay', async () => {
    await saveNews('sched-d', '定时新闻 D');
    const created = await schedule('publish', ['news/sched-d.md']);
    build = async () => {
      throw new Error('astro build exited with 1:\n[ERROR] scheduled build broke');
    };
    await schedules.run({ scheduleId: created.data.id });
    const view = await settled(created.data.id);
    expect(view).toMatchObject({ status: 'failed', buildStatus: 'failed', failure: { reason: 'buildFailed' } });
    expect(view.failure?.detail).toContain('scheduled build broke');
    expect((await call<Item>('/api/studio/item?path=news/sched-d.md')).data.state).toBe('new');
  });

  it('the worker role runs it from the queue at its time', async () => {
    // Registered as the worker role does: attachWorker, here on a recording queue.
    const registered = new Map<string, (job: { data: object }) => Promise<void>>();
    const recorder = {
      work: async (name: string, handler: (job: { data: object }) => Promise<void>) =>
        void registered.set(name, handler),
    } as unknown as JobQueue;
    const ran: ScheduleJobData[] = [];
    await attachWorker(recorder, {
      builds: {} as BuildRunner,
      schedules: { run: async (data) => void ran.push(data) },
    });
    await registered.get(scheduleQueue)?.({ data: { scheduleId: 7 } });
    expect(ran).toEqual([{ scheduleId: 7 }]);

    // And in the app's embedded worker, from its queue: due in two seconds (a wall clock with seconds is taken too).
    const at = new Date(Date.now() + 2_000);
    const created = await schedule(
      'publish',
      ['news/sched-d.md'],
      `${chinaDateTimeLocal(at)}:${String(at.getUTCSeconds()).padStart(2, '0')}`,
    );
    expect(created.code).toBe(200);
    const runAt = new Date(created.data.runAt).getTime();
    // Still waiting while its time is ahead (on a busy machine the call itself may take the two seconds).
    const readAt = Date.now();
    const waiting = (await rowOf(created.data.id)).status;
    if (readAt < runAt - 200) expect(waiting).toBe('scheduled');
    const view = await settled(created.data.id);
    expect(view).toMatchObject({ status: 'done', buildStatus: 'succeeded' });
    // Its build started at its time, not before.
    const [build] = await t.db.select().from(siteBuilds).where(eq(siteBuilds.id, view.buildId!));
    expect(new Date(build!.startedAt).getTime()).toBeGreaterThanOrEqual(runAt);
    expect((await page('/infomation/detail/sched-d/')).text).toContain('定时新闻 D');
  }, 60_000);
});
