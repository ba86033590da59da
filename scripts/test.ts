/**
 * `npm test`: unit and API tests (Vitest, real PGlite database), the static build, the page-weight
 * budgets, incremental against full builds (tests/build), the cluster test (two server processes on PostgreSQL and an S3-compatible server,
 * tests/cluster; PostgreSQL installed as root when missing, like Chromium), then the browser tests
 * (Playwright in Debian's Chromium against the real server).
 * Ends with one line that counts every test: `tests: N passed, N failed`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium } from './chromium.ts';
import { buildIfStale, run } from './run.ts';

const results = 'test-results';
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const vitestJson = `${results}/vitest.json`;
const clusterJson = `${results}/cluster.json`;
const buildJson = `${results}/build.json`;
const e2eJson = `${results}/e2e.json`;
/** A second build with offline mode on (the spec's `pwa` setting), for tests/e2e/public-offline.spec.ts. */
const offlineDist = `${results}/pwa-dist`;

const steps: { name: string; ok: boolean }[] = [];
const step = async (name: string, action: () => Promise<number>) => {
  const code = await action().catch((error: unknown) => {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  });
  steps.push({ name, ok: code === 0 });
};

await step('unit + api', () =>
  run('vitest', [
    'run',
    '--project',
    'unit',
    '--project',
    'api',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ]),
);
await step('build', async () => (await buildIfStale(), 0));
await step('budgets', () => run('node', ['scripts/check-budgets.ts']));
// Incremental builds write what full builds write (real builds of zh-CN pages, about two minutes).
await step('incremental build', () =>
  run('vitest', [
    'run',
    '--project',
    'build',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${buildJson}`,
  ]),
);
// Serves the build just made from two processes and rebuilds it twice (a few minutes).
await step('cluster', () =>
  run('vitest', [
    'run',
    '--project',
    'cluster',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${clusterJson}`,
  ]),
);
await step('offline build', () => run('astro', ['build', '--silent', '--outDir', offlineDist], { PWA: 'true' }));
await step('browser', async () => {
  const chromium = await ensureChromium();
  return run('playwright', ['test'], {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
    E2E_PWA_DIST: offlineDist,
  });
});

const readJson = (file: string): Record<string, unknown> | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : undefined;
type VitestSummary = { numPassedTests?: number; numFailedTests?: number; numPendingTests?: number } | undefined;
const vitestRuns = [readJson(vitestJson), readJson(buildJson), readJson(clusterJson)] as VitestSummary[];
const vitest = {
  numPassedTests: vitestRuns.reduce((sum, r) => sum + (r?.numPassedTests ?? 0), 0),
  numFailedTests: vitestRuns.reduce((sum, r) => sum + (r?.numFailedTests ?? 0), 0),
  numPendingTests: vitestRuns.reduce((sum, r) => sum + (r?.numPendingTests ?? 0), 0),
};
const e2e = (
  readJson(e2eJson) as
    { stats?: { expected?: number; unexpected?: number; flaky?: number; skipped?: number } } | undefined
)?.stats;

const passed = vitest.numPassedTests + (e2e?.expected ?? 0) + (e2e?.flaky ?? 0);
const failedSteps = steps.filter((s) => !s.ok);
const failed = vitest.numFailedTests + (e2e?.unexpected ?? 0);
const skipped = vitest.numPendingTests + (e2e?.skipped ?? 0);

for (const s of steps) console.log(`${s.ok ? '✓' : '✗'} ${s.name}`);
// A failed step with no failed test in it (a build error, a budget overrun) still counts as a failure.
console.log(
  `tests: ${passed} passed, ${failed || failedSteps.length ? Math.max(failed, failedSteps.length) : 0} failed, ${skipped} skipped`,
);
process.exitCode = failedSteps.length ? 1 : 0;
