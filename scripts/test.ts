/**
 * `npm test`: every suite, in three lanes side by side after the system packages they need.
 *
 * - pglite: the unit and API tests (Vitest) on an in-memory PGlite;
 * - postgres: the API tests again on a throwaway PostgreSQL server (scripts/postgres.ts), but the
 *   files the test database never reaches (tests/api/engineFree.ts);
 * - site: the static build, the page-weight budgets, a zh-CN build with offline mode on (for
 *   tests/e2e/public-offline.spec.ts), incremental against full builds (tests/build), the cluster
 *   and restore tests (tests/cluster: API processes on PostgreSQL and an S3-compatible server),
 *   then the browser tests (Playwright in Debian's Chromium against the real server).
 *
 * The lanes share the two cores: each fills the others' waits (a page's network, a build's child
 * process, timers), measured in docs/testing.md. Builds stay in one lane, one at a time (they share
 * Astro's caches). Each stage prints its duration; the
 * run ends with a table of them (also written to test-results/stages.json, which .ci/run folds into
 * its own) and one line that counts every test: `tests: N passed, N failed`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './chromium.ts';
import { ensurePostgres, startPostgres } from './postgres.ts';
import { ensurePromtool } from './promtool.ts';
import { buildIfStale, run } from './run.ts';
import { Stages } from './stages.ts';

/** npm test's own limit (issue: a new contributor's wait), and where its table starts to warn. */
const limitSeconds = 1800;
const warnSeconds = 1500;

const results = 'test-results';
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const reports = {
  pglite: `${results}/vitest.json`,
  postgres: `${results}/vitest-postgres.json`,
  build: `${results}/build.json`,
  cluster: `${results}/cluster.json`,
  e2e: `${results}/e2e.json`,
};
/** A second build with offline mode on (the spec's `pwa` setting); its test visits zh-CN pages only. */
const offlineDist = `${results}/pwa-dist`;

const stages = new Stages();

/** The last lines of each run that failed, by its report: printed again at the end when the report names no failed test (an unhandled error, a crash). */
const failedOutput = new Map<string, string[]>();

/** Runs a command of a lane that writes `report`, keeping its last lines if it fails. */
async function reported(report: string, command: string, args: string[], env: NodeJS.ProcessEnv, lane: string) {
  const tail: string[] = [];
  const code = await run(command, args, env, lane, tail);
  if (code !== 0) failedOutput.set(report, tail);
  return code;
}

const vitest = (projects: string[], report: string, lane: string, env: NodeJS.ProcessEnv = {}) =>
  reported(
    report,
    'vitest',
    [
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    env,
    lane,
  );

// apt-get takes one install at a time: whatever a lane will need is installed before they start.
let chromium = '';
await stages.run('system packages', async () => {
  chromium = await ensureChromium();
  await ensurePostgres();
  await ensurePromtool();
  return 0;
});

const pglite = () =>
  stages.run('unit + API on PGlite', () => vitest(['unit', 'api'], reports.pglite, 'pglite'), 'pglite');

const postgresql = () =>
  stages.run(
    'API on PostgreSQL',
    async () => {
      const pg = await startPostgres();
      try {
        return await vitest(['api'], reports.postgres, 'postgres', { TEST_DATABASE_URL: pg.url });
      } finally {
        await pg.stop();
      }
    },
    'postgres',
  );

const site = async () => {
  const lane = 'site';
  await stages.run('build', async () => (await buildIfStale(lane), 0), lane);
  await stages.run('budgets', () => run('node', ['scripts/check-budgets.ts'], {}, lane), lane);
  await stages.run(
    'offline build',
    () => run('astro', ['build', '--silent', '--outDir', offlineDist], { PWA: 'true', BUILD_LOCALES: 'zh-CN' }, lane),
    lane,
  );
  // Incremental builds write what full builds write (real builds of zh-CN and en-US pages).
  await stages.run('incremental build', () => vitest(['build'], reports.build, lane), lane);
  // Serves the build just made from several processes and rebuilds it; backs it up and restores it.
  await stages.run('cluster', () => vitest(['cluster'], reports.cluster, lane), lane);
  await stages.run(
    'browser',
    () =>
      reported(
        reports.e2e,
        'playwright',
        ['test'],
        { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: reports.e2e, E2E_PWA_DIST: offlineDist },
        lane,
      ),
    lane,
  );
};

await Promise.all([pglite(), postgresql(), site()]);

const readJson = (file: string): Record<string, unknown> | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
type VitestSummary = { numPassedTests?: number; numFailedTests?: number; numPendingTests?: number } | undefined;
const vitestRuns = [reports.pglite, reports.postgres, reports.build, reports.cluster].map(readJson) as VitestSummary[];
const sum = (key: keyof NonNullable<VitestSummary>) => vitestRuns.reduce((total, r) => total + (r?.[key] ?? 0), 0);
const e2e = (
  readJson(reports.e2e) as
    { stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number } } | undefined
)?.stats;

/**
 * Every failed test by file and name (and a file that failed outside its tests: a hook, an import),
 * so that the end of a long log says what failed; a failed run whose report names nothing gets its
 * last lines.
 */
function failedTests(): string[] {
  const failed: string[] = [];
  const firstLine = (message: string | undefined) => (message ?? '').split('\n')[0];
  const unexplained = (report: string, before: number) => {
    const tail = failedOutput.get(report);
    if (tail && failed.length === before)
      failed.push(
        `${report}: the run failed with no failed test; its last lines:\n${tail.map((line) => `    ${line}`).join('\n')}`,
      );
  };
  for (const report of [reports.pglite, reports.postgres, reports.build, reports.cluster]) {
    const results = (readJson(report)?.['testResults'] ?? []) as {
      name: string;
      status: string;
      message?: string;
      assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
    }[];
    const before = failed.length;
    for (const file of results) {
      const name = path.relative(process.cwd(), file.name);
      for (const test of file.assertionResults)
        if (test.status === 'failed')
          failed.push(`${name} › ${test.fullName} (${report})\n    ${firstLine(test.failureMessages[0])}`);
      if (file.status === 'failed' && file.message) failed.push(`${name} (${report})\n    ${firstLine(file.message)}`);
    }
    unexplained(report, before);
  }
  type Suite = {
    file?: string;
    title: string;
    suites?: Suite[];
    specs?: { title: string; ok: boolean; file: string }[];
  };
  const walk = (suite: Suite) => {
    for (const spec of suite.specs ?? []) if (!spec.ok) failed.push(`${spec.file} › ${spec.title} (browser)`);
    for (const inner of suite.suites ?? []) walk(inner);
  };
  const before = failed.length;
  for (const suite of (readJson(reports.e2e)?.['suites'] ?? []) as Suite[]) walk(suite);
  unexplained(reports.e2e, before);
  return failed;
}

const passed = sum('numPassedTests') + (e2e?.expected ?? 0) + (e2e?.flaky ?? 0);
const failedStages = stages.records.filter((s) => !s.ok);
const failed = sum('numFailedTests') + (e2e?.unexpected ?? 0);
const skipped = sum('numPendingTests') + (e2e?.skipped ?? 0);

// A failed stage with no failed test in it (a build error, a budget overrun) still counts as a failure.
const closingLine = `tests: ${passed} passed, ${failed || failedStages.length ? Math.max(failed, failedStages.length) : 0} failed, ${skipped} skipped`;
stages.write(`${results}/stages.json`, closingLine);
console.log(`\n${stages.table({ title: 'npm test', limitSeconds, warnSeconds })}`);
const failures = failedTests();
if (failures.length) console.log(`\nfailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(closingLine);
process.exitCode = failedStages.length ? 1 : 0;
