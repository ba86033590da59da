/**
 * /api/front/system/*: account calls open to visitors (spec §7, "System, user, area"): login by
 * account and by mobile (with the second step of a user with a second factor), logout,
 * registration, password reset, SMS codes, the captcha image and the phone check. Inputs and
 * answers: docs/accounts.md. The request log writes neither query
 * values nor parameter names under this path (phones, codes, captchas).
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { Hono } from 'hono';
import {
  captchaImageQuery,
  loginBody,
  loginMobileBody,
  registerBody,
  resetPasswordBody,
  sendSmsBody,
  type SmsSendType,
  type SmsSentData,
} from '../../lib/schemas/auth.ts';
import { loginSecondFactorBody, type SecondFactorChallengeData } from '../../lib/schemas/secondFactor.ts';
import { checkPhoneQuery } from '../../lib/schemas/system.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../apiError.ts';
import { ok, type AnyContext } from '../envelope.ts';
import { clientIp, secureCookies } from '../request.ts';
import { clearSessionCookie, revokeSession } from '../session.ts';
import { registerUser, resetPassword } from '../services/accounts.ts';
import { checkCurrentVersions, currentVersions } from '../services/consent.ts';
import { contentStore } from '../services/contentStore.ts';
import { writeAudit } from '../services/audit.ts';
import { captchaRules, createCaptcha } from '../services/captcha.ts';
import { checkAccountLogin, loginRules } from '../services/login.ts';
import {
  claimChallengeTry,
  createLoginChallenge,
  loginChallengeRules,
  useChallenge,
  type FirstFactor,
} from '../services/loginChallenge.ts';
import { hitLimit, type RateRule } from '../services/rateLimit.ts';
import { hasConfirmedSecondFactor, noticeRecoveryCodeUsed, proveSecondFactor } from '../services/secondFactor.ts';
import { findUserById, findUserByMobile, isMobileRegistered, loadCurrentUserView } from '../services/users.ts';
import { handOverSession, openSession, signIn } from '../signIn.ts';
import { checkSmsCode, consumeSmsCode, sendSmsCode, smsRules } from '../sms/codes.ts';
import type { SmsProvider } from '../sms/provider.ts';
import { describeCall } from '../openapi/describe.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';
import type { UserRole } from '../../lib/roles.ts';
import { passwordExpired } from '../services/staffPasswords.ts';

/** The browser's captcha token: HttpOnly, sent only to this group of calls, gone with the image. */
export const captchaCookieName = 'hgd_captcha';
/** Where the captcha and pending-login cookies are sent: these calls only. */
const systemCallsPath = '/api/front/system';

/** checkphonenum tells whether a phone is registered: limit how fast one address can ask. */
export const checkPhoneRule: RateRule = { name: 'checkphone.ip', limit: 60, windowSeconds: 10 * 60 };

export const smsSent: SmsSentData = {
  resendSeconds: smsRules.resendInterval.windowSeconds,
  expiresSeconds: smsRules.codeTtlSeconds,
};

/**
 * A short-lived HttpOnly cookie sent only to this group of calls: the captcha's token, the pending
 * second step of a login. Set with its lifetime, cleared once used.
 */
function systemCallsCookie(name: string, ttlSeconds: number) {
  return {
    set(c: AnyContext, token: string, config: Config): void {
      setCookie(c as Context, name, token, {
        httpOnly: true,
        sameSite: 'Strict',
        path: systemCallsPath,
        maxAge: ttlSeconds,
        secure: secureCookies(c, config),
      });
    },
    clear(c: AnyContext, config: Config): void {
      deleteCookie(c as Context, name, { path: systemCallsPath, secure: secureCookies(c, config) });
    },
  };
}

const captchaCookie = systemCallsCookie(captchaCookieName, captchaRules.ttlSeconds);

/** The pending second step of a login: gone with the login. */
export const loginChallengeCookieName = 'hgd_login_challenge';
const challengeCookie = systemCallsCookie(loginChallengeCookieName, loginChallengeRules.ttlSeconds);

const secondFactorOwed: SecondFactorChallengeData = { secondFactor: 'totp' };

/** 429 with the minutes left in the window. */
export function tooManyAttempts(retryAfterSeconds: number): ApiError {
  return ApiError.tooManyRequests('auth.tooManyAttempts', { minutes: Math.max(1, Math.ceil(retryAfterSeconds / 60)) });
}

/** Sends a code to a phone after the spec's phone check (§4); see sendSmsBody for the rules per type. */
async function sendCodeAfterCheck(
  deps: { db: RouteDeps['db']; sms: SmsProvider },
  input: { phone: string; type: SmsSendType; ip: string | null },
): Promise<void> {
  const registered = await isMobileRegistered(deps.db, input.phone);
  if (input.type === 'register' || input.type === 'mobile') {
    // These flows cannot go on with a registered phone, so they have to say it.
    if (registered) throw ApiError.conflict('auth.phoneTaken');
    await sendSmsCode(deps.db, deps.sms, { phone: input.phone, purpose: input.type, ip: input.ip });
    return;
  }
  // login, modify, binding: the same answer either way; only a registered phone gets a message.
  await sendSmsCode(deps.db, deps.sms, { phone: input.phone, purpose: input.type, ip: input.ip, deliver: registered });
}

export function createSystemRoutes(deps: RouteDeps): Hono<AppEnv> {
  const { db, config } = deps;
  const routes = new Hono<AppEnv>();

  /**
   * The first factor passed. A staff account whose password is past its age is refused here, by
   * either factor, until the password is reset by SMS (services/staffPasswords.ts). A user with a
   * second factor gets no session yet: a pending login (cookie) and `data.secondFactor`; anyone
   * else is signed in. `within` runs in the transaction that makes the pending login (the SMS
   * code is used up with it).
   */
  const afterFirstFactor = async (
    c: AnyContext,
    user: { id: number; roles: UserRole[]; passwordChangedAt: Date },
    method: FirstFactor,
    deviceId: string,
    within: (tx: RouteDeps['db']) => Promise<void> = async () => {},
  ): Promise<'signedIn' | 'secondFactorOwed'> => {
    if (passwordExpired(user, config.staffPasswordMaxAgeDays))
      throw ApiError.badRequest('auth.passwordExpired', { days: config.staffPasswordMaxAgeDays });
    if (!(await hasConfirmedSecondFactor(db, user.id))) {
      await within(db);
      await signIn(c, deps, user.id, method, deviceId);
      return 'signedIn';
    }
    const ip = clientIp(c, config);
    const token = await db.transaction(async (tx) => {
      await within(tx);
      return createLoginChallenge(tx, { userId: user.id, method, deviceId, ip });
    });
    challengeCookie.set(c, token, config);
    return 'secondFactorOwed';
  };

  routes.get(
    '/checkphonenum',
    describeCall({
      summary: 'Whether a phone number is registered',
      query: checkPhoneQuery,
      codes: { 429: 'too many requests (`api.tooManyRequests`)' },
    }),
    async (c) => {
      const { phone } = await validate(c, checkPhoneQuery, 'query');
      const ip = clientIp(c, config);
      if (ip) {
        const verdict = await hitLimit(db, checkPhoneRule, ip);
        if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
      }
      return ok(c, { registered: await isMobileRegistered(db, phone) });
    },
  );

  /** The image itself (not an envelope), for `<img src>`; its token goes in an HttpOnly cookie. */
  routes.get(
    '/captcha-image',
    describeCall({
      summary: 'A captcha image (its answer is kept behind a cookie)',
      query: captchaImageQuery,
      codes: { 429: 'too many requests (`api.tooManyRequests`)' },
      download: 'image/png',
    }),
    async (c) => {
      await validate(c, captchaImageQuery, 'query');
      const ip = clientIp(c, config);
      if (ip) {
        const verdict = await hitLimit(db, captchaRules.perIp, ip);
        if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
      }
      const { token, png } = await createCaptcha(db, (await deps.keys()).captcha, ip);
      captchaCookie.set(c, token, config);
      return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png' });
    },
  );

  routes.post(
    '/login',
    describeCall({
      summary: 'Log in with account and password (and captcha)',
      body: loginBody,
      codes: {
        400: '`auth.badCredentials`, `auth.accountDisabled`, `auth.passwordExpired` (a staff password past its age)',
      },
    }),
    async (c) => {
      const body = await validate(c, loginBody, 'body');
      const ip = clientIp(c, config);
      const captchaToken = getCookie(c, captchaCookieName);
      // A presented captcha is used up by this try, right or wrong: drop the cookie with it.
      if (body.captcha) captchaCookie.clear(c, config);
      const user = await checkAccountLogin(db, {
        userName: body.userName,
        password: body.password,
        captcha: body.captcha || undefined,
        captchaToken,
        captchaKey: (await deps.keys()).captcha,
        ip,
      });
      if ((await afterFirstFactor(c, user, 'account', body.deviceId)) === 'secondFactorOwed')
        return ok(c, secondFactorOwed, 'auth.secondFactorNeeded');
      return ok(c, await loadCurrentUserView(db, user), 'auth.loginOk');
    },
  );

  routes.post(
    '/loginMobile',
    describeCall({
      summary: 'Log in with a phone number and an SMS code',
      body: loginMobileBody,
      codes: {
        400: '`sms.codeInvalid`, `auth.accountDisabled`, `auth.passwordExpired`',
        429: 'too many requests (`api.tooManyRequests`)',
      },
    }),
    async (c) => {
      const body = await validate(c, loginMobileBody, 'body');
      const ip = clientIp(c, config);
      if (ip) {
        // The same per-address budget as account login: both are ways to guess into accounts.
        const verdict = await hitLimit(db, loginRules.perIp, ip);
        if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
      }
      const codeId = await checkSmsCode(db, { phone: body.phone, purpose: 'login', code: body.code });
      const user = await findUserByMobile(db, body.phone);
      if (!user) throw ApiError.badRequest('sms.codeInvalid');
      if (user.status !== 'active') throw ApiError.badRequest('auth.accountDisabled');
      // A proven phone is a login even while password guessing keeps the account name locked.
      const step = await afterFirstFactor(c, user, 'mobile', body.deviceId, (tx) => consumeSmsCode(tx, codeId));
      if (step === 'secondFactorOwed') return ok(c, secondFactorOwed, 'auth.secondFactorNeeded');
      return ok(c, await loadCurrentUserView(db, user), 'auth.loginOk');
    },
  );

  /**
   * The second step: a code of the user's authenticator app, or one recovery code, for the login
   * the cookie names. Limits as for passwords: the per-address budget of login, the pending
   * login's 5 tries, and the user's code failures (5 in 15 minutes lock codes for 15 minutes).
   */
  routes.post(
    '/loginSecondFactor',
    describeCall({
      summary: 'Second step of a login: the one-time or recovery code',
      body: loginSecondFactorBody,
      codes: {
        400: '`auth.secondFactorInvalid`, `auth.accountDisabled`',
        429: 'too many requests (`api.tooManyRequests`)',
      },
    }),
    async (c) => {
      const body = await validate(c, loginSecondFactorBody, 'body');
      const ip = clientIp(c, config);
      if (ip) {
        const verdict = await hitLimit(db, loginRules.perIp, ip);
        if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
      }
      const pending = await claimChallengeTry(db, getCookie(c, loginChallengeCookieName)).catch((error: unknown) => {
        // Gone for good: the browser drops it and starts the login again.
        challengeCookie.clear(c, config);
        throw error;
      });
      const { userId, method, deviceId } = pending;
      const keys = await deps.keys();
      const token = await proveSecondFactor(
        db,
        keys,
        { userId, code: body.secondFactorCode, ip, purpose: 'login' },
        () => ApiError.field('secondFactorCode', 'auth.secondFactorInvalid'),
        async (tx, kind) => {
          await useChallenge(tx, pending.id);
          const user = await findUserById(tx, userId);
          if (!user || user.status !== 'active') throw ApiError.badRequest('auth.accountDisabled');
          if (kind === 'recovery') await noticeRecoveryCodeUsed(tx, userId);
          return openSession(tx, c, config, userId, method, deviceId, { secondFactorAt: new Date() });
        },
      );
      challengeCookie.clear(c, config);
      handOverSession(c, config, token, method);
      const user = await findUserById(db, userId);
      return ok(c, user ? await loadCurrentUserView(db, user) : {}, 'auth.loginOk');
    },
  );

  /** Idempotent: without a live session it still clears the cookie and says goodbye. */
  routes.post('/logout', describeCall({ summary: 'Log out (ends the session)' }), async (c) => {
    const session = c.var.session;
    if (session) {
      await db.transaction(async (tx) => {
        await revokeSession(tx, session.id);
        await writeAudit(tx, {
          userId: session.userId,
          action: 'session.logout',
          target: `user:${session.userId}`,
          ip: clientIp(c, config),
        });
      });
    }
    clearSessionCookie(c, config);
    return ok(c, {}, 'api.logoutOk');
  });

  /** Registers and logs the new user in (a new session, as after any login). */
  routes.post(
    '/register',
    describeCall({
      summary:
        'Register an account; userAgreementVersion and privacyPolicyVersion (both required) name the published versions agreed to',
      body: registerBody,
    }),
    async (c) => {
      const body = await validate(c, registerBody, 'body');
      // The versions the visitor read must still be the published ones: else nothing is written.
      const content = contentStore.current();
      checkCurrentVersions(content, body);
      const userId = await registerUser(db, {
        ...body,
        ip: clientIp(c, config),
        consent: {
          versions: currentVersions(content),
          userAgent: c.req.header('user-agent') ?? null,
          deviceId: body.deviceId,
        },
      });
      await signIn(c, deps, userId, 'register', body.deviceId);
      const user = await findUserById(db, userId);
      return ok(c, user ? await loadCurrentUserView(db, user) : {}, 'auth.registerOk');
    },
  );

  routes.post(
    '/resetpassword',
    describeCall({ summary: 'Reset a forgotten password with an SMS code', body: resetPasswordBody }),
    async (c) => {
      const body = await validate(c, resetPasswordBody, 'body');
      const userId = await resetPassword(db, { ...body, ip: clientIp(c, config) });
      // Every session of the account has ended, this browser's too if it had one.
      if (c.var.session?.userId === userId) clearSessionCookie(c, config);
      return ok(c, {}, 'auth.resetOk');
    },
  );

  routes.post(
    '/sendSMS',
    describeCall({
      summary: 'Send an SMS code (registration, login or password reset)',
      body: sendSmsBody,
      codes: { 429: 'too many requests (`api.tooManyRequests`)' },
    }),
    async (c) => {
      const body = await validate(c, sendSmsBody, 'body');
      const ip = clientIp(c, config);
      if (ip) {
        // The phone check inside answers "registered" for register and mobile: the same budget as checkphonenum.
        const verdict = await hitLimit(db, checkPhoneRule, ip);
        if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
      }
      await sendCodeAfterCheck(deps, { phone: body.phone, type: body.type, ip });
      return ok(c, smsSent, 'sms.sent');
    },
  );

  return routes;
}
