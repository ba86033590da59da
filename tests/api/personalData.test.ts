/**
 * The person's own data (services/personalData.ts): GET personalData answers what the portal holds
 * about the signed-in person and nobody else; exportPersonalData gives it as a JSON or xlsx file,
 * in the reader's language, and audits each copy; a bad format is refused with a message and
 * writes nothing; without a session, or from another site, nothing is answered.
 */
import { and, count, eq } from 'drizzle-orm';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import type { PersonalData } from '../../src/lib/schemas/personalData.ts';
import { auditLog, users } from '../../src/server/db/schema/index.ts';
import { get, post, sessionCookie, type Envelope } from './accountCalls.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));

const exportsOf = async (userId: number) =>
  (
    await t.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.userId, userId), eq(auditLog.action, 'user.dataExport')))
  )[0]?.n ?? 0;

async function signIn(userName: string, password: string): Promise<string> {
  const response = await t.app.request('/api/front/system/login', {
    method: 'POST',
    headers: {
      ...apiHeaders(),
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Forwarded-For': '198.51.100.20',
    },
    body: new URLSearchParams({ userName, password }).toString(),
  });
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error(`${userName} could not sign in`);
  return cookie;
}

const download = (cookie: string, query: string, headers: Record<string, string> = {}) =>
  t.app.request(`/api/front/user/exportPersonalData${query}`, {
    headers: { ...apiHeaders(), Cookie: cookie, ...headers },
  });

describe('personal data', () => {
  it("answers the person's account, enterprise, orders, notices, sign-ins (refused ones too) and sessions", async () => {
    await post(
      t,
      '/api/front/system/login',
      { userName: 'demo_company', password: 'Wrong2025' },
      { ip: '198.51.100.21' },
    );
    const cookie = await signIn('demo_company', 'Company2025');
    const answer = await get<PersonalData>(t, '/api/front/user/personalData', { cookie });
    expect(answer.code).toBe(200);
    const data = answer.data;
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_company'));
    expect(data.account).toMatchObject({ userId: user?.id, userName: 'demo_company', mobile: user?.mobile });
    expect(data.enterprise?.enterpriseName).toBeTruthy();
    expect(data.orders.length).toBeGreaterThanOrEqual(6);
    expect(new Set(data.orders.map((order) => order.status))).toEqual(new Set([10, 20, 30, 40, 90, 91]));
    expect(data.notices.length).toBeGreaterThan(0);
    expect(data.signIns[0]).toMatchObject({ succeeded: true, ip: '198.51.100.20', method: 'account' });
    expect(data.signIns.some((signIn) => !signIn.succeeded && signIn.ip === '198.51.100.21')).toBe(true);
    expect(data.sessions.some((session) => session.current)).toBe(true);
    // The bank account is the enterprise's: masked even here.
    if (data.enterprise?.bankBinding) expect(data.enterprise.bankBinding.accountNoMasked).toMatch(/\*/);
  });

  it("holds nothing of anyone else's", async () => {
    const data = (await get<PersonalData>(t, '/api/front/user/personalData', { cookie: await t.login('demo_person') }))
      .data;
    expect(data.account.userName).toBe('demo_person');
    expect(data.enterprise).toBeNull();
    expect(data.orders).toEqual([]);
  });

  it('gives a JSON copy as a file, and audits it', async () => {
    const cookie = await t.login('demo_company');
    const userId = (await get<PersonalData>(t, '/api/front/user/personalData', { cookie })).data.account.userId;
    const before = await exportsOf(userId);
    const response = await download(cookie, '?format=json');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/octet-stream');
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; .*filename\*=UTF-8''%E4%B8%AA%E4%BA%BA%E4%BF%A1%E6%81%AF-\d{8}\.json$/,
    );
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const copy = (await response.json()) as PersonalData;
    expect(copy.account.userName).toBe('demo_company');
    expect(copy.orders.length).toBeGreaterThanOrEqual(6);
    expect(await exportsOf(userId)).toBe(before + 1);
    const [row] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, userId), eq(auditLog.action, 'user.dataExport')))
      .orderBy(auditLog.id);
    expect(row?.detail).toEqual({ format: 'json' });
  });

  it("gives an xlsx copy, one row per field, order and sign-in, in the reader's language", async () => {
    const cookie = await t.login('demo_company');
    for (const [language, section, orders] of [
      ['zh-CN', '账户', '订单'],
      ['en-US', 'Account', 'Orders'],
    ] as const) {
      const response = await download(cookie, '?format=xlsx', { 'Accept-Language': language });
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toContain('spreadsheetml');
      const rows = (await readSheet(Buffer.from(await response.arrayBuffer()))) as unknown[][];
      expect(rows[0]).toHaveLength(3);
      expect(rows.some((row) => row[0] === section && row[2] === 'demo_company')).toBe(true);
      expect(rows.filter((row) => row[0] === orders).length).toBeGreaterThanOrEqual(6);
    }
  });

  it('refuses a bad format with a message and writes nothing; nothing without a session or from another site', async () => {
    const cookie = await t.login('demo_company');
    const userId = (await get<PersonalData>(t, '/api/front/user/personalData', { cookie })).data.account.userId;
    const before = await exportsOf(userId);
    const refused = (await (await download(cookie, '?format=pdf')).json()) as Envelope;
    expect(refused.code).toBe(400);
    expect(refused.message).toMatch(/\S/);
    const noSession = (await (await download('', '?format=json')).json()) as Envelope;
    expect(noSession.code).toBe(901);
    expect((await get(t, '/api/front/user/personalData')).code).toBe(901);
    const foreign = await t.app.request('/api/front/user/exportPersonalData?format=json', {
      headers: { Cookie: cookie, Origin: 'https://evil.example' },
    });
    expect(((await foreign.json()) as Envelope).code).toBe(403);
    expect(await exportsOf(userId)).toBe(before);
  });
});
