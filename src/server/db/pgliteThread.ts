/**
 * PGlite on a thread of its own, so that a long statement does not stop the server. PGlite runs
 * each statement synchronously in WebAssembly on the thread that owns it, so on the server's
 * thread a long import stopped every static file and every other call for as long (measured in
 * docs/performance.md). `PgliteThread` starts a worker thread
 * that owns the database (pgliteWorker.ts) and offers the part of PGlite's interface the app uses —
 * `query`, `transaction`, `listen`, `dumpDataDir`, `close` — so drizzle's PGlite driver runs on it
 * unchanged (client.ts).
 *
 * A transaction holds the worker's PGlite from its BEGIN to its COMMIT: its statements run in
 * order, nothing else runs between them, and a statement outside it waits for its end (as before:
 * inside `db.transaction(async (tx) => …)` use `tx` only).
 *
 * The worker does not keep the process alive by itself: it is referenced only while a request is
 * waiting for its answer.
 */
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import type { DatabaseMetrics } from '../metrics/instruments.ts';
import type { WorkerError, WorkerInit, WorkerReply, WorkerRequest } from './pgliteProtocol.ts';

export interface PgliteThreadOptions {
  /** A data directory; none for an in-memory database. */
  dataDir?: string;
  /** A dumped data directory (PGlite's tar) to start an in-memory copy from. */
  loadDataDir?: Blob | Uint8Array;
  /** Session settings run once after opening. */
  sessionSql: string;
}

/** The query options drizzle passes: its parsers keep their types' text (see pgliteWorker.ts). */
export interface ThreadQueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** What runs statements: the database itself, or one open transaction on it. */
export interface PgliteQueryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: ThreadQueryOptions,
  ): Promise<Results<T>>;
}

export interface PgliteTransaction extends PgliteQueryable {
  readonly closed: boolean;
}

type Request = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

function errorFrom(error: WorkerError): Error {
  const made = new Error(error.message);
  if (error.name) made.name = error.name;
  return Object.assign(made, error.fields);
}

export class PgliteThread implements PgliteQueryable {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  readonly #subscriptions = new Map<number, (payload: string) => void>();
  /** Requests made in this turn of the event loop, sent together (one postMessage for many). */
  #outbox: WorkerRequest[] = [];
  #nextId = 1;
  #nextSubscription = 1;
  #stopped: Error | undefined;
  #closed = false;
  /** Times every statement and transaction (set by db/client.ts); undefined: nothing is measured. */
  metrics: DatabaseMetrics | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.unref();
    worker.on('message', (messages: WorkerReply[]) => {
      for (const message of messages) this.#receive(message);
    });
    worker.on('error', (error) => this.#stop(error));
    worker.on('exit', (code) => this.#stop(new Error(`the PGlite thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens the database on it; resolves once it answers. */
  static async start(options: PgliteThreadOptions): Promise<PgliteThread> {
    let loadDataDir: ArrayBuffer | undefined;
    if (options.loadDataDir instanceof Blob) loadDataDir = await options.loadDataDir.arrayBuffer();
    else if (options.loadDataDir) loadDataDir = options.loadDataDir.slice().buffer as ArrayBuffer;
    const init: WorkerInit = {
      sessionSql: options.sessionSql,
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(loadDataDir === undefined ? {} : { loadDataDir }),
    };
    const worker = new Worker(new URL('./pgliteWorker.ts', import.meta.url), {
      workerData: init,
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = ([message]: WorkerReply[]) => {
        if (!message || !('op' in message) || message.op === 'notification') return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (message.op === 'ready') resolve();
        else {
          void worker.terminate();
          reject(errorFrom(message.error));
        }
      };
      worker.on('message', onMessage);
      worker.on('error', reject);
    });
    return new PgliteThread(worker);
  }

  get closed(): boolean {
    return this.#closed;
  }

  query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options: ThreadQueryOptions = {},
  ): Promise<Results<T>> {
    return this.#statement<T>(undefined, sql, params, options);
  }

  /** Runs `callback` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const measured = this.metrics?.transaction();
    try {
      return await this.#transaction(callback);
    } finally {
      measured?.();
    }
  }

  async #transaction<T>(callback: (tx: PgliteTransaction) => Promise<T>): Promise<T> {
    const id = (await this.#ask({ op: 'begin' })) as number;
    let closed = false;
    const tx: PgliteTransaction = {
      query: <R>(sql: string, params: unknown[] = [], options: ThreadQueryOptions = {}) => {
        if (closed) return Promise.reject(new Error('Transaction is closed'));
        return this.#statement<R>(id, sql, params, options);
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      closed = true;
      await this.#ask({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    closed = true;
    await this.#ask({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** LISTEN on the database's thread; resolves once listening, to a function that stops it. */
  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    const subscription = this.#nextSubscription++;
    this.#subscriptions.set(subscription, onMessage);
    try {
      await this.#ask({ op: 'listen', channel, subscription });
    } catch (error) {
      this.#subscriptions.delete(subscription);
      throw error;
    }
    return async () => {
      if (!this.#subscriptions.delete(subscription) || this.#closed) return;
      await this.#ask({ op: 'unlisten', subscription });
    };
  }

  /** Runs a script of statements without parameters (simple protocol); the rows of all of them. */
  async exec(sql: string): Promise<{ rows: Record<string, unknown>[] }> {
    return (await this.#ask({ op: 'exec', sql })) as { rows: Record<string, unknown>[] };
  }

  /** The data directory as PGlite's (uncompressed) tar. */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([(await this.#ask({ op: 'dump' })) as ArrayBuffer]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#stopped) await this.#ask({ op: 'close' }, true).catch(() => {});
    await this.#worker.terminate();
  }

  #statement<T>(
    tx: number | undefined,
    sql: string,
    params: unknown[],
    options: ThreadQueryOptions,
  ): Promise<Results<T>> {
    const answer = this.#ask({
      op: 'query',
      ...(tx === undefined ? {} : { tx }),
      sql,
      params,
      rowMode: options.rowMode ?? 'object',
      textTypes: options.parsers ? Object.keys(options.parsers).map(Number) : [],
    }) as Promise<Results<T>>;
    // A statement of a transaction runs on the connection its transaction already holds.
    return this.metrics ? answer.finally(this.metrics.statement(sql, tx === undefined)) : answer;
  }

  #ask(request: Request, closing = false): Promise<unknown> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#closed && !closing) return Promise.reject(new Error('PGlite is closed'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#waiting.size === 0) this.#worker.ref();
      this.#waiting.set(id, { resolve, reject });
      if (this.#outbox.length === 0) queueMicrotask(() => this.#flush());
      this.#outbox.push({ ...request, id } as WorkerRequest);
    });
  }

  #flush(): void {
    const requests = this.#outbox;
    this.#outbox = [];
    if (requests.length > 0 && !this.#stopped) this.#worker.postMessage(requests);
  }

  #receive(message: WorkerReply): void {
    if ('op' in message) {
      if (message.op === 'notification') this.#subscriptions.get(message.subscription)?.(message.payload);
      return;
    }
    const waiting = this.#waiting.get(message.id);
    if (!waiting) return;
    this.#waiting.delete(message.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(errorFrom(message.error));
  }

  #stop(error: Error): void {
    this.#stopped ??= error;
    this.#closed = true;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}
