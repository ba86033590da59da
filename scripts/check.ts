/**
 * `npm run check`: formatting, types, lint and the project's own checks, in two lanes side by
 * side (astro check alone takes as long as the rest together, on one core). `astro check` covers
 * the .ts files as well as the .astro ones, with the project's tsconfig, so there is no separate
 * `tsc`. Every check runs even when an earlier one fails, so one run names every failure.
 */
import { run } from './run.ts';

type Check = [command: string, ...args: string[]];

const lanes: Record<string, Check[]> = {
  types: [['astro', 'check', '--minimumFailingSeverity', 'hint']],
  style: [
    ['prettier', '--check', '--log-level', 'warn', '.'],
    ['eslint', '--max-warnings', '0', '.'],
    // The project's own checks, as package.json names them (each runs alone as `npm run check:…`).
    ...['licences', 'advisories', 'api', 'config'].map((name): Check => ['npm', 'run', '--silent', `check:${name}`]),
  ],
};

const failed: string[] = [];
await Promise.all(
  Object.entries(lanes).map(async ([lane, checks]) => {
    for (const [command, ...args] of checks) {
      if ((await run(command, args, {}, lane)) !== 0) failed.push([command, ...args].join(' '));
    }
  }),
);
if (failed.length) console.error(`check failed:\n${failed.map((line) => `  ${line}`).join('\n')}`);
process.exitCode = failed.length ? 1 : 0;
