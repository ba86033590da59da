import type { SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import { changeUserInfoBody, type UserInfoData } from '../../lib/schemas/account.ts';
import { appCode, webDeviceId } from '../../lib/schemas/auth.ts';
import PhoneCodeFields from '../auth/PhoneCodeFields.tsx';
import SmsCodeButton from '../auth/SmsCodeButton.tsx';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { postForm } from '../auth/formCall.ts';
import { formValues, validateForm, withFieldError, type ValidationMessages } from '../auth/formValidation.ts';
import { sendCodeToOwnPhone } from '../auth/smsFlow.ts';
import SettingsCard from './SettingsCard.tsx';
import { CHANGE_USER_INFO_URL, type AccountMessages } from './accountSettings.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';

interface Props {
  info: UserInfoData;
  messages: AccountMessages;
  validation: ValidationMessages;
  onSaved: (info: UserInfoData) => void;
}

/**
 * Changing the account's phone (changeUserInfo with `mobile`): a sensitive change, so it needs a
 * code sent to the current number (sendSMSByDefaultPhone, type `verify`) as well as a code sent
 * to the new one (sendSMS, type `mobile`, which also checks the new number is free).
 */
export default function PhoneForm({ info, messages, validation, onSaved }: Props) {
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const values = formValues(form);
    const checked = validateForm(
      changeUserInfoBody,
      {
        mobile: values['mobile'] ?? '',
        code: values['code'] ?? '',
        verifyCode: values['verifyCode'] ?? '',
        deviceId: webDeviceId,
        appCode,
      },
      validation,
    );
    if (!checked.ok) return fail(checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<UserInfoData>(CHANGE_USER_INFO_URL, checked.data);
    setBusy(false);
    if (answer?.ok) {
      form.reset();
      message.success(format(messages['account.phone.changed'], { phone: answer.data.mobile }));
      onSaved(answer.data);
    } else if (answer) {
      fail(answer.errors);
    }
  };

  return (
    <SettingsCard
      title={messages['account.phone.title']}
      lead={format(messages['account.phone.current'], { phone: info.mobile })}
    >
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="max-w-md">
        <fieldset className="mt-2">
          <legend className="text-sm font-medium">{messages['account.phone.stepVerify']}</legend>
          <TextField
            name="verifyCode"
            inputMode="numeric"
            label={messages['account.phone.verifyCode']}
            hint={messages['account.phone.verifyNote']}
            autoComplete="one-time-code"
            maxLength={6}
            error={errors['verifyCode']}
            addon={<SmsCodeButton messages={messages} onSend={() => sendCodeToOwnPhone('verify')} />}
          />
        </fieldset>
        <fieldset className="mt-4">
          <legend className="text-sm font-medium">{messages['account.phone.stepNew']}</legend>
          <PhoneCodeFields
            type="mobile"
            phoneName="mobile"
            formRef={formRef}
            errors={errors}
            onPhoneError={(text) => setErrors((current) => withFieldError(current, 'mobile', text))}
            messages={messages}
            validation={validation}
            phoneLabel={messages['account.phone.newPhone']}
            codeLabel={messages['account.phone.newCode']}
          />
        </fieldset>
        <SubmitButton
          busy={busy}
          label={messages['account.phone.submit']}
          busyLabel={messages['account.common.submitting']}
          className="btn btn-primary mt-4"
        />
      </form>
    </SettingsCard>
  );
}
