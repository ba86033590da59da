/**
 * Hostile input never crashes the API. Every route of the app — enumerated from the Hono
 * app itself, so a route added later is fuzzed with no change here — gets hostile values (C0
 * controls inside valid text, lone surrogates, 10 000-character strings, numbers at and beyond
 * int4/int8, impossible periods, arrays for scalars and objects for arrays, `__proto__` keys, SQL /
 * JSON / HTML fragments, Unicode oddities, non-UTF-8 bytes, hostile antTable requests and upload
 * files) as the anonymous caller and as signed-in users (one holding every role, and the demo
 * accounts), in the query string (GET) or as form-urlencoded, JSON and multipart bodies (POST).
 *
 * Every answer must be: not HTTP 5xx, a JSON envelope (when JSON) whose `code` is not 500, and
 * complete within `requestBudgetMs` (a hang is a failure; the body is read to its end, so a
 * download that breaks half-way fails too).
 *
 * The app runs in a worker thread (fuzzWorker.ts): the clock is kept here, so a request that
 * never answers — even a synchronous loop or a runaway allocation in the server — is reported as
 * a hang, the worker is terminated and a new one started, and the run goes on.
 *
 * Two blocks, one test per route in each (routes from `app.routes`, field names from the zod
 * schemas of src/lib/schemas, each route's own fields from the schemas its handlers validate):
 * - "sweep" (deterministic): per route and hostile class, (1) the class in every field name the
 *   API knows at once; (2) in each of the route's own fields in turn, the others valid, so that
 *   the value reaches the service; (3) in that field alone (the others at their defaults);
 *   (4) as the anonymous caller and the other demo accounts; (5) every antTable class (table
 *   routes, with the columns each accepts) and every file class (upload routes);
 * - "property" (fast-check, seeded): per route, `runsPerRoute` random requests mixing valid and
 *   hostile fields, keys, callers and encodings; a failure is shrunk to a minimal counterexample,
 *   which the error names with the route, the method, the caller and the request as sent, with
 *   the server's logged error and stack.
 * Before each route the callers' rows are put back (the worker's `restore`), so one route's
 * fuzzing does not decide how far the next one gets. After the run a summary groups every
 * failure by the root cause the server logged.
 *
 * FUZZ_SEED and FUZZ_RUNS override the seed and the runs per route (e.g. a longer run by hand);
 * a failure message gives the seed and path to replay it.
 */
import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { settlementImportColumns } from '../../src/lib/schemas/partner.ts';
import { demoPdf, demoPng } from '../../src/server/seed/demoFiles.ts';
import { apiModules } from '../../src/server/routes/index.ts';
import { apiDescriptionPath, apiReferencePath } from '../../src/server/openapi/mount.ts';
import { xlsxStream } from '../../src/server/xlsx/writer.ts';
import {
  flattenPairs,
  hostileChar,
  hostileClasses,
  hostileKeys,
  keyDecorations,
  loadSchemaCatalogue,
  num,
  pathFor,
  routeInputs,
  showFields,
  showText,
  str,
  arr,
  tableClasses,
  toFormEntries,
  toJsonText,
  toQueryString,
  type Encoding,
  type Fields,
  type FuzzRoute,
  type HostileClass,
  type RouteInput,
  type Val,
} from './fuzzKit.ts';
import {
  identities,
  type Identity,
  type LoggedError,
  type LogLine,
  type ReadyMessage,
  type WireAnswer,
  type WireRequest,
} from './fuzzWorker.ts';
import { apiHeaders } from './harness.ts';
import { dropDatabase } from './snapshot.ts';

const seed = Number(process.env['FUZZ_SEED'] ?? 20_261_122);
const runsPerRoute = Number(process.env['FUZZ_RUNS'] ?? 80);
/** A request (the body read to its end included) slower than this is a hang. */
const requestBudgetMs = 5_000;
/** The routes registered today: fewer means the enumeration broke. */
const routesToday = 103;
/** Form/JSON bodies of the "every known field" sweep stay under BODY_LIMIT_BYTES (1 MiB) so that they reach the call. */
const sweepBodyBytes = 900_000;

// ---------------------------------------------------------------------------------------------
// The app, in a worker thread (fuzzWorker.ts) that is terminated and replaced when a request hangs

const timedOut = Symbol('timed out');

class AppWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private next = 0;
  readonly ready: Promise<ReadyMessage>;
  /** Why it stopped (crash, out of memory, terminated after a hang), once it has. */
  ended: string | undefined;

  constructor() {
    this.worker = new Worker(new URL('./fuzzWorker.ts', import.meta.url), {
      workerData: {
        fuzzWorker: true,
        pgliteSnapshot: inject('pgliteSnapshot') as string | undefined,
        postgresTemplate: inject('postgresTemplate') as string | undefined,
      },
      // A runaway allocation ends the worker (ERR_WORKER_OUT_OF_MEMORY), not the test run.
      resourceLimits: { maxOldGenerationSizeMb: 2048 },
    });
    let settle: { resolve: (ready: ReadyMessage) => void; reject: (error: Error) => void } | undefined;
    this.ready = new Promise((resolve, reject) => (settle = { resolve, reject }));
    this.worker.on(
      'message',
      (message: ReadyMessage | { id: number; ok: boolean; answer?: WireAnswer; error?: string }) => {
        if ('type' in message) return settle?.resolve(message);
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.ok) waiting?.resolve(message.answer);
        else waiting?.reject(new Error(message.error));
      },
    );
    const stop = (reason: string) => {
      this.ended ??= reason;
      settle?.reject(new Error(`fuzz worker: ${reason}`));
      for (const waiting of this.pending.values()) waiting.reject(new Error(reason));
      this.pending.clear();
    };
    this.worker.on('error', (error) =>
      stop(
        `crashed: ${errorText(error)}${(error as { code?: string }).code ? ` (${(error as { code?: string }).code})` : ''}`,
      ),
    );
    this.worker.on('exit', (code) => stop(`exited with code ${code}`));
  }

  /** Posts a message; the answer, `timedOut` after `ms`, or a rejection when the worker dies meanwhile. */
  async call<T>(message: Record<string, unknown>, ms: number): Promise<T | typeof timedOut> {
    const id = (this.next += 1);
    const answer = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
    // Settled by the race below or, after a timeout, rejected when the worker is terminated: never unhandled.
    answer.catch(() => {});
    this.worker.postMessage({ ...message, id });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => resolve(timedOut), ms);
    });
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops it at once (after a hang), then removes what it left: its data directory, its PostgreSQL database. */
  async terminate(reason: string): Promise<void> {
    this.ended ??= reason;
    await this.worker.terminate();
    const ready = await this.ready.catch(() => undefined);
    if (!ready) return;
    await rm(ready.dataDir, { recursive: true, force: true });
    const serverUrl = process.env['TEST_DATABASE_URL'];
    if (serverUrl && ready.databaseName) await dropDatabase(serverUrl, ready.databaseName).catch(() => {});
  }

  /** Closes it in order (database, data directory), then stops it. */
  async close(): Promise<void> {
    if (!this.ended) await this.call({ type: 'close' }, 30_000).catch(() => undefined);
    this.ended ??= 'closed';
    await this.terminate('closed');
  }
}

const catalogue = await loadSchemaCatalogue();
const inputs = routeInputs(apiModules, catalogue);
const knownNames = [...new Set([...catalogue.names, 'antTable'])].sort();
let worker = new AppWorker();
const { routes, skipped, plausible: plausibleEntries } = await worker.ready;
const plausible = new Map(plausibleEntries);
let workersStarted = 1;

afterAll(async () => {
  printSummary();
  await worker.close();
});

/** The worker to send to: a new one when the last one hung or died. */
async function liveWorker(): Promise<AppWorker> {
  if (worker.ended) {
    worker = new AppWorker();
    workersStarted += 1;
    await worker.ready;
  }
  return worker;
}

function plausibleOf(name: string): Val[] {
  return plausible.get(name) ?? [];
}

/** The text a hostile class builds on for a field: its first plausible value, else something ordinary. */
function baseText(name: string): string {
  const first = plausibleOf(name).find((value) => value.t === 's');
  return first?.t === 's' && first.v !== '' ? first.v : 'abc测试';
}

// ---------------------------------------------------------------------------------------------
// Base requests: the route's fields, each with a value its schema accepts where one is known

const bases = new Map<string, Fields>();
const baseProblems = new Map<string, string[]>();

function routeKey(route: FuzzRoute): string {
  return `${route.method} ${route.path}`;
}

function inputOf(route: FuzzRoute): RouteInput {
  return (
    inputs.get(routeKey(route)) ?? {
      schemas: [],
      fields: [],
      top: [],
      table: false,
      takesFile: false,
      source: route.method === 'GET' ? 'query' : 'body',
    }
  );
}

function parsedLike(value: Val): unknown {
  switch (value.t) {
    case 's':
      return value.v;
    case 'n':
      return value.raw;
    case 'b':
      return String(value.v);
    case 'null':
      return '';
    case 'raw':
      try {
        return decodeURIComponent(value.v);
      } catch {
        return value.v;
      }
    case 'a':
      return value.items.map(parsedLike);
    case 'o':
      return Object.fromEntries(value.entries.map(([key, inner]) => [key, parsedLike(inner)]));
    case 'file':
      return new File([value.bytes.slice()], value.name, { type: value.type });
  }
}

/** Greedy: per field, the first plausible value the route's schema has no issue with at that field. */
function baseFields(route: FuzzRoute): Fields {
  const key = routeKey(route);
  const known = bases.get(key);
  if (known) return known;
  const input = inputOf(route);
  const schema = input.schemas.map((name) => catalogue.schemas.get(name)!.schema)[0] as
    { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } } | undefined;
  const chosen: Fields = [];
  const problems: string[] = [];
  const current = (): Record<string, unknown> =>
    Object.fromEntries(chosen.map(([name, value]) => [name, parsedLike(value)]));
  for (const field of input.top) {
    const candidates = plausibleOf(field);
    let picked: Val | undefined;
    for (const candidate of candidates) {
      if (!schema) {
        picked = candidate;
        break;
      }
      const result = schema.safeParse({ ...current(), [field]: parsedLike(candidate) });
      if (result.success || !result.error?.issues.some((issue) => issue.path[0] === field)) {
        picked = candidate;
        break;
      }
    }
    if (!picked) {
      problems.push(candidates.length === 0 ? `${field}: no plausible value` : `${field}: no plausible value passes`);
      picked = candidates[0];
    }
    if (picked) chosen.push([field, picked]);
  }
  if (input.table && !chosen.some(([name]) => name === 'antTable'))
    chosen.push(['antTable', str('{"pager":{"current":1,"pageSize":10}}')]);
  if (schema) {
    const result = schema.safeParse(current());
    if (!result.success)
      problems.push(
        `base does not validate: ${JSON.stringify(result.error?.issues.map((issue) => issue.path.join('.')))}`,
      );
  }
  if (problems.length > 0) baseProblems.set(key, problems);
  bases.set(key, chosen);
  return chosen;
}

/** The route's own top-level fields, or (none known) every known field name. */
function fieldNamesOf(route: FuzzRoute): string[] {
  const input = inputOf(route);
  const own = [...input.top, ...(input.table ? ['antTable'] : [])];
  return own.length > 0 ? [...new Set(own)] : knownNames;
}

// ---------------------------------------------------------------------------------------------
// Table columns: which of the known columns each table route accepts (asked once per route)

const tableColumns = new Map<string, string[]>();

async function columnsOf(route: FuzzRoute): Promise<string[]> {
  const key = routeKey(route);
  const known = tableColumns.get(key);
  if (known) return known;
  const accepted: string[] = [];
  for (const column of catalogue.columns) {
    const fields = withField(
      baseFields(route),
      'antTable',
      str(JSON.stringify({ select: [column], pager: { current: 1, pageSize: 1 } })),
    );
    const outcome = await send(route, {
      identity: 'allRoles',
      encoding: route.method === 'GET' ? 'query' : 'form',
      fields,
    });
    if (outcome.status === 200 && (outcome.envelope === undefined || outcome.envelope.code === 200))
      accepted.push(column);
  }
  tableColumns.set(key, accepted);
  return accepted;
}

function withField(fields: Fields, name: string, value: Val): Fields {
  let replaced = false;
  const next = fields.map(([key, old]): [string, Val] => {
    if (key !== name) return [key, old];
    replaced = true;
    return [key, value];
  });
  return replaced ? next : [...next, [name, value]];
}

// ---------------------------------------------------------------------------------------------
// Upload files

interface FileClass {
  name: string;
  file: Val;
}

function file(name: string, type: string, bytes: Uint8Array | string): Val {
  return { t: 'file', name, type, bytes: typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes };
}

async function xlsxFile(name: string, rows: (string | number | null)[][]): Promise<Val> {
  const stream = xlsxStream({
    name: 'Sheet1',
    columns: settlementImportColumns.map((column) => ({ header: column.header, format: column.format })),
    rows: rows.map((row) => row),
  });
  return file(
    name,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    new Uint8Array(await new Response(stream).arrayBuffer()),
  );
}

/** Import rows: one valid row per file, with one column made hostile (so the hostile cell is the only thing wrong). */
async function fileClasses(): Promise<FileClass[]> {
  const orderNo = plausibleOf('orderNo').at(-1);
  const validRow: Record<string, string> = {
    orderNo: orderNo?.t === 's' ? orderNo.v : 'HGD20260101000001',
    settleMonth: '2025-01',
    settledEnergy: '100.000',
    contractPrice: '0.45000',
    marketPrice: '0.46000',
    settledAmount: '',
    saving: '',
    status: '1',
  };
  const header = settlementImportColumns.map((column) => column.header).join(',');
  const csvLine = (row: Record<string, string>) =>
    settlementImportColumns.map((column) => csvCell(row[column.key] ?? '')).join(',');
  const classes: FileClass[] = [
    { name: 'empty file', file: file('empty.pdf', 'application/pdf', '') },
    { name: 'NUL in the file name', file: file('a\u0000b.pdf', 'application/pdf', demoPdf(['x'])) },
    { name: '10000-character file name', file: file(`${'名'.repeat(10_000)}.pdf`, 'application/pdf', demoPdf(['x'])) },
    { name: 'RTL override in the file name', file: file('evil\u202efdp.exe', 'application/pdf', demoPdf(['x'])) },
    { name: 'path traversal file name', file: file('../../../../etc/passwd.pdf', 'application/pdf', demoPdf(['x'])) },
    { name: 'lone surrogate file name', file: file('\ud800.csv', 'text/csv', `${header}\r\n`) },
    { name: 'PNG', file: file('a.png', 'image/png', demoPng(1)) },
    { name: 'PDF magic then junk', file: file('a.pdf', 'application/pdf', '%PDF-1.7\n\u0000\u0001junk') },
    {
      name: 'PNG magic then junk',
      file: file('a.png', 'image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0xff])),
    },
    {
      name: 'JPEG magic then junk',
      file: file('a.jpg', 'image/jpeg', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46])),
    },
    {
      name: 'zip magic then junk (.xlsx)',
      file: file('a.xlsx', 'application/zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    },
    {
      name: 'OLE magic (.xls) named .xlsx',
      file: file(
        'a.xlsx',
        'application/vnd.ms-excel',
        new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      ),
    },
    {
      name: 'random bytes .csv',
      file: file(
        'a.csv',
        'text/csv',
        Uint8Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 256),
      ),
    },
    {
      name: 'CSV not UTF-8 (GBK bytes)',
      file: file('a.csv', 'text/csv', new Uint8Array([0xb6, 0xa9, 0xb5, 0xa5, 0x2c, 0xc4, 0xea])),
    },
    { name: 'CSV with NUL', file: file('a.csv', 'text/csv', `${header}\r\n${csvLine(validRow)}\u0000\r\n`) },
    { name: 'CSV unbalanced quote', file: file('a.csv', 'text/csv', `${header}\r\n"${csvLine(validRow)}\r\n`) },
    { name: 'CSV header only', file: file('a.csv', 'text/csv', `${header}\r\n`) },
    {
      name: 'CSV 2000 columns',
      file: file('a.csv', 'text/csv', `${header}${',x'.repeat(2000)}\r\n${csvLine(validRow)}\r\n`),
    },
    { name: 'CSV valid row', file: file('a.csv', 'text/csv', `${header}\r\n${csvLine(validRow)}\r\n`) },
  ];
  const cellValues = [
    '\u0000',
    'a\u0001b',
    '\ud800',
    '9'.repeat(10_000),
    '2147483648',
    '9223372036854775808',
    '99999999999999999999.999',
    '1e308',
    '-1e308',
    'NaN',
    'Infinity',
    '-0',
    '0x10',
    '1e3',
    '０．５',
    '0000-01',
    '9999-12',
    '10000-01',
    '2026-02-30',
    '-001',
    "'; DROP TABLE users; --",
    '=1+1',
    '😀',
    '',
  ];
  for (const column of settlementImportColumns) {
    for (const cell of cellValues) {
      const row = { ...validRow, [column.key]: cell };
      classes.push({
        name: `CSV ${column.key} = ${showText(cell)}`,
        file: file('import.csv', 'text/csv', `\ufeff${header}\r\n${csvLine(row)}\r\n`),
      });
    }
    for (const cell of [
      '2147483648',
      '9223372036854775808',
      '1e308',
      '0000-01',
      '9999-12',
      '2026-02-30',
      "' OR 1=1 --",
      '１２３',
    ]) {
      const values = settlementImportColumns.map((other) =>
        other.key === column.key ? cell : (validRow[other.key] ?? ''),
      );
      classes.push({
        name: `xlsx ${column.key} = ${cell}`,
        file: await xlsxFile('import.xlsx', [settlementImportColumns.map((c) => c.header), values]),
      });
    }
    classes.push({
      name: `xlsx ${column.key} = number 1e308`,
      file: await xlsxFile('import.xlsx', [
        settlementImportColumns.map((c) => c.header),
        settlementImportColumns.map((other) => (other.key === column.key ? 1e308 : (validRow[other.key] ?? ''))),
      ]),
    });
  }
  return classes;
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

let fileClassList: Promise<FileClass[]> | undefined;

// ---------------------------------------------------------------------------------------------
// Sending one request and judging its answer

interface Sent {
  identity: Identity;
  encoding: Encoding;
  fields: Fields;
  arrayStyle?: 'brackets' | 'indices' | 'repeat';
  acceptLanguage?: string;
}

interface Outcome {
  requestId: string;
  url: string;
  status: number;
  contentType: string;
  text: string;
  envelope?: { code: number; message: string };
  ms: number;
  /** timeout (no answer or no end of body in time), crash (the app's worker died), stream (the body broke), json (a JSON answer that does not parse), throw (app.request threw). */
  fault?: 'timeout' | 'crash' | 'stream' | 'json' | 'throw';
  faultDetail?: string;

  log: LogLine[];
}

let requestCount = 0;

async function send(route: FuzzRoute, request: Sent): Promise<Outcome> {
  const outcome = await sendOnce(route, request, false);
  // A signed-in caller answered 901: an earlier fuzzed call (logout, password change, endSession…) ended that session.
  if (request.identity !== 'anonymous' && outcome.envelope?.code === 901 && !outcome.fault)
    return sendOnce(route, request, true);
  return outcome;
}

async function sendOnce(route: FuzzRoute, request: Sent, freshSession: boolean): Promise<Outcome> {
  const app = await liveWorker();
  requestCount += 1;
  const requestId = `fuzz-${String(requestCount).padStart(7, '0')}`;
  const started = performance.now();
  const headers: Record<string, string> = apiHeaders({
    'X-Request-Id': requestId,
    'X-Forwarded-For': `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`,
  });
  if (request.acceptLanguage !== undefined) headers['Accept-Language'] = request.acceptLanguage;
  if (freshSession) headers['x-fuzz-fresh-session'] = '1';
  let url = pathFor(route.path, 'fuzz-path');
  let body: WireRequest['body'];
  if (request.encoding === 'query') {
    const query = toQueryString(request.fields, request.arrayStyle);
    if (query) url += `?${query}`;
  } else if (request.encoding === 'form') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = {
      kind: 'text',
      text: flattenPairs(request.fields, request.arrayStyle)
        .map(([key, value]) => `${key}=${value}`)
        .join('&'),
    };
  } else if (request.encoding === 'json') {
    headers['Content-Type'] = 'application/json';
    body = { kind: 'text', text: toJsonText(request.fields) };
  } else {
    body = { kind: 'form', entries: toFormEntries(request.fields) };
  }
  const wire: WireRequest = {
    method: route.method,
    url,
    headers,
    identity: request.identity,
    ...(body === undefined ? {} : { body }),
  };
  const base = { requestId, url, status: 0, contentType: '', text: '', log: [] };
  let answer: WireAnswer | typeof timedOut;
  try {
    answer = await app.call<WireAnswer>({ type: 'request', request: wire }, requestBudgetMs);
  } catch (error) {
    // The worker died under this request (out of memory, an uncaught error in the server).
    return {
      ...base,
      ms: performance.now() - started,
      fault: 'crash',
      faultDetail: `${errorText(error)}${app.ended ? ` — ${app.ended}` : ''}`,
    };
  }
  if (answer === timedOut) {
    // A request that never answers may hold PGlite's one connection or the event loop: replace the whole app.
    await app.terminate('terminated after a hang');
    return {
      ...base,
      ms: performance.now() - started,
      fault: 'timeout',
      faultDetail: `no answer (body read to its end) within ${requestBudgetMs} ms`,
    };
  }
  const outcome: Outcome = {
    ...base,
    status: answer.status,
    contentType: answer.contentType,
    text: answer.text,
    log: answer.log,
    ms: performance.now() - started,
  };
  if (answer.thrown !== undefined) return { ...outcome, fault: 'throw', faultDetail: answer.thrown };
  if (answer.streamError !== undefined) return { ...outcome, fault: 'stream', faultDetail: answer.streamError };
  if (/json/i.test(answer.contentType)) {
    try {
      const parsed = JSON.parse(answer.text) as { code?: unknown; message?: unknown };
      outcome.envelope = { code: Number(parsed.code), message: String(parsed.message) };
    } catch (error) {
      outcome.fault = 'json';
      outcome.faultDetail = errorText(error);
    }
  }
  return outcome;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * The readiness call's own answer for "do not send users here" (routes/health.ts): HTTP 503 with the
 * envelope's 503 code, whatever the request. The fuzzed app serves no published site, so it is not ready.
 */
function isNotReady(outcome: Outcome): boolean {
  return (
    new URL(outcome.url, 'http://fuzz').pathname === '/api/health/ready' &&
    outcome.status === 503 &&
    outcome.envelope?.code === 503
  );
}

/** What is wrong with an answer, or undefined. */
function problemOf(outcome: Outcome): string | undefined {
  if (outcome.fault === 'timeout') return `hang: ${outcome.faultDetail}`;
  if (outcome.fault === 'crash') return `the server crashed: ${outcome.faultDetail}`;
  if (outcome.fault === 'throw') return `app.request threw: ${outcome.faultDetail}`;
  if (outcome.fault === 'stream') return `HTTP ${outcome.status}, the body broke: ${outcome.faultDetail}`;
  if (outcome.status >= 500 && !isNotReady(outcome)) return `HTTP ${outcome.status}`;
  if (outcome.fault === 'json')
    return `HTTP ${outcome.status} with a JSON content type that does not parse: ${outcome.faultDetail}`;
  if (outcome.envelope && outcome.envelope.code === 500) return `envelope code 500 with HTTP ${outcome.status}`;
  return undefined;
}

function causeChain(err: LoggedError): LoggedError[] {
  const chain: LoggedError[] = [];
  for (let next: LoggedError | undefined = err; next && chain.length < 5; next = next.cause) chain.push(next);
  return chain;
}

/** The root cause as the log tells it: the innermost error (e.g. PostgreSQL's under DrizzleQueryError) with its SQLSTATE. */
function rootCause(err: LoggedError): string {
  const chain = causeChain(err);
  const inner = chain.at(-1)!;
  const state = chain
    .map((e) => e.sqlState ?? (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined))
    .filter(Boolean)
    .at(-1);
  // pino's default serializer keeps the cause only in the stack text.
  const causedBy = /caused by: ([^\n]+)/.exec(err.stack ?? '')?.[1];
  const where = [
    inner.table && `table ${inner.table}`,
    inner.column && `column ${inner.column}`,
    inner.constraint && `constraint ${inner.constraint}`,
  ]
    .filter(Boolean)
    .join(', ');
  const text =
    causedBy ?? `${inner.type ?? 'Error'}${inner.message ? `: ${inner.message.split('\n')[0]?.slice(0, 160)}` : ''}`;
  return `${text}${state ? ` [SQLSTATE ${state}]` : ''}${where ? ` (${where})` : ''}`;
}

function errorSummary(err: LoggedError): string {
  const first = err.message?.split('\n')[0]?.slice(0, 160) ?? (err.query ? `query: ${err.query.slice(0, 140)}` : '');
  const wrapped = causeChain(err).length > 1 || /caused by: /.test(err.stack ?? '');
  return `${err.type ?? 'Error'}: ${first}${wrapped ? ` — caused by ${rootCause(err)}` : ''}`;
}

/** The server's own account of a request: the logged error (type, PostgreSQL code, message, top of the stack). */
function serverError(outcome: Outcome): { summary: string; cause: string; stack: string } | undefined {
  const logged = outcome.log.find((line) => line.level >= 50 && line.err) ?? outcome.log.find((line) => line.err);
  if (!logged?.err) return undefined;
  const top = (logged.err.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line) && !/node_modules|node:internal|wasm:/.test(line))
    .slice(0, 4)
    .map((line) =>
      line
        .trim()
        .replace(/^at /, '')
        .replace(/file:\/\/\/work\/main\//g, '')
        .replace(/\/work\/main\//g, ''),
    );
  return { summary: errorSummary(logged.err), cause: rootCause(logged.err), stack: top.join(' ← ') };
}

/** Soft findings: the database refused a value (answered 400 `api.badValue`, logged as a warning) — a schema let it through. */
function warningOf(outcome: Outcome): string | undefined {
  const warned = outcome.log.find((line) => line.level === 40 && line.err);
  return warned?.err ? `${warned.msg}: ${errorSummary(warned.err)}` : undefined;
}

interface Failure {
  block: 'sweep' | 'property';
  route: string;
  identity: Identity;
  encoding: Encoding;
  what: string;
  problem: string;
  status: number;
  answer: string;
  server: { summary: string; cause: string; stack: string } | undefined;
}

const failures: Failure[] = [];
const warnings = new Map<string, Set<string>>();
const timings: { block: string; route: string; requests: number; ms: number }[] = [];

function describeFailure(route: FuzzRoute, request: Sent, outcome: Outcome, problem: string): string {
  const server = serverError(outcome);
  return [
    `${route.method} ${route.path} — ${problem}`,
    `  caller: ${request.identity}, encoding: ${request.encoding}${request.arrayStyle ? ` (${request.arrayStyle})` : ''}${request.acceptLanguage !== undefined ? `, Accept-Language: ${request.acceptLanguage}` : ''}`,
    `  input: ${showFields(request.fields)}`,
    `  url: ${outcome.url.length > 300 ? `${outcome.url.slice(0, 300)}…` : outcome.url}`,
    `  answer: HTTP ${outcome.status} ${outcome.text.slice(0, 200)}`,
    server ? `  server: ${server.summary}\n  at: ${server.stack}` : '  server: (nothing logged)',
  ].join('\n');
}

/** Set when a call that writes succeeded: the callers' rows are put back before the next route. */
let dirty = false;

async function restoreState(): Promise<void> {
  if (!dirty) return;
  const app = await liveWorker();
  const done = await app.call({ type: 'restore' }, 60_000).catch(() => timedOut);
  if (done === timedOut) await app.terminate('restore did not finish');
  dirty = false;
}

async function check(
  block: Failure['block'],
  route: FuzzRoute,
  request: Sent,
  what: string,
): Promise<string | undefined> {
  const outcome = await send(route, request);
  if (outcome.envelope?.code === 200 && (route.method !== 'GET' || /cancel|del|remove|clear/i.test(route.path)))
    dirty = true;
  const warning = warningOf(outcome);
  if (warning) {
    const key = `${route.method} ${route.path}`;
    warnings.set(key, (warnings.get(key) ?? new Set()).add(`${warning} ← ${what}`));
  }
  const problem = problemOf(outcome);
  if (!problem) return undefined;
  failures.push({
    block,
    route: routeKey(route),
    identity: request.identity,
    encoding: request.encoding,
    what,
    problem,
    status: outcome.status,
    answer: outcome.text.slice(0, 160),
    server: serverError(outcome),
  });
  return describeFailure(route, request, outcome, problem);
}

// ---------------------------------------------------------------------------------------------
// The tests

describe('route enumeration', () => {
  it('finds every route of the app, from every API module', () => {
    console.log(
      `fuzz: ${routes.length} routes (method + path) enumerated from app.routes; skipped as middleware: ${skipped.map((s) => `${s.method} ${s.path}`).join(', ')}`,
    );
    expect(routes.length).toBeGreaterThanOrEqual(routesToday);
    for (const module of apiModules) {
      expect(
        routes.some((route) => route.path === module.base || route.path.startsWith(`${module.base}/`)),
        `a route under ${module.base}`,
      ).toBe(true);
    }
    // Every route that validates input has its schema found (or reads none): a route whose schema is not
    // found still gets every known field name, but the sweep's "each field in turn" needs its own. The
    // API description's two routes are mounted outside the modules and read no input.
    const readsNothing = new Set([apiDescriptionPath, apiReferencePath]);
    const withoutSchema = routes.filter(
      (route) =>
        route.path.startsWith('/api/') &&
        !inputs.has(routeKey(route)) &&
        !route.path.endsWith('*') &&
        !readsNothing.has(route.path),
    );
    expect(withoutSchema.map(routeKey)).toEqual([]);
  });
});

const sweepClasses = hostileClasses.filter((hostile) => hostile.sweep);
/** Classes a JSON body carries differently from a form (numbers as numbers, arrays and objects as such, lone surrogates as escapes). */
const jsonGroups = new Set(['number', 'shape', 'surrogate']);

/** Whether the route's (first) schema accepts the input as the server would parse it from that encoding; a throwing schema counts as yes. */
function passesSchema(input: RouteInput, fields: Fields, encoding: Encoding): boolean {
  const name = input.schemas[0];
  if (name === undefined) return true;
  const schema = catalogue.schemas.get(name)!.schema as unknown as { safeParse(value: unknown): { success: boolean } };
  const value = Object.fromEntries(
    fields.map(([key, inner]) => [key, encoding === 'json' ? jsonLike(inner) : parsedLike(inner)]),
  );
  try {
    return schema.safeParse(value).success;
  } catch {
    return true;
  }
}

function jsonLike(value: Val): unknown {
  switch (value.t) {
    case 'n':
      return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value.raw) ? Number(value.raw) : value.raw;
    case 'b':
      return value.v;
    case 'null':
      return null;
    case 'a':
      return value.items.map(jsonLike);
    case 'o':
      return Object.fromEntries(value.entries.map(([key, inner]) => [key, jsonLike(inner)]));
    default:
      return parsedLike(value);
  }
}

/** A route's sweep stops after this many hangs (each costs the budget and a new app) or this long. */
const sweepHangLimit = 3;
const sweepRouteMs = 90_000;

describe('sweep: each hostile class in every field, no 5xx', () => {
  for (const route of routes) {
    it(`${route.method} ${route.path}`, { timeout: sweepRouteMs + 60_000 }, async () => {
      await restoreState();
      const started = performance.now();
      const before = requestCount;
      const problems: string[] = [];
      let hangs = 0;
      let stopped: string | undefined;
      const probe = async (request: Sent, what: string) => {
        if (stopped) return;
        const problem = await check('sweep', route, request, what);
        if (!problem) return;
        problems.push(problem);
        if (problem.includes(' — hang: ') && (hangs += 1) >= sweepHangLimit) stopped = `stopped after ${hangs} hangs`;
        if (performance.now() - started > sweepRouteMs) stopped = `stopped after ${sweepRouteMs / 1000} s`;
      };
      const input = inputOf(route);
      const base = baseFields(route);
      const primary: Encoding = route.method === 'GET' ? 'query' : input.takesFile ? 'multipart' : 'form';
      const plain: Encoding = route.method === 'GET' ? 'query' : 'form';
      const everyKnownField = (hostile: HostileClass): Fields =>
        capped(knownNames.map((name): [string, Val] => [name, hostile.make(baseText(name))]));
      for (const hostile of sweepClasses) {
        // (1) In every field name the API knows, at once (under the body limit); JSON too where JSON carries the class differently.
        const everywhere = everyKnownField(hostile);
        await probe(
          { identity: 'allRoles', encoding: plain, fields: everywhere },
          `${hostile.name} in every known field`,
        );
        if (route.method !== 'GET' && jsonGroups.has(hostile.group)) {
          await probe(
            { identity: 'allRoles', encoding: 'json', fields: everywhere },
            `${hostile.name} in every known field`,
          );
        }
        for (const name of input.top) {
          // (2) In each of the route's own fields in turn, the others valid — sent when the route's schema lets it
          // through, so that it reaches the service (a value the schema refuses is answered by the validation (1) covers).
          const fields = withField(base, name, hostile.make(baseText(name)));
          if (passesSchema(input, fields, primary)) {
            await probe({ identity: 'allRoles', encoding: primary, fields }, `${hostile.name} in ${name}`);
          }
          if (
            route.method !== 'GET' &&
            !input.takesFile &&
            jsonGroups.has(hostile.group) &&
            passesSchema(input, fields, 'json')
          ) {
            await probe({ identity: 'allRoles', encoding: 'json', fields }, `${hostile.name} in ${name}`);
          }
          // (3) That field alone: the others take their defaults (a default computed beside a hostile value is a path of its own).
          const alone: Fields = [
            [name, hostile.make(baseText(name))],
            ...base.filter(([other]) => other === 'antTable'),
          ];
          if (input.top.length > 1 && passesSchema(input, alone, primary)) {
            await probe({ identity: 'allRoles', encoding: primary, fields: alone }, `${hostile.name} in ${name} alone`);
          }
        }
      }
      // (4) The anonymous caller and the other demo accounts: a class or two per group (the role decides how far a call gets).
      const firstOfGroup = [...new Map(sweepClasses.map((hostile) => [hostile.group, hostile])).values()];
      for (const identity of identities.filter((name) => name !== 'allRoles')) {
        for (const hostile of identity === 'anonymous' ? firstOfGroup : firstOfGroup.slice(0, 2)) {
          await probe(
            { identity, encoding: plain, fields: everyKnownField(hostile) },
            `${hostile.name} in every known field`,
          );
        }
      }
      // (5) Table routes: every antTable class, with the columns the route accepts; upload routes: every file class.
      if (input.table) {
        for (const table of tableClasses(await columnsOf(route))) {
          await probe(
            { identity: 'allRoles', encoding: primary, fields: withField(base, 'antTable', str(table.text)) },
            `antTable ${table.name}`,
          );
        }
      }
      if (input.takesFile) {
        fileClassList ??= fileClasses();
        for (const upload of await fileClassList) {
          await probe(
            { identity: 'allRoles', encoding: 'multipart', fields: withField(base, 'file', upload.file) },
            `file: ${upload.name}`,
          );
        }
      }
      timings.push({
        block: 'sweep',
        route: routeKey(route),
        requests: requestCount - before,
        ms: performance.now() - started,
      });
      if (stopped) problems.push(`(the sweep of this route ${stopped}; the rest was not sent)`);
      expect(problems, `${problems.length} failing request(s):\n${problems.slice(0, 25).join('\n\n')}`).toEqual([]);
    });
  }
});

/** Form/JSON bodies stay under the body limit: fields are dropped from the end once it is reached. */
function capped(fields: Fields): Fields {
  const kept: Fields = [];
  let bytes = 0;
  for (const field of fields) {
    bytes += Buffer.byteLength(toJsonText([field]));
    if (bytes > sweepBodyBytes && kept.length > 0) break;
    kept.push(field);
  }
  return kept;
}

describe('property: random hostile requests, no 5xx (fast-check)', () => {
  for (const route of routes) {
    it(`${route.method} ${route.path}`, { timeout: 90_000 }, async () => {
      await restoreState();
      const started = performance.now();
      const before = requestCount;
      const input = inputOf(route);
      const arbitrary = requestArbitrary(
        route,
        input,
        input.table ? await columnsOf(route) : [],
        input.takesFile ? await (fileClassList ??= fileClasses()) : [],
      );
      let hangSeen = false;
      try {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (request) => {
            // After a hang the database was replaced; shrinking it further would only measure the replacement.
            if (hangSeen) return true;
            const failure = await check('property', route, request, `random: ${showFields(request.fields)}`);
            if (failure) {
              if (failure.includes(' — hang: ')) hangSeen = true;
              throw new Error(failure);
            }
            return true;
          }),
          {
            seed: seed + hashOf(routeKey(route)),
            numRuns: runsPerRoute,
            interruptAfterTimeLimit: 60_000,
            markInterruptAsFailure: false,
          },
        );
      } finally {
        timings.push({
          block: 'property',
          route: routeKey(route),
          requests: requestCount - before,
          ms: performance.now() - started,
        });
      }
    });
  }
});

function hashOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 1_000_000;
}

/** A random request for the route: mostly its base with a few fields replaced or added, as a caller, in an encoding. */
function requestArbitrary(
  route: FuzzRoute,
  input: RouteInput,
  columns: string[],
  files: FileClass[],
): fc.Arbitrary<Sent> {
  const own = fieldNamesOf(route);
  const base = baseFields(route);
  const keyArb = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...own) },
    { weight: 2, arbitrary: fc.constantFrom(...knownNames) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileKeys) },
  );
  const decorationArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: keyDecorations.length - 1 }) },
  );
  const text = fc.string({ unit: hostileChar(), maxLength: 40 });
  const tables = tableClasses(columns);
  type Leaf = (key: string) => Val;
  const leafArb: fc.Arbitrary<Leaf> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.integer({ min: 0, max: hostileClasses.length - 1 }).map(
        (i): Leaf =>
          (key) =>
            hostileClasses[i]!.make(baseText(key)),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.nat().map(
        (i): Leaf =>
          (key) =>
            plausibleOf(key)[i % Math.max(1, plausibleOf(key).length)] ?? str(baseText(key)),
      ),
    },
    {
      weight: 3,
      arbitrary: text.map(
        (s): Leaf =>
          () =>
            str(s),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.boolean()).map(
        ([s, before]): Leaf =>
          (key) =>
            str(before ? s + baseText(key) : baseText(key) + s),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.double().map(
        (d): Leaf =>
          () =>
            num(Object.is(d, -0) ? '-0' : String(d)),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(
        (n): Leaf =>
          () =>
            num(String(n)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: -3, max: 2_147_483_647 }).map(
        (n): Leaf =>
          () =>
            num(String(n)),
      ),
    },
  );
  const tableArb: fc.Arbitrary<Leaf> =
    columns.length + tables.length > 0
      ? fc.oneof(
          {
            weight: 1,
            arbitrary: fc.integer({ min: 0, max: tables.length - 1 }).map(
              (i): Leaf =>
                () =>
                  str(tables[i]!.text),
            ),
          },
          {
            weight: 2,
            arbitrary: tableRequestArb(columns, text).map(
              (json): Leaf =>
                () =>
                  str(json),
            ),
          },
        )
      : leafArb;
  const valueArb: fc.Arbitrary<Leaf> = fc.oneof(
    { weight: 8, arbitrary: leafArb },
    {
      weight: 1,
      arbitrary: fc.array(leafArb, { maxLength: 3 }).map(
        (leaves): Leaf =>
          (key) =>
            arr(...leaves.map((leaf) => leaf(key))),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...own), fc.constantFrom(...hostileKeys)), leafArb), {
          minLength: 1,
          maxLength: 3,
        })
        .map((entries): Leaf => () => ({ t: 'o', entries: entries.map(([key, leaf]) => [key, leaf(key)]) })),
    },
  );
  const editArb = fc
    .tuple(keyArb, decorationArb, valueArb, tableArb, fc.nat())
    .map(([key, decoration, leaf, table, fileIndex]): [string, Val] => {
      const value =
        key === 'antTable' && input.table
          ? table(key)
          : key === 'file' && files.length > 0
            ? files[fileIndex % files.length]!.file
            : leaf(key);
      return [keyDecorations[decoration]!(key), value];
    });
  const encodings: Encoding[] =
    route.method === 'GET'
      ? ['query']
      : input.takesFile
        ? ['multipart', 'multipart', 'form', 'json']
        : ['form', 'json', 'multipart'];
  return fc
    .record({
      identity: fc.oneof(
        { weight: 6, arbitrary: fc.constant<Identity>('allRoles') },
        { weight: 2, arbitrary: fc.constant<Identity>('anonymous') },
        {
          weight: 2,
          arbitrary: fc.constantFrom<Identity>('demo_operator', 'demo_partner', 'demo_bank', 'demo_person'),
        },
      ),
      encoding: fc.constantFrom(...encodings),
      arrayStyle: fc.constantFrom<'brackets' | 'indices' | 'repeat'>('brackets', 'indices', 'repeat'),
      acceptLanguage: fc.option(fc.constantFrom('en-US', 'zh-TW,zh;q=0.9', 'xx-YY', '*', 'en;q=abc', ''), {
        nil: undefined,
      }),
      keepBase: fc.boolean(),
      drop: fc.array(fc.nat(), { maxLength: 2 }),
      edits: fc.array(editArb, { minLength: 1, maxLength: 4 }),
    })
    .map(({ identity, encoding, arrayStyle, acceptLanguage, keepBase, drop, edits }) => {
      let fields: Fields = keepBase ? base.filter((_, index) => !drop.includes(index)) : [];
      for (const [key, value] of edits) fields = withField(fields, key, value);
      const sent: Sent = {
        identity,
        encoding,
        fields,
        arrayStyle,
        ...(acceptLanguage === undefined ? {} : { acceptLanguage }),
      };
      return Object.assign(sent, {
        [fc.toStringMethod]: () =>
          `${identity} ${encoding}${encoding === 'query' || encoding === 'form' ? `/${arrayStyle}` : ''}${acceptLanguage !== undefined ? ` lang=${JSON.stringify(acceptLanguage)}` : ''} ${showFields(fields)}`,
      });
    });
}

/** A table request's JSON text with hostile leaves (number tokens written raw, so beyond int8 stays beyond). */
function tableRequestArb(columns: string[], text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const column =
    columns.length > 0
      ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...columns) }, { weight: 1, arbitrary: text })
      : text;
  const numberToken = fc.oneof(
    fc.constantFrom(
      '0',
      '-1',
      '1',
      '100',
      '101',
      '2147483647',
      '2147483648',
      '9223372036854775808',
      '1e308',
      '1e9',
      '-0',
      '1.5',
      '"1e9"',
      '"0x10"',
      '"NaN"',
      'null',
      '"  7 "',
    ),
    fc.integer().map(String),
  );
  const leaf = fc.oneof(
    text.map((s) => JSON.stringify(s)),
    numberToken,
    fc.constantFrom(
      'true',
      'false',
      'null',
      '[]',
      '{}',
      '"0000-01"',
      '"9999-12-31"',
      '"2026-02-30"',
      '"10000"',
      '"２０２６"',
      '"a\\u0000b"',
      '"\\ud800"',
    ),
  );
  const entries = (value: fc.Arbitrary<string>) =>
    fc
      .array(fc.tuple(column, value), { maxLength: 3 })
      .map((list) => `{${list.map(([key, inner]) => `${JSON.stringify(key)}:${inner}`).join(',')}}`);
  const parts = fc.record(
    {
      select: fc.array(column, { maxLength: 4 }).map((list) => JSON.stringify(list)),
      pager: fc
        .tuple(numberToken, numberToken)
        .map(([current, pageSize]) => `{"current":${current},"pageSize":${pageSize}}`),
      search: fc
        .tuple(leaf, fc.array(column, { maxLength: 3 }))
        .map(([keyword, select]) => `{"keyword":${keyword},"select":${JSON.stringify(select)}}`),
      liker: entries(leaf),
      range: entries(
        fc
          .tuple(leaf, leaf, fc.constantFrom('true', 'false', '1'))
          .map(([start, end, self]) => `{"start":${start},"end":${end},"self":${self}}`),
      ),
      filter: entries(fc.array(leaf, { minLength: 0, maxLength: 4 }).map((list) => `[${list.join(',')}]`)),
      sorter: fc
        .array(fc.tuple(column, fc.constantFrom('ascend', 'descend', 'asc', 'desc', 'up', '')), { maxLength: 3 })
        .map((list) => JSON.stringify(list.map(([key, sort]) => ({ key, sort })))),
    },
    { requiredKeys: [] },
  );
  return parts.map(
    (record) =>
      `{${Object.entries(record)
        .map(([key, value]) => `${JSON.stringify(key)}:${value}`)
        .join(',')}}`,
  );
}

// ---------------------------------------------------------------------------------------------
// The summary printed after the run: failures grouped by the server's error

function printSummary(): void {
  const total = timings.reduce((sum, timing) => sum + timing.ms, 0);
  const byBlock = (block: string) => timings.filter((timing) => timing.block === block);
  const line = (block: string) => {
    const list = byBlock(block);
    const ms = list.reduce((sum, timing) => sum + timing.ms, 0);
    const requests = list.reduce((sum, timing) => sum + timing.requests, 0);
    return `${block}: ${list.length} routes, ${requests} requests, ${(ms / 1000).toFixed(1)} s`;
  };
  const slowest = [...timings]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map(
      (timing) => `${timing.block} ${timing.route} ${(timing.ms / 1000).toFixed(1)} s (${timing.requests} requests)`,
    );
  const out: string[] = [
    `fuzz: seed ${seed}, ${runsPerRoute} runs per route, ${routes.length} routes, ${requestCount} requests in ${(total / 1000).toFixed(1)} s (${line('sweep')}; ${line('property')}); app workers started: ${workersStarted}`,
    `fuzz: slowest: ${slowest.join('; ')}`,
  ];
  if (baseProblems.size > 0) {
    out.push(
      `fuzz: routes whose valid base request could not be completed from the plausible values (the sweep's "each field" requests stop at validation there):`,
    );
    for (const [key, problems] of baseProblems) out.push(`  ${key}: ${problems.join('; ')}`);
  }
  const groups = new Map<string, Failure[]>();
  for (const failure of failures) {
    const cause = failure.server
      ? failure.server.cause.replace(/\d{4,}/g, 'N').slice(0, 160)
      : failure.problem.replace(/\d{4,}/g, 'N');
    groups.set(cause, [...(groups.get(cause) ?? []), failure]);
  }
  out.push(`fuzz: ${failures.length} failing requests in ${groups.size} groups (by the root cause the server logged)`);
  for (const [cause, list] of groups) {
    out.push(`\n== ${cause} — ${list.length} requests`);
    const byRoute = new Map<string, Failure[]>();
    for (const failure of list) byRoute.set(failure.route, [...(byRoute.get(failure.route) ?? []), failure]);
    for (const [route, routeFailures] of byRoute) {
      const whats = [
        ...new Set(
          routeFailures.map((failure) => `${failure.what.slice(0, 110)} [${failure.identity}/${failure.encoding}]`),
        ),
      ];
      const first = routeFailures[0]!;
      out.push(`   ${route}: ${routeFailures.length} × ${first.problem}; e.g. ${whats.slice(0, 4).join(' | ')}`);
      if (first.server) out.push(`      ${first.server.summary.slice(0, 200)}\n      at ${first.server.stack}`);
    }
  }
  if (warnings.size > 0) {
    out.push(`\nfuzz: values the database refused (answered 400 api.badValue, no crash — a schema let them through):`);
    for (const [route, set] of warnings)
      out.push(`   ${route}: ${[...set].slice(0, 3).join(' | ')}${set.size > 3 ? ` (+${set.size - 3})` : ''}`);
  }
  console.log(out.join('\n'));
}
