/**
 * GET /metrics (metrics/endpoint.ts) on the in-process app: its guard, what it measures (requests
 * by route pattern and status class, session checks, rate-limit refusals, statements, queue
 * depth), both formats (promtool reads the classic one; OpenMetrics carries the request id as an
 * exemplar), the access log's route, the METRICS_PORT listener, and the worker's metrics.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/postgres.ts';
import { checkMetrics, ensurePromtool } from '../../scripts/promtool.ts';
import { databaseMetricsOf } from '../../src/server/db/client.ts';
import { scheduleQueue } from '../../src/server/jobs/queue.ts';
import { createLogger } from '../../src/server/logger.ts';
import { listenForMetrics } from '../../src/server/metrics/endpoint.ts';
import { createMetricsRegistry } from '../../src/server/metrics/registry.ts';
import { currentRelease } from '../../src/server/release.ts';
import { hitLimit } from '../../src/server/services/rateLimit.ts';
import { newSessionToken, sessionCookieName } from '../../src/server/session.ts';
import type { BuildCommand } from '../../src/server/site/buildCommand.ts';
import { apiHeaders, createTestApp, openPerFile, testPoolMax } from './harness.ts';

const token = 'metrics-test-token-0123456789abcdef';
const lines: string[] = [];
const t = openPerFile(() =>
  createTestApp({
    env: { METRICS_TOKEN: token },
    logger: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }),
  }),
);

const openMetricsAccept =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

async function scrape(accept?: string): Promise<Response> {
  return t.app.request('/metrics', {
    headers: { Authorization: `Bearer ${token}`, ...(accept ? { Accept: accept } : {}) },
  });
}

async function exposition(accept?: string): Promise<string> {
  const response = await scrape(accept);
  expect(response.status).toBe(200);
  return response.text();
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** The exemplar's labels (OpenMetrics only). */
  exemplar?: Record<string, string>;
}

function labelsOf(text: string | undefined): Record<string, string> {
  return Object.fromEntries(
    [...(text ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((match) => [match[1]!, match[2]!]),
  );
}

function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)(?:\{([^}]*)\})? (\S+)(?: # \{([^}]*)\})?/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      return {
        name: match[1]!,
        labels: labelsOf(match[2]),
        value: Number(match[3]),
        ...(match[4] === undefined ? {} : { exemplar: labelsOf(match[4]) }),
      };
    });
}

/** The samples of `name` whose labels include `labels`. */
function find(text: string, name: string, labels: Record<string, string> = {}): Sample[] {
  return samples(text).filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

const valueOf = (text: string, name: string, labels: Record<string, string> = {}) =>
  find(text, name, labels).reduce((sum, sample) => sum + sample.value, 0);

describe('GET /metrics guard', () => {
  it('does not exist without METRICS_TOKEN (404, as an unknown path)', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.app.request('/metrics', { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('Not Found');
    } finally {
      await plain.close();
    }
  });

  it('answers 401 without the token, with a wrong one or another scheme, and 200 with it', async () => {
    for (const authorization of [undefined, `Bearer ${token}x`, 'Bearer short', `Basic ${token}`]) {
      const response = await t.app.request(
        '/metrics',
        authorization ? { headers: { Authorization: authorization } } : {},
      );
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain('hgd_');
    }
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('# HELP http_request_duration_seconds');
  });

  it('measures nothing and serves nothing with METRICS_ENABLED=false', async () => {
    const off = await createTestApp({ env: { METRICS_ENABLED: 'false' } });
    try {
      expect((await off.app.request('/metrics')).status).toBe(404);
      expect(databaseMetricsOf(off.db)).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

describe('what it measures', () => {
  it('labels requests by route pattern, never the raw URL: two ids, one series', async () => {
    await t.app.request('/api/front/external/hnyData/getNewsById?newsId=n-0001');
    await t.app.request('/api/front/external/hnyData/getNewsById?newsId=n-0002');
    await t.app.request('/api/front/news/1001');
    await t.app.request('/api/front/news/1002');
    const text = await exposition();
    const news = find(text, 'http_request_duration_seconds_count', {
      route: '/api/front/external/hnyData/getNewsById',
    });
    expect(news).toHaveLength(1);
    expect(news[0]).toMatchObject({ labels: { method: 'GET', status_class: '2xx' }, value: 2 });
    // Unknown /api paths share one label value.
    expect(find(text, 'http_request_duration_seconds_count', { route: 'unmatched' })).toEqual([
      {
        name: 'http_request_duration_seconds_count',
        labels: { method: 'GET', route: 'unmatched', status_class: '4xx' },
        value: 2,
      },
    ]);
    expect(text).not.toContain('n-0001');
    expect(text).not.toContain('/api/front/news/');
  });

  it('counts status classes (the refused scrapes are 4xx of /metrics itself)', async () => {
    const text = await exposition();
    expect(
      valueOf(text, 'http_request_duration_seconds_count', { route: '/metrics', status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(4);
    expect(
      valueOf(text, 'http_request_duration_seconds_count', { route: '/metrics', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    // Buckets from 5 ms to 10 s, and +Inf.
    const buckets = find(text, 'http_request_duration_seconds_bucket', { route: '/metrics', status_class: '2xx' }).map(
      (sample) => sample.labels['le'],
    );
    expect(buckets).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
  });

  it('counts session checks by outcome', async () => {
    const before = await exposition();
    const cookie = await t.login('demo_person');
    await t.app.request('/api/front/user/currentUser', { headers: { Cookie: cookie } });
    await t.app.request('/api/front/user/currentUser');
    await t.app.request('/api/front/user/currentUser', {
      headers: { Cookie: `${sessionCookieName}=${newSessionToken()}` },
    });
    await t.app.request('/api/front/user/currentUser', { headers: { Cookie: `${sessionCookieName}=not-a-token` } });
    const after = await exposition();
    for (const outcome of ['valid', 'missing', 'expired', 'malformed']) {
      const delta =
        valueOf(after, 'hgd_session_checks_total', { outcome }) -
        valueOf(before, 'hgd_session_checks_total', { outcome });
      expect(delta, outcome).toBe(1);
    }
  });

  it('counts a rate-limit refusal by the rule name', async () => {
    const rule = { name: 'metrics.test', limit: 1, windowSeconds: 60 };
    expect((await hitLimit(t.db, rule, 'subject')).allowed).toBe(true);
    expect((await hitLimit(t.db, rule, 'subject')).allowed).toBe(false);
    expect(valueOf(await exposition(), 'hgd_rate_limit_refusals_total', { rule: 'metrics.test' })).toBe(1);
  });

  it('times statements by operation and shows the pool', async () => {
    const text = await exposition();
    // The session check is one statement with a CTE.
    expect(valueOf(text, 'hgd_db_statement_duration_seconds_count', { operation: 'with' })).toBeGreaterThan(0);
    expect(valueOf(text, 'hgd_db_statement_duration_seconds_count', { operation: 'insert' })).toBeGreaterThan(0);
    expect(
      find(text, 'hgd_db_statement_duration_seconds_count').every((sample) =>
        ['select', 'insert', 'update', 'delete', 'with', 'other', 'transaction'].includes(sample.labels['operation']!),
      ),
    ).toBe(true);
    expect(valueOf(text, 'hgd_db_pool_size')).toBe(testPoolMax[t.kind]);
    expect(find(text, 'hgd_db_pool_in_use')).toHaveLength(1);
    expect(find(text, 'hgd_db_pool_waiting')).toHaveLength(1);
  });

  it('reads the queue depth when scraped', async () => {
    await t.jobs.send(scheduleQueue, { itemId: 'metrics-test' }, { startAfter: new Date(Date.now() + 3_600_000) });
    // A reading is kept for 5 s; the first scrapes of this file may have found no queue yet.
    let deferred = 0;
    for (
      const started = Date.now();
      Date.now() - started < 8_000;
      await new Promise((resolve) => setTimeout(resolve, 500))
    ) {
      deferred = valueOf(await exposition(), 'hgd_queue_jobs', { queue: scheduleQueue, state: 'deferred' });
      if (deferred > 0) break;
    }
    expect(deferred).toBe(1);
    const text = await exposition();
    expect(
      find(text, 'hgd_queue_jobs', { queue: 'site-build' })
        .map((sample) => sample.labels['state'])
        .sort(),
    ).toEqual(['active', 'deferred', 'waiting']);
  });

  it('serves the site and process figures', async () => {
    const text = await exposition();
    for (const outcome of ['succeeded', 'failed'])
      expect(find(text, 'hgd_site_builds_total', { purpose: 'publish', outcome })).toHaveLength(1);
    expect(find(text, 'hgd_site_publication_switches_total', { outcome: 'failed' })).toHaveLength(1);
    expect(find(text, 'hgd_site_served_build')).toHaveLength(1);
    for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes'])
      expect(find(text, name), name).toHaveLength(1);
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it("names the release: one hgd_build_info series of 1, labelled with package.json's version and the commit", async () => {
    const { version } = JSON.parse(await readFile(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    const { commit } = currentRelease();
    expect(commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
    const text = await exposition();
    expect(text).toContain('# TYPE hgd_build_info gauge');
    expect(find(text, 'hgd_build_info')).toEqual([{ name: 'hgd_build_info', labels: { version, commit }, value: 1 }]);
    // The same as health says.
    const health = (await (await t.app.request('/api/health/live')).json()) as { data: Record<string, unknown> };
    expect(health.data).toMatchObject({ version, commit });
  });
});

describe('site builds and publications', () => {
  it('counts builds by outcome, times the successful ones, and shows the switch to the build served', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'hgd-metrics-build-'));
    const dist = path.join(root, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>old</title>');
    let fail = false;
    const command: BuildCommand = async ({ outDir }) => {
      if (fail) throw new Error('the build broke');
      await writeFile(path.join(outDir, 'index.html'), '<!doctype html><title>new</title>');
    };
    const rebuildToken = 'metrics-rebuild-token-0123456789abcdef';
    const builder = await createTestApp({
      staticDir: dist,
      env: { DATA_DIR: path.join(root, 'data'), REBUILD_TOKEN: rebuildToken, METRICS_TOKEN: token },
      deps: { siteBuild: { command } },
    });
    const rebuild = async () => {
      const started = (await (
        await builder.app.request('/api/admin/site/rebuild', {
          method: 'POST',
          headers: apiHeaders({ Authorization: `Bearer ${rebuildToken}` }),
        })
      ).json()) as { data: { buildId: number } };
      for (let attempt = 0; attempt < 400; attempt += 1) {
        const latest = (await (
          await builder.app.request('/api/admin/site/rebuild', { headers: { Authorization: `Bearer ${rebuildToken}` } })
        ).json()) as { data: { status: string } };
        if (latest.data.status !== 'running') return started.data.buildId;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the rebuild did not finish');
    };
    const read = async () =>
      (await builder.app.request('/metrics', { headers: { Authorization: `Bearer ${token}` } })).text();
    try {
      const before = Date.now() / 1000;
      const published = await rebuild();
      fail = true;
      await rebuild();
      const text = await read();
      expect(valueOf(text, 'hgd_site_builds_total', { purpose: 'publish', outcome: 'succeeded' })).toBe(1);
      expect(valueOf(text, 'hgd_site_builds_total', { purpose: 'publish', outcome: 'failed' })).toBe(1);
      expect(valueOf(text, 'hgd_site_build_duration_seconds_count', { purpose: 'publish' })).toBe(1);
      expect(
        valueOf(text, 'hgd_site_build_last_success_timestamp_seconds', { purpose: 'publish' }),
      ).toBeGreaterThanOrEqual(Math.floor(before));
      expect(valueOf(text, 'hgd_site_publication_switches_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'hgd_site_publication_last_switch_timestamp_seconds')).toBeGreaterThanOrEqual(
        Math.floor(before),
      );
      expect(valueOf(text, 'hgd_site_served_build')).toBe(published);
    } finally {
      await builder.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('formats', () => {
  it('serves OpenMetrics when asked, with the request id of a request as the exemplar of its bucket', async () => {
    const requestId = 'metrics-exemplar-0001';
    await t.app.request('/api/front/help/document/client/getHelpCenter', { headers: { 'X-Request-Id': requestId } });
    const response = await scrape(openMetricsAccept);
    expect(response.headers.get('content-type')).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const text = await response.text();
    expect(text.endsWith('# EOF\n')).toBe(true);
    const withExemplar = find(text, 'http_request_duration_seconds_bucket', {
      route: '/api/front/help/document/client/getHelpCenter',
    }).filter((sample) => sample.exemplar);
    expect(withExemplar.map((sample) => sample.exemplar)).toEqual([{ request_id: requestId }]);
    // Counters as OpenMetrics names them: the family without `_total`, its samples with it.
    expect(text).toContain('# TYPE hgd_session_checks counter');
    expect(text).toMatch(/^hgd_session_checks_total\{outcome="valid"\} \d+$/m);
    // The classic format carries no exemplar.
    expect(await exposition()).not.toContain(requestId);
  });

  it('passes promtool check metrics, after an OpenMetrics scrape too', async () => {
    const promtool = await ensurePromtool();
    await scrape(openMetricsAccept);
    const text = await exposition();
    expect(text).toContain('# TYPE hgd_session_checks_total counter');
    const { code, output } = await checkMetrics(promtool, text);
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 120_000);
});

/**
 * The series docs/deployment.md's Metrics table documents for an API process (`API` or `both`),
 * each with the label names its third column gives: the backquoted names before the first
 * `name`: (what follows a colon are values), parenthesised values left out.
 */
async function documentedApiSeries(): Promise<{ name: string; type: string; labels: string[] }[]> {
  const docs = await readFile(path.join(import.meta.dirname, '../../docs/deployment.md'), 'utf8');
  const section = docs.slice(docs.indexOf('\n## Metrics'), docs.indexOf('\n## ', docs.indexOf('\n## Metrics') + 1));
  return [...section.matchAll(/^\| `(\w+)` \| (\w+)[^|]* \| ([^|]*) \| [^|]* \| ([^|]*) \|$/gm)]
    .filter((row) => /^(API|both)\b/.test(row[4]!.trim()))
    .map((row) => {
      const column = row[3]!.replace(/\([^)]*\)/g, '');
      const colon = column.search(/`\w+`:/);
      const names = colon === -1 ? column : column.slice(0, column.indexOf(':', colon));
      return { name: row[1]!, type: row[2]!, labels: [...names.matchAll(/`(\w+)`/g)].map((match) => match[1]!) };
    });
}

describe('page and API traffic', () => {
  it("labels the published site's files `static`, and shows every documented series with its labels, as promtool reads them", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'hgd-metrics-site-'));
    await mkdir(path.join(root, 'welcome/home'), { recursive: true });
    await writeFile(path.join(root, 'welcome/home/index.html'), '<!doctype html><title>home</title>');
    await writeFile(path.join(root, 'robots.txt'), 'User-agent: *\n');
    const site = await createTestApp({ staticDir: root, env: { METRICS_TOKEN: token } });
    try {
      for (const url of ['/welcome/home', '/welcome/home', '/robots.txt', '/no/such/page']) await site.app.request(url);
      await site.app.request('/api/front/help/document/client/getHelpCenter');
      await site.app.request('/api/front/no/such/call');
      const text = await (await site.app.request('/metrics', { headers: { Authorization: `Bearer ${token}` } })).text();
      const requests = find(text, 'http_request_duration_seconds_count');
      expect(valueOf(text, 'http_request_duration_seconds_count', { route: 'static' })).toBe(4);
      expect(find(text, 'http_request_duration_seconds_count', { route: 'unmatched' })).toHaveLength(1);
      expect(requests.map((sample) => sample.labels['route'])).not.toContain('/*');
      expect(
        requests.every(
          (sample) =>
            sample.labels['route'] === 'static' ||
            sample.labels['route']!.startsWith('/api/') ||
            sample.labels['route'] === 'unmatched',
        ),
      ).toBe(true);

      const documented = await documentedApiSeries();
      expect(documented.map((series) => series.name)).toContain('http_request_duration_seconds');
      for (const series of documented) {
        expect(text, series.name).toContain(`# TYPE ${series.name} ${series.type}`);
        const own = samples(text).filter(
          (sample) => sample.name === series.name || sample.name === `${series.name}_count`,
        );
        for (const sample of own)
          expect(Object.keys(sample.labels).sort(), series.name).toEqual([...series.labels].sort());
      }
      const { code, output } = await checkMetrics(await ensurePromtool(), text);
      expect(output).toBe('');
      expect(code).toBe(0);
    } finally {
      await site.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the access log', () => {
  it('carries the route pattern beside the path, the duration and the user id', async () => {
    lines.length = 0;
    const cookie = await t.login('demo_person');
    const known = await t.app.request('/api/front/user/currentUser', { headers: { Cookie: cookie } });
    await t.app.request('/api/front/news/1003');
    const entries = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['msg'] === 'request');
    expect(entries[0]).toMatchObject({
      path: '/api/front/user/currentUser',
      route: '/api/front/user/currentUser',
      status: 200,
      userId: expect.any(Number),
      reqId: known.headers.get('x-request-id'),
    });
    expect(entries[0]?.['ms']).toEqual(expect.any(Number));
    expect(entries[1]).toMatchObject({ path: '/api/front/news/1003', route: 'unmatched', status: 404 });
  });

  it('keeps the route of a known call that a middleware refused (a CSRF refusal)', async () => {
    lines.length = 0;
    await t.app.request('/api/front/system/logout', { method: 'POST' });
    const entry = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line['msg'] === 'request');
    expect(entry?.['route']).toBe('/api/front/system/logout');
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics alone on a listener of its own, behind the token when one is set', async () => {
    const registry = createMetricsRegistry();
    registry.add(databaseMetricsOf(t.db));
    const open = await listenForMetrics(registry, {
      metricsToken: undefined,
      metricsPort: await freePort(),
      metricsHost: '127.0.0.1',
    });
    const guarded = await listenForMetrics(registry, {
      metricsToken: token,
      metricsPort: await freePort(),
      metricsHost: '127.0.0.1',
    });
    try {
      const base = `http://127.0.0.1:${open!.address().port}`;
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(`hgd_db_pool_size ${testPoolMax[t.kind]}`);
      expect((await fetch(`${base}/api/front/user/currentUser`)).status).toBe(404);
      const guardedUrl = `http://127.0.0.1:${guarded!.address().port}/metrics`;
      expect((await fetch(guardedUrl)).status).toBe(401);
      expect((await fetch(guardedUrl, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await open?.close(1_000);
      await guarded?.close(1_000);
    }
  });
});

describe('the worker', () => {
  it('serves its builds, publications, queue and database on METRICS_PORT', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'hgd-metrics-worker-'));
    const port = await freePort();
    const worker = spawn('node', ['src/server/worker.ts'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        METRICS_PORT: String(port),
        METRICS_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        SITE_POLL_SECONDS: '60',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    worker.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      let text = '';
      for (
        const started = Date.now();
        Date.now() - started < 150_000 && worker.exitCode === null;
        await new Promise((resolve) => setTimeout(resolve, 500))
      ) {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
        if (response?.ok) {
          text = await response.text();
          // Its queue was started: the depth can be read.
          if (find(text, 'hgd_queue_jobs').length > 0) break;
        }
      }
      expect(text, stderr).toContain('hgd_site_builds_total{purpose="publish",outcome="succeeded"} 0');
      expect(find(text, 'hgd_queue_jobs', { queue: 'site-build', state: 'waiting' })).toHaveLength(1);
      expect(find(text, 'hgd_site_served_build')).toHaveLength(1);
      expect(find(text, 'hgd_build_info', { version: currentRelease().version })).toHaveLength(1);
      expect(valueOf(text, 'hgd_db_statement_duration_seconds_count')).toBeGreaterThan(0);
      expect(find(text, 'http_request_duration_seconds_count')).toHaveLength(0);
    } finally {
      if (worker.exitCode === null) {
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        worker.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
