/**
 * Inputs and answers of the logged-in user's calls under /api/front/user and /api/notices
 * (spec §7): user info, password and profile changes, the verification code to the account's own
 * phone, enterprise binding, the session list, and notices. Forms and server share them.
 */
import { z } from 'zod/mini';
import {
  emailSchema,
  passwordSchema,
  personNameSchema,
  phoneSchema,
  recordIdSchema,
  smsCodeSchema,
  userNameSchema,
} from './fields.ts';
import { appCodeSchema, deviceIdSchema, loginPasswordSchema, type CurrentUserData } from './auth.ts';
import { noticeTypes, type NoticeTypeName } from '../notices.ts';

/**
 * POST /api/front/user/cancelAccount — close the account (services/cancellation.ts): proved by the
 * login password or by an SMS code (type `verify`) sent to the account's phone.
 */
export const cancelAccountBody = z
  .object({ password: z.optional(loginPasswordSchema), code: z.optional(smsCodeSchema) })
  .check(
    z.refine((body) => body.password !== undefined || body.code !== undefined, {
      message: 'validation.required',
      path: ['password'],
    }),
  );
export type CancelAccountBody = z.input<typeof cancelAccountBody>;

/** POST /api/front/user/changePwd — the current password is required; other sessions end. */
export const changePasswordBody = z
  .object({
    oldPassword: loginPasswordSchema,
    newPassword: passwordSchema,
    deviceId: deviceIdSchema,
    appCode: appCodeSchema,
  })
  .check(
    z.refine((body) => body.oldPassword !== body.newPassword, {
      message: 'auth.samePassword',
      path: ['newPassword'],
    }),
  );
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

/**
 * POST /api/front/user/changeUserInfo — any of name and email; a new mobile number needs
 * `mobile` + `code` (sent to the new number by sendSMS type `mobile`) + `verifyCode` (sent to the
 * current number by sendSMSByDefaultPhone type `verify`). An empty email clears it.
 */
export const changeUserInfoBody = z
  .object({
    name: z.optional(personNameSchema),
    email: z.optional(z.union([emailSchema, z.literal('')])),
    mobile: z.optional(phoneSchema),
    code: z.optional(smsCodeSchema),
    verifyCode: z.optional(smsCodeSchema),
    deviceId: deviceIdSchema,
    appCode: appCodeSchema,
  })
  .check(
    z.refine((body) => body.name !== undefined || body.email !== undefined || body.mobile !== undefined, {
      // On the form as a whole: the field-level "required" message would name one field only.
      message: 'auth.nothingToChange',
    }),
    z.refine((body) => body.mobile === undefined || body.code !== undefined, {
      message: 'validation.required',
      path: ['code'],
    }),
    z.refine((body) => body.mobile === undefined || body.verifyCode !== undefined, {
      message: 'validation.required',
      path: ['verifyCode'],
    }),
  );
export type ChangeUserInfoBody = z.input<typeof changeUserInfoBody>;

/** What a code sent to the account's own phone proves. */
export const defaultPhoneSmsTypes = ['verify', 'binding'] as const;

/** POST /api/front/user/sendSMSByDefaultPhone — a code to the logged-in user's own phone. */
export const sendSmsByDefaultPhoneBody = z.object({
  type: z._default(z.enum(defaultPhoneSmsTypes), 'verify'),
  deviceId: deviceIdSchema,
  appCode: appCodeSchema,
});
export type SendSmsByDefaultPhoneBody = z.input<typeof sendSmsByDefaultPhoneBody>;

/** Clearance account (结算户号): 6–32 letters or digits. */
export const clearanceAccountSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9]{6,32}$/));

/** An enterprise's registered name. */
export const enterpriseNameSchema = z.string().check(z.trim(), z.minLength(2), z.maxLength(100));

/**
 * POST /api/front/user/bind — links the logged-in user to an enterprise (found by its clearance
 * account, or created) and gives the `enterprise` role. `userId` and `userName` must be the
 * logged-in account's own; `mobile` its own number with a code of type `binding`.
 */
export const bindBody = z.object({
  userId: recordIdSchema,
  mobile: phoneSchema,
  code: smsCodeSchema,
  userName: userNameSchema,
  clearanceAccount: clearanceAccountSchema,
  enterpriseName: enterpriseNameSchema,
  deviceId: deviceIdSchema,
  appCode: appCodeSchema,
});
export type BindBody = z.input<typeof bindBody>;

/** POST /api/front/user/endSession — ends one of the user's sessions by its public id. */
export const endSessionBody = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{16}$/)) });
export type EndSessionBody = z.input<typeof endSessionBody>;

/** GET /api/notices — optionally one type. */
export const noticesQuery = z.object({ type: z.optional(z.enum(noticeTypes)) });

/** POST /api/notices/read — marks one notice read. */
export const noticeReadBody = z.object({ id: recordIdSchema });

/** POST /api/notices/clear — removes every notice of one type. */
export const noticeClearBody = z.object({ type: z.enum(noticeTypes) });

// ---- Answers (`data` of the envelope) ----------------------------------------------------------

/** The enterprise a user is bound to, as the account pages show it. */
export interface BoundEnterprise {
  id: number;
  enterpriseName: string;
  clearanceAccount: string;
  /** 0 not certified, 1 under review, 2 certified, 3 returned (spec §4). */
  authStatus: number;
}

/** getUserInfo: the current-user fields plus `mobile` (copied into telephone by the client). */
export interface UserInfoData extends CurrentUserData {
  userId: number;
  name: string;
  mobile: string;
  enterprise: BoundEnterprise | null;
  createdAt: string;
}

/** One entry of GET /api/front/user/sessions. */
export interface SessionData {
  /** Public id (16 hex), for endSession; not the cookie, not the stored key. */
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  /** e.g. "Chrome 156 · Linux"; '' when unknown. */
  device: string;
  userAgent: string | null;
}

/** One notice of GET /api/notices (the store's Notice). */
export interface NoticeData {
  id: number;
  type: NoticeTypeName;
  title: string;
  description: string;
  /** ISO time the notice was created. */
  datetime: string;
  read: boolean;
}

/** GET /api/notices/counts and the answer of read / clear. */
export interface NoticeCountsData {
  totalCount: number;
  unreadCount: number;
  byType: Record<NoticeTypeName, { totalCount: number; unreadCount: number }>;
}
