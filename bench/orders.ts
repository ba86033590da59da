/**
 * `npm run bench -- orders`: the orders table (the table-request engine, docs/tables.md) on a
 * realistic volume, through HTTP, on the real server in its own process.
 *
 * Seeds its own database: the demo data, then 10 000 certified enterprises (each with its owner)
 * and 100 000 orders in every status over the last year, with bulk SQL (generate_series); 1 000 of
 * the orders belong to demo_company, the signed-in enterprise user. Then, for a filtered, sorted
 * page (status in 10/20/30, created in the last 60 days, newest first, 10 rows):
 *   - POST /api/front/hgdsel/order/getAntTable as demo_company (its own orders),
 *   - POST /api/ops/order/getAntTable as demo_operator (all 100 000),
 *   - the operator's 5th page with a keyword search over set, company and order number,
 * each with 1 and with 10 connections: req/s, p50, p99 (target p99 ≤ 50 ms). Every answer's
 * envelope code is checked (a 400 or 901 would make fast nonsense). Next to them: a signed-in
 * GET of the current user (what any call costs here before its own work) and the engine's own
 * time per call in-process (no HTTP, one call at a time), so a slow figure can be placed.
 *
 * On PGlite (a fresh data directory) always; on PostgreSQL as well when DATABASE_URL is set (a
 * throwaway database is created on that server and dropped afterwards). EXPLAIN ANALYZE of the
 * engine's statements for these requests is printed with `BENCH_EXPLAIN=1`.
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { loadConfig } from '../src/server/config.ts';
import type { Database } from '../src/server/db/client.ts';
import { openRuntime } from '../src/server/runtime.ts';
import { opsOrdersPage, opsOrdersTable, ownOrdersPage, ownOrdersTable } from '../src/server/services/orderTables.ts';
import { buildTableQueries, parseTableRequest } from '../src/server/table/antTable.ts';
import { chinaDate } from '../src/lib/chinaTime.ts';
import { formPostHeaders, waitFor } from './server.ts';

const enterpriseCount = 10_000;
const orderCount = 100_000;
/** Every 100th order is demo_company's. */
const demoShare = 100;
const targetP99 = 50;
const port = 4512;
const origin = `http://127.0.0.1:${port}`;

interface Scenario {
  name: string;
  path: string;
  user: 'demo_company' | 'demo_operator';
  /** Absent: a GET without a body (the baseline). */
  antTable?: Record<string, unknown>;
}

/** What any signed-in call costs here (session, user, enterprise): the floor under the table calls. */
const baseline: Scenario = {
  name: 'baseline: GET currentUser (session read)',
  path: '/api/front/user/currentUser',
  user: 'demo_company',
};

function scenarios(): Scenario[] {
  const today = chinaDate(new Date());
  const start = chinaDate(new Date(Date.now() - 60 * 86_400_000));
  const filtered = {
    pager: { current: 1, pageSize: 10 },
    filter: { status: [10, 20, 30] },
    range: { createdAt: { start, end: today } },
    sorter: [{ key: 'createdAt', sort: 'descend' }],
  };
  return [
    {
      name: 'enterprise: own orders, filtered page',
      path: '/api/front/hgdsel/order/getAntTable',
      user: 'demo_company',
      antTable: filtered,
    },
    {
      name: 'operator: all orders, filtered page',
      path: '/api/ops/order/getAntTable',
      user: 'demo_operator',
      antTable: filtered,
    },
    {
      name: 'operator: page 5 + keyword search',
      path: '/api/ops/order/getAntTable',
      user: 'demo_operator',
      antTable: { ...filtered, pager: { current: 5, pageSize: 10 }, search: { keyword: '峰谷' } },
    },
  ];
}

/**
 * The bulk data, in one transaction: owners, enterprises, orders. Names and codes cycle through
 * a few values so keyword searches and filters have realistic selectivity; created_at spreads
 * over the last year (one order every ~5 minutes).
 */
export async function seedVolume(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into users (user_name, mobile, name, password_hash, roles)
      select 'bench_' || g, '199' || lpad(g::text, 8, '0'), '基准用户' || g,
             (select password_hash from users where user_name = 'demo_company'), array['individual', 'enterprise']
      from generate_series(1, ${enterpriseCount}::int) g`);
    await tx.execute(sql`
      insert into enterprises (owner_user_id, enterprise_name, clearance_account, area_code, auth_status, auth_type, industry, reviewed_at)
      select u.id, '基准制造' || substr(u.user_name, 7) || '有限公司', 'BENCH' || lpad(substr(u.user_name, 7), 8, '0'), '440000', 2,
             'certificate', 'manufacturing', now() - interval '400 days'
      from users u where u.user_name like 'bench\\_%'`);
    // Orders: the g-th goes to the (g mod 10 000)-th bench enterprise, every 100th to demo_company's.
    await tx.execute(sql`
      with bench as (
        select e.id, e.owner_user_id, row_number() over (order by e.id) - 1 as n
        from enterprises e join users u on u.id = e.owner_user_id where u.user_name like 'bench\\_%'
      ), demo as (
        select e.id, e.owner_user_id from enterprises e join users u on u.id = e.owner_user_id where u.user_name = 'demo_company'
      ), numbered as (
        select g, now() - (g * interval '313 seconds') as created,
               (array[10, 20, 30, 40, 90, 91, 30, 40])[1 + g % 8] as status
        from generate_series(1, ${orderCount}::int) g
      )
      insert into orders (order_no, enterprise_id, user_id, area_code, product_id, set_id, set_name, selling_set_id,
                          org_com_id, org_com_name, scheme_param_id, scheme_param, contract_start, contract_months,
                          estimated_consumption, status, status_reason, deleted_at, created_at, updated_at)
      select 'HGD' || to_char(n.created at time zone 'Asia/Shanghai', 'YYYYMMDD') || lpad((800000 + n.g)::text, 6, '0'),
             coalesce(case when n.g % ${demoShare}::int = 0 then d.id end, b.id),
             coalesce(case when n.g % ${demoShare}::int = 0 then d.owner_user_id end, b.owner_user_id),
             '440000', 'P' || (n.g % 4), 'set-' || (n.g % 12),
             (array['峰谷分时套餐', '固定价格套餐', '绿电优选套餐', '市场联动套餐', '年度长协套餐', '工商业基础套餐'])[1 + n.g % 6],
             'ss-' || (n.g % 40), 'org-' || (n.g % 9),
             (array['广州明珠售电有限公司', '深圳前海能源服务有限公司', '佛山南海电力销售有限公司'])[1 + n.g % 3],
             'sp-' || (n.g % 5), jsonb_build_object('name', '方案 ' || (n.g % 5), 'priceType', 'fixed'),
             date_trunc('month', n.created + interval '40 days')::date, 12, 500 + (n.g % 5000),
             n.status, case when n.status in (90, 91) then '基准数据' else '' end,
             case when n.status in (90, 91) and n.g % 3 = 0 then n.created + interval '2 days' end,
             n.created, n.created + interval '1 day'
      from numbered n cross join demo d join bench b on b.n = n.g % ${enterpriseCount}::int`);
  });
  // Fresh statistics and visibility map, as a long-running database would have.
  await db.execute(sql`vacuum analyze users`);
  await db.execute(sql`vacuum analyze enterprises`);
  await db.execute(sql`vacuum analyze orders`);
}

const postHeaders = formPostHeaders(origin);

async function login(userName: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/front/system/login`, {
    method: 'POST',
    headers: postHeaders,
    body: new URLSearchParams({ userName, password, deviceId: 'hgdweb', appCode: 'hgd' }).toString(),
  });
  const cookie = response.headers
    .getSetCookie()
    .find((value) => value.startsWith('hgd_sid='))
    ?.split(';')[0];
  if (!cookie) throw new Error(`login of ${userName} failed: ${await response.text()}`);
  return cookie;
}

interface Measured {
  result: autocannon.Result;
  refused: number;
  totalCount: number;
}

async function measure(scenario: Scenario, cookie: string, connections: number, duration: number): Promise<Measured> {
  const method: 'GET' | 'POST' = scenario.antTable ? 'POST' : 'GET';
  const body = scenario.antTable
    ? new URLSearchParams({ antTable: JSON.stringify(scenario.antTable) }).toString()
    : undefined;
  const probe = await fetch(`${origin}${scenario.path}`, {
    method,
    headers: { ...postHeaders, Cookie: cookie },
    ...(body ? { body } : {}),
  });
  const answer = (await probe.json()) as {
    code: number;
    message: string;
    data: { totalCount?: number; result?: unknown[] };
  };
  if (answer.code !== 200) throw new Error(`${scenario.name}: code ${answer.code} ${answer.message}`);
  let refused = 0;
  const options = {
    url: `${origin}${scenario.path}`,
    connections,
    duration,
    method,
    headers: { ...postHeaders, Cookie: cookie },
    ...(body ? { body } : {}),
  };
  await autocannon({ ...options, duration: 2 }); // warm-up: plans, caches, JIT
  const result = await autocannon({
    ...options,
    requests: [
      {
        method,
        ...(body ? { body } : {}),
        onResponse: (_status, text) => void (text.startsWith('{"code":200,') || (refused += 1)),
      },
    ],
  });
  return { result, refused, totalCount: answer.data.totalCount ?? -1 };
}

function line(name: string, measured: Measured): string {
  const r = measured.result;
  const verdict = r.latency.p99 <= targetP99 ? 'ok' : `over ${targetP99} ms`;
  return `${name.padEnd(52)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(3)} ms   p99 ${String(r.latency.p99).padStart(3)} ms  ${verdict}`;
}

/**
 * The engine alone (parse, both statements, rows), called in this process one after another: the
 * part of a call's time that is the table's, without HTTP, session and the other connections.
 */
async function engineTimes(db: Database, enterpriseId: number): Promise<string[]> {
  const lines: string[] = [];
  for (const scenario of scenarios()) {
    const call = () => {
      const request = parseTableRequest(JSON.stringify(scenario.antTable ?? {}));
      const shown = (name: string) => name;
      return scenario.user === 'demo_company'
        ? ownOrdersPage(db, request, enterpriseId, shown)
        : opsOrdersPage(db, request, shown);
    };
    for (let i = 0; i < 5; i++) await call();
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1);
    lines.push(
      `${`engine only: ${scenario.name}`.padEnd(52)}  p50 ${at(0.5)} ms   p99 ${at(0.99)} ms   (100 calls in-process)`,
    );
  }
  return lines;
}

/** EXPLAIN ANALYZE of the statements the engine makes for the scenarios (BENCH_EXPLAIN=1). */
async function explain(db: Database, enterpriseId: number): Promise<void> {
  const dialect = new PgDialect();
  for (const scenario of scenarios()) {
    const request = parseTableRequest(scenario.antTable ?? {});
    const queries =
      scenario.user === 'demo_company'
        ? buildTableQueries(ownOrdersTable, request, { scope: sql`o.enterprise_id = ${enterpriseId}::int4` })
        : buildTableQueries(opsOrdersTable, request);
    for (const [part, statement] of [
      ['page', queries.page],
      ['count', queries.count],
    ] as const) {
      const query = dialect.sqlToQuery(statement);
      console.log(`\n-- ${scenario.name}: ${part}\n${query.sql}\n-- params ${JSON.stringify(query.params)}`);
      const plan = await db.execute(sql`explain (analyze, buffers off, costs off) ${statement}`);
      const rows = Array.isArray(plan) ? plan : (plan as unknown as { rows: Record<string, string>[] }).rows;
      for (const row of rows as Record<string, string>[]) console.log(Object.values(row)[0]);
    }
  }
}

export interface Target {
  label: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

/** A fresh PGlite data directory (`prefix` names it in the temporary directory). */
/** The environment of a bench's server on `target`: DATABASE_URL only for the PostgreSQL target. */
export function targetEnv(target: Target, serverPort: number): Record<string, string | undefined> {
  const { DATABASE_URL: _server, ...inherited } = process.env;
  return {
    ...inherited,
    ...target.env,
    HOST: '127.0.0.1',
    PORT: String(serverPort),
    LOG_LEVEL: 'silent',
    STATIC_DIR: target.env['DATA_DIR'],
  };
}

export async function pgliteTarget(prefix = 'hgd-bench-orders-'): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  return {
    label: 'PGlite',
    env: { DATA_DIR: dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A throwaway database on the PostgreSQL server at `serverUrl`, dropped by `cleanup`. */
export async function postgresTarget(serverUrl: string): Promise<Target> {
  const name = `hgd_bench_${randomBytes(5).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'hgd-bench-orders-pg-'));
  return {
    label: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const drop = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await drop.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await drop.end({ timeout: 5 });
      }
    },
  };
}

async function benchTarget(target: Target): Promise<void> {
  const env = targetEnv(target, port);
  // Seed in this process first (PGlite allows one process per data directory), then serve.
  const config = loadConfig(env);
  const seedStarted = performance.now();
  const runtime = await openRuntime(config);
  let enterpriseId: number;
  let engineLines: string[];
  try {
    await seedVolume(runtime.db);
    const rows = await runtime.db.execute(
      sql`select e.id from enterprises e join users u on u.id = e.owner_user_id where u.user_name = 'demo_company'`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: { id: number }[] }).rows) as {
      id: number;
    }[];
    enterpriseId = Number(list[0]?.id);
    if (process.env['BENCH_EXPLAIN'] === '1') await explain(runtime.db, enterpriseId);
    engineLines = await engineTimes(runtime.db, enterpriseId);
  } finally {
    await runtime.close();
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  let server: ChildProcess | undefined;
  try {
    server = spawn('node', ['src/server/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    await waitFor(`${origin}/api/health`, 90_000);
    const cookies = {
      demo_company: await login('demo_company', 'Company2025'),
      demo_operator: await login('demo_operator', 'Operator2025'),
    };
    console.log(
      `\n## orders table on ${target.label}: ${enterpriseCount} enterprises, ${orderCount} orders (seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)`,
    );
    for (const engineLine of engineLines) console.log(engineLine);
    let refused = 0;
    for (const scenario of [baseline, ...scenarios()]) {
      for (const connections of [1, 10]) {
        const measured = await measure(scenario, cookies[scenario.user], connections, 6);
        refused += measured.refused;
        const rows = scenario.antTable ? ` (${measured.totalCount} rows)` : '';
        const label = `${scenario.name}${rows}, ${connections} conn.`;
        console.log(line(label, measured));
      }
    }
    if (refused) console.log(`answers other than code 200: ${refused} (the figures above include refusals)`);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await target.cleanup();
  }
}

export async function benchOrders(): Promise<void> {
  await benchTarget(await pgliteTarget());
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) {
    console.log(
      '\n## orders table on PostgreSQL: skipped (set DATABASE_URL to a PostgreSQL server to measure it there)',
    );
    return;
  }
  await benchTarget(await postgresTarget(serverUrl));
}
