/** Calls and messages of the setting pages: registration, password reset, binding (spec §2, §7). */
import type { MessageKey } from '../../lib/i18n/index.ts';

export const REGISTER_URL = '/api/front/system/register';
export const RESET_PASSWORD_URL = '/api/front/system/resetpassword';
export const BIND_URL = '/api/front/user/bind';

const smsKeys = [
  'account.sms.send',
  'account.sms.sending',
  'account.sms.countdown',
  'account.sms.phoneTaken',
  'field.phone',
  'field.smsCode',
] as const satisfies readonly MessageKey[];

export const registerMessageKeys = [
  ...smsKeys,
  'field.name',
  'field.password',
  'account.password.hint',
  'account.password.confirm',
  'account.password.mismatch',
  'account.register.submit',
  'account.register.ok',
  'account.register.haveAccount',
  'account.register.toLogin',
  'account.register.userNameNote',
  'account.common.submitting',
  'legal.consent',
  'legal.userAgreement',
  'legal.privacyPolicy',
] as const satisfies readonly MessageKey[];
export type RegisterMessages = Record<(typeof registerMessageKeys)[number], string>;

export const modifyMessageKeys = [
  ...smsKeys,
  'field.newPassword',
  'account.password.hint',
  'account.password.confirm',
  'account.password.mismatch',
  'account.modify.submit',
  'account.modify.ok',
  'account.modify.toLogin',
  'account.common.submitting',
] as const satisfies readonly MessageKey[];
export type ModifyMessages = Record<(typeof modifyMessageKeys)[number], string>;

export const bindingMessageKeys = [
  'account.sms.send',
  'account.sms.sending',
  'account.sms.countdown',
  'field.userName',
  'field.phone',
  'field.smsCode',
  'field.enterpriseName',
  'field.clearanceAccount',
  'account.binding.submit',
  'account.binding.ok',
  'account.binding.codeNote',
  'account.binding.alreadyBound',
  'account.binding.toOverview',
  'account.common.submitting',
  'account.common.loadFailed',
  'account.common.retry',
  'common.loading',
] as const satisfies readonly MessageKey[];
export type BindingMessages = Record<(typeof bindingMessageKeys)[number], string>;
