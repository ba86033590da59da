/**
 * Calls and fixtures of the enterprise API tests: users made on the spot (each test its own, so
 * tests do not share state), a complete valid enterprise record, JSON and multipart posts as the
 * browser sends them, and real PDF / PNG / JPEG bytes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { creditCodeCheckChar } from '../../src/lib/creditCode.ts';
import type { EnterpriseData } from '../../src/lib/schemas/enterprise.ts';
import { demoPdf, demoPng } from '../../src/server/seed/demoFiles.ts';
import { auditLog, enterprises, notices, users } from '../../src/server/db/schema/index.ts';
import type { Envelope } from './accountCalls.ts';
import { apiHeaders, createTestApp, type TestApp, type TestAppOptions } from './harness.ts';

export const base = '/api/front/hgdarc/enterpriseuser';
export const fileBase = '/api/front/hgdarc/enterpriseauthfile';

export interface EnterpriseTestApp extends TestApp {
  dataDir: string;
}

/** A test app whose DATA_DIR is a fresh temporary directory (uploads land there) and whose bank answers at once. */
export async function createEnterpriseTestApp(options: TestAppOptions = {}): Promise<EnterpriseTestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'hgd-enterprise-'));
  const t = await createTestApp({
    ...options,
    env: { DATA_DIR: dataDir, BANK_SANDBOX_LATENCY_MS: '0', BANK_TIMEOUT_MS: '400', ...options.env },
  });
  return {
    ...t,
    dataDir,
    close: async () => {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

let sequence = 0;

/** A new individual user; answers its id and a session cookie. */
export async function newUser(
  t: TestApp,
  roles: ('individual' | 'operator' | 'enterprise')[] = ['individual'],
): Promise<{ id: number; cookie: string }> {
  sequence += 1;
  const suffix = `${process.pid % 1000}${String(sequence).padStart(4, '0')}`;
  const userName = `ent_${suffix}`;
  const [row] = await t.db
    .insert(users)
    .values({
      userName,
      // A range of its own (135…): fixtures give fixed numbers in 139… (partnerFixtures' staff 1390000xxxx),
      // which this one met whenever the process id ended in 000.
      mobile: `135${suffix.padStart(8, '0').slice(-8)}`,
      name: '测试用户',
      passwordHash: 'not-a-login',
      roles,
    })
    .returning({ id: users.id });
  return { id: row!.id, cookie: await t.login(userName) };
}

/** A valid credit code, different for each `n` (the check character computed). */
export function creditCode(n: number): string {
  const body = `91440101MA${String(n).padStart(7, '0')}`;
  return body + creditCodeCheckChar(body);
}

let recordNo = 0;

/** A complete record with a unique name, credit code and clearance account. */
export function fullRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  recordNo += 1;
  const n = (process.pid % 1000) * 1000 + recordNo;
  return {
    enterpriseName: `广州测试制造有限公司${n}`,
    creditCode: creditCode(n),
    legalPerson: '王五',
    contactName: '李四',
    contactPhone: '13800138000',
    address: '广州市天河区测试路 1 号',
    industry: 'C',
    areaCode: '440000',
    clearanceAccount: `T${String(n).padStart(11, '0')}`,
    electricityAccounts: [`E${String(n).padStart(11, '0')}`],
    voltageLevel: 'kv10',
    annualConsumption: 1200.5,
    ...overrides,
  };
}

export async function postJson<T = Record<string, unknown>>(
  t: TestApp,
  pathName: string,
  body: unknown,
  cookie?: string,
): Promise<Envelope<T>> {
  const response = await t.app.request(pathName, {
    method: 'POST',
    headers: apiHeaders({ 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) }),
    body: JSON.stringify(body),
  });
  return (await response.json()) as Envelope<T>;
}

export async function getJson<T = Record<string, unknown>>(
  t: TestApp,
  pathName: string,
  cookie?: string,
): Promise<Envelope<T>> {
  const response = await t.app.request(pathName, { headers: cookie ? { Cookie: cookie } : {} });
  return (await response.json()) as Envelope<T>;
}

/** Adds a complete enterprise for the user; answers it. */
export async function addEnterprise(
  t: TestApp,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<EnterpriseData> {
  const answer = await postJson<EnterpriseData>(t, `${base}/add`, fullRecord(overrides), cookie);
  if (answer.code !== 200) throw new Error(`add failed: ${answer.code} ${answer.message}`);
  return answer.data;
}

export const pdfBytes = (): Uint8Array => demoPdf(['Test document', 'for the enterprise API tests']);
export const pngBytes = (): Uint8Array => demoPng(3, 40, 30);
/** The start of a JPEG (SOI + APP0 JFIF) and its end: enough for a content check. */
export const jpegBytes = (): Uint8Array =>
  new Uint8Array([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00, 0xff, 0xd9,
  ]);

/** POST upload as multipart, the way the uploader sends it. */
export async function upload(
  t: TestApp,
  cookie: string | undefined,
  fields: { kind?: string; bytes?: Uint8Array; name?: string; type?: string },
): Promise<{ response: Response; answer: Envelope<Record<string, unknown>> }> {
  const form = new FormData();
  if (fields.kind !== undefined) form.set('kind', fields.kind);
  if (fields.bytes)
    form.set(
      'file',
      new File([fields.bytes.slice()], fields.name ?? 'file.pdf', { type: fields.type ?? 'application/pdf' }),
    );
  const response = await t.app.request(`${fileBase}/upload`, {
    method: 'POST',
    headers: apiHeaders(cookie ? { Cookie: cookie } : {}),
    body: form,
  });
  return { response, answer: (await response.clone().json()) as Envelope<Record<string, unknown>> };
}

/** The enterprise row as stored, for "nothing changed" checks. */
export async function enterpriseRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(enterprises).where(eq(enterprises.id, id));
  return row;
}

export async function auditActions(t: TestApp, target: string): Promise<string[]> {
  const rows = await t.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.target, target))
    .orderBy(auditLog.id);
  return rows.map((row) => row.action);
}

export async function noticeKeys(t: TestApp, userId: number): Promise<(string | null)[]> {
  const rows = await t.db
    .select({ key: notices.messageKey })
    .from(notices)
    .where(eq(notices.userId, userId))
    .orderBy(notices.id);
  return rows.map((row) => row.key);
}
