/**
 * `npm run bench -- partner`: the partner area on a million settlement rows, on PGlite
 * and, when DATABASE_URL is set, on PostgreSQL (a throwaway database on that server).
 *
 * Data: the demo seed, then a second forest of five banks (head office > five provincial branches
 * > ten sub-branches each, ~280 institutions, ~310 with the demo's), enterprises referred round
 * robin by every sub-branch, their orders and the settlement results of the 24 months up to last
 * month with the roll-up, all by the demo's own generator (seed/demoPartners.ts: bulk
 * `insert … select … generate_series`, one statement per month for the settlements) in one
 * transaction; then VACUUM ANALYZE. BENCH_PARTNER_ROWS sets the size (default 1 000 000; develop
 * with 50 000). `bench_hq` (password Bank2025) is related to every head office: it sees all rows.
 *
 * Measured, in this process (the app called without a socket, one call at a time, 100 calls) and
 * over HTTP (the server in its own process, autocannon, 1 and 10 connections), with every
 * answer's envelope code checked:
 *   - the settlement table as a branch user (demo_partner, ICBC 广东省分行): last 3 months,
 *     newest first, 10 rows; and the same with an enterprise keyword (target p99 ≤ 50 ms);
 *   - statistics by year and by month, comparison of 3 institutions, trend over 12 months, as
 *     bench_hq over the whole forest (target p99 ≤ 200 ms);
 *   - the settlement export at ~25 000, 50 000 and 100 000 rows: time, and peak RSS and heap
 *     (sampled every 20 ms, over the level after a GC) in this process; the 100 000-row export's
 *     time and server RSS over HTTP too. Memory should not grow with the rows (streamed).
 * BENCH_EXPLAIN=1 prints EXPLAIN ANALYZE of the settlement table's statements;
 * BENCH_PARTNER_PGLITE=0 skips PGlite (PostgreSQL only).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq, inArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { rowsOf, type Database } from '../src/server/db/client.ts';
import {
  demoInstitutionTree,
  generatePartnerVolume,
  insertInstitutions,
  settlementWindow,
  type InstitutionSpec,
} from '../src/server/seed/demoPartners.ts';
import { partnerAccounts, partnerInstitutions, users } from '../src/server/db/schema/index.ts';
import { createLogger } from '../src/server/logger.ts';
import { openRuntime } from '../src/server/runtime.ts';
import { contentStore } from '../src/server/services/contentStore.ts';
import { partnerScopeOf } from '../src/server/services/partnerScope.ts';
import { settlementTable } from '../src/server/services/settlementTable.ts';
import { createSession, sessionCookieName, sessionPolicy } from '../src/server/session.ts';
import { buildTableQueries, parseTableRequest } from '../src/server/table/antTable.ts';
import { addMonths } from '../src/lib/schemas/order.ts';
import { pgliteTarget, postgresTarget, targetEnv, type Target } from './orders.ts';
import { formPostHeaders, signIn, waitFor } from './server.ts';

const targetRows = Number(process.env['BENCH_PARTNER_ROWS'] ?? 1_000_000);
/** Settlement rows per generated enterprise, as the generator's spread gives them (measured). */
const rowsPerEnterprise = 12.4;
const tablePath = '/api/front/hgdsel/settlementbuyresult/getSettlementAntTable';
const exportPath = '/api/front/hgdsel/settlementbuyresult/exportSettlementAntTable';
const analysisBase = '/api/front/hgdarc/partner';
const port = 4611;
const origin = `http://127.0.0.1:${port}`;
const targets = { table: 50, analysis: 200 } as const;
const exportSizes = [25_000, 50_000, 100_000] as const;

// ---------------------------------------------------------------------------------------------
// The bench's institutions

const banks: readonly { code: string; name: string; address: string; phone: string }[] = [
  { code: '0103', name: '中国农业银行股份有限公司', address: '北京市东城区建国门内大街 69 号', phone: '010-85109619' },
  { code: '0104', name: '中国银行股份有限公司', address: '北京市西城区复兴门内大街 1 号', phone: '010-66596688' },
  { code: '0301', name: '交通银行股份有限公司', address: '上海市浦东新区银城中路 188 号', phone: '021-58781234' },
  { code: '0308', name: '招商银行股份有限公司', address: '深圳市福田区深南大道 7088 号', phone: '0755-83198888' },
  { code: '0403', name: '中国邮政储蓄银行股份有限公司', address: '北京市西城区金融大街 3 号', phone: '010-68858888' },
];

/** Province, its branch's city, and ten sub-branches: [city, city code (GB/T 2260, 4 digits), district]. */
const provinces: readonly {
  areaCode: string;
  branch: string;
  city: string;
  phone: string;
  subs: readonly [string, string, string][];
}[] = [
  {
    areaCode: '440000',
    branch: '广东省分行',
    city: '广州',
    phone: '020',
    subs: [
      ['广州', '4401', '天河'],
      ['广州', '4401', '越秀'],
      ['广州', '4401', '海珠'],
      ['广州', '4401', '白云'],
      ['广州', '4401', '番禺'],
      ['深圳', '4403', '福田'],
      ['深圳', '4403', '南山'],
      ['深圳', '4403', '罗湖'],
      ['佛山', '4406', '南海'],
      ['东莞', '4419', '莞城'],
    ],
  },
  {
    areaCode: '450000',
    branch: '广西区分行',
    city: '南宁',
    phone: '0771',
    subs: [
      ['南宁', '4501', '青秀'],
      ['南宁', '4501', '兴宁'],
      ['南宁', '4501', '江南'],
      ['南宁', '4501', '西乡塘'],
      ['柳州', '4502', '城中'],
      ['柳州', '4502', '鱼峰'],
      ['桂林', '4503', '秀峰'],
      ['桂林', '4503', '七星'],
      ['梧州', '4504', '万秀'],
      ['北海', '4505', '海城'],
    ],
  },
  {
    areaCode: '460000',
    branch: '海南省分行',
    city: '海口',
    phone: '0898',
    subs: [
      ['海口', '4601', '龙华'],
      ['海口', '4601', '美兰'],
      ['海口', '4601', '秀英'],
      ['海口', '4601', '琼山'],
      ['三亚', '4602', '吉阳'],
      ['三亚', '4602', '天涯'],
      ['三亚', '4602', '海棠'],
      ['儋州', '4604', '那大'],
      ['琼海', '4690', '嘉积'],
      ['文昌', '4690', '文城'],
    ],
  },
  {
    areaCode: '520000',
    branch: '贵州省分行',
    city: '贵阳',
    phone: '0851',
    subs: [
      ['贵阳', '5201', '云岩'],
      ['贵阳', '5201', '南明'],
      ['贵阳', '5201', '观山湖'],
      ['贵阳', '5201', '花溪'],
      ['六盘水', '5202', '钟山'],
      ['遵义', '5203', '汇川'],
      ['遵义', '5203', '红花岗'],
      ['安顺', '5204', '西秀'],
      ['毕节', '5205', '七星关'],
      ['铜仁', '5206', '碧江'],
    ],
  },
  {
    areaCode: '530000',
    branch: '云南省分行',
    city: '昆明',
    phone: '0871',
    subs: [
      ['昆明', '5301', '五华'],
      ['昆明', '5301', '盘龙'],
      ['昆明', '5301', '官渡'],
      ['昆明', '5301', '西山'],
      ['曲靖', '5303', '麒麟'],
      ['玉溪', '5304', '红塔'],
      ['丽江', '5307', '古城'],
      ['红河', '5325', '蒙自'],
      ['西双版纳', '5328', '景洪'],
      ['大理', '5329', '下关'],
    ],
  },
];

const contacts = ['陈建华', '李晓梅', '黄志刚', '张丽娟', '王海涛', '刘秀英', '杨国强', '赵敏', '周俊杰', '吴静'];

/** Five banks × five provincial branches × ten sub-branches, codes bank + city + number. */
export function benchInstitutionTree(): InstitutionSpec[] {
  return banks.map((bank, b) => ({
    code: `${bank.code}000000`,
    name: bank.name,
    areaCode: null,
    city: '北京',
    address: bank.address,
    phone: bank.phone,
    contactName: contacts[b % contacts.length]!,
    children: provinces.map((province, p) => {
      const perCity = new Map<string, number>();
      return {
        code: `${bank.code}${province.areaCode.slice(0, 2)}0000`,
        name: province.branch,
        areaCode: province.areaCode,
        city: province.city,
        address: `${province.city}市${province.subs[0]![2]}区金融大道 ${10 + b * 7 + p} 号`,
        phone: `${province.phone}-8${String(b * 1_000_000 + p * 1000 + 8888).padStart(7, '0')}`,
        contactName: contacts[(b + p + 1) % contacts.length]!,
        children: province.subs.map(([city, cityCode, district], s) => {
          const number = (perCity.get(cityCode) ?? 0) + 1;
          perCity.set(cityCode, number);
          return {
            code: `${bank.code}${cityCode}${String(number).padStart(2, '0')}`,
            name: `${city}${district}支行`,
            areaCode: province.areaCode,
            city,
            address: `${city}市${district}区人民路 ${100 + s * 13 + b} 号`,
            phone: `${province.phone}-6${String(b * 100_000 + p * 1000 + s * 10 + 1234).padStart(7, '0')}`,
            contactName: contacts[(b + p + s) % contacts.length]!,
          };
        }),
      };
    }),
  }));
}

// ---------------------------------------------------------------------------------------------
// Data

interface Volume {
  institutions: number;
  enterprises: number;
  orders: number;
  settlements: number;
  seconds: number;
}

/** The bulk data, in one transaction (see the header); returns what was written. */
export async function seedPartnerVolume(db: Database, rows: number): Promise<Volume> {
  const started = performance.now();
  const written = await db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    const tree = await insertInstitutions(tx, benchInstitutionTree());
    // The demo's sub-branches take their share too, so demo_partner's branch has a bank branch's volume.
    const cities = new Map(
      demoInstitutionTree.flatMap((root) =>
        (root.children ?? []).flatMap((branch) => (branch.children ?? []).map((sub) => [sub.code, sub.city] as const)),
      ),
    );
    const demoSubs = (
      await tx
        .select()
        .from(partnerInstitutions)
        .where(inArray(partnerInstitutions.code, [...cities.keys()]))
    ).map((row) => ({
      id: row.id,
      areaCode: row.areaCode,
      city: cities.get(row.code)!,
    }));
    const referrers = [...tree.filter((row) => row.level === 3), ...demoSubs];
    const volume = await generatePartnerVolume(tx, contentStore.current(), {
      enterprises: Math.max(1, Math.round(rows / rowsPerEnterprise)),
      referrers,
      userPrefix: 'bench_ent_',
      mobilePrefix: '136',
      accountPrefix: '0320',
      operatorId: null,
      history: false,
      monthsPerBatch: 1,
      seed: 2,
    });
    // bench_hq: related to every head office (demo_bank's password).
    const [bank] = await tx.select().from(users).where(eq(users.userName, 'demo_bank'));
    const [hq] = await tx
      .insert(users)
      .values({
        userName: 'bench_hq',
        mobile: '13599990000',
        name: '基准总行用户',
        passwordHash: bank!.passwordHash,
        roles: ['partner'],
      })
      .returning({ id: users.id });
    const roots = await tx.select().from(partnerInstitutions).where(eq(partnerInstitutions.level, 1));
    await tx
      .insert(partnerAccounts)
      .values(
        roots.map((root, i) => ({ userId: hq!.id, partnerId: root.id, empId: `HQ${String(i + 1).padStart(4, '0')}` })),
      );
    const [count] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int4 as n from partner_institutions`));
    return { ...volume, institutions: count!.n };
  });
  for (const table of [
    'settlement_results',
    'settlement_monthly',
    'orders',
    'enterprises',
    'users',
    'partner_institutions',
    'partner_accounts',
  ]) {
    await db.execute(sql.raw(`vacuum analyze ${table}`));
  }
  return {
    institutions: written.institutions,
    enterprises: written.enterprises,
    orders: written.orders,
    settlements: written.settlements,
    seconds: (performance.now() - started) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// Scenarios

type BenchUser = 'demo_partner' | 'bench_hq';
const passwords: Record<BenchUser, string> = { demo_partner: 'Partner2025', bench_hq: 'Bank2025' };

interface Scenario {
  name: string;
  path: string;
  user: BenchUser;
  target: number;
  body: Record<string, string>;
}

interface Ids {
  /** Three institutions to compare: three of the bench banks' head offices. */
  compare: number[];
  /** The export's institution: one bench bank (a fifth of the rows or so). */
  exportPartner: number;
}

function scenarios(ids: Ids): Scenario[] {
  const { last } = settlementWindow();
  const lastThree = { start: addMonths(last, -2), end: last };
  const page = { pager: { current: 1, pageSize: 10 } };
  const table = { ...page, range: { settleMonth: lastThree }, sorter: [{ key: 'settleMonth', sort: 'descend' }] };
  const year = last.slice(0, 4);
  return [
    {
      name: 'table: branch, last 3 months, newest first',
      path: tablePath,
      user: 'demo_partner',
      target: targets.table,
      body: { antTable: JSON.stringify(table) },
    },
    {
      name: 'table: the same + enterprise keyword',
      path: tablePath,
      user: 'demo_partner',
      target: targets.table,
      body: { antTable: JSON.stringify({ ...table, search: { keyword: '精密' } }) },
    },
    {
      name: `statistics: year ${year}, whole forest`,
      path: `${analysisBase}/getStaDataAntTable`,
      user: 'bench_hq',
      target: targets.analysis,
      body: { antTable: JSON.stringify(page), yearType: '1', period: year },
    },
    {
      name: `statistics: month ${last}, whole forest`,
      path: `${analysisBase}/getStaDataAntTable`,
      user: 'bench_hq',
      target: targets.analysis,
      body: { antTable: JSON.stringify(page), yearType: '2', period: last },
    },
    {
      name: `comparison: 3 head offices by product, ${year}`,
      path: `${analysisBase}/getCompareDataAntTable`,
      user: 'bench_hq',
      target: targets.analysis,
      body: {
        antTable: JSON.stringify({ pager: { current: 1, pageSize: 50 } }),
        yearType: '1',
        period: year,
        partnerIds: ids.compare.join(','),
        classification: 'product',
      },
    },
    {
      name: 'trend: 12 months, whole forest',
      path: `${analysisBase}/getTrendDataAntTable`,
      user: 'bench_hq',
      target: targets.analysis,
      body: { antTable: JSON.stringify({ pager: { current: 1, pageSize: 12 } }), yearType: '2' },
    },
  ];
}

const postHeaders = formPostHeaders(origin);
/** `app.request('/…')` runs as http://localhost: the CSRF check wants that origin in process. */
const inProcessHeaders = formPostHeaders('http://localhost');
/** An export is a GET guarded like a POST (src/server/middleware/csrf.ts): the client's same-origin proof. */
const sameOrigin = (from: string) => ({ 'X-Requested-With': 'XMLHttpRequest', Origin: from });

function envelopeOk(text: string): boolean {
  return text.startsWith('{"code":200,');
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function verdict(p99: number, target: number): string {
  return p99 <= target ? 'ok' : `over ${target} ms`;
}

// ---------------------------------------------------------------------------------------------
// In process

type AppLike = ReturnType<typeof createApp>;

async function call(
  app: AppLike,
  scenario: Scenario,
  cookie: string,
): Promise<{ code: number; totalCount?: number; message: string }> {
  const response = await app.request(scenario.path, {
    method: 'POST',
    headers: { ...inProcessHeaders, Cookie: cookie },
    body: new URLSearchParams(scenario.body).toString(),
  });
  const answer = (await response.json()) as { code: number; message: string; data?: { totalCount?: number } };
  return {
    code: answer.code,
    message: answer.message,
    ...(answer.data?.totalCount === undefined ? {} : { totalCount: answer.data.totalCount }),
  };
}

async function inProcessTimes(app: AppLike, list: Scenario[], cookies: Record<BenchUser, string>): Promise<string[]> {
  const lines: string[] = [];
  for (const scenario of list) {
    const first = await call(app, scenario, cookies[scenario.user]);
    if (first.code !== 200) throw new Error(`${scenario.name}: code ${first.code} ${first.message}`);
    for (let i = 0; i < 5; i++) await call(app, scenario, cookies[scenario.user]);
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      const answer = await call(app, scenario, cookies[scenario.user]);
      times.push(performance.now() - started);
      if (answer.code !== 200) throw new Error(`${scenario.name}: code ${answer.code}`);
    }
    times.sort((a, b) => a - b);
    const rows = first.totalCount === undefined ? '' : ` (${first.totalCount} rows)`;
    const p99 = quantile(times, 0.99);
    lines.push(
      `${`in-process: ${scenario.name}${rows}`.padEnd(72)}  p50 ${quantile(times, 0.5).toFixed(1).padStart(6)} ms   p99 ${p99.toFixed(1).padStart(6)} ms  ${verdict(p99, scenario.target)}`,
    );
  }
  return lines;
}

/** A GC between exports, so that each one's peak is measured from the same floor. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

interface ExportRequest {
  rows: number;
  query: string;
}

/**
 * Export requests of about each size: one bench bank's subtree, months counted back from last
 * month until the size is reached (the roll-up gives the counts).
 */
async function exportRequests(db: Database, ids: Ids): Promise<ExportRequest[]> {
  const { last } = settlementWindow();
  const perMonth = rowsOf<{ month: string; n: number }>(
    await db.execute(sql`
      select to_char(m.settle_month, 'YYYY-MM') as month, sum(m.results)::int4 as n
      from settlement_monthly m join partner_institutions p on p.id = m.partner_id
      where p.path like (select path from partner_institutions where id = ${ids.exportPartner}::int4) || '%'
      group by m.settle_month order by m.settle_month desc`),
  );
  return exportSizes.map((size) => {
    let rows = 0;
    let start = last;
    for (const month of perMonth) {
      rows += month.n;
      start = month.month;
      if (rows >= size) break;
    }
    const antTable = {
      range: { settleMonth: { start, end: last } },
      sorter: [{ key: 'settleMonth', sort: 'descend' }],
    };
    return {
      rows,
      query: new URLSearchParams({
        antTable: JSON.stringify(antTable),
        partnerId: String(ids.exportPartner),
      }).toString(),
    };
  });
}

async function exportMemory(app: AppLike, requests: ExportRequest[], cookie: string): Promise<string[]> {
  const gc = collector();
  const lines: string[] = [];
  for (const request of requests) {
    gc();
    const floor = process.memoryUsage();
    let peakRss = floor.rss;
    let peakHeap = floor.heapUsed;
    const sample = () => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    };
    // A timer alone may starve (PGlite answers within the same turn): every chunk samples too.
    const sampler = setInterval(sample, 20);
    // What the export holds on to, apart from garbage V8 has not collected yet: the heap right
    // after a forced GC, once a second during the download.
    let retained = floor.heapUsed;
    let lastGc = performance.now();
    const collect = () => {
      if (performance.now() - lastGc < 1000) return;
      gc();
      retained = Math.max(retained, process.memoryUsage().heapUsed);
      lastGc = performance.now();
    };
    const started = performance.now();
    const response = await app.request(`${exportPath}?${request.query}`, {
      headers: { ...sameOrigin('http://localhost'), Cookie: cookie },
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('spreadsheetml')) throw new Error(`export refused: ${await response.text()}`);
    let bytes = 0;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      sample();
      collect();
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    sample();
    const mb = (n: number) => (n / 1_048_576).toFixed(1);
    lines.push(
      `in-process export ${String(request.rows).padStart(7)} rows: ${seconds.toFixed(1).padStart(5)} s, ${mb(bytes).padStart(5)} MB xlsx, ` +
        `peak RSS +${mb(peakRss - floor.rss)} MB (${mb(peakRss)}), peak heap +${mb(peakHeap - floor.heapUsed)} MB, retained heap +${mb(retained - floor.heapUsed)} MB`,
    );
  }
  return lines;
}

/** EXPLAIN ANALYZE of the settlement table's statements for the branch user's scenarios (BENCH_EXPLAIN=1). */
async function explain(db: Database, list: Scenario[], userId: number): Promise<void> {
  const dialect = new PgDialect();
  const scope = await partnerScopeOf(db, userId);
  for (const scenario of list.filter((s) => s.path === tablePath)) {
    const request = parseTableRequest(scenario.body['antTable'] ?? '{}');
    const queries = buildTableQueries(settlementTable, request, {
      scope: sql`s.partner_id = any(${`{${scope.ids.join(',')}}`}::int4[])`,
    });
    for (const [part, statement] of [
      ['page', queries.page],
      ['count', queries.count],
    ] as const) {
      const query = dialect.sqlToQuery(statement);
      console.log(`\n-- ${scenario.name}: ${part}\n${query.sql}\n-- params ${JSON.stringify(query.params)}`);
      for (const row of rowsOf(await db.execute(sql`explain (analyze, buffers off, costs off) ${statement}`)))
        console.log(Object.values(row)[0]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Over HTTP

interface Measured {
  result: autocannon.Result;
  refused: number;
}

async function measure(scenario: Scenario, cookie: string, connections: number, duration: number): Promise<Measured> {
  const body = new URLSearchParams(scenario.body).toString();
  const options = {
    url: `${origin}${scenario.path}`,
    connections,
    duration,
    method: 'POST' as const,
    headers: { ...postHeaders, Cookie: cookie },
    body,
  };
  await autocannon({ ...options, duration: 2 });
  let refused = 0;
  const result = await autocannon({
    ...options,
    requests: [{ method: 'POST', body, onResponse: (_status, text) => void (envelopeOk(text) || (refused += 1)) }],
  });
  return { result, refused };
}

/** The server's resident memory now (Linux /proc), in bytes; 0 elsewhere. */
function residentOf(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function httpExport(server: ChildProcess, request: ExportRequest, cookie: string): Promise<string> {
  const floor = residentOf(server.pid);
  let peak = floor;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentOf(server.pid));
  }, 20);
  const started = performance.now();
  const response = await fetch(`${origin}${exportPath}?${request.query}`, {
    headers: { ...sameOrigin(origin), Cookie: cookie },
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const mb = (n: number) => (n / 1_048_576).toFixed(1);
  return `HTTP export ${request.rows} rows: ${seconds.toFixed(1)} s, ${mb(bytes)} MB xlsx, server RSS ${mb(floor)} → peak ${mb(peak)} MB`;
}

// ---------------------------------------------------------------------------------------------

async function benchTarget(target: Target): Promise<void> {
  const env = targetEnv(target, port);
  const config = loadConfig(env);
  const runtime = await openRuntime(config);
  let volume: Volume;
  let ids: Ids;
  let list: Scenario[];
  let inProcess: string[];
  let memory: string[];
  let requests: ExportRequest[];
  try {
    volume = await seedPartnerVolume(runtime.db, targetRows);
    const heads = await runtime.db
      .select({ id: partnerInstitutions.id })
      .from(partnerInstitutions)
      .where(
        inArray(
          partnerInstitutions.code,
          banks.map((bank) => `${bank.code}000000`),
        ),
      )
      .orderBy(partnerInstitutions.code);
    ids = { compare: heads.slice(0, 3).map((row) => row.id), exportPartner: heads[0]!.id };
    list = scenarios(ids);
    const app = createApp({ db: runtime.db, config, logger: createLogger(config), dbKind: runtime.kind });
    const policy = sessionPolicy(config);
    const cookies = {} as Record<BenchUser, string>;
    for (const user of ['demo_partner', 'bench_hq'] as const) {
      const [row] = await runtime.db.select({ id: users.id }).from(users).where(eq(users.userName, user));
      const { token } = await createSession(runtime.db, row!.id, { ip: '127.0.0.1', userAgent: 'bench' }, policy);
      cookies[user] = `${sessionCookieName}=${token}`;
      if (user === 'demo_partner' && process.env['BENCH_EXPLAIN'] === '1') await explain(runtime.db, list, row!.id);
    }
    inProcess = await inProcessTimes(app, list, cookies);
    requests = await exportRequests(runtime.db, ids);
    memory = await exportMemory(app, requests, cookies.bench_hq);
  } finally {
    await runtime.close();
  }

  let server: ChildProcess | undefined;
  try {
    server = spawn('node', ['src/server/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    await waitFor(`${origin}/api/health`, 120_000);
    const cookies = {
      demo_partner: await signIn(origin, 'demo_partner', passwords.demo_partner),
      bench_hq: await signIn(origin, 'bench_hq', passwords.bench_hq),
    };
    console.log(
      `\n## partner area on ${target.label}: ${volume.settlements} settlement rows, ${volume.orders} orders, ${volume.enterprises} enterprises, ` +
        `${volume.institutions} institutions (generated in ${volume.seconds.toFixed(1)} s)`,
    );
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min)`,
    );
    for (const line of inProcess) console.log(line);
    for (const line of memory) console.log(line);
    let refused = 0;
    for (const scenario of list) {
      for (const connections of [1, 10]) {
        const measured = await measure(scenario, cookies[scenario.user], connections, 5);
        refused += measured.refused;
        const r = measured.result;
        console.log(
          `${`HTTP: ${scenario.name}, ${connections} conn.`.padEnd(72)} ${r.requests.average.toFixed(0).padStart(5)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms  ${verdict(r.latency.p99, scenario.target)}`,
        );
      }
    }
    if (refused) console.log(`answers other than code 200: ${refused} (the figures above include refusals)`);
    const largest = requests[requests.length - 1];
    if (largest) console.log(await httpExport(server, largest, cookies.bench_hq));
  } finally {
    server?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 800));
    await target.cleanup();
  }
}

export async function benchPartner(): Promise<void> {
  if (process.env['BENCH_PARTNER_PGLITE'] !== '0') await benchTarget(await pgliteTarget('hgd-bench-partner-'));
  const serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) {
    console.log(
      '\n## partner area on PostgreSQL: skipped (set DATABASE_URL to a PostgreSQL server to measure it there)',
    );
    return;
  }
  await benchTarget(await postgresTarget(serverUrl));
}
