/**
 * The thread that owns PGlite (started by pgliteThread.ts, never imported by the app). PGlite runs
 * every statement synchronously in WebAssembly on the thread that owns it; here that is this
 * worker, so the server's own thread keeps answering static files and other calls while a long
 * import, export or analysis runs.
 *
 * Messages in (one per request, answered with the same `id`): query, begin / end of a transaction,
 * listen / unlisten, dump, close. A transaction holds PGlite's own transaction mutex from `begin`
 * to `end`: statements of other requests wait for it, so a transaction's statements run in order
 * with nothing interleaved, as on the main thread before.
 *
 * Only Node's own type stripping runs this file (no bundler, no Vite): erasable TypeScript only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { WorkerError, WorkerInit, WorkerReply, WorkerRequest } from './pgliteProtocol.ts';

const port = parentPort!;
const init = workerData as WorkerInit;

const keepText = (value: string) => value;

/** Thrown inside PGlite's transaction callback to roll it back (the caller asked, or its callback failed). */
class RollbackRequested extends Error {}

interface OpenTransaction {
  tx: Transaction;
  /** Commits (or rolls back) and answers request `requestId` once PGlite has done so. */
  end: (commit: boolean, requestId: number) => void;
}

const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<number, () => Promise<void>>();
let nextTransaction = 1;

function errorOf(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

async function handle(request: WorkerRequest, pg: PGlite): Promise<void> {
  switch (request.op) {
    case 'query': {
      const runner = request.tx === undefined ? pg : transactions.get(request.tx)?.tx;
      if (!runner) throw new Error(`transaction ${request.tx} is not open`);
      // drizzle's parsers all keep their types' text as it is; they are named, not sent (functions do not cross threads).
      const parsers = Object.fromEntries(request.textTypes.map((type) => [type, keepText]));
      const result = await runner.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
      reply({ id: request.id, ok: true, value: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows } });
      return;
    }
    case 'begin': {
      const id = nextTransaction++;
      let started = false;
      let endRequest = 0;
      pg.transaction(async (tx) => {
        started = true;
        const commit = await new Promise<boolean>((resolve) => {
          transactions.set(id, {
            tx,
            end: (commitIt, requestId) => {
              endRequest = requestId;
              resolve(commitIt);
            },
          });
          reply({ id: request.id, ok: true, value: id });
        });
        transactions.delete(id);
        if (!commit) throw new RollbackRequested();
      }).then(
        () => reply({ id: endRequest, ok: true, value: null }),
        (error: unknown) => {
          if (!started) reply({ id: request.id, ok: false, error: errorOf(error) });
          else if (error instanceof RollbackRequested) reply({ id: endRequest, ok: true, value: null });
          else reply({ id: endRequest, ok: false, error: errorOf(error) });
        },
      );
      return;
    }
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      open.end(request.commit, request.id);
      return;
    }
    case 'listen': {
      const unsubscribe = await pg.listen(request.channel, (payload) => reply({ op: 'notification', subscription: request.subscription, payload }));
      listeners.set(request.subscription, unsubscribe);
      reply({ id: request.id, ok: true, value: null });
      return;
    }
    case 'unlisten': {
      const unsubscribe = listeners.get(request.subscription);
      listeners.delete(request.subscription);
      await unsubscribe?.();
      reply({ id: request.id, ok: true, value: null });
      return;
    }
    case 'dump': {
      const dump = await pg.dumpDataDir('none');
      const bytes = await dump.arrayBuffer();
      reply({ id: request.id, ok: true, value: bytes }, [bytes]);
      return;
    }
    case 'close': {
      if (!pg.closed) await pg.close();
      reply({ id: request.id, ok: true, value: null });
      return;
    }
  }
}

async function open(): Promise<PGlite> {
  const pg = await PGlite.create({
    ...(init.dataDir === undefined ? {} : { dataDir: init.dataDir }),
    ...(init.loadDataDir === undefined ? {} : { loadDataDir: new Blob([init.loadDataDir]) }),
    extensions: { pg_trgm },
  });
  await pg.exec(init.sessionSql);
  return pg;
}

try {
  const pg = await open();
  port.on('message', (request: WorkerRequest) => {
    handle(request, pg).catch((error: unknown) => {
      if ('id' in request) reply({ id: request.id, ok: false, error: errorOf(error) });
    });
  });
  reply({ op: 'ready' });
} catch (error) {
  reply({ op: 'failed', error: errorOf(error) });
}
