/**
 * Inputs and answers of the visitor-side account calls under /api/front/system (spec §7):
 * login by account and by mobile, registration, password reset, SMS codes and the captcha.
 * The login, registration and reset forms validate with these same schemas; the server answers a
 * failure with code 400 and the localized message of the first issue (docs/accounts.md).
 *
 * Form bodies arrive as strings, so numbers are coerced and optional fields accept ''.
 */
import { z } from 'zod/mini';
import type { UserRole } from '../roles.ts';
import type { SecondFactorDemand } from './secondFactor.ts';
import { consentFields, consentGiven, type ConsentOwed } from './consent.ts';
import { passwordSchema, personNameSchema, phoneSchema, smsCodeSchema } from './fields.ts';

/** Device id the web portal sends with account calls (spec §9). */
export const webDeviceId = 'hgdweb';
/** App code of account login (spec §7: "hgd for account login"). */
export const loginAppCode = 'hgd';
/** App code of every other account call. */
export const appCode = 'HGD';

/** A device id: other front ends (an app) may send their own, the web sends `hgdweb`. */
export const deviceIdSchema = z._default(z.string().check(z.maxLength(32), z.regex(/^[A-Za-z0-9_-]+$/)), webDeviceId);

/** The app code of calls other than account login. */
export const appCodeSchema = z._default(z.literal(appCode), appCode);

/** What a captcha answer looks like: 4 letters or digits, case-insensitive (see captcha-image). */
export const captchaAnswerSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9]{4}$/));

/**
 * The password typed at login. Deliberately not the creation rules (passwordSchema): a login form
 * must not tell which passwords could exist, and a later policy change must not lock anyone out.
 */
export const loginPasswordSchema = z.string().check(z.minLength(1), z.maxLength(128));

/** Login name typed at login: any non-blank text up to 64 characters (no format hints either). */
export const loginUserNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));

/**
 * POST /api/front/system/login — login by account.
 * `captcha` is the text of the image from GET captcha-image (bound to the browser by an HttpOnly
 * cookie). When given it is always checked; after repeated failures (per account or per address)
 * it is required, and the answer says so with `data.captchaRequired: true`.
 */
export const loginBody = z.object({
  userName: loginUserNameSchema,
  password: loginPasswordSchema,
  captcha: z.optional(z.union([captchaAnswerSchema, z.literal('')])),
  deviceId: deviceIdSchema,
  appCode: z._default(z.literal(loginAppCode), loginAppCode),
});
export type LoginBody = z.input<typeof loginBody>;

/** POST /api/front/system/loginMobile — login by mobile number and SMS code (type `login`). */
export const loginMobileBody = z.object({
  phone: phoneSchema,
  code: smsCodeSchema,
  deviceId: deviceIdSchema,
  appCode: appCodeSchema,
});
export type LoginMobileBody = z.input<typeof loginMobileBody>;

/**
 * POST /api/front/system/register — phone, SMS code (type `register`), name, password
 * → "注册成功"; and the versions of the user agreement and the privacy policy agreed to
 * (consent.ts), which must be the current ones. The new account's user name is its mobile number (the spec's registration has no
 * user-name field); it logs in by account with that, or by mobile.
 */
export const registerBody = z
  .object({
    phone: phoneSchema,
    code: smsCodeSchema,
    name: personNameSchema,
    password: passwordSchema,
    deviceId: deviceIdSchema,
    appCode: appCodeSchema,
    ...consentFields,
  })
  .check(consentGiven);
export type RegisterBody = z.input<typeof registerBody>;

/**
 * POST /api/front/system/resetpassword — phone, SMS code (type `modify`), new password
 * → "重置密码成功". Every session of the account ends.
 */
export const resetPasswordBody = z.object({
  phone: phoneSchema,
  code: smsCodeSchema,
  newPassword: passwordSchema,
  deviceId: deviceIdSchema,
  appCode: appCodeSchema,
});
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;

/**
 * What an SMS code sent by POST sendSMS is for. The phone is checked first (spec §4):
 * `register` and `mobile` (a new number for an account) need an unregistered phone; `login`,
 * `modify` and `binding` a registered one — for those three the answer is the same whether or not
 * the phone is registered (only a registered phone gets a message).
 */
export const smsSendTypes = ['login', 'modify', 'register', 'binding', 'mobile'] as const;
export type SmsSendType = (typeof smsSendTypes)[number];

/** POST /api/front/system/sendSMS → "验证码已发出，请稍后查收短信". */
export const sendSmsBody = z.object({
  phone: phoneSchema,
  type: z.enum(smsSendTypes),
  deviceId: deviceIdSchema,
  appCode: appCodeSchema,
});
export type SendSmsBody = z.input<typeof sendSmsBody>;

/** GET /api/front/system/captcha-image — `t` is a cache-busting timestamp, ignored. */
export const captchaImageQuery = z.object({ t: z.optional(z.string().check(z.maxLength(32))) });

// ---- Answers (`data` of the envelope) ----------------------------------------------------------

/** `data` of a successful login (both kinds) and of register: the current user, as currentUser answers it. */
export interface CurrentUserData {
  orgId: string;
  orgName: string;
  userName: string;
  telephone: string;
  enterpriseName: string;
  avatar: string;
  email: string;
  roles: UserRole[];
  /**
   * currentUser only, and only when the account's role requires a second factor this session has
   * not proved: role-guarded calls answer 403 until it does (docs/accounts.md).
   */
  secondFactorRequired?: SecondFactorDemand;
  /** currentUser only: the new versions in effect of the user agreement and privacy policy to agree to. */
  consentOwed?: ConsentOwed;
}

/** `data` of a refused account login (code 400 or 429): whether the next try needs the captcha. */
export interface LoginRefusedData {
  captchaRequired: boolean;
}

/** `data` of sendSMS: seconds before another code may be asked for, and how long the code lives. */
export interface SmsSentData {
  resendSeconds: number;
  expiresSeconds: number;
}

/** `data` of a sendSMS refused for coming too soon after the last code (code 429). */
export interface SmsTooSoonData {
  retryAfterSeconds: number;
}
