/**
 * A real cluster on one machine: PostgreSQL (scripts/postgres.ts, or a fresh
 * database on TEST_DATABASE_URL's server), an S3-compatible server (s3rver, tests/api/s3Server.ts)
 * and N API processes — `node src/server/main.ts`, each on its own port with its own DATA_DIR,
 * sharing the database and the bucket — as a deployment runs them behind a load balancer.
 * Used by tests/cluster/cluster.test.ts, tests/cluster/restore.test.ts and `npm run bench -- publish`.
 *
 * Each process: STORAGE=s3, TRUST_PROXY=1 (so callers choose their address with X-Forwarded-For),
 * REBUILD_TOKEN, STATIC_DIR = the built dist/ (required: `npm run build` first), CONTENT_DIR = one
 * copy of src/content shared by the cluster (the editors' files: a rebuild on any node snapshots
 * it), and a clean environment (nothing of the test runner's leaks into the server or its builds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sessionCookie } from '../api/accountCalls.ts';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { freePort, startPostgres } from '../../scripts/postgres.ts';
import { startS3Server, type TestS3Server } from '../api/s3Server.ts';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const distDir = path.join(projectRoot, 'dist');

export interface ClusterNode {
  name: string;
  /** `http://127.0.0.1:<port>`: also the same-origin `Origin` of the CSRF check. */
  origin: string;
  dataDir: string;
  logFile: string;
  child: ChildProcess;
}

export interface Cluster {
  nodes: ClusterNode[];
  databaseUrl: string;
  /** A client on the cluster's database (reads the SMS outbox, listens to publications). */
  sql: postgres.Sql;
  /** The editors' content directory every node's rebuild snapshots (CONTENT_DIR). */
  contentDir: string;
  rebuildToken: string;
  s3: TestS3Server;
  /** The worker processes (`npm run worker`): they run the builds; the API processes only queue them. */
  workers: ClusterWorker[];
  /** Starts one more worker and waits until it takes jobs. */
  startWorker(): Promise<ClusterWorker>;
  /** The last lines of a node's (or worker's) log, for failure messages. */
  logTail(node: Pick<ClusterNode, 'logFile'>, lines?: number): string;
  /** Stops every process, the S3 server and the database (also after a failed start). */
  stop(): Promise<void>;
}

export interface ClusterWorker {
  name: string;
  logFile: string;
  child: ChildProcess;
}

export interface ClusterOptions {
  nodes?: number;
  /** SITE_POLL_SECONDS: the fallback poll. Above the limits the checks allow, so only LISTEN/NOTIFY explains a prompt switch. */
  pollSeconds?: number;
  /** LOG_LEVEL of the processes (their logs go to files under the cluster's directory). */
  logLevel?: string;
  /** Worker processes started with the cluster (default 1). */
  workers?: number;
}

/** The environment a process gets: the system's basics only, then the cluster's settings. */
function cleanEnv(settings: Record<string, string>): Record<string, string> {
  const kept = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'USER'];
  const env: Record<string, string> = {};
  for (const name of kept) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...settings };
}

function tail(file: string, lines: number): string {
  if (!existsSync(file)) return '(no log)';
  // Without the access log's lines (one per request, "msg":"request"): what the process said.
  const said = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !line.includes('"msg":"request"'));
  return said.slice(-lines - 1).join('\n');
}

/** Waits until every node's /api/health answers 200; fails at once, with its log, when a process exits. */
async function waitHealthy(nodes: ClusterNode[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    nodes.map(async (node) => {
      for (;;) {
        if (node.child.exitCode !== null || node.child.signalCode !== null) {
          throw new Error(
            `API process ${node.name} exited (${node.child.exitCode ?? node.child.signalCode}) before it answered:\n${tail(node.logFile, 30)}`,
          );
        }
        try {
          const response = await fetch(`${node.origin}/api/health`, { signal: AbortSignal.timeout(5_000) });
          if (response.ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline)
          throw new Error(
            `API process ${node.name} did not answer /api/health within ${timeoutMs} ms:\n${tail(node.logFile, 30)}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }),
  );
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** One API process's settings: its directory (for DATA_DIR and the log), database, bucket and the cluster's shared values. */
export interface NodeSettings {
  name: string;
  /** The node's DATA_DIR is `<root>/node-<name>` (created when missing), its log `<root>/node-<name>.log`. */
  root: string;
  /** Absent: the embedded PGlite in its DATA_DIR, with the embedded worker (`npm start`'s default). */
  databaseUrl?: string;
  /** The bucket's variables (TestS3Server's `env`: STORAGE=s3, S3_*); empty: the local store. */
  s3Env: Record<string, string>;
  contentDir: string;
  rebuildToken: string;
  pollSeconds?: number;
  logLevel?: string;
}

/** Starts `node src/server/main.ts` with a node's settings; does not wait for it to answer. */
async function spawnNode(settings: NodeSettings): Promise<ClusterNode> {
  const port = await freePort();
  const dataDir = path.join(settings.root, `node-${settings.name}`);
  mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(settings.root, `node-${settings.name}.log`);
  writeFileSync(logFile, '');
  const env = cleanEnv({
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    ...(settings.databaseUrl === undefined ? {} : { DATABASE_URL: settings.databaseUrl }),
    STATIC_DIR: distDir,
    CONTENT_DIR: settings.contentDir,
    REBUILD_TOKEN: settings.rebuildToken,
    TRUST_PROXY: '1',
    SITE_POLL_SECONDS: String(settings.pollSeconds ?? 30),
    LOG_LEVEL: settings.logLevel ?? 'info',
    ...settings.s3Env,
  });
  const fd = openSync(logFile, 'a');
  // The Node running us (the project's Node 24), as the server's own rebuild does.
  const child = spawn(process.execPath, ['src/server/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return { name: settings.name, origin: `http://127.0.0.1:${port}`, dataDir, logFile, child };
}

/**
 * One API process on a database and bucket of the caller's (a restored deployment, say), started
 * and answering /api/health; stop it with `stopNode`.
 */
export async function startNode(settings: NodeSettings, timeoutMs = 180_000): Promise<ClusterNode> {
  const node = await spawnNode(settings);
  try {
    await waitHealthy([node], timeoutMs);
  } catch (error) {
    await stopProcess(node.child);
    throw error;
  }
  return node;
}

/** Stops an API process (SIGTERM, SIGKILL after 15 s). */
export function stopNode(node: ClusterNode): Promise<void> {
  return stopProcess(node.child);
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(
      `the built site is missing (${distDir}/index.html): run \`npm run build\` first (\`npm test\` builds before the cluster test)`,
    );
  }
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 23)
    throw new Error(
      `Node ${process.versions.node} cannot run the server's TypeScript: run through npm (\`npm run test:cluster\`), which uses the project's Node 24`,
    );

  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((error: unknown) =>
        console.error(`cluster stop: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  };
  try {
    const root = await mkdtemp(path.join(tmpdir(), 'hgd-cluster-'));
    stops.push(() => rm(root, { recursive: true, force: true }));

    // The database: a fresh one on TEST_DATABASE_URL's server, or on a throwaway server of our own.
    const serverUrl =
      process.env['TEST_DATABASE_URL'] ??
      (await (async () => {
        const pg = await startPostgres();
        stops.push(() => pg.stop());
        return pg.url;
      })());
    const database = `hgd_cluster_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    stops.push(() => admin.end({ timeout: 5 }));
    await admin.unsafe(`create database "${database}"`);
    stops.push(() => admin.unsafe(`drop database if exists "${database}" with (force)`));
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    const databaseUrl = url.toString();
    const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
    stops.push(() => sql.end({ timeout: 5 }));

    const s3 = await startS3Server('hgd-cluster');
    stops.push(() => s3.stop());

    const contentDir = path.join(root, 'content');
    cpSync(path.join(projectRoot, 'src/content'), contentDir, {
      recursive: true,
      filter: (source) => !source.endsWith('.ts'),
    });
    const rebuildToken = randomBytes(24).toString('hex');

    const nodes: ClusterNode[] = [];
    const count = options.nodes ?? 2;
    for (let i = 0; i < count; i += 1) {
      const node = await spawnNode({
        name: String.fromCharCode(65 + i),
        root,
        databaseUrl,
        s3Env: s3.env,
        contentDir,
        rebuildToken,
        ...(options.pollSeconds === undefined ? {} : { pollSeconds: options.pollSeconds }),
        ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
      });
      nodes.push(node);
      stops.push(() => stopProcess(node.child));
    }
    // Started together, as a rollout would: one migrates and seeds under the schema lock, the others wait.
    await waitHealthy(nodes, 180_000);

    const workers: ClusterWorker[] = [];
    const startWorker = async (): Promise<ClusterWorker> => {
      const name = `W${workers.length + 1}`;
      const dataDir = path.join(root, `worker-${name}`);
      mkdirSync(dataDir, { recursive: true });
      const logFile = path.join(root, `worker-${name}.log`);
      writeFileSync(logFile, '');
      const env = cleanEnv({
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        STATIC_DIR: distDir,
        CONTENT_DIR: contentDir,
        LOG_LEVEL: options.logLevel ?? 'info',
        WORKER_STOP_SECONDS: '5',
        ...s3.env,
      });
      const fd = openSync(logFile, 'a');
      // Its own process group, so that a test can kill it with its build as a crashed machine would.
      const child = spawn(process.execPath, ['src/server/worker.ts'], {
        cwd: projectRoot,
        env,
        stdio: ['ignore', fd, fd],
        detached: true,
      });
      closeSync(fd);
      const worker = { name, logFile, child };
      workers.push(worker);
      stops.push(() => stopProcess(child));
      const deadline = Date.now() + 120_000;
      while (!readFileSync(logFile, 'utf8').includes('worker running jobs')) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`worker ${name} exited before it started:\n${tail(logFile, 30)}`);
        if (Date.now() > deadline) throw new Error(`worker ${name} did not start within 120 s:\n${tail(logFile, 30)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return worker;
    };
    for (let i = 0; i < (options.workers ?? 1); i += 1) await startWorker();

    return {
      nodes,
      databaseUrl,
      sql,
      contentDir,
      rebuildToken,
      s3,
      workers,
      startWorker,
      logTail: (node, lines = 30) => tail(node.logFile, lines),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

// ——— Calls as the browser client makes them ———

export interface CallOptions {
  cookie?: string | undefined;
  /** Sent as X-Forwarded-For (the processes run with TRUST_PROXY=1). */
  ip?: string;
  headers?: Record<string, string>;
}

export interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}

/** The client's headers: CSRF proof (X-Requested-With, same-origin Origin), cookie, address. */
export function clientHeaders(node: ClusterNode, options: CallOptions = {}): Record<string, string> {
  return {
    'X-Requested-With': 'XMLHttpRequest',
    Origin: node.origin,
    ...(options.cookie ? { Cookie: options.cookie } : {}),
    ...(options.ip ? { 'X-Forwarded-For': options.ip } : {}),
    ...options.headers,
  };
}

export async function getJson<T = Record<string, unknown>>(
  node: ClusterNode,
  pathName: string,
  options: CallOptions = {},
): Promise<Envelope<T>> {
  const response = await fetch(`${node.origin}${pathName}`, { headers: clientHeaders(node, options) });
  return (await response.json()) as Envelope<T>;
}

/** A form post (the client's default body); answers the response. */
export function postForm(
  node: ClusterNode,
  pathName: string,
  body: Record<string, string | number>,
  options: CallOptions = {},
): Promise<Response> {
  return fetch(`${node.origin}${pathName}`, {
    method: 'POST',
    headers: clientHeaders(node, {
      ...options,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...options.headers },
    }),
    body: new URLSearchParams(Object.entries(body).map(([key, value]) => [key, String(value)])).toString(),
  });
}

export async function postJson<T = Record<string, unknown>>(
  node: ClusterNode,
  pathName: string,
  body: unknown,
  options: CallOptions = {},
): Promise<Envelope<T>> {
  const response = await fetch(`${node.origin}${pathName}`, {
    method: 'POST',
    headers: clientHeaders(node, { ...options, headers: { 'Content-Type': 'application/json', ...options.headers } }),
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope<T>;
}

/** The session cookie a response sets (`hgd_sid=…`), as the API tests read it. */
export { sessionCookie };

// ——— Rebuilds and publications ———

/** The demo editor's session on a node (signed in once per node): `editorSession(node)`. */
const editorSessions = new Map<ClusterNode, Promise<string>>();

export function editorSession(node: ClusterNode): Promise<string> {
  let session = editorSessions.get(node);
  if (!session) {
    session = (async () => {
      const response = await postForm(
        node,
        '/api/front/system/login',
        { userName: 'demo_editor', password: 'Editor2025', deviceId: 'hgdweb', appCode: 'hgd' },
        { ip: '198.51.100.77' },
      );
      const cookie = sessionCookie(response);
      if (!cookie) throw new Error(`editor login on ${node.name}: ${JSON.stringify(await response.json())}`);
      return cookie;
    })();
    editorSessions.set(node, session);
  }
  return session;
}

/** An editor saves a news item as a draft in the studio on `node` (the content is the database's: the next rebuild on any node publishes it). */
export async function addNews(
  node: ClusterNode,
  newsId: string,
  title: string,
  body = `${title}：正文。`,
): Promise<void> {
  const cookie = await editorSession(node);
  const path = `news/${newsId}.md`;
  // A new item (revision 0), or the next draft of an existing one.
  const existing = await getJson<{ revision: number }>(node, `/api/studio/item?path=${encodeURIComponent(path)}`, {
    cookie,
  });
  const revision = existing.code === 200 ? existing.data.revision : 0;
  const data = {
    newsTypeCode: 'company',
    title,
    date: '2026-12-01',
    source: '集群测试',
    summary: '在一个 API 进程上保存、在另一个进程上重建、由每个进程提供的新闻。',
    body,
  };
  const answer = await postJson(node, '/api/studio/item', { path, data, revision }, { cookie });
  if (answer.code !== 200) throw new Error(`studio save on ${node.name}: ${answer.code} ${answer.message}`);
}

export interface PublicationEvent {
  buildId: number;
  /** performance.now() when the NOTIFY reached this listener, i.e. just after the commit. */
  at: number;
}

export interface PublicationListener {
  /** Resolves at the first publication of `buildId` noticed after `since` (performance.now()). */
  next(buildId: number, since: number, timeoutMs: number): Promise<PublicationEvent>;
  stop(): Promise<void>;
}

/**
 * Listens on the publication channel like every API process does: a NOTIFY arrives when the
 * transaction that records a build's success (or a rollback) commits, so its arrival is the
 * moment "rebuild finished" from which the serving nodes are timed.
 */
export async function listenToPublications(cluster: Cluster): Promise<PublicationListener> {
  const events: PublicationEvent[] = [];
  const waiters = new Set<() => void>();
  const { unlisten } = await cluster.sql.listen('site_publication', (payload) => {
    events.push({ buildId: Number(payload), at: performance.now() });
    for (const wake of waiters) wake();
  });
  return {
    next: (buildId, since, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const event = events.find((e) => e.buildId === buildId && e.at >= since);
          if (!event) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(event);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no publication of build ${buildId} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop: () => unlisten(),
  };
}

function rebuildHeaders(cluster: Cluster, node: ClusterNode): Record<string, string> {
  return clientHeaders(node, { headers: { Authorization: `Bearer ${cluster.rebuildToken}` } });
}

interface BuildView {
  buildId: number;
  status: 'running' | 'succeeded' | 'failed';
  pages: number | null;
  error: string | null;
}

/** POST /api/admin/site/rebuild on `node`; answers the new build's id. */
export async function startRebuild(
  cluster: Cluster,
  node: ClusterNode,
  options: { full?: boolean } = {},
): Promise<number> {
  const response = await fetch(`${node.origin}/api/admin/site/rebuild`, {
    method: 'POST',
    headers: { ...rebuildHeaders(cluster, node), 'Content-Type': 'application/x-www-form-urlencoded' },
    body: options.full ? 'full=1' : '',
  });
  const answer = (await response.json()) as Envelope<BuildView>;
  if (answer.code !== 200) throw new Error(`rebuild refused by ${node.name}: ${answer.code} ${answer.message}`);
  return answer.data.buildId;
}

/** GET /api/admin/site/rebuild: the latest build. */
export async function latestBuild(cluster: Cluster, node: ClusterNode): Promise<BuildView> {
  const response = await fetch(`${node.origin}/api/admin/site/rebuild`, { headers: rebuildHeaders(cluster, node) });
  return ((await response.json()) as Envelope<BuildView>).data;
}

/** POST /api/admin/site/rollback with `buildId` on `node`. */
export async function rollback(cluster: Cluster, node: ClusterNode, buildId: number): Promise<Envelope<BuildView>> {
  const response = await fetch(`${node.origin}/api/admin/site/rollback`, {
    method: 'POST',
    headers: { ...rebuildHeaders(cluster, node), 'Content-Type': 'application/json' },
    body: JSON.stringify({ buildId }),
  });
  return (await response.json()) as Envelope<BuildView>;
}

/**
 * Waits for build `buildId` (started on `node`) to be published: the NOTIFY of its success.
 * Watches the build's status meanwhile, so a failed build fails at once with its reason.
 */
export async function waitForBuild(
  cluster: Cluster,
  node: ClusterNode,
  listener: PublicationListener,
  buildId: number,
  since: number,
  timeoutMs: number,
): Promise<PublicationEvent> {
  const published = listener.next(buildId, since, timeoutMs);
  let done = false;
  const watch = (async () => {
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      if (done) return;
      const build = await latestBuild(cluster, node).catch(() => undefined);
      if (build?.buildId === buildId && build.status === 'failed') {
        throw new Error(`build ${buildId} failed on ${node.name}: ${build.error ?? '?'}\n${cluster.logTail(node)}`);
      }
    }
  })();
  try {
    return await Promise.race([published, watch.then(() => published)]);
  } finally {
    done = true;
    await watch.catch(() => {});
  }
}

/** What a node serves of one news item: its page (status, and whether the title is in it) and the content API's answer code. */
export async function newsAsServed(
  node: ClusterNode,
  newsId: string,
  title: string,
): Promise<{ page: number; titled: boolean; api: number }> {
  const [page, api] = await Promise.all([
    fetch(`${node.origin}/infomation/detail/${newsId}`, { headers: { 'Accept-Encoding': 'identity' } }),
    getJson(node, `/api/front/external/hnyData/getNewsById?newsId=${encodeURIComponent(newsId)}`),
  ]);
  const html = await page.text();
  return { page: page.status, titled: html.includes(title), api: api.code };
}

/**
 * Polls `node` every 20 ms until `served()` holds; answers the milliseconds from `since`
 * (performance.now()) to the first answer that showed it.
 */
export async function servedAfter(
  node: ClusterNode,
  since: number,
  served: () => Promise<boolean>,
  limitMs: number,
): Promise<number> {
  for (;;) {
    if (await served()) return performance.now() - since;
    if (performance.now() - since > limitMs) throw new Error(`${node.name} did not serve it within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The news item is served (page with its title, content API 200) — or, `present` false, gone from both. */
export function newsServed(node: ClusterNode, newsId: string, title: string, present = true): () => Promise<boolean> {
  return async () => {
    const seen = await newsAsServed(node, newsId, title);
    return present ? seen.page === 200 && seen.titled && seen.api === 200 : seen.page === 404 && seen.api === 404;
  };
}

/**
 * What a node's own log says its switch to `buildId` took (fetching and unpacking the build when
 * it lacked it, loading its content, swapping): the `ms` of its last "site publication switched"
 * line for that build, or undefined.
 */
export function switchLogged(node: ClusterNode, buildId: number): number | undefined {
  if (!existsSync(node.logFile)) return undefined;
  let ms: number | undefined;
  for (const line of readFileSync(node.logFile, 'utf8').split('\n')) {
    if (!line.includes('"msg":"site publication switched"')) continue;
    try {
      const entry = JSON.parse(line) as { buildId?: number; ms?: number };
      if (entry.buildId === buildId) ms = entry.ms;
    } catch {
      // not a log line of ours
    }
  }
  return ms;
}

/** Propagation of one publication: ms from its NOTIFY to each node serving it (page and content API). */
export async function propagation(
  nodes: ClusterNode[],
  event: PublicationEvent,
  servedOn: (node: ClusterNode) => () => Promise<boolean>,
  limitMs: number,
): Promise<Record<string, number>> {
  const times = await Promise.all(nodes.map((node) => servedAfter(node, event.at, servedOn(node), limitMs)));
  return Object.fromEntries(nodes.map((node, i) => [node.name, Math.round(times[i]!)]));
}
