import type { SubmitEvent } from 'react';
import { message } from '../../lib/api/notify.ts';
import { changePasswordBody } from '../../lib/schemas/account.ts';
import { appCode, webDeviceId } from '../../lib/schemas/auth.ts';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { postForm } from '../auth/formCall.ts';
import { formValues, validateForm, type ValidationMessages } from '../auth/formValidation.ts';
import { CONFIRM_FIELD, confirmError } from '../auth/passwordPair.ts';
import SettingsCard from './SettingsCard.tsx';
import { CHANGE_PASSWORD_URL, type AccountMessages } from './accountSettings.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';

interface Props {
  messages: AccountMessages;
  validation: ValidationMessages;
  /** The server ended every other session: the session list must be read again. */
  onChanged: () => void;
}

/** Password change with the current password (changePwd); other devices are logged out. */
export default function PasswordForm({ messages, validation, onChanged }: Props) {
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const values = formValues(form);
    const checked = validateForm(changePasswordBody, { ...values, deviceId: webDeviceId, appCode }, validation);
    const mismatch = confirmError(values, 'newPassword', messages['account.password.mismatch']);
    if (!checked.ok || Object.keys(mismatch).length)
      return fail({ ...(checked.ok ? {} : checked.errors), ...mismatch });
    setErrors({});
    setBusy(true);
    const answer = await postForm(CHANGE_PASSWORD_URL, checked.data);
    setBusy(false);
    if (answer?.ok) {
      form.reset();
      message.success(answer.message);
      onChanged();
    } else if (answer) {
      fail(answer.errors);
    }
  };

  return (
    <SettingsCard title={messages['account.changePassword.title']} lead={messages['account.changePassword.note']}>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="max-w-md">
        <TextField
          name="oldPassword"
          type="password"
          label={messages['field.oldPassword']}
          autoComplete="current-password"
          maxLength={128}
          error={errors['oldPassword']}
        />
        <TextField
          name="newPassword"
          type="password"
          label={messages['field.newPassword']}
          hint={messages['account.password.hint']}
          autoComplete="new-password"
          maxLength={64}
          error={errors['newPassword']}
        />
        <TextField
          name={CONFIRM_FIELD}
          type="password"
          label={messages['account.password.confirm']}
          autoComplete="new-password"
          maxLength={64}
          error={errors[CONFIRM_FIELD]}
        />
        <SubmitButton
          busy={busy}
          label={messages['account.changePassword.submit']}
          busyLabel={messages['account.common.submitting']}
          className="btn btn-primary mt-4"
        />
      </form>
    </SettingsCard>
  );
}
