/**
 * `npm run bench [-- build|pages|api|lighthouse]`: figures; only Lighthouse has thresholds.
 * - build: a clean static build, its time and page count;
 * - pages: bytes per public page (HTML, CSS, JS before interaction; raw and gzip);
 * - api: throughput of a database-backed read call on the real server next to a bare Hono
 *   hello-world, measured in the same run with the same load, and their ratio;
 * - accounts: login throughput and latency (argon2-bound) and a session-checked read (accounts.ts).
 * - orders: the orders table (table-request engine) over 100 000 orders, as an enterprise user and
 *   as an operator, on PGlite and on PostgreSQL when DATABASE_URL is set (orders.ts).
 * - load: throughput of the home page, a content call and a session-checked read at 200
 *   connections next to a bare Hono hello-world, and the home page and health while a long export
 *   and import run, on PGlite and on PostgreSQL when DATABASE_URL is set (load.ts).
 * - memory: the server's RSS after 30 s and after 5 minutes of that mix (load.ts). Only when named.
 * - metrics: what measuring costs: currentUser at 200 connections on a server measuring (and
 *   scraped) and one with METRICS_ENABLED=false, taking turns; req/s, p99 and their difference
 *   against the ≤ 5 % goal (metrics.ts).
 * - partner: the partner area on a million settlement rows: the settlement table, the
 *   analysis calls and the export's memory, on PGlite and on PostgreSQL when DATABASE_URL is set
 *   (partner.ts). Heavy (minutes): only when named, never in the default run.
 * - publish: an editor's click → visible on every process, over two API processes and two workers
 *   on PostgreSQL and an S3-compatible server: a first publication of a news item, its
 *   re-publication and a preview, median and p95 of 5 each with the worker's steps, against the
 *   ≤ 3 s goal (bench/publish.ts). Heavy (real builds): only when named, never in the default run.
 * - js: the JavaScript of every signed-in first page in Chromium (empty cache, compressed as
 *   sent), per page and account, beside the build's static reading the CI budget checks
 *   (signedInJs.ts). Reads dist/, or the build in BENCH_DIST (a build made elsewhere). Only when named.
 * - search: site search over a build (dist/, or BENCH_DIST): each locale's index size, the index
 *   step's time, relevance of real queries in every locale, and time to first result on a phone
 *   profile in Chromium (search.ts). Only when named.
 * - lighthouse: mobile scores of home, news list and help against the site's thresholds
 *   (bench/lighthouse.ts); a page below them sets a non-zero exit code.
 * Servers run in their own processes so the load generator does not share their event loop.
 */
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pageRoutes } from '../src/lib/routes.ts';
import { locales } from '../src/lib/i18n/locales.ts';
import { localePath } from '../src/lib/paths.ts';
import { buildSite, distDir } from '../scripts/build-state.ts';
import { kb, measurePage } from '../scripts/page-weight.ts';
import { buildIfStale } from '../scripts/run.ts';
import { benchAccounts } from './accounts.ts';
import { benchMetrics } from './metrics.ts';
import { benchPublish } from './publish.ts';
import { benchLoad, benchMemory } from './load.ts';
import { benchOrders } from './orders.ts';
import { benchPartner } from './partner.ts';
import { benchSearch } from './search.ts';
import { measureSignedInJs, printSignedInJs } from './signedInJs.ts';
import { benchLighthouse, printLighthouse } from './lighthouse.ts';
import { startProcess, waitFor } from './server.ts';

const selected = new Set(process.argv.slice(2));
const wants = (name: string) => selected.size === 0 || selected.has(name);

async function benchBuild() {
  const started = performance.now();
  await buildSite({ command: (outDir) => ({ command: 'astro', args: ['build', '--silent', '--outDir', outDir] }) });
  const seconds = (performance.now() - started) / 1000;
  const pages = readdirSync(distDir, { recursive: true }).filter((f) => String(f).endsWith('.html')).length;
  console.log(
    `\n## build\n${pages} pages in ${seconds.toFixed(1)} s (${((seconds * 1000) / pages).toFixed(1)} ms per page)`,
  );
}

function benchPages() {
  console.log('\n## page weight (zh-CN; bytes raw / gzip; JS = loaded before any interaction)');
  console.log('page'.padEnd(28) + 'HTML'.padStart(16) + 'CSS'.padStart(16) + 'JS'.padStart(14));
  for (const route of pageRoutes.filter((r) => r.access === 'public')) {
    const w = measurePage(distDir, route.path);
    const cell = (x: { raw: number; gzip: number }) => `${kb(x.raw)}/${kb(x.gzip)} KB`;
    console.log(route.path.padEnd(28) + cell(w.html).padStart(16) + cell(w.css).padStart(16) + cell(w.js).padStart(14));
  }
  const all = locales.flatMap((l) =>
    pageRoutes.filter((r) => r.access === 'public').map((r) => measurePage(distDir, localePath(l, r.path))),
  );
  const max = (part: 'html' | 'css' | 'js') => kb(Math.max(...all.map((w) => w[part].gzip)));
  console.log(
    `largest over all ${all.length} public pages × locales (gzip): HTML ${max('html')} KB, CSS ${max('css')} KB, JS ${max('js')} KB`,
  );
}

async function load(url: string, duration = 8) {
  // Warm up, then measure.
  await autocannon({ url, connections: 20, duration: 2 });
  const result = await autocannon({ url, connections: 50, pipelining: 1, duration });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

async function benchApi() {
  const dataDir = mkdtempSync(join(tmpdir(), 'hgd-bench-'));
  const portal = startProcess(['src/server/main.ts'], {
    HOST: '127.0.0.1',
    PORT: '4481',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });
  const hello = startProcess(['bench/hello.ts'], { PORT: '4482' });
  try {
    const readUrl = 'http://127.0.0.1:4481/api/front/hgdsys/hgdClient/getProvinceList';
    await Promise.all([waitFor(readUrl, 30_000), waitFor('http://127.0.0.1:4482/hello', 30_000)]);
    const baseline = await load('http://127.0.0.1:4482/hello');
    const read = await load(readUrl);
    const line = (name: string, r: autocannon.Result) =>
      `${name.padEnd(40)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms`;
    console.log('\n## API throughput (50 connections, 8 s, servers in their own processes)');
    console.log(line('bare Hono hello-world', baseline));
    console.log(line('GET getProvinceList (PGlite read)', read));
    console.log(`ratio read call / hello-world: ${(read.requests.average / baseline.requests.average).toFixed(2)}`);
  } finally {
    portal.kill('SIGTERM');
    hello.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (wants('build')) await benchBuild();
if (wants('pages')) benchPages();
if (wants('api')) await benchApi();
if (wants('accounts')) await benchAccounts();
if (wants('orders')) await benchOrders();
if (wants('load')) await benchLoad();
if (wants('metrics')) await benchMetrics();
if (selected.has('memory')) await benchMemory();
if (selected.has('partner')) await benchPartner();
if (selected.has('publish')) await benchPublish();
if (selected.has('js')) {
  if (!process.env['BENCH_DIST']) await buildIfStale();
  printSignedInJs(await measureSignedInJs(process.env['BENCH_DIST'] ?? distDir));
}
if (selected.has('search')) {
  if (!process.env['BENCH_DIST']) await buildIfStale();
  await benchSearch(process.env['BENCH_DIST'] ?? distDir);
}
if (wants('lighthouse')) {
  await buildIfStale();
  const rows = await benchLighthouse(distDir);
  printLighthouse(rows);
  if (rows.some((row) => !row.passed)) process.exitCode = 1;
}
