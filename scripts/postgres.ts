/**
 * A throwaway PostgreSQL server for tests and benchmarks: Debian's PostgreSQL (the newest under
 * /usr/lib/postgresql/<version>/bin), a fresh cluster in a temporary directory, listening on
 * 127.0.0.1 on a free port (its socket in /tmp), trust authentication, user `postgres`.
 * Where PostgreSQL is not installed and we run as root, installs Debian's `postgresql` package
 * (as scripts/chromium.ts does for Chromium). As root, the server runs as the `postgres` user
 * (PostgreSQL refuses to run as root).
 * @example
 * const pg = await startPostgres();
 * // pg.url = 'postgres://postgres@127.0.0.1:41234/postgres'
 * await pg.stop();
 */
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { aptInstall, isRoot } from './debian.ts';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** The cluster's directory (its log is `server.log` in it). */
  dataDir: string;
  /** Stops the server (`pg_ctl -m fast stop`) and removes its directory. */
  stop(): Promise<void>;
  /** Stops the server but keeps its directory (an outage under a running client), for `resume`. */
  halt(): Promise<void>;
  /** Starts a halted server again, on the same directory and port. */
  resume(): Promise<void>;
  /**
   * Stops every process of the server (SIGSTOP), as a hung machine would: connections are taken
   * by the kernel and never answered, running statements never end. `thaw` lets them go on.
   */
  freeze(): void;
  thaw(): void;
}

const installRoot = '/usr/lib/postgresql';

/** The bin directory of the newest installed PostgreSQL, or undefined. */
export function findPostgresBin(): string | undefined {
  if (!existsSync(installRoot)) return undefined;
  const versions = readdirSync(installRoot)
    .filter((name) => existsSync(path.join(installRoot, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions[0] === undefined ? undefined : path.join(installRoot, versions[0], 'bin');
}

/** Finds PostgreSQL, installing Debian's package when missing and we are root. */
export async function ensurePostgres(): Promise<string> {
  const found = findPostgresBin();
  if (found) return found;
  if (!isRoot()) {
    throw new Error(
      'PostgreSQL is not installed: run `sudo apt-get install -y postgresql`, or set TEST_DATABASE_URL to a server to use.',
    );
  }
  console.log("Installing Debian's postgresql package for the tests…");
  await aptInstall(['postgresql']);
  const installed = findPostgresBin();
  if (!installed) throw new Error(`postgresql installed but no ${installRoot}/*/bin/pg_ctl`);
  return installed;
}

/** The `postgres` user's ids (from /etc/passwd), which the server runs as when we are root. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error(
      "running as root but there is no `postgres` user to run PostgreSQL as (Debian's postgresql package makes it)",
    );
  return { uid: Number(uid), gid: Number(gid) };
}

/** Shell-quotes one word for `su … -c`. */
const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** The command line, run as `postgres` through su when we are root (like .ci/run), else as ourselves. */
function asServerUser(command: string[]): { file: string; args: string[] } {
  if (!isRoot()) return { file: command[0]!, args: command.slice(1) };
  return { file: 'su', args: ['postgres', '-s', '/bin/bash', '-c', command.map(quote).join(' ')] };
}

/** Runs a PostgreSQL program to its end; rejects with its output when it fails. */
function runTool(command: string[], cwd: string): Promise<void> {
  const { file, args } = asServerUser(command);
  return new Promise((resolve, reject) => {
    // Only stdout/stderr piped: pg_ctl's server keeps nothing of ours open (its output goes to -l).
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command[0]!)} exited with ${code}: ${output.trim()}`)),
    );
  });
}

/** A port free on 127.0.0.1 right now (the system's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The server's processes: the postmaster (the first line of postmaster.pid) and its children. */
function serverProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // `pid (comm) state ppid …`: comm may hold spaces, so count from its closing parenthesis.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

function signalServer(dataDir: string, signal: NodeJS.Signals): void {
  for (const pid of serverProcesses(dataDir)) {
    try {
      process.kill(pid, signal);
    } catch {
      // A backend that ended meanwhile.
    }
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = await ensurePostgres();
  // mkdtemp makes it 0700, as initdb wants; as root it is handed to `postgres`.
  const dataDir = await mkdtemp('/tmp/hgd-pg-');
  if (isRoot()) {
    const { uid, gid } = postgresUser();
    chownSync(dataDir, uid, gid);
  }
  const pgCtl = path.join(bin, 'pg_ctl');
  const log = path.join(dataDir, 'server.log');
  const stopSync = () => {
    const { file, args } = asServerUser([pgCtl, '-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    spawnSync(file, args, { cwd: '/tmp', stdio: 'ignore' });
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await runTool(
      [path.join(bin, 'initdb'), '-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'],
      '/tmp',
    );
    const port = await freePort();
    // fsync off: a throwaway cluster; durability is not what the tests measure, and it spares a busy disk.
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -k /tmp -c fsync=off`;
    const start = () => runTool([pgCtl, '-D', dataDir, '-o', options, '-l', log, '-w', '-t', '60', 'start'], '/tmp');
    await start();
    // A test run that dies without stop() still takes its server down.
    process.once('exit', stopSync);
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      halt: () => runTool([pgCtl, '-D', dataDir, '-m', 'fast', '-w', 'stop'], '/tmp'),
      resume: start,
      freeze: () => signalServer(dataDir, 'SIGSTOP'),
      thaw: () => signalServer(dataDir, 'SIGCONT'),
      stop: () =>
        (stopped ??= (async () => {
          process.off('exit', stopSync);
          // A frozen server would never stop.
          if (existsSync(path.join(dataDir, 'postmaster.pid'))) signalServer(dataDir, 'SIGCONT');
          await runTool([pgCtl, '-D', dataDir, '-m', 'fast', '-w', 'stop'], '/tmp').catch((error: unknown) => {
            console.error(`PostgreSQL did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
            stopSync();
          });
          rmSync(dataDir, { recursive: true, force: true });
        })()),
    };
  } catch (error) {
    const serverLog = existsSync(log) ? `\n${readFileSync(log, 'utf8').split('\n').slice(-20).join('\n')}` : '';
    stopSync();
    throw new Error(
      `PostgreSQL could not start: ${error instanceof Error ? error.message : String(error)}${serverLog}`,
    );
  }
}
