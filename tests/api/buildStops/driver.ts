/**
 * A stand-in for a worker running one build (tests/api/buildStops.test.ts): runs
 * astroBuildCommand on the project given, ignores SIGTERM the way a stopping worker lets its
 * running build finish, and prints `built` or `failed: <reason>`.
 * `node driver.ts <projectRoot> <outDir>`
 */
import { astroBuildCommand } from '../../../src/server/site/buildCommand.ts';

const [projectRoot, outDir] = process.argv.slice(2) as [string, string];
process.on('SIGTERM', () => process.stdout.write('stopping: the build may finish\n'));
astroBuildCommand(projectRoot)({ contentDir: outDir, outDir, signal: new AbortController().signal }).then(
  () => process.stdout.write('built\n'),
  (error: unknown) => process.stdout.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`),
);
