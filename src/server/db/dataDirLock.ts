/**
 * One process at a time on an embedded (PGlite) data directory. PGlite has no lock of its own, and
 * two processes writing the same files corrupt the database: a second server on the same
 * DATA_DIR, `npm run dev` beside `npm start`, `npm run user` beside a running server.
 *
 * The holder listens on a Unix socket beside the directory (`<dir>.lock`). The kernel stops the
 * listening when the process ends, however it ends (kill -9, a crash), so a lock is never stale: a
 * socket file nobody answers on is left over from a dead holder, and is removed and taken. (A PID
 * file could not tell a dead holder from a live stranger that reused its PID after a restart.)
 */
import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database ${dir} is in use by another process (a running portal server, \`npm run dev\` or \`npm run user\`). ` +
        'PGlite allows one process at a time: stop the other process first, or use a PostgreSQL server (DATABASE_URL), which many processes share.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Unix socket paths are limited to about 104 bytes: a longer one goes to the temporary directory,
 * named by the data directory's real path, so every process finds the same socket for it.
 */
const socketPathLimit = 100;

function socketPathOf(dir: string): string {
  const real = realpathSync(dir);
  const digest = createHash('sha256').update(real).digest('hex').slice(0, 24);
  if (process.platform === 'win32') return `\\\\.\\pipe\\hgd-pglite-${digest}`;
  const beside = `${real}.lock`;
  return Buffer.byteLength(beside) <= socketPathLimit ? beside : path.join(tmpdir(), `hgd-pglite-${digest}.lock`);
}

function listenOn(socketPath: string): Promise<Server | 'taken'> {
  return new Promise((resolve, reject) => {
    // A visitor is only ever another process asking whether the lock is held: answer by hanging up.
    const server = createServer((socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve('taken') : reject(error),
    );
    server.listen(socketPath, () => {
      // The lock must not keep a process alive that has nothing else to do.
      server.unref();
      resolve(server);
    });
  });
}

/** Whether a live process listens on the socket (a left-over file refuses the connection). */
function isHeld(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Takes the directory's lock, or throws DataDirInUseError when a live process holds it. */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const socketPath = socketPathOf(dir);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const server = await listenOn(socketPath);
    if (server !== 'taken') {
      return {
        release: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    }
    if (await isHeld(socketPath)) break;
    // Left over from a holder that died: remove it and try once more.
    rmSync(socketPath, { force: true });
  }
  throw new DataDirInUseError(dir);
}
