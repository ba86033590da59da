/**
 * Asking for an SMS code, in the spec's order (§4): the phone is checked with checkphonenum,
 * then sendSMS sends the code. Shared by login (mobile mode), registration, password reset and
 * the new number of the account page.
 *
 * What the check decides: registration and a new number need an unregistered phone, so a
 * registered one stops there with a clear message. For login and reset the server answers the
 * same whether or not the phone is registered (docs/accounts.md), and the form does the same: it
 * never tells a stranger which numbers have accounts.
 */
import { z } from 'zod/mini';
import { message } from '../../lib/api/notify.ts';
import { TOO_MANY_REQUESTS } from '../../lib/apiCodes.ts';
import {
  appCode,
  webDeviceId,
  type SmsSendType,
  type SmsSentData,
  type SmsTooSoonData,
} from '../../lib/schemas/auth.ts';
import type { defaultPhoneSmsTypes } from '../../lib/schemas/account.ts';
import { phoneSchema } from '../../lib/schemas/fields.ts';
import { getForm, postForm } from './formCall.ts';
import { validateForm, type ValidationMessages } from './formValidation.ts';
import { SMS_RESEND_SECONDS } from './countdown.ts';

export const CHECK_PHONE_URL = '/api/front/system/checkphonenum';
export const SEND_SMS_URL = '/api/front/system/sendSMS';

type DefaultPhoneSmsType = (typeof defaultPhoneSmsTypes)[number];

const phoneOnly = z.object({ phone: phoneSchema });

/** Flows in which the phone must not have an account yet. */
const needsFreePhone: ReadonlySet<SmsSendType> = new Set(['register', 'mobile']);

export interface SmsFlowResult {
  /** Seconds before another code may be asked for (after a send, or a refusal for coming too soon). */
  seconds?: number;
  /** What to show under the phone field when the phone itself is the problem. */
  phoneError?: string;
}

export async function sendSmsCode(
  phone: string,
  type: SmsSendType,
  messages: ValidationMessages & { 'account.sms.phoneTaken': string },
): Promise<SmsFlowResult> {
  const checked = validateForm(phoneOnly, { phone }, messages);
  if (!checked.ok) return { phoneError: checked.errors['phone'] ?? '' };

  const check = await getForm<{ registered: boolean }>(CHECK_PHONE_URL, { phone: checked.data.phone });
  if (!check) return {};
  if (!check.ok) return { phoneError: check.errors['phone'] ?? '' };
  if (needsFreePhone.has(type) && check.data.registered) return { phoneError: messages['account.sms.phoneTaken'] };

  const sent = await postForm<SmsSentData>(SEND_SMS_URL, {
    phone: checked.data.phone,
    type,
    deviceId: webDeviceId,
    appCode,
  });
  if (!sent) return {};
  if (!sent.ok) {
    if (sent.errors['phone']) return { phoneError: sent.errors['phone'] };
    const wait = waitAfterRefusal(sent);
    return wait ? { seconds: wait } : {};
  }
  message.success(sent.message);
  return { seconds: sent.data.resendSeconds || SMS_RESEND_SECONDS };
}

/** A "too soon" refusal carries the seconds left: the button counts them down. */
function waitAfterRefusal(refusal: { code: number; data: unknown }): number | undefined {
  if (refusal.code !== TOO_MANY_REQUESTS) return undefined;
  const seconds = (refusal.data as Partial<SmsTooSoonData> | null)?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

export const SEND_SMS_DEFAULT_PHONE_URL = '/api/front/user/sendSMSByDefaultPhone';

/**
 * A code to the logged-in account's own phone (sendSMSByDefaultPhone): verification before a
 * sensitive change, or the binding code. Resolves the seconds to wait, or undefined.
 */
export async function sendCodeToOwnPhone(type: DefaultPhoneSmsType): Promise<number | undefined> {
  const sent = await postForm<SmsSentData>(SEND_SMS_DEFAULT_PHONE_URL, { type, deviceId: webDeviceId, appCode });
  if (!sent) return undefined;
  if (!sent.ok) return waitAfterRefusal(sent);
  message.success(sent.message);
  return sent.data.resendSeconds || SMS_RESEND_SECONDS;
}
