/** The messages between the server's thread (pgliteThread.ts) and the thread that owns PGlite (pgliteWorker.ts). */

export interface WorkerInit {
  /** A data directory, or none for an in-memory database. */
  dataDir?: string;
  /** A dumped data directory (tar) to start an in-memory copy from. */
  loadDataDir?: ArrayBuffer;
  /** Session settings run once after opening (statement timeout, planner costs). */
  sessionSql: string;
}

export type WorkerRequest =
  | {
      op: 'query';
      id: number;
      /** The open transaction this statement belongs to; none for a statement of its own. */
      tx?: number;
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Type OIDs whose values stay as PostgreSQL's text (drizzle parses them itself). */
      textTypes: number[];
    }
  | { op: 'begin'; id: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen'; id: number; channel: string; subscription: number }
  | { op: 'unlisten'; id: number; subscription: number }
  | { op: 'exec'; id: number; sql: string }
  | { op: 'dump'; id: number }
  | { op: 'close'; id: number };

/** An error as it crosses the threads: its message and the driver's plain fields (code, constraint, …). */
export interface WorkerError {
  name?: string;
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WorkerError }
  | { op: 'notification'; subscription: number; payload: string }
  | { op: 'ready' }
  | { op: 'failed'; error: WorkerError };
