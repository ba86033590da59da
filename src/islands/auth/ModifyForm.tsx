import { useRef, type SubmitEvent } from 'react';
import { flashOnNextPage } from '../../lib/flash.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { loginPath } from '../../lib/loginRedirect.ts';
import { localePath } from '../../lib/paths.ts';
import { appCode, resetPasswordBody, webDeviceId } from '../../lib/schemas/auth.ts';
import { markLoggedOut } from '../../stores/session.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import KeepRedirectLink from './KeepRedirectLink.tsx';
import PhoneCodeFields from './PhoneCodeFields.tsx';
import SubmitButton from './SubmitButton.tsx';
import TextField from './TextField.tsx';
import { postForm } from './formCall.ts';
import { formValues, validateForm, withFieldError, type ValidationMessages } from './formValidation.ts';
import { CONFIRM_FIELD, confirmError } from './passwordPair.ts';
import { RESET_PASSWORD_URL, type ModifyMessages } from './settingForms.ts';
import { redirectQuery } from './signIn.ts';
import { useFormErrors } from './useFormErrors.ts';

interface Props {
  locale: Locale;
  messages: ModifyMessages;
  validation: ValidationMessages;
}

/**
 * Password reset (/setting/modify): phone + SMS code + new password → "重置密码成功". The server
 * ends every session of the account, so this tab forgets its login too and goes to the login page.
 */
export default function ModifyForm({ locale, messages, validation }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();
  useMountedSignal(rootRef);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = formValues(event.currentTarget);
    const checked = validateForm(resetPasswordBody, { ...values, deviceId: webDeviceId, appCode }, validation);
    const mismatch = confirmError(values, 'newPassword', messages['account.password.mismatch']);
    if (!checked.ok || Object.keys(mismatch).length)
      return fail({ ...(checked.ok ? {} : checked.errors), ...mismatch });
    setErrors({});
    setBusy(true);
    const answer = await postForm(RESET_PASSWORD_URL, checked.data);
    if (answer?.ok) {
      markLoggedOut();
      flashOnNextPage('success', answer.message || messages['account.modify.ok']);
      window.location.assign(`${localePath(locale, loginPath)}${redirectQuery(window.location.href)}`);
      return;
    }
    setBusy(false);
    if (answer) fail(answer.errors);
  };

  return (
    <div ref={rootRef}>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <PhoneCodeFields
          type="modify"
          formRef={formRef}
          errors={errors}
          onPhoneError={(text) => setErrors((current) => withFieldError(current, 'phone', text))}
          messages={messages}
          validation={validation}
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
          label={messages['account.modify.submit']}
          busyLabel={messages['account.common.submitting']}
        />
      </form>
      <p className="mt-4 text-sm">
        <KeepRedirectLink href={localePath(locale, loginPath)}>{messages['account.modify.toLogin']}</KeepRedirectLink>
      </p>
    </div>
  );
}
