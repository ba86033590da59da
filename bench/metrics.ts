/**
 * `npm run bench -- metrics` (in the default run): what measuring costs. Two servers in their own
 * processes on PGlite, the same in all but one setting: METRICS_ENABLED=false (nothing measured)
 * and the default (every request, session check and statement measured, with METRICS_TOKEN set and
 * /metrics scraped every 5 s in OpenMetrics, more often than Prometheus' usual 15 s).
 * `currentUser` with a session at 200 connections, 10 s a run, the two servers taking turns in
 * four rounds, the order swapped each round (off on, on off, off on, on off), so that the machine's
 * other work and its drift fall on both alike; req/s and p99
 * of each run, their means, and the difference against the goal (≤ 5 % on both). Beside them the
 * server's CPU time per request (from /proc, all its threads: PGlite's included), the figure a
 * shared, busy machine disturbs least; and the CPU time of the instruments alone, in this process,
 * for what one session-checked request records.
 */
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/postgres.ts';
import { DatabaseMetrics, httpMetrics, sessionMetrics } from '../src/server/metrics/instruments.ts';
import { cpuTicksOf, ticksPerSecond } from './load.ts';
import { signIn, startProcess, waitFor } from './server.ts';

const currentUserPath = '/api/front/user/currentUser';
const connections = 200;
const seconds = 10;
const rounds = 4;
const scrapeEveryMs = 5_000;
/** The goal: measuring costs at most this share of throughput and of p99. */
const goal = 0.05;
const token = 'bench-metrics-token-0123456789abcdef';
const openMetricsAccept = 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5';

interface Server {
  label: string;
  origin: string;
  process: ChildProcess;
  dataDir: string;
  cookie: string;
}

async function startServer(label: string, env: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hgd-bench-metrics-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = startProcess(['src/server/main.ts'], {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STATIC_DIR: dataDir,
    ...env,
  });
  try {
    await waitFor(`${origin}/api/health`, 180_000);
    return { label, origin, process: child, dataDir, cookie: await signIn(origin, 'demo_person', 'Person2025') };
  } catch (error) {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

interface Run {
  requests: number;
  p99: number;
  errors: number;
  /** The server's CPU time per request, µs. */
  cpuUs: number;
}

async function loadOnce(server: Server): Promise<Run> {
  let refused = 0;
  const ticksBefore = cpuTicksOf(server.process.pid);
  const result = await autocannon({
    url: `${server.origin}${currentUserPath}`,
    connections,
    duration: seconds,
    headers: { Cookie: server.cookie },
    requests: [
      { onResponse: (_status: number, body: string) => void (body.startsWith('{"code":200,') || (refused += 1)) },
    ],
  });
  const cpuSeconds = (cpuTicksOf(server.process.pid) - ticksBefore) / ticksPerSecond;
  return {
    requests: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx + refused,
    cpuUs: (cpuSeconds * 1e6) / result.requests.total,
  };
}

/** Scrapes /metrics as Prometheus would while `work` runs; the largest answer and the slowest scrape. */
async function scraping<T>(
  server: Server,
  work: () => Promise<T>,
  figures: { scrapes: number; bytes: number; slowestMs: number },
): Promise<T> {
  const scrape = async () => {
    const started = performance.now();
    const response = await fetch(`${server.origin}/metrics`, {
      headers: { Authorization: `Bearer ${token}`, Accept: openMetricsAccept },
    });
    const body = await response.text();
    if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
    figures.scrapes += 1;
    figures.bytes = Math.max(figures.bytes, body.length);
    figures.slowestMs = Math.max(figures.slowestMs, performance.now() - started);
  };
  const timer = setInterval(() => void scrape().catch((error: unknown) => console.error(error)), scrapeEveryMs);
  try {
    await scrape();
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * CPU time (not wall time: the machine may be busy) of what one `currentUser` records: its session
 * statement timed, its session check counted, the request observed with its exemplar.
 */
function instrumentsCpuUs(): number {
  const http = httpMetrics();
  const sessions = sessionMetrics();
  const database = new DatabaseMetrics(10);
  const record = (index: number) => {
    database.statement('with live as (select 1) select * from live', true)();
    sessions.checked('valid');
    http.observe(
      'GET',
      currentUserPath,
      200,
      0.004 + (index % 7) / 1000,
      `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    );
  };
  for (let index = 0; index < 50_000; index += 1) record(index);
  const times = 500_000;
  const before = process.cpuUsage();
  for (let index = 0; index < times; index += 1) record(index);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / times;
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const percent = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} %`;

export async function benchMetrics(): Promise<void> {
  const servers: Server[] = [];
  try {
    const off = await startServer('metrics off', { METRICS_ENABLED: 'false' });
    servers.push(off);
    const on = await startServer('metrics on', { METRICS_TOKEN: token });
    servers.push(on);
    // Warm-up of both (JIT, PGlite's caches).
    for (const server of servers)
      await autocannon({
        url: `${server.origin}${currentUserPath}`,
        connections: 50,
        duration: 3,
        headers: { Cookie: server.cookie },
      });

    const figures = { scrapes: 0, bytes: 0, slowestMs: 0 };
    const runs: Record<'off' | 'on', Run[]> = { off: [], on: [] };
    const lines: string[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      const order =
        round % 2 === 1
          ? ([
              ['off', off],
              ['on', on],
            ] as const)
          : ([
              ['on', on],
              ['off', off],
            ] as const);
      for (const [key, server] of order) {
        const run = key === 'on' ? await scraping(server, () => loadOnce(server), figures) : await loadOnce(server);
        runs[key].push(run);
        lines.push(
          `round ${round}  ${server.label.padEnd(12)} ${run.requests.toFixed(0).padStart(6)} req/s   p99 ${String(run.p99).padStart(4)} ms   server CPU ${run.cpuUs.toFixed(0).padStart(4)} µs/request   errors ${run.errors}`,
        );
      }
    }
    const offRate = mean(runs.off.map((run) => run.requests));
    const onRate = mean(runs.on.map((run) => run.requests));
    const offP99 = mean(runs.off.map((run) => run.p99));
    const onP99 = mean(runs.on.map((run) => run.p99));
    const offCpu = mean(runs.off.map((run) => run.cpuUs));
    const onCpu = mean(runs.on.map((run) => run.cpuUs));
    const slower = (offRate - onRate) / offRate;
    const laterP99 = (onP99 - offP99) / offP99;
    const met = slower <= goal && laterP99 <= goal;

    console.log(
      `\n## metrics overhead: currentUser (session) at ${connections} connections, ${seconds} s a run, PGlite, servers in their own processes`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)`,
    );
    for (const line of lines) console.log(line);
    console.log(
      `mean  metrics off ${offRate.toFixed(0)} req/s, p99 ${offP99.toFixed(1)} ms;  metrics on ${onRate.toFixed(0)} req/s, p99 ${onP99.toFixed(1)} ms`,
    );
    console.log(
      `measuring costs ${percent(slower)} of throughput, ${percent(laterP99)} on p99 (goal ≤ 5 % each: ${met ? 'met' : 'MISSED'})`,
    );
    console.log(
      `server CPU per request: ${offCpu.toFixed(0)} µs off, ${onCpu.toFixed(0)} µs on (${percent((onCpu - offCpu) / offCpu)})`,
    );
    console.log(
      `the instruments alone (in-process, CPU time): ${instrumentsCpuUs().toFixed(2)} µs per session-checked request`,
    );
    console.log(
      `/metrics during the runs: ${figures.scrapes} scrapes (OpenMetrics), largest ${(figures.bytes / 1024).toFixed(1)} KB, slowest ${figures.slowestMs.toFixed(0)} ms`,
    );
  } finally {
    for (const server of servers) server.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const server of servers) rmSync(server.dataDir, { recursive: true, force: true });
  }
}
