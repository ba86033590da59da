/**
 * Runs a command against a throwaway PostgreSQL server (scripts/postgres.ts): starts it, runs the
 * command with TEST_DATABASE_URL pointing at it, stops it, and exits with the command's code.
 *   npx node scripts/with-postgres.ts -- npm run test:api
 */
import { spawn } from 'node:child_process';
import { startPostgres } from './postgres.ts';

const separator = process.argv.indexOf('--');
const [command, ...args] = separator >= 0 ? process.argv.slice(separator + 1) : process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/with-postgres.ts -- <command> [arguments…]\n');
  process.exit(2);
}

const pg = await startPostgres();
console.log(`PostgreSQL on ${pg.url}`);
let code = 1;
try {
  code = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: pg.url } });
    // A signal to us goes to the command; the server is stopped once the command has ended.
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
} finally {
  await pg.stop();
}
process.exit(code);
