/** The account-settings island's calls and messages (docs/accounts.md, "Logged-in calls"). */
import type { MessageKey } from '../../lib/i18n/index.ts';

export const CHANGE_USER_INFO_URL = '/api/front/user/changeUserInfo';
export const CHANGE_PASSWORD_URL = '/api/front/user/changePwd';
export const SESSIONS_URL = '/api/front/user/sessions';
export const END_SESSION_URL = '/api/front/user/endSession';

export const accountMessageKeys = [
  'common.loading',
  'field.name',
  'field.userName',
  'field.email',
  'field.phone',
  'field.smsCode',
  'field.oldPassword',
  'field.newPassword',
  'account.common.save',
  'account.common.saving',
  'account.common.submitting',
  'account.common.cancel',
  'account.common.loadFailed',
  'account.common.retry',
  'account.sms.send',
  'account.sms.sending',
  'account.sms.countdown',
  'account.sms.phoneTaken',
  'account.password.hint',
  'account.password.confirm',
  'account.password.mismatch',
  'account.profile.title',
  'account.profile.saved',
  'account.profile.userNameNote',
  'account.changePassword.title',
  'account.changePassword.submit',
  'account.changePassword.note',
  'account.phone.title',
  'account.phone.current',
  'account.phone.stepVerify',
  'account.phone.stepNew',
  'account.phone.verifyNote',
  'account.phone.newPhone',
  'account.phone.newCode',
  'account.phone.verifyCode',
  'account.phone.submit',
  'account.phone.changed',
  'account.sessions.title',
  'account.sessions.lead',
  'account.sessions.current',
  'account.sessions.unknownDevice',
  'account.sessions.signedIn',
  'account.sessions.lastSeen',
  'account.sessions.ip',
  'account.sessions.end',
  'account.sessions.endNamed',
  'account.sessions.confirmTitle',
  'account.sessions.confirmBody',
  'account.sessions.confirmCurrent',
  'account.sessions.empty',
] as const satisfies readonly MessageKey[];

export type AccountMessages = Record<(typeof accountMessageKeys)[number], string>;
