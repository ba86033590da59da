/**
 * The thread that owns PGlite (started by pgliteThread.ts, never imported by the app). PGlite runs
 * every statement synchronously in WebAssembly on the thread that owns it; here that is this
 * worker, so the server's own thread keeps answering static files and other calls while a long
 * import, export or analysis runs.
 *
 * Messages in (one per request, answered with the same `id`): query, exec (a script of several
 * statements without parameters, its rows flattened: the job queue's schema), begin / end of a
 * transaction, listen / unlisten, dump, close.
 *
 * - Order: `exclusive` runs one unit at a time — a statement of its own, or a whole transaction
 *   from its BEGIN to its COMMIT — so a transaction's statements run in order with nothing
 *   interleaved, and a statement outside it waits for its end.
 * - Statements are prepared (and their result columns described) once per SQL text (a named
 *   statement in the backend, as postgres-js does on PostgreSQL) and then run with one
 *   Bind/Execute/Sync: PGlite's own `query` parses and plans every call again in six separate
 *   calls into WebAssembly, which made a session check cost ~2 ms of this thread
 *   (docs/performance.md).
 *
 * Only Node's own type stripping runs this file (no bundler, no Vite): erasable TypeScript only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse, PGlite, protocol, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { WorkerError, WorkerInit, WorkerReply, WorkerRequest } from './pgliteProtocol.ts';

const port = parentPort!;
const init = workerData as WorkerInit;
const { serialize } = protocol;

const keepText = (value: string) => value;

/** Prepared statements kept; SQL texts beyond these run unnamed (parsed each time). */
const maxPrepared = 1000;

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

interface Prepared {
  name: string;
  paramTypes: number[];
  /** The statement's result columns as described when it was prepared (none for a statement without rows). */
  rowDescription: BackendMessage | undefined;
}

/** Execute + Sync never change: encoded once. */
let executeAndSync: Uint8Array | undefined;

const prepared = new Map<string, Prepared>();
let preparedCount = 0;

/** One unit (a statement, or a transaction until its end) at a time. */
let queue: Promise<unknown> = Promise.resolve();
function exclusive<T>(unit: () => Promise<T>): Promise<T> {
  const run = queue.then(
    () => unit(),
    () => unit(),
  );
  queue = run.catch(() => undefined);
  return run;
}

interface OpenTransaction {
  /** Ends it (commit or rollback) and answers request `requestId` once done. */
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

/**
 * Replies wait in `outbox` until the statements queued now have run, or until there are
 * `repliesPerMessage` of them, then cross in one message: under load one postMessage carries
 * several answers instead of one each, and the server's thread works on the first answers
 * while this thread runs the next statements (waiting for the whole queue made answers arrive
 * in bursts and the server's thread idle meanwhile).
 */
const repliesPerMessage = 8;
let outbox: WorkerReply[] = [];
function flush(): void {
  if (outbox.length === 0) return;
  port.postMessage(outbox);
  outbox = [];
}
function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  if (transfer.length > 0) {
    flush();
    port.postMessage([message], transfer);
    return;
  }
  if (outbox.length === 0) setImmediate(flush);
  outbox.push(message);
  if (outbox.length >= repliesPerMessage) flush();
}

/** Parsers per set of types kept as text: PGlite's parseResults copies its whole map for every call given `parsers`. */
const parserSets = new Map<string, Record<number, (value: string, typeId?: number) => unknown>>();
function parsersKeeping(pg: PGlite, textTypes: number[]): Record<number, (value: string, typeId?: number) => unknown> {
  const key = textTypes.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = { ...pg.parsers, ...Object.fromEntries(textTypes.map((type) => [type, keepText])) };
    parserSets.set(key, parsers);
  }
  return parsers;
}

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** One statement with its parameters (extended protocol, prepared once per text). Call inside `exclusive`. */
async function statement(
  pg: PGlite,
  sql: string,
  params: unknown[],
  rowMode: 'array' | 'object',
  textTypes: number[],
  inTransaction: boolean,
): Promise<Results> {
  return pg.runExclusive(async () => {
    let known = prepared.get(sql);
    if (!known) {
      const name = prepared.size < maxPrepared ? `hgd_${++preparedCount}` : '';
      const described = await pg.execProtocolStream(
        joined([
          serialize.parse({ name, text: sql, types: [] }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      known = {
        name,
        paramTypes: parse.parseDescribeStatementResults(described),
        rowDescription: described.find((message) => message.name === 'rowDescription'),
      };
      if (name) prepared.set(sql, known);
    }
    const types = known.paramTypes;
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[types[index] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const name = known.name;
    executeAndSync ??= joined([serialize.execute({}), serialize.sync()]);
    // No Describe: the columns were described when the statement was prepared (as postgres-js
    // does), so PostgreSQL does not send, nor this thread parse, them again on every run.
    const messages = await pg
      .execProtocolStream(joined([serialize.bind({ statement: name, values }), executeAndSync]), { syncToFs: false })
      .catch((error: unknown) => {
        // "cached plan must not change result type": the table changed under the statement; prepare it again next time.
        if ((error as { code?: string }).code === '0A000') prepared.delete(sql);
        throw error;
      });
    if (!inTransaction) await pg.syncToFs();
    // drizzle's parsers all keep their types' text as it is; they are named, not sent (functions do not cross threads).
    const described = known.rowDescription ? [known.rowDescription, ...messages] : messages;
    return parse.parseResults(described, parsersKeeping(pg, textTypes), { rowMode })[0]!;
  });
}

async function handle(request: WorkerRequest, pg: PGlite): Promise<void> {
  switch (request.op) {
    case 'query': {
      const { sql, params, rowMode, textTypes } = request;
      let result: Results;
      if (request.tx === undefined)
        result = await exclusive(() => statement(pg, sql, params, rowMode, textTypes, false));
      else {
        if (!transactions.has(request.tx)) throw new Error(`transaction ${request.tx} is not open`);
        result = await statement(pg, sql, params, rowMode, textTypes, true);
      }
      reply({
        id: request.id,
        ok: true,
        value: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows },
      });
      return;
    }
    case 'begin': {
      const id = nextTransaction++;
      let endRequest = 0;
      let begun = false;
      exclusive(async () => {
        await pg.exec('BEGIN');
        begun = true;
        const commit = await new Promise<boolean>((resolve) => {
          transactions.set(id, {
            end: (commitIt, requestId) => {
              endRequest = requestId;
              resolve(commitIt);
            },
          });
          reply({ id: request.id, ok: true, value: id });
        });
        transactions.delete(id);
        if (!commit) {
          await pg.exec('ROLLBACK');
          return;
        }
        const [done] = await pg.exec('COMMIT').catch(async (error: unknown) => {
          if (pg.isInTransaction()) await pg.exec('ROLLBACK');
          throw error;
        });
        // COMMIT of a transaction a failed statement aborted answers ROLLBACK.
        if (done?.command === 'ROLLBACK')
          throw Object.assign(new Error('the transaction was aborted by an earlier error and has been rolled back'), {
            code: '25P02',
          });
      }).then(
        () => reply({ id: endRequest, ok: true, value: null }),
        (error: unknown) => reply({ id: begun ? endRequest : request.id, ok: false, error: errorOf(error) }),
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
      const unsubscribe = await exclusive(() =>
        pg.listen(request.channel, (payload) =>
          reply({ op: 'notification', subscription: request.subscription, payload }),
        ),
      );
      listeners.set(request.subscription, unsubscribe);
      reply({ id: request.id, ok: true, value: null });
      return;
    }
    case 'unlisten': {
      const unsubscribe = listeners.get(request.subscription);
      listeners.delete(request.subscription);
      if (unsubscribe) await exclusive(unsubscribe);
      reply({ id: request.id, ok: true, value: null });
      return;
    }
    case 'exec': {
      const results = await exclusive(async () => {
        const done = await pg.exec(request.sql);
        await pg.syncToFs();
        return done;
      });
      reply({ id: request.id, ok: true, value: { rows: results.flatMap((result) => result.rows) } });
      return;
    }
    case 'dump': {
      const dump = await exclusive(() => pg.dumpDataDir('none'));
      const bytes = await dump.arrayBuffer();
      reply({ id: request.id, ok: true, value: bytes }, [bytes]);
      return;
    }
    case 'close': {
      await exclusive(async () => {
        if (!pg.closed) await pg.close();
      });
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
  port.on('message', (requests: WorkerRequest[]) => {
    for (const request of requests) {
      handle(request, pg).catch((error: unknown) => reply({ id: request.id, ok: false, error: errorOf(error) }));
    }
  });
  port.postMessage([{ op: 'ready' }]);
} catch (error) {
  port.postMessage([{ op: 'failed', error: errorOf(error) }]);
}
