/**
 * Calls of the account tests: form posts as the browser client sends them, the SMS outbox read
 * like a phone screen, and a captcha whose answer the test knows.
 */
import { desc, eq, sql } from 'drizzle-orm';
import { captchas, smsOutbox } from '../../src/server/db/schema/index.ts';
import type { ConsentVersions } from '../../src/lib/schemas/consent.ts';
import { hashCaptchaAnswer, hashCaptchaToken } from '../../src/server/services/captcha.ts';
import { currentVersions } from '../../src/server/services/consent.ts';
import { contentStore } from '../../src/server/services/contentStore.ts';
import { apiHeaders, type TestApp } from './harness.ts';

/** The published versions a registration agrees to (the registration form's ticked checkbox). */
export function consentVersions(): ConsentVersions {
  const versions = currentVersions(contentStore.current());
  return { userAgreementVersion: versions['user-agreement'], privacyPolicyVersion: versions['privacy-policy'] };
}

export interface Envelope<T = Record<string, unknown>> {
  code: number;
  message: string;
  data: T;
}

export interface CallOptions {
  cookie?: string;
  /** Sent as X-Forwarded-For: the app must run with TRUST_PROXY=1 for it to count. */
  ip?: string;
  headers?: Record<string, string>;
}

function headersOf(options: CallOptions, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(options.cookie ? { Cookie: options.cookie } : {}),
    ...(options.ip ? { 'X-Forwarded-For': options.ip } : {}),
    ...extra,
    ...options.headers,
  };
}

/** POST a form body with the client's CSRF headers; answers the response. */
export function postForm(
  t: TestApp,
  path: string,
  body: Record<string, string | number>,
  options: CallOptions = {},
): Promise<Response> {
  const form = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]));
  return Promise.resolve(
    t.app.request(path, {
      method: 'POST',
      headers: apiHeaders(headersOf(options, { 'Content-Type': 'application/x-www-form-urlencoded' })),
      body: form.toString(),
    }),
  );
}

export async function post<T = Record<string, unknown>>(
  t: TestApp,
  path: string,
  body: Record<string, string | number> = {},
  options: CallOptions = {},
): Promise<Envelope<T>> {
  return (await (await postForm(t, path, body, options)).json()) as Envelope<T>;
}

/** GET with the client's headers (it always sends them; exports and cancelOrder need them: middleware/csrf.ts). */
export async function get<T = Record<string, unknown>>(
  t: TestApp,
  path: string,
  options: CallOptions = {},
): Promise<Envelope<T>> {
  return (await (await t.app.request(path, { headers: headersOf(options, apiHeaders()) })).json()) as Envelope<T>;
}

/**
 * The session cookie a response leaves in the browser (`hgd_sid=…`), or undefined. As in a
 * browser the last Set-Cookie wins: a dead cookie is cleared before login sets the new one.
 */
export function sessionCookie(response: Response): string | undefined {
  let value: string | undefined;
  for (const line of response.headers.getSetCookie()) {
    const [name, rest = ''] = (line.split(';')[0] ?? '').split('=');
    if (name?.trim() === 'hgd_sid') value = rest;
  }
  return value ? `hgd_sid=${value}` : undefined;
}

/** The code of the newest outbox message to a phone, or undefined when none was sent. */
export async function lastSmsCode(t: TestApp, phone: string): Promise<string | undefined> {
  const [row] = await t.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, phone))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  return row?.text.match(/\d{6}/)?.[0];
}

export async function outboxCount(t: TestApp, phone: string): Promise<number> {
  return (await t.db.select().from(smsOutbox).where(eq(smsOutbox.phone, phone))).length;
}

/** Asks for an SMS code through the API and reads it from the outbox. */
export async function smsCodeFor(t: TestApp, phone: string, type: string, options: CallOptions = {}): Promise<string> {
  const answer = await post(t, '/api/front/system/sendSMS', { phone, type }, options);
  if (answer.code !== 200) throw new Error(`sendSMS ${type} ${phone}: ${answer.code} ${answer.message}`);
  const code = await lastSmsCode(t, phone);
  if (!code) throw new Error(`no SMS to ${phone}`);
  return code;
}

/** Lets the 60 s resend pause pass for every phone (tests send several codes to one number). */
export async function skipResendPause(t: TestApp): Promise<void> {
  await t.db.execute(sql`delete from rate_limits where key like 'sms.interval:%'`);
}

/**
 * Fetches a captcha image and sets its answer to `answer` (the image's own text is drawn as
 * distorted strokes in a PNG, unreadable for a test). Answers the `hgd_captcha=…` cookie header.
 */
export async function knownCaptcha(t: TestApp, answer = 'Ab3d', options: CallOptions = {}): Promise<string> {
  const response = await t.app.request('/api/front/system/captcha-image?t=1', { headers: headersOf(options) });
  const line = response.headers.getSetCookie().find((value) => value.startsWith('hgd_captcha='));
  const token = line?.split(';')[0]?.split('=')[1];
  if (!token) throw new Error('no captcha cookie');
  await t.db
    .update(captchas)
    .set({ answerHash: hashCaptchaAnswer((await t.keys()).captcha, answer) })
    .where(eq(captchas.id, hashCaptchaToken(token)));
  return `hgd_captcha=${token}`;
}

/** Joins cookie header values. */
export function cookies(...values: (string | undefined)[]): string {
  return values.filter(Boolean).join('; ');
}
