/**
 * Two-step verification (TOTP, RFC 6238): the inputs and answers of the login's second step
 * (/api/front/system/loginSecondFactor) and of the account's calls under /api/front/user
 * (docs/accounts.md, "Two-step verification"). Forms and server share them.
 */
import { z } from 'zod/mini';
import { appCodeSchema, deviceIdSchema, loginPasswordSchema } from './auth.ts';

/** The 6 digits an authenticator app shows (a new one every 30 s). */
export const totpCodeSchema = z.string().check(z.trim(), z.regex(/^\d{6}$/));

/**
 * Recovery codes: 10 characters of Crockford's base32 (no i, l, o, u), shown as `xxxxx-xxxxx`;
 * typed with or without the hyphen or a space, in either case.
 */
export const recoveryCodeAlphabet = '0123456789abcdefghjkmnpqrstvwxyz';
export const recoveryCodeCount = 10;
const recoveryCodePattern = /^[0-9A-Za-z]{5}[- ]?[0-9A-Za-z]{5}$/;

/** A code of either kind: what the login's second step and the account's proofs accept. */
export const secondFactorCodeSchema = z.string().check(
  z.trim(),
  z.refine((value) => /^\d{6}$/.test(value) || recoveryCodePattern.test(value), { message: 'validation.pattern' }),
);

/** Whether a typed code is a recovery code (else an authenticator code). */
export function isRecoveryCode(code: string): boolean {
  return !/^\d{6}$/.test(code.trim());
}

/**
 * POST /api/front/system/loginSecondFactor — the second step of a login whose first step answered
 * `data.secondFactor`: a code from the authenticator app or one unused recovery code. The
 * pending login is named by the HttpOnly cookie the first step set.
 */
export const loginSecondFactorBody = z.object({
  secondFactorCode: secondFactorCodeSchema,
  deviceId: deviceIdSchema,
  appCode: appCodeSchema,
});
export type LoginSecondFactorBody = z.input<typeof loginSecondFactorBody>;

/** POST /api/front/user/enrolSecondFactor — a change to how the account signs in needs the password again. */
export const enrolSecondFactorBody = z.object({ password: loginPasswordSchema });
export type EnrolSecondFactorBody = z.input<typeof enrolSecondFactorBody>;

/** POST /api/front/user/confirmSecondFactor — the first code from the app proves it was set up. */
export const confirmSecondFactorBody = z.object({ totpCode: totpCodeSchema });
export type ConfirmSecondFactorBody = z.input<typeof confirmSecondFactorBody>;

/** POST /api/front/user/verifySecondFactor — proves the factor in a session that has not (e.g. one begun before enrolling). */
export const verifySecondFactorBody = z.object({ secondFactorCode: secondFactorCodeSchema });
export type VerifySecondFactorBody = z.input<typeof verifySecondFactorBody>;

/**
 * POST /api/front/user/disableSecondFactor and regenerateRecoveryCodes: proved by a current code
 * (or a recovery code) or by the password — either one.
 */
export const secondFactorProofBody = z
  .object({
    secondFactorCode: z.optional(z.union([secondFactorCodeSchema, z.literal('')])),
    password: z.optional(z.union([loginPasswordSchema, z.literal('')])),
  })
  .check(
    z.refine((body) => Boolean(body.secondFactorCode) || Boolean(body.password), {
      message: 'validation.required',
      path: ['secondFactorCode'],
    }),
  );
export type SecondFactorProofBody = z.input<typeof secondFactorProofBody>;

// ---- Answers (`data` of the envelope) ----------------------------------------------------------

/**
 * `data` of a login (account or mobile) whose first factor passed and whose second is owed: no
 * session yet; send the code to loginSecondFactor within 5 minutes.
 */
export interface SecondFactorChallengeData {
  secondFactor: 'totp';
}

/** What a session lacks before a role-guarded call: an enrolled factor, or its proof in this session. */
export type SecondFactorDemand = 'enrol' | 'verify';

/** `data` of a role-guarded call refused (code 403) for want of a second factor. */
export interface SecondFactorRequiredData {
  secondFactorRequired: SecondFactorDemand;
}

/** `data` of GET /api/front/user/secondFactor. */
export interface SecondFactorStatusData {
  /** A confirmed factor: every login asks for a code. */
  enabled: boolean;
  /** ISO time it was confirmed, or null. */
  enabledAt: string | null;
  /** Unused recovery codes left. */
  recoveryCodesLeft: number;
  /** The account's role requires a factor (MFA_REQUIRED_ROLES): it cannot be turned off. */
  required: boolean;
  /** This session has proved the factor (at login, or by enrolling or verifying in it). */
  sessionVerified: boolean;
}

/** `data` of enrolSecondFactor: what the authenticator app needs, once (nothing is confirmed yet). */
export interface SecondFactorEnrolmentData {
  /** `otpauth://totp/…` (the QR code's content). */
  otpauthUri: string;
  /** The secret in base32, in groups of four, to type in by hand. */
  manualKey: string;
  /** The QR code as a `data:image/svg+xml;base64,…` URL for an `<img>`. */
  qrCode: string;
}

/** `data` of confirmSecondFactor and regenerateRecoveryCodes: shown once, never again. */
export interface RecoveryCodesData {
  recoveryCodes: string[];
}
