/**
 * Calls of the two-step verification tests: enrolling a user as the account page does, an
 * authenticator app (otpauth, from the manual key the enrolment answers), and the login's two
 * steps with the cookies a browser would keep.
 */
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { secondFactors, users } from '../../src/server/db/schema/index.ts';
import type { RecoveryCodesData, SecondFactorEnrolmentData } from '../../src/lib/schemas/secondFactor.ts';
import { cookies, post, postForm, sessionCookie, type CallOptions, type Envelope } from './accountCalls.ts';
import type { TestApp } from './harness.ts';

/** What the user's phone knows after scanning the QR code. */
export interface Authenticator {
  manualKey: string;
  /** The code shown `steps` periods from now (0: now). */
  code(steps?: number): string;
}

export function authenticatorOf(manualKey: string): Authenticator {
  const totp = new TOTP({
    secret: Secret.fromBase32(manualKey.replace(/ /g, '')),
    digits: 6,
    period: 30,
    algorithm: 'SHA1',
  });
  return { manualKey, code: (steps = 0) => totp.generate({ timestamp: Date.now() + steps * 30_000 }) };
}

/** A code that is none of the valid ones around now. */
export function wrongCode(app: Authenticator): string {
  const valid = new Set([-1, 0, 1].map((steps) => app.code(steps)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

/** Enrols and confirms a second factor in the session of `cookie`; answers the app and the recovery codes. */
export async function enableSecondFactor(
  t: TestApp,
  cookie: string,
  password: string,
): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  const enrolled = await post<SecondFactorEnrolmentData>(
    t,
    '/api/front/user/enrolSecondFactor',
    { password },
    { cookie },
  );
  if (enrolled.code !== 200) throw new Error(`enrolSecondFactor: ${enrolled.code} ${enrolled.message}`);
  const app = authenticatorOf(enrolled.data.manualKey);
  const confirmed = await post<RecoveryCodesData>(
    t,
    '/api/front/user/confirmSecondFactor',
    { totpCode: app.code() },
    { cookie },
  );
  if (confirmed.code !== 200) throw new Error(`confirmSecondFactor: ${confirmed.code} ${confirmed.message}`);
  return { app, recoveryCodes: confirmed.data.recoveryCodes };
}

/**
 * Lets the last accepted code's time step pass, as 30 s would: a test uses several codes in a row
 * and each must belong to a step after the last one accepted.
 */
export async function forgetUsedStep(t: TestApp, userName: string): Promise<void> {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.userName, userName));
  await t.db.update(secondFactors).set({ lastUsedStep: null }).where(eq(secondFactors.userId, user!.id));
}

/** The pending-login cookie a response sets (`hgd_login_challenge=…`), or undefined. */
export function challengeCookie(response: Response): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    if (pair.startsWith('hgd_login_challenge=') && pair.length > 'hgd_login_challenge='.length) return pair;
  }
  return undefined;
}

export interface FirstStep {
  answer: Envelope;
  response: Response;
  /** The pending login, when the answer asked for a code. */
  challenge: string | undefined;
}

export async function loginByPassword(
  t: TestApp,
  userName: string,
  password: string,
  options: CallOptions = {},
): Promise<FirstStep> {
  const response = await postForm(t, '/api/front/system/login', { userName, password }, options);
  return { response, answer: (await response.clone().json()) as Envelope, challenge: challengeCookie(response) };
}

export interface SecondStep {
  answer: Envelope;
  response: Response;
  /** The new session's cookie (`hgd_sid=…`), when signed in. */
  session: string | undefined;
}

export async function secondStep(
  t: TestApp,
  challenge: string | undefined,
  code: string,
  options: CallOptions = {},
): Promise<SecondStep> {
  const response = await postForm(
    t,
    '/api/front/system/loginSecondFactor',
    { secondFactorCode: code },
    { ...options, cookie: cookies(challenge, options.cookie) },
  );
  return { response, answer: (await response.clone().json()) as Envelope, session: sessionCookie(response) };
}
