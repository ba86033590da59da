/**
 * The restore drill of docs/operations.md, run in CI: a deployment (PostgreSQL, an S3-compatible
 * bucket, an API process and a worker) gets real data — a registered user with a signed-in
 * session, an enterprise's certification file, a studio image, a news item written in the studio
 * and published by a real build, an edited item with two versions — and is backed up exactly as
 * the operator is told: `pg_dump --format=custom`, then `npm run bucket-sync` of the bucket to a
 * directory. Then everything is destroyed (processes stopped, the PostgreSQL server and the
 * bucket's data deleted) and restored into a fresh PostgreSQL server (`createdb`, `pg_restore`)
 * and a fresh bucket, under a fresh API process with an empty DATA_DIR. What must be there is
 * checked through the API as a user would see it: the old session cookie, a login, the file's
 * bytes, the published page, the image, the studio history.
 * Needs the built site (`npm run build`) and PostgreSQL (installed as root when missing).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPostgresBin, startPostgres, type TestPostgres } from '../../scripts/postgres.ts';
import { demoPdf } from '../../src/server/seed/demoFiles.ts';
import { startS3Server, type TestS3Server } from '../api/s3Server.ts';
import { consentVersions } from '../api/accountCalls.ts';
import { fullRecord } from '../api/enterpriseCalls.ts';
import {
  addNews,
  clientHeaders,
  editorSession,
  getJson,
  listenToPublications,
  newsAsServed,
  newsServed,
  postForm,
  postJson,
  projectRoot,
  servedAfter,
  sessionCookie,
  startCluster,
  startNode,
  startRebuild,
  stopNode,
  waitForBuild,
  type Cluster,
  type ClusterNode,
} from './cluster.ts';

const run = promisify(execFile);
/** A real `astro build` (incremental) on a busy machine. */
const buildLimitMs = 8 * 60_000;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const tag = Date.now().toString(36);
const user = { phone: `139${String(Date.now()).slice(-8)}`, name: '备份测试', password: 'Restore2026' };
const ip = '192.0.2.60';
const news = { newsId: `restore-${tag}`, title: `备份恢复演练 ${tag}` };
/** A seeded item edited in the studio: its history has the seed's version and the edit's. */
const edited = { newsId: '20250108-platform-launch', title: `平台上线（恢复演练修订 ${tag}）` };

/** What exists before the backup, to be found again after the restore. */
const made = {
  cookie: '',
  fileId: 0,
  fileSha: '',
  imageUrl: '',
  imageSha: '',
  buildId: 0,
};

/** The restored processes' REBUILD_TOKEN: configuration, not data (any value works after a restore). */
const rebuildToken = randomBytes(24).toString('hex');

let cluster: Cluster | undefined;
let backupDir: string;
let restored: { pg: TestPostgres; s3: TestS3Server; root: string; node?: ClusterNode } | undefined;
const started = performance.now();

beforeAll(async () => {
  backupDir = await mkdtemp(path.join(tmpdir(), 'hgd-backup-'));
  cluster = await startCluster({ nodes: 1 });
  console.log(`deployment up in ${seconds(started)}`);
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  if (restored?.node) await stopNode(restored.node);
  await restored?.s3.stop();
  await restored?.pg.stop();
  if (restored) await rm(restored.root, { recursive: true, force: true });
  if (backupDir) await rm(backupDir, { recursive: true, force: true });
  console.log(`restore test: ${seconds(started)} in all`);
}, 60_000);

async function call(
  node: ClusterNode,
  pathName: string,
  init: RequestInit & { cookie?: string } = {},
): Promise<Response> {
  const { cookie, ...rest } = init;
  return fetch(`${node.origin}${pathName}`, { ...rest, headers: clientHeaders(node, { cookie, ip }) });
}

/** `npm run bucket-sync -- <from> <to>` as the operator runs it; answers its summary line. */
async function bucketSync(from: string, to: string, s3: TestS3Server): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(projectRoot, 'scripts/bucket-sync.ts'), from, to], {
    env: { PATH: process.env['PATH'] ?? '', ...s3.env },
  });
  return stdout.trim();
}

describe('a backup restores into a fresh database server and bucket', () => {
  it(
    'makes data: a registered user signed in, a certification file, a studio image, a published news item, an edited item',
    async () => {
      const since = performance.now();
      const node = cluster!.nodes[0]!;

      const sent = await postForm(
        node,
        '/api/front/system/sendSMS',
        { phone: user.phone, type: 'register', deviceId: 'hgdweb', appCode: 'HGD' },
        { ip },
      );
      expect(((await sent.json()) as { code: number }).code).toBe(200);
      const [message] = await cluster!.sql<
        { text: string }[]
      >`select text from sms_outbox where phone = ${user.phone} order by id desc limit 1`;
      const code = message?.text.match(/\d{6}/)?.[0] ?? '';
      const registered = await postForm(
        node,
        '/api/front/system/register',
        {
          phone: user.phone,
          code,
          name: user.name,
          password: user.password,
          deviceId: 'hgdweb',
          appCode: 'HGD',
          ...consentVersions(),
        },
        { ip },
      );
      expect(((await registered.clone().json()) as { code: number; message: string }).code).toBe(200);
      made.cookie = sessionCookie(registered) ?? '';
      expect(made.cookie).toMatch(/^hgd_sid=/);

      const enterprise = await postJson(node, '/api/front/hgdarc/enterpriseuser/add', fullRecord(), {
        cookie: made.cookie,
        ip,
      });
      expect(enterprise.code, enterprise.message).toBe(200);
      const pdf = demoPdf(['Restore drill', `uploaded at ${new Date().toISOString()}`]);
      const fileForm = new FormData();
      fileForm.set('kind', 'businessLicence');
      fileForm.set('file', new File([pdf.slice()], '营业执照.pdf', { type: 'application/pdf' }));
      const uploaded = (await (
        await call(node, '/api/front/hgdarc/enterpriseauthfile/upload', {
          method: 'POST',
          body: fileForm,
          cookie: made.cookie,
        })
      ).json()) as {
        code: number;
        message: string;
        data: { id: number };
      };
      expect(uploaded.code, uploaded.message).toBe(200);
      made.fileId = uploaded.data.id;
      made.fileSha = sha256(pdf);

      const editor = await editorSession(node);
      const png = await sharp({
        create: { width: 96, height: 48, channels: 3, background: `#${randomBytes(3).toString('hex')}` },
      })
        .png()
        .toBuffer();
      const imageForm = new FormData();
      imageForm.set('file', new File([new Uint8Array(png)], 'restore.png', { type: 'image/png' }));
      const image = (await (
        await call(node, '/api/studio/image', { method: 'POST', body: imageForm, cookie: editor })
      ).json()) as { code: number; message: string; data: { url: string } };
      expect(image.code, image.message).toBe(200);
      made.imageUrl = image.data.url;

      await addNews(node, news.newsId, news.title, `${news.title}：正文。\n\n![演练图片](${made.imageUrl})`);
      await addNews(node, edited.newsId, edited.title);
      const listener = await listenToPublications(cluster!);
      try {
        const before = performance.now();
        made.buildId = await startRebuild(cluster!, node);
        const published = await waitForBuild(cluster!, node, listener, made.buildId, before, buildLimitMs);
        await servedAfter(node, published.at, newsServed(node, news.newsId, news.title), 30_000);
        console.log(
          `data made in ${seconds(since)} (build ${made.buildId} published ${((published.at - before) / 1000).toFixed(1)} s after its start)`,
        );
      } finally {
        await listener.stop();
      }
      const served = await call(node, made.imageUrl);
      expect(served.status).toBe(200);
      made.imageSha = sha256(new Uint8Array(await served.arrayBuffer()));
    },
    buildLimitMs + 120_000,
  );

  it('backs up as docs/operations.md says: pg_dump --format=custom, then the bucket to a directory', async () => {
    const since = performance.now();
    const dump = path.join(backupDir, 'portal.dump');
    await run(path.join(findPostgresBin()!, 'pg_dump'), ['--format=custom', `--file=${dump}`, cluster!.databaseUrl]);
    const objects = await bucketSync(`s3://${cluster!.s3.bucket}`, path.join(backupDir, 'objects'), cluster!.s3);
    console.log(`backup in ${seconds(since)}: dump ${(statSync(dump).size / 1e6).toFixed(1)} MB; ${objects}`);
    expect(objects).toMatch(/ 0 failed/);
  }, 120_000);

  it('destroys the deployment and restores it into a fresh PostgreSQL server and a fresh bucket, under a new API process with an empty DATA_DIR', async () => {
    const since = performance.now();
    const old = cluster!;
    cluster = undefined;
    await old.stop();

    const pg = await startPostgres();
    const s3 = await startS3Server('hgd-restored');
    const root = await mkdtemp(path.join(tmpdir(), 'hgd-restored-'));
    restored = { pg, s3, root };
    const bin = findPostgresBin()!;
    await run(path.join(bin, 'createdb'), ['--host=127.0.0.1', `--port=${pg.port}`, '--username=postgres', 'portal']);
    const databaseUrl = pg.url.replace(/\/postgres$/, '/portal');
    await run(path.join(bin, 'pg_restore'), [
      '--no-owner',
      '--exit-on-error',
      `--dbname=${databaseUrl}`,
      path.join(backupDir, 'portal.dump'),
    ]);
    const objects = await bucketSync(path.join(backupDir, 'objects'), `s3://${s3.bucket}`, s3);
    expect(objects).toMatch(/ 0 failed/);
    // Every key the restored database names is in the bucket's backup (docs/operations.md, "Checking a restore").
    const { stdout: named } = await run(path.join(bin, 'psql'), [
      databaseUrl,
      '--no-align',
      '--tuples-only',
      `--file=${path.join(projectRoot, 'scripts/backup-objects.sql')}`,
    ]);
    const keys = named.split('\n').filter(Boolean);
    const objectsDir = path.join(backupDir, 'objects');
    const copied = new Set(
      readdirSync(objectsDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(objectsDir, path.join(entry.parentPath, entry.name))),
    );
    expect(keys.filter((key) => !copied.has(key))).toEqual([]);
    expect(keys).toContain(`site/builds/${String(made.buildId).padStart(6, '0')}.tar`);

    // The release's own content files, as a new machine has them: the content is the database's.
    const contentDir = path.join(root, 'content');
    cpSync(path.join(projectRoot, 'src/content'), contentDir, {
      recursive: true,
      filter: (source) => !source.endsWith('.ts'),
    });
    restored.node = await startNode({ name: 'R', root, databaseUrl, s3Env: s3.env, contentDir, rebuildToken });
    console.log(
      `destroyed and restored in ${seconds(since)}; ${objects}; the database names ${keys.length} objects, all in the backup`,
    );
  }, 240_000);

  it('the restored process is ready: database, bucket and the publication loaded', async () => {
    const ready = await fetch(`${restored!.node!.origin}/api/health/ready`);
    expect(ready.status, await ready.clone().text()).toBe(200);
  });

  it('the session cookie from before the backup still works', async () => {
    const answer = await getJson<{ userName: string }>(restored!.node!, '/api/front/user/currentUser', {
      cookie: made.cookie,
      ip,
    });
    expect(answer.code).toBe(200);
    expect(answer.data.userName).toBe(user.phone);
  });

  it('the user signs in with their password', async () => {
    const response = await postForm(
      restored!.node!,
      '/api/front/system/login',
      { userName: user.phone, password: user.password, deviceId: 'hgdweb', appCode: 'hgd' },
      { ip },
    );
    expect(((await response.clone().json()) as { code: number }).code).toBe(200);
    expect(sessionCookie(response)).toMatch(/^hgd_sid=/);
  });

  it('the certification file downloads with the same bytes', async () => {
    const download = await call(restored!.node!, `/api/front/hgdarc/enterpriseauthfile/download?id=${made.fileId}`, {
      cookie: made.cookie,
    });
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(made.fileSha);
  });

  it("the published site is served: the new item's page and content call, the edited item, the studio image", async () => {
    const node = restored!.node!;
    expect(await newsAsServed(node, news.newsId, news.title)).toEqual({ page: 200, titled: true, api: 200 });
    expect(await newsAsServed(node, edited.newsId, edited.title)).toEqual({ page: 200, titled: true, api: 200 });
    const image = await call(node, made.imageUrl);
    expect(image.status).toBe(200);
    expect(sha256(new Uint8Array(await image.arrayBuffer()))).toBe(made.imageSha);
    const builds = await fetch(`${node.origin}/api/admin/site/builds`, {
      headers: { Authorization: `Bearer ${rebuildToken}` },
    });
    expect(((await builds.json()) as { data: { published: number } }).data.published).toBe(made.buildId);
  });

  it("the studio history lists the edited item's versions and the new item's", async () => {
    const node = restored!.node!;
    const editor = await editorSession(node);
    type Versions = { versions: { version: number; buildId: number | null }[] };
    const editedVersions = await getJson<Versions>(
      node,
      `/api/studio/versions?path=${encodeURIComponent(`news/${edited.newsId}.md`)}`,
      { cookie: editor },
    );
    expect(editedVersions.code).toBe(200);
    expect(editedVersions.data.versions.map((v) => v.version).sort()).toEqual([1, 2]);
    expect(editedVersions.data.versions.find((v) => v.version === 2)?.buildId).toBe(made.buildId);
    const newVersions = await getJson<Versions>(
      node,
      `/api/studio/versions?path=${encodeURIComponent(`news/${news.newsId}.md`)}`,
      { cookie: editor },
    );
    expect(newVersions.data.versions.map((v) => v.version)).toEqual([1]);
  });
});
