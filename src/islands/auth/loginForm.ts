/** The login island's calls, messages and form schemas (spec §7; docs/accounts.md). */
import { z } from 'zod/mini';
import type { MessageKey } from '../../lib/i18n/index.ts';
import { captchaAnswerSchema, loginBody, loginMobileBody } from '../../lib/schemas/auth.ts';

export const LOGIN_URL = '/api/front/system/login';
export const LOGIN_MOBILE_URL = '/api/front/system/loginMobile';
/** The second step of a user with two-step verification (docs/accounts.md). */
export const LOGIN_SECOND_FACTOR_URL = '/api/front/system/loginSecondFactor';

/**
 * The account form always asks for the captcha the spec's login page shows (the server makes it
 * compulsory only after failures, and checks it whenever it is given).
 */
export const accountLoginForm = z.extend(loginBody, { captcha: captchaAnswerSchema });
export const mobileLoginForm = loginMobileBody;

export const loginMessageKeys = [
  'account.login.modesLabel',
  'account.login.modeAccount',
  'account.login.modeMobile',
  'account.login.submit',
  'account.login.submitting',
  'account.login.ok',
  'account.login.forgot',
  'account.login.noAccount',
  'account.login.toRegister',
  'account.login.userNameHint',
  'account.captcha.refresh',
  'account.captcha.loadFailed',
  'account.sms.send',
  'account.sms.sending',
  'account.sms.countdown',
  'account.sms.phoneTaken',
  'field.userName',
  'field.password',
  'field.captcha',
  'field.phone',
  'field.smsCode',
  'field.totpCode',
  'field.recoveryCode',
  'account.secondFactor.stepTitle',
  'account.secondFactor.stepLead',
  'account.secondFactor.recoveryLead',
  'account.secondFactor.useRecovery',
  'account.secondFactor.useApp',
  'account.secondFactor.submit',
  'account.secondFactor.back',
] as const satisfies readonly MessageKey[];

export type LoginMessages = Record<(typeof loginMessageKeys)[number], string>;

export type LoginMode = 'account' | 'mobile';
