/**
 * The table `.ci/run` ends with: its own stages (one JSON line each, written by the script) with
 * `npm test`'s stages below the test stage (test-results/stages.json), and the total against CI's
 * limit of 2,400 s, warning past 2,100 s.
 *   node scripts/ci-report.ts <stages file> <run start, epoch seconds> <the test stage's name> <npm test's stages.json>
 */
import { existsSync, readFileSync } from 'node:fs';
import { stageTable, type StageRecord } from './stages.ts';

const [stagesFile, runStarted, testStage, testStages] = process.argv.slice(2);
if (!stagesFile || !runStarted || !testStage || !testStages) {
  process.stderr.write('usage: node scripts/ci-report.ts <stages file> <run start> <test stage> <stages.json>\n');
  process.exit(2);
}
const own = readFileSync(stagesFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as StageRecord);
const testStart = own.find((stage) => stage.name === testStage)?.startedAt ?? 0;
const test = existsSync(testStages)
  ? (JSON.parse(readFileSync(testStages, 'utf8')) as { stages: StageRecord[]; closingLine: string })
  : undefined;
const inner = test
  ? test.stages.map((stage) => ({
      ...stage,
      name: `  ${stage.name}`,
      startedAt: testStart + stage.startedAt,
    }))
  : [];
const rows = own.flatMap((stage) => (stage.name === testStage ? [stage, ...inner] : [stage]));
const total = Date.now() / 1000 - Number(runStarted);
console.log(`\n${stageTable('.ci/run', rows, total, 2400, 2100)}`);
// The count of every test, last, as npm test printed it.
if (test) console.log(test.closingLine);
