/**
 * The app under fuzz (fuzz.test.ts), in a worker thread of its own: a request that never answers
 * — even a synchronous loop or a runaway allocation in the server — cannot stop the test, which
 * keeps the clock in the main thread and terminates this worker (then starts a new one).
 *
 * It opens a copy of the API tests' database (the PGlite snapshot, or a database made from the
 * PostgreSQL template), builds the app as harness.ts does, gives demo_company every role and the
 * head office's partner relations, and answers:
 *   ready    (posted once) the routes, the plausible values by field name, the callers
 *   request  one call: the answer's status, content type, body text and the server's log lines
 *   restore  the callers' rows back as they were after setup (users, enterprises, orders,
 *            partner relations, notices) and no rate-limit windows, so one route's fuzzing does
 *            not decide how far the next route's valid base request gets
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { loadContent } from '../../src/content/load.ts';
import { settlementImportColumns } from '../../src/lib/schemas/partner.ts';
import { sandboxAccounts, sandboxPin } from '../../src/server/bank/sandbox.ts';
import { createApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openPglite, openPostgres, type DatabaseHandle } from '../../src/server/db/client.ts';
import { demoPdf } from '../../src/server/seed/demoFiles.ts';
import {
  enterpriseAuthFiles,
  enterprises,
  notices,
  orders,
  partnerAccounts,
  partnerInstitutions,
  rateLimits,
  smsCodes,
  users,
} from '../../src/server/db/schema/index.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createSession, sessionCookieName, sessionPolicy } from '../../src/server/session.ts';
import { findUserIdByUserName } from '../../src/server/services/users.ts';
import {
  enumerateRoutes,
  loadSchemaCatalogue,
  arr,
  str,
  type FuzzRoute,
  type SkippedRoute,
  type Val,
} from './fuzzKit.ts';
import { buildPgliteSnapshot, databaseUrl, dropDatabase, testConfigEnv } from './snapshot.ts';

export const identities = [
  'allRoles',
  'anonymous',
  'demo_operator',
  'demo_partner',
  'demo_bank',
  'demo_person',
] as const;
export type Identity = (typeof identities)[number];
/** demo_company, given every role and the head office's partner relations: the caller that reaches every call. */
export const allRolesUser = 'demo_company';

export interface WorkerInit {
  /** The PGlite snapshot (globalSetup's); absent: made here. */
  pgliteSnapshot?: string;
  /** With TEST_DATABASE_URL: the template database to copy. */
  postgresTemplate?: string;
}

/** An error as the server's log serializer wrote it (pino's default, or logger.ts `safeError`: sqlState, query, cause…). */
export interface LoggedError {
  type?: string;
  message?: string;
  stack?: string;
  code?: string;
  sqlState?: string;
  query?: string;
  table?: string;
  column?: string;
  constraint?: string;
  cause?: LoggedError;
}

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: LoggedError;
}

export type WireFormEntry = [string, string | { name: string; type: string; bytes: Uint8Array }];

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  identity: Identity;
  body?: { kind: 'text'; text: string } | { kind: 'form'; entries: WireFormEntry[] };
}

export interface WireAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The body could not be read to its end. */
  streamError?: string;
  /** app.request itself threw. */
  thrown?: string;
  log: LogLine[];
}

export interface ReadyMessage {
  type: 'ready';
  routes: FuzzRoute[];
  skipped: SkippedRoute[];
  plausible: [string, Val[]][];
  /** What to clean up when the worker is terminated instead of closed. */
  dataDir: string;
  databaseName?: string;
}

type Incoming =
  | { id: number; type: 'request'; request: WireRequest }
  | { id: number; type: 'restore' }
  | { id: number; type: 'close' };

async function main(): Promise<void> {
  const init = workerData as WorkerInit;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hgd-fuzz-'));
  const config = loadConfig({
    ...testConfigEnv,
    DATA_DIR: dataDir,
    // A fresh X-Forwarded-For per request keeps the per-IP rate limits from answering 429 to everything.
    TRUST_PROXY: '1',
    BANK_SANDBOX_LATENCY_MS: '0',
    BANK_TIMEOUT_MS: '2000',
    // The editors' rebuild calls exist only with a token (never sent right here: no rebuild starts).
    REBUILD_TOKEN: `fuzz-${randomBytes(24).toString('hex')}`,
  });
  const log = new Map<string, LogLine[]>();
  const logger = createLogger(
    { logLevel: 'warn' },
    {
      write: (line: string) => {
        try {
          const parsed = JSON.parse(line) as LogLine;
          if (parsed.reqId) log.set(parsed.reqId, [...(log.get(parsed.reqId) ?? []), parsed]);
        } catch {
          // Not JSON: nothing to attach.
        }
      },
    },
  );
  const { handle, drop, databaseName } = await openDatabase(init, config);
  const db = handle.db;
  // Studio previews and publications build for real in the server; here a build writes one page,
  // so hostile input reaches the whole path without an `astro build` per accepted request.
  const siteBuild = {
    command: async ({ outDir }: { outDir: string }) => {
      await writeFile(path.join(outDir, 'index.html'), '<!doctype html><title>fuzz</title>');
    },
  };
  const app = createApp({ db, config, logger, dbKind: handle.kind, siteBuild });

  const userIds = new Map<Identity, number>();
  for (const identity of identities) {
    if (identity === 'anonymous') continue;
    const userName = identity === 'allRoles' ? allRolesUser : identity;
    const id = await findUserIdByUserName(db, userName);
    if (id === undefined) throw new Error(`no seeded user ${userName}`);
    userIds.set(identity, id);
  }
  const allRolesId = userIds.get('allRoles')!;
  await db
    .update(users)
    .set({ roles: ['individual', 'enterprise', 'partner', 'operator', 'editor'] })
    .where(eq(users.id, allRolesId));
  const headOffice = await db
    .select()
    .from(partnerAccounts)
    .where(eq(partnerAccounts.userId, userIds.get('demo_bank')!));
  for (const relation of headOffice) {
    await db
      .insert(partnerAccounts)
      .values({ userId: allRolesId, partnerId: relation.partnerId, empId: `FUZZ${relation.id}` })
      .onConflictDoNothing();
  }

  // What `restore` puts back.
  const callers = [...userIds.values()];
  const saved: { table: PgTable & { id: never }; rows: Record<string, unknown>[] }[] = [];
  const keep = async (table: PgTable, rows: Record<string, unknown>[]) =>
    saved.push({ table: table as PgTable & { id: never }, rows });
  await keep(users, await db.select().from(users).where(inArray(users.id, callers)));
  const ownedOrReviewed = await db
    .select()
    .from(enterprises)
    .where(or(inArray(enterprises.ownerUserId, callers), eq(enterprises.authStatus, 1)));
  await keep(enterprises, ownedOrReviewed);
  const enterpriseIds = ownedOrReviewed.map((row) => row.id);
  await keep(
    orders,
    enterpriseIds.length > 0 ? await db.select().from(orders).where(inArray(orders.enterpriseId, enterpriseIds)) : [],
  );
  await keep(partnerAccounts, await db.select().from(partnerAccounts).where(inArray(partnerAccounts.userId, callers)));
  await keep(notices, await db.select().from(notices).where(eq(notices.userId, allRolesId)));

  const restore = async () => {
    await db.delete(rateLimits);
    await db.delete(smsCodes);
    for (const { table, rows } of saved) {
      const id = (table as unknown as { id: never }).id;
      for (const row of rows) {
        const { id: _id, ...rest } = row;
        try {
          await db.insert(table).overridingSystemValue().values(row).onConflictDoUpdate({ target: id, set: rest });
        } catch {
          // A unique value taken meanwhile by a row the fuzzing made: leave that row as it is.
        }
      }
    }
  };

  const catalogue = await loadSchemaCatalogue();
  const plausible = await plausibleValues(db, allRolesId, userIds, catalogue.names, catalogue.values);
  const { routes, skipped } = enumerateRoutes(app);
  const policy = sessionPolicy(config);
  const cookies = new Map<Identity, string>();

  const answer = async (request: WireRequest): Promise<WireAnswer> => {
    const headers = { ...request.headers };
    const userId = userIds.get(request.identity);
    if (userId !== undefined) {
      let cookie = cookies.get(request.identity);
      if (!cookie || request.headers['x-fuzz-fresh-session'] === '1') {
        const { token } = await createSession(db, userId, { ip: '127.0.0.1', userAgent: 'fuzz' }, policy);
        cookie = `${sessionCookieName}=${token}`;
        cookies.set(request.identity, cookie);
      }
      headers['Cookie'] = cookie;
    }
    delete headers['x-fuzz-fresh-session'];
    let body: BodyInit | undefined;
    if (request.body?.kind === 'text') body = request.body.text;
    if (request.body?.kind === 'form') {
      const form = new FormData();
      for (const [key, value] of request.body.entries) {
        if (typeof value === 'string') form.append(key, value);
        else form.append(key, new Blob([value.bytes.slice()], { type: value.type }), value.name);
      }
      body = form;
    }
    const requestId = headers['X-Request-Id'] ?? '';
    const take = () => {
      const lines = log.get(requestId) ?? [];
      log.delete(requestId);
      return lines;
    };
    let response: Response;
    try {
      response = await app.request(request.url, {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
    } catch (error) {
      return { status: 0, contentType: '', text: '', thrown: errorText(error), log: take() };
    }
    const contentType = response.headers.get('content-type') ?? '';
    try {
      const text = await response.text();
      return { status: response.status, contentType, text, log: take() };
    } catch (error) {
      return { status: response.status, contentType, text: '', streamError: errorText(error), log: take() };
    }
  };

  parentPort!.on('message', (message: Incoming) => {
    void (async () => {
      try {
        if (message.type === 'restore') {
          await restore();
          parentPort!.postMessage({ id: message.id, ok: true });
        } else if (message.type === 'close') {
          await handle.close();
          await drop();
          await rm(dataDir, { recursive: true, force: true });
          parentPort!.postMessage({ id: message.id, ok: true });
        } else {
          parentPort!.postMessage({ id: message.id, ok: true, answer: await answer(message.request) });
        }
      } catch (error) {
        parentPort!.postMessage({ id: message.id, ok: false, error: errorText(error) });
      }
    })();
  });
  const ready: ReadyMessage = {
    type: 'ready',
    routes,
    skipped,
    plausible: [...plausible],
    dataDir,
    ...(databaseName ? { databaseName } : {}),
  };
  parentPort!.postMessage(ready);
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

async function openDatabase(
  init: WorkerInit,
  config: ReturnType<typeof loadConfig>,
): Promise<{ handle: DatabaseHandle; drop: () => Promise<void>; databaseName?: string }> {
  const serverUrl = process.env['TEST_DATABASE_URL'];
  if (!serverUrl) {
    const bytes = init.pgliteSnapshot
      ? new Uint8Array(await readFile(init.pgliteSnapshot))
      : await buildPgliteSnapshot();
    return { handle: await openPglite({ loadDataDir: new Blob([bytes.slice()]) }, config), drop: async () => {} };
  }
  if (!init.postgresTemplate) throw new Error('fuzz worker: TEST_DATABASE_URL without the template database');
  const name = `test_fuzz_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${init.postgresTemplate}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return {
    handle: openPostgres(databaseUrl(serverUrl, name), { ...config, dbPoolMax: 4 }),
    drop: () => dropDatabase(serverUrl, name),
    databaseName: name,
  };
}

// ---------------------------------------------------------------------------------------------
// Plausible values: what each field name looks like when it is valid (the base of a request)

type Db = DatabaseHandle['db'];

async function plausibleValues(
  db: Db,
  allRolesId: number,
  userIds: Map<Identity, number>,
  names: Set<string>,
  enums: Map<string, Set<string>>,
): Promise<Map<string, Val[]>> {
  const values = new Map<string, Val[]>();
  const add = (name: string, ...items: (string | Val)[]) => {
    const list = values.get(name) ?? [];
    for (const item of items) {
      const value = typeof item === 'string' ? str(item) : item;
      if (!list.some((known) => JSON.stringify(known) === JSON.stringify(value)) && list.length < 12) list.push(value);
    }
    values.set(name, list);
  };
  const now = new Date();
  const year = String(now.getFullYear());
  const month = `${year}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  const nextMonth = new Date(Date.UTC(now.getFullYear(), now.getMonth() + 1, 1)).toISOString().slice(0, 7);

  // Hand-written: the field names of the schemas, as a valid form would send them.
  add('userName', allRolesUser, 'demo_person');
  add('password', 'Company2025');
  add('oldPassword', 'Company2025');
  add('newPassword', 'Fuzzing2026x');
  add('name', '张三');
  add('email', 'fuzz@example.com');
  add('mobile', '13800138002', '13912345678');
  add('phone', '13800138002', '13912345678');
  add('code', '123456');
  add('verifyCode', '123456');
  add('totpCode', '123456');
  add('secondFactorCode', '123456', 'ab3de-fg0hj');
  add('captcha', '');
  add('t', '1');
  add('areaCode', '440000', '450000');
  add('clearanceAccount', '0300012345678');
  add('enterpriseName', '广州明珠精密制造有限公司', '佛山测试电子有限公司');
  add('creditCode', '91440101MA59K3R2XE');
  add('legalPerson', '陈志远');
  add('contactName', '李华');
  add('contactPhone', '13800138002');
  add('address', '广州市黄埔区科学大道 188 号');
  add('industry', 'C');
  add('electricityAccounts', arr(str('0300012345678001')), '0300012345678001');
  add('voltageLevel', 'kv10');
  add('annualConsumption', '8600');
  add('comment', '材料不清晰，请重新上传');
  add('markdown', '## 调整要点\n\n- 高峰时段延长一小时\n- 低谷电价下调 **3%**');
  add('field', 'address');
  add('value', '广州市天河区天河路 1 号');
  add('kind', 'businessLicence');
  add('file', { t: 'file', name: '营业执照.pdf', type: 'application/pdf', bytes: demoPdf(['fuzz']) });
  add('accountNo', sandboxAccounts.find((account) => account.behaviour === 'normal')!.accountNo);
  add('pin', sandboxPin);
  add('empName', '王五');
  add('empNo', 'E1001');
  add('challenge', 'a'.repeat(64));
  add('signature', 'A'.repeat(86));
  add('certSerial', 'SN-0001');
  add('reason', '不再需要');
  add('contractStart', nextMonth);
  add('contractMonths', '12');
  add('estimatedConsumption', '1000');
  add('action', 'accept');
  add('yearType', '1', '2', '3');
  add('period', year, month, `${month}-01`);
  add('from', String(Number(year) - 2), `${year}-01`);
  add('to', year, month);
  add('classification', 'product');
  add('format', 'xlsx', 'csv');
  add('company', '测试公司');
  add('content', '我们想了解分时电价套餐');
  add('pageNo', '1');
  add('pageSize', '10');
  add('userId', String(allRolesId));
  add('orgId', String(allRolesId));
  add('antTable', '{"pager":{"current":1,"pageSize":10}}');
  add('keyword', '广州');
  add('current', '1');

  // Enum members, literals and defaults of the schemas.
  for (const [name, set] of enums) add(name, ...[...set].filter((value) => value !== ''));

  // The content's own ids (business types, items, sets, selling sets, news…): any key named like a field.
  const content = loadContent();
  harvest(content, (name, value) => {
    if (names.has(name)) add(name, String(value));
  });
  add('categoryCode', ...Object.keys(content.dictionaries));

  // Records of the database the callers may touch.
  const ownOrders = await db
    .select({ orderNo: orders.orderNo, status: orders.status })
    .from(orders)
    .innerJoin(enterprises, eq(enterprises.id, orders.enterpriseId))
    .where(eq(enterprises.ownerUserId, allRolesId));
  add('orderNo', ...new Map(ownOrders.map((order) => [order.status, order.orderNo])).values());
  const inForce = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(inArray(orders.status, [30, 40]))
    .limit(2);
  add('orderNo', ...inForce.map((order) => order.orderNo));
  // The settlement import's file: the template's header and one valid row (of an order in force).
  const importRow: Record<string, string> = {
    orderNo: inForce[0]?.orderNo ?? 'HGD20260101000001',
    settleMonth: `${Number(year) - 1}-01`,
    settledEnergy: '100.000',
    contractPrice: '0.45000',
    marketPrice: '0.46000',
    status: '1',
  };
  const csv = `\ufeff${settlementImportColumns.map((column) => column.header).join(',')}\r\n${settlementImportColumns.map((column) => importRow[column.key] ?? '').join(',')}\r\n`;
  add('file', { t: 'file', name: 'settlements.csv', type: 'text/csv', bytes: new TextEncoder().encode(csv) });
  const ownEnterprise = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(eq(enterprises.ownerUserId, allRolesId));
  add('id', ...ownEnterprise.map((row) => String(row.id)));
  const underReview = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(eq(enterprises.authStatus, 1))
    .limit(2);
  add('id', ...underReview.map((row) => String(row.id)));
  const ownNotices = await db.select({ id: notices.id }).from(notices).where(eq(notices.userId, allRolesId)).limit(2);
  add('id', ...ownNotices.map((row) => String(row.id)));
  const files =
    ownEnterprise.length === 0
      ? []
      : await db
          .select({ id: enterpriseAuthFiles.id })
          .from(enterpriseAuthFiles)
          .where(
            inArray(
              enterpriseAuthFiles.enterpriseId,
              ownEnterprise.map((row) => row.id),
            ),
          )
          .limit(2);
  add('id', ...files.map((row) => String(row.id)));
  const relations = await db
    .select()
    .from(partnerAccounts)
    .where(eq(partnerAccounts.userId, userIds.get('demo_partner')!));
  add('id', ...relations.map((row) => String(row.id)));
  add('empId', ...relations.map((row) => row.empId));
  const heads = await db
    .select({ id: partnerInstitutions.id, code: partnerInstitutions.code })
    .from(partnerInstitutions)
    .where(isNull(partnerInstitutions.parentId))
    .limit(1);
  const branches = await db
    .select({ id: partnerInstitutions.id, code: partnerInstitutions.code })
    .from(partnerInstitutions)
    .where(and(inArray(partnerInstitutions.level, [2, 3])))
    .limit(3);
  const partners = [...heads, ...branches];
  add('partnerId', ...partners.map((row) => String(row.id)));
  add('partnerIds', arr(...partners.slice(0, 2).map((row) => str(String(row.id)))));
  add('partnerCode', ...partners.map((row) => row.code));
  add('id', '0123456789abcdef');
  return values;
}

function harvest(value: unknown, visit: (name: string, value: string | number) => void, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 50)) harvest(item, visit, depth + 1);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'string' || typeof inner === 'number') visit(key, inner);
    else harvest(inner, visit, depth + 1);
  }
}

// Started as a worker (fuzz.test.ts); importing this file for its types runs nothing.
if (parentPort && (workerData as { fuzzWorker?: boolean } | undefined)?.fuzzWorker) await main();
