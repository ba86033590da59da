/**
 * `npm start`: build the site if its sources changed, then start the one server (site + API),
 * which checks the configuration (src/server/preflight.ts), migrates the database and seeds demo
 * data into an empty one. A configuration that does not work stops it with one line per problem.
 *
 * `npm start -- --check`: the configuration checks alone (no build, no server): one line per
 * check, `ok` or its failure, and exit code 0 when all passed, 1 otherwise.
 */
import { ConfigError, loadConfig } from '../src/server/config.ts';
import { preflightLines, runPreflight } from '../src/server/preflight.ts';
import { buildIfStale } from './run.ts';

function fail(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

if (process.argv.includes('--check')) {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) fail(error);
    // Each of config.ts's lines names a variable; the other checks need a configuration that reads.
    const lines = error.message
      .split('\n')
      .slice(1)
      .map((line) => `FAIL  configuration: ${line.trim()}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    process.exit(1);
  }
  const results = await runPreflight(config);
  process.stdout.write(`${preflightLines(results).join('\n')}\n`);
  process.exit(results.every((result) => result.problems.length === 0) ? 0 : 1);
}

await buildIfStale();
const { runServer } = await import('../src/server/main.ts');
await runServer().catch(fail);
