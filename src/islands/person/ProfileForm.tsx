import { useRef, useState, type SubmitEvent } from 'react';
import { message } from '../../lib/api/notify.ts';
import { changeUserInfoBody, type UserInfoData } from '../../lib/schemas/account.ts';
import { appCode, webDeviceId } from '../../lib/schemas/auth.ts';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { postForm } from '../auth/formCall.ts';
import { formValues, validateForm, type FieldErrors, type ValidationMessages } from '../auth/formValidation.ts';
import { focusFirstError } from '../auth/signIn.ts';
import SettingsCard from './SettingsCard.tsx';
import { CHANGE_USER_INFO_URL, type AccountMessages } from './accountSettings.ts';

interface Props {
  info: UserInfoData;
  messages: AccountMessages;
  validation: ValidationMessages;
  onSaved: (info: UserInfoData) => void;
}

/** Name and email (changeUserInfo); the user name is fixed. */
export default function ProfileForm({ info, messages, validation, onSaved }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = formValues(event.currentTarget);
    const checked = validateForm(
      changeUserInfoBody,
      { name: values['name'] ?? '', email: values['email'] ?? '', deviceId: webDeviceId, appCode },
      validation,
    );
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstError(formRef.current, checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    const answer = await postForm<UserInfoData>(CHANGE_USER_INFO_URL, checked.data);
    setBusy(false);
    if (answer?.ok) {
      message.success(answer.message || messages['account.profile.saved']);
      onSaved(answer.data);
    } else if (answer) {
      setErrors(answer.errors);
      focusFirstError(formRef.current, answer.errors);
    }
  };

  return (
    <SettingsCard title={messages['account.profile.title']}>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="max-w-md">
        <TextField
          name="userName"
          label={messages['field.userName']}
          value={info.userName}
          readOnly
          hint={messages['account.profile.userNameNote']}
        />
        <TextField
          name="name"
          label={messages['field.name']}
          defaultValue={info.name}
          autoComplete="name"
          maxLength={64}
          error={errors['name']}
        />
        <TextField
          name="email"
          type="email"
          label={messages['field.email']}
          defaultValue={info.email}
          autoComplete="email"
          maxLength={128}
          error={errors['email']}
        />
        <SubmitButton
          busy={busy}
          label={messages['account.common.save']}
          busyLabel={messages['account.common.saving']}
          className="btn btn-primary mt-4"
        />
      </form>
    </SettingsCard>
  );
}
