/**
 * /api/front/system/*: account calls open to visitors (spec §7, "System, user, area"): login by
 * account and by mobile, logout, registration, password reset, SMS codes, the captcha image and
 * the phone check. Inputs and answers: docs/accounts.md. The request log writes neither query
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
import { checkPhoneQuery } from '../../lib/schemas/system.ts';
import type { Config } from '../config.ts';
import { ApiError, ok, type AnyContext } from '../envelope.ts';
import { clientIp, secureCookies } from '../request.ts';
import { clearSessionCookie, revokeSession } from '../session.ts';
import { registerUser, resetPassword } from '../services/accounts.ts';
import { writeAudit } from '../services/audit.ts';
import { captchaRules, createCaptcha } from '../services/captcha.ts';
import { checkAccountLogin, loginRules } from '../services/login.ts';
import { hitLimit, type RateRule } from '../services/rateLimit.ts';
import { findUserById, findUserByMobile, isMobileRegistered, loadCurrentUserView } from '../services/users.ts';
import { signIn } from '../signIn.ts';
import { checkSmsCode, consumeSmsCode, sendSmsCode, smsRules } from '../sms/codes.ts';
import type { SmsProvider } from '../sms/provider.ts';
import type { AppEnv, RouteDeps } from '../types.ts';
import { validate } from '../validate.ts';

/** The browser's captcha token: HttpOnly, sent only to this group of calls, gone with the image. */
export const captchaCookieName = 'hgd_captcha';
const captchaCookiePath = '/api/front/system';

/** checkphonenum tells whether a phone is registered: limit how fast one address can ask. */
export const checkPhoneRule: RateRule = { name: 'checkphone.ip', limit: 60, windowSeconds: 10 * 60 };

export const smsSent: SmsSentData = { resendSeconds: smsRules.resendInterval.windowSeconds, expiresSeconds: smsRules.codeTtlSeconds };

function setCaptchaCookie(c: AnyContext, token: string, config: Config): void {
  setCookie(c as Context, captchaCookieName, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: captchaCookiePath,
    maxAge: captchaRules.ttlSeconds,
    secure: secureCookies(c, config),
  });
}

function clearCaptchaCookie(c: AnyContext, config: Config): void {
  deleteCookie(c as Context, captchaCookieName, { path: captchaCookiePath, secure: secureCookies(c, config) });
}

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

  routes.get('/checkphonenum', async (c) => {
    const { phone } = await validate(c, checkPhoneQuery, 'query');
    const ip = clientIp(c, config);
    if (ip) {
      const verdict = await hitLimit(db, checkPhoneRule, ip);
      if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    return ok(c, { registered: await isMobileRegistered(db, phone) });
  });

  /** The image itself (not an envelope), for `<img src>`; its token goes in an HttpOnly cookie. */
  routes.get('/captcha-image', async (c) => {
    await validate(c, captchaImageQuery, 'query');
    const ip = clientIp(c, config);
    if (ip) {
      const verdict = await hitLimit(db, captchaRules.perIp, ip);
      if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    const { token, png } = await createCaptcha(db, ip);
    setCaptchaCookie(c, token, config);
    return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png' });
  });

  routes.post('/login', async (c) => {
    const body = await validate(c, loginBody, 'body');
    const ip = clientIp(c, config);
    const captchaToken = getCookie(c, captchaCookieName);
    // A presented captcha is used up by this try, right or wrong: drop the cookie with it.
    if (body.captcha) clearCaptchaCookie(c, config);
    const user = await checkAccountLogin(db, {
      userName: body.userName,
      password: body.password,
      captcha: body.captcha || undefined,
      captchaToken,
      ip,
    });
    await signIn(c, deps, user.id, 'account', body.deviceId);
    return ok(c, await loadCurrentUserView(db, user), 'auth.loginOk');
  });

  routes.post('/loginMobile', async (c) => {
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
    await db.transaction((tx) => consumeSmsCode(tx, codeId));
    // A proven phone is a login even while password guessing keeps the account name locked.
    await signIn(c, deps, user.id, 'mobile', body.deviceId);
    return ok(c, await loadCurrentUserView(db, user), 'auth.loginOk');
  });

  /** Idempotent: without a live session it still clears the cookie and says goodbye. */
  routes.post('/logout', async (c) => {
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
  routes.post('/register', async (c) => {
    const body = await validate(c, registerBody, 'body');
    const userId = await registerUser(db, { ...body, ip: clientIp(c, config) });
    await signIn(c, deps, userId, 'register', body.deviceId);
    const user = await findUserById(db, userId);
    return ok(c, user ? await loadCurrentUserView(db, user) : {}, 'auth.registerOk');
  });

  routes.post('/resetpassword', async (c) => {
    const body = await validate(c, resetPasswordBody, 'body');
    const userId = await resetPassword(db, { ...body, ip: clientIp(c, config) });
    // Every session of the account has ended, this browser's too if it had one.
    if (c.var.session?.userId === userId) clearSessionCookie(c, config);
    return ok(c, {}, 'auth.resetOk');
  });

  routes.post('/sendSMS', async (c) => {
    const body = await validate(c, sendSmsBody, 'body');
    const ip = clientIp(c, config);
    if (ip) {
      // The phone check inside answers "registered" for register and mobile: the same budget as checkphonenum.
      const verdict = await hitLimit(db, checkPhoneRule, ip);
      if (!verdict.allowed) throw tooManyAttempts(verdict.retryAfterSeconds);
    }
    await sendCodeAfterCheck(deps, { phone: body.phone, type: body.type, ip });
    return ok(c, smsSent, 'sms.sent');
  });

  return routes;
}
