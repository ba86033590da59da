import type { RefObject } from 'react';
import type { SmsSendType } from '../../lib/schemas/auth.ts';
import SmsCodeButton, { type SmsButtonMessages } from './SmsCodeButton.tsx';
import TextField from './TextField.tsx';
import { formValues, type FieldErrors, type ValidationMessages } from './formValidation.ts';
import { focusFirstError } from './signIn.ts';
import { sendSmsCode } from './smsFlow.ts';

export type PhoneCodeMessages = SmsButtonMessages & {
  'account.sms.phoneTaken': string;
  'field.phone': string;
  'field.smsCode': string;
};

interface Props {
  /** What the code is for (sendSMS `type`). */
  type: SmsSendType;
  formRef: RefObject<HTMLFormElement | null>;
  errors: FieldErrors;
  /** Replaces (or, with an empty message, clears) the phone field's error. */
  onPhoneError: (message: string | undefined) => void;
  messages: PhoneCodeMessages;
  validation: ValidationMessages;
  phoneLabel?: string;
  codeLabel?: string;
  phoneName?: string;
}

/** A mobile number and its SMS code, with the 60 s "获取验证码" button (phone checked first). */
export default function PhoneCodeFields({
  type,
  formRef,
  errors,
  onPhoneError,
  messages,
  validation,
  phoneLabel,
  codeLabel,
  phoneName = 'phone',
}: Props) {
  const send = async (): Promise<number | undefined> => {
    const form = formRef.current;
    const phone = form ? (formValues(form)[phoneName] ?? '') : '';
    const result = await sendSmsCode(phone, type, { ...validation, ...messages });
    onPhoneError(result.phoneError);
    if (result.phoneError) focusFirstError(form, { [phoneName]: result.phoneError });
    return result.seconds;
  };
  return (
    <>
      <TextField
        name={phoneName}
        type="tel"
        inputMode="numeric"
        label={phoneLabel ?? messages['field.phone']}
        autoComplete="tel-national"
        maxLength={11}
        error={errors[phoneName]}
      />
      <TextField
        name="code"
        inputMode="numeric"
        label={codeLabel ?? messages['field.smsCode']}
        autoComplete="one-time-code"
        maxLength={6}
        error={errors['code']}
        addon={<SmsCodeButton messages={messages} onSend={send} />}
      />
    </>
  );
}
