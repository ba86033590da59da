/**
 * Consent to the user agreement and the privacy policy (services/consent.ts): a registration
 * without it, or with versions other than the published ones, is refused with a message in the
 * visitor's language and writes nothing; with it, the evidence is kept (document, version, time,
 * address, device). When a new version takes effect a registered person owes a new agreement
 * (currentUser says what changed) — not before its effective day, never a staff account — and
 * agrees, or declines and is signed out.
 */
import { and, count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { chinaDate } from '../../src/lib/chinaTime.ts';
import type { CurrentUserData } from '../../src/lib/schemas/auth.ts';
import type { SiteContent } from '../../src/content/schemas.ts';
import { auditLog, consents, users } from '../../src/server/db/schema/index.ts';
import { contentStore } from '../../src/server/services/contentStore.ts';
import { consentVersions, get, post, postForm, sessionCookie, smsCodeFor, type Envelope } from './accountCalls.ts';
import { apiHeaders, createTestApp, openPerFile } from './harness.ts';

const t = openPerFile(() => createTestApp({ env: { TRUST_PROXY: '1' } }));
const published = contentStore.current();

afterEach(() => contentStore.replace(published));

/** The published content with a new privacy policy version in effect from `effective`. */
function withNewPolicy(effective: string): SiteContent {
  return {
    ...published,
    legalDocuments: published.legalDocuments.map((document) =>
      document.documentId === 'privacy-policy'
        ? { ...document, version: '2.0', effective, changes: '新增账号注销的在线申请方式。' }
        : document,
    ),
  };
}

const register = (
  phone: string,
  code: string,
  extra: { userAgreementVersion?: string; privacyPolicyVersion?: string } = {},
) =>
  postForm(
    t,
    '/api/front/system/register',
    { phone, code, name: '同意测试', password: 'Consent2026', ...extra },
    { ip: '198.51.100.30', headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' } },
  );

const rowsOf = async (userId: number) =>
  t.db.select().from(consents).where(eq(consents.userId, userId)).orderBy(consents.id);
const current = async (cookie: string) => get<CurrentUserData>(t, '/api/front/user/currentUser', { cookie });

describe('consent at registration', () => {
  it('is required: refused without it, in the visitor’s language, nothing written and the code still good', async () => {
    const phone = '13912350001';
    const code = await smsCodeFor(t, phone, 'register');
    const refused = (await (await register(phone, code)).json()) as Envelope<{ errors: { field: string }[] }>;
    expect(refused).toMatchObject({ code: 400, message: '请阅读并同意《用户协议》和《隐私政策》' });
    expect(refused.data.errors.map((error) => error.field)).toContain('agreement');
    const english = await post(
      t,
      '/api/front/system/register',
      {
        phone,
        code,
        name: 'Consent',
        password: 'Consent2026',
        userAgreementVersion: consentVersions().userAgreementVersion,
      },
      { headers: { 'Accept-Language': 'en-US' } },
    );
    expect(english).toMatchObject({
      code: 400,
      message: 'Please read and agree to the User agreement and the Privacy policy',
    });
    expect(await t.db.select().from(users).where(eq(users.mobile, phone))).toHaveLength(0);
    expect((await (await register(phone, code, consentVersions())).json()) as Envelope).toMatchObject({ code: 200 });
  });

  it('refuses versions other than the published ones (a page read before a new version), writing nothing', async () => {
    const phone = '13912350002';
    const code = await smsCodeFor(t, phone, 'register');
    const stale = { ...consentVersions(), privacyPolicyVersion: '0.9' };
    expect((await (await register(phone, code, stale)).json()) as Envelope).toMatchObject({
      code: 400,
      message: '《用户协议》或《隐私政策》已更新，请刷新页面，阅读新版本后再同意',
    });
    expect(await t.db.select().from(users).where(eq(users.mobile, phone))).toHaveLength(0);
  });

  it('keeps the evidence: each document, its version, the time, the address and the device', async () => {
    const phone = '13912350003';
    const before = Date.now();
    const response = await register(phone, await smsCodeFor(t, phone, 'register'), consentVersions());
    const body = (await response.json()) as Envelope<CurrentUserData>;
    expect(body.code).toBe(200);
    const userId = Number(body.data.orgId);
    const rows = await rowsOf(userId);
    expect(rows.map((row) => [row.document, row.version, row.decision, row.origin])).toEqual([
      ['user-agreement', consentVersions().userAgreementVersion, 'agreed', 'register'],
      ['privacy-policy', consentVersions().privacyPolicyVersion, 'agreed', 'register'],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ ip: '198.51.100.30', deviceId: 'hgdweb' });
      expect(row.userAgent).toContain('Chrome/140.0');
      expect(row.at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    }
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, userId), eq(auditLog.action, 'user.register')));
    expect(audit?.detail).toEqual({
      consent: {
        'user-agreement': consentVersions().userAgreementVersion,
        'privacy-policy': consentVersions().privacyPolicyVersion,
      },
    });
    expect((await current(sessionCookie(response) ?? '')).data.consentOwed).toBeUndefined();
  });
});

describe('a new version', () => {
  it('is owed by a registered person once in effect, with what changed; agreeing records it and ends the question', async () => {
    const cookie = await t.login('demo_company');
    expect((await current(cookie)).data.consentOwed).toBeUndefined();
    contentStore.replace(withNewPolicy(chinaDate()));
    const owed = (await current(cookie)).data.consentOwed;
    expect(owed).toEqual({
      changes: [
        {
          documentId: 'privacy-policy',
          title: '隐私政策',
          version: '2.0',
          effective: chinaDate(),
          changes: '新增账号注销的在线申请方式。',
        },
      ],
      versions: { userAgreementVersion: consentVersions().userAgreementVersion, privacyPolicyVersion: '2.0' },
    });
    // The old versions are refused; an empty body says what is missing.
    expect(
      await post(t, '/api/front/user/consent', { ...consentVersions(), privacyPolicyVersion: '1.0' }, { cookie }),
    ).toMatchObject({ code: 400, message: '《用户协议》或《隐私政策》已更新，请刷新页面，阅读新版本后再同意' });
    expect(await post(t, '/api/front/user/consent', {}, { cookie })).toMatchObject({
      code: 400,
      message: '请阅读并同意《用户协议》和《隐私政策》',
    });
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_company'));
    const before = (await rowsOf(user!.id)).length;
    expect(await post(t, '/api/front/user/consent', { ...owed!.versions }, { cookie })).toMatchObject({ code: 200 });
    const added = (await rowsOf(user!.id)).slice(before);
    expect(added.map((row) => [row.document, row.version, row.decision, row.origin])).toEqual([
      ['user-agreement', consentVersions().userAgreementVersion, 'agreed', 'reconsent'],
      ['privacy-policy', '2.0', 'agreed', 'reconsent'],
    ]);
    expect((await current(cookie)).data.consentOwed).toBeUndefined();
  });

  it('is not owed before its effective day, and never by staff accounts', async () => {
    contentStore.replace(withNewPolicy('2099-01-01'));
    expect((await current(await t.login('demo_person'))).data.consentOwed).toBeUndefined();
    contentStore.replace(withNewPolicy(chinaDate()));
    expect((await current(await t.login('demo_person'))).data.consentOwed?.changes).toHaveLength(1);
    for (const staff of ['demo_operator', 'demo_editor', 'demo_partner'])
      expect((await current(await t.login(staff))).data.consentOwed, staff).toBeUndefined();
  });

  it('declined: recorded, the session ends, and it is asked again at the next sign-in', async () => {
    contentStore.replace(withNewPolicy(chinaDate()));
    const [user] = await t.db.select().from(users).where(eq(users.userName, 'demo_person'));
    const cookie = await t.login('demo_person');
    const response = await t.app.request('/api/front/user/declineConsent', {
      method: 'POST',
      headers: { ...apiHeaders(), Cookie: cookie },
    });
    expect(((await response.json()) as Envelope).code).toBe(200);
    expect((await current(cookie)).code).toBe(901);
    const [declined] = await t.db
      .select({ n: count() })
      .from(consents)
      .where(and(eq(consents.userId, user!.id), eq(consents.decision, 'declined'), eq(consents.version, '2.0')));
    expect(declined?.n).toBe(1);
    expect((await current(await t.login('demo_person'))).data.consentOwed?.changes[0]?.version).toBe('2.0');
  });

  it('cannot be agreed to without a session, or from another site', async () => {
    expect((await post(t, '/api/front/user/consent', { ...consentVersions() })).code).toBe(901);
    const foreign = await t.app.request('/api/front/user/consent', {
      method: 'POST',
      headers: {
        Cookie: await t.login('demo_person'),
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ ...consentVersions() }).toString(),
    });
    expect(((await foreign.json()) as Envelope).code).toBe(403);
  });
});
