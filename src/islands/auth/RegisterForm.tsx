import { useRef, type SubmitEvent } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import { loginPath } from '../../lib/loginRedirect.ts';
import { localePath } from '../../lib/paths.ts';
import { appCode, registerBody, webDeviceId, type CurrentUserData } from '../../lib/schemas/auth.ts';
import { consentField, type ConsentVersions } from '../../lib/schemas/consent.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import ConsentCheckbox from './ConsentCheckbox.tsx';
import KeepRedirectLink from './KeepRedirectLink.tsx';
import PhoneCodeFields from './PhoneCodeFields.tsx';
import SubmitButton from './SubmitButton.tsx';
import TextField from './TextField.tsx';
import { postForm } from './formCall.ts';
import { formValues, validateForm, withFieldError, type ValidationMessages } from './formValidation.ts';
import { CONFIRM_FIELD, confirmError } from './passwordPair.ts';
import { REGISTER_URL, type RegisterMessages } from './settingForms.ts';
import { completeSignIn, signInTarget } from './signIn.ts';
import { useFormErrors } from './useFormErrors.ts';

interface Props {
  locale: Locale;
  messages: RegisterMessages;
  validation: ValidationMessages;
  /** The published versions of the user agreement and privacy policy, which the checkbox agrees to. */
  versions: ConsentVersions;
}

/**
 * Registration (/setting/register): phone, SMS code, name, password and the consent to the user
 * agreement and privacy policy → "注册成功". The new account
 * is logged in at once and goes on to the redirect target, else to its overview.
 */
export default function RegisterForm({ locale, messages, validation, versions }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();
  useMountedSignal(rootRef);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = formValues(event.currentTarget);
    const consent = values[consentField] ? versions : {};
    const checked = validateForm(registerBody, { ...values, ...consent, deviceId: webDeviceId, appCode }, validation);
    const mismatch = confirmError(values, 'password', messages['account.password.mismatch']);
    if (!checked.ok || Object.keys(mismatch).length)
      return fail({ ...(checked.ok ? {} : checked.errors), ...mismatch });
    setErrors({});
    setBusy(true);
    const answer = await postForm<CurrentUserData>(REGISTER_URL, checked.data);
    if (answer?.ok) {
      completeSignIn(
        'mobile',
        answer.data,
        answer.message || messages['account.register.ok'],
        signInTarget(window.location.href, locale, '/person/overview'),
      );
      return;
    }
    setBusy(false);
    if (answer) fail(answer.errors);
  };

  return (
    <div ref={rootRef}>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <PhoneCodeFields
          type="register"
          formRef={formRef}
          errors={errors}
          onPhoneError={(text) => setErrors((current) => withFieldError(current, 'phone', text))}
          messages={messages}
          validation={validation}
        />
        <TextField
          name="name"
          label={messages['field.name']}
          autoComplete="name"
          maxLength={64}
          error={errors['name']}
        />
        <TextField
          name="password"
          type="password"
          label={messages['field.password']}
          hint={messages['account.password.hint']}
          autoComplete="new-password"
          maxLength={64}
          error={errors['password']}
        />
        <TextField
          name={CONFIRM_FIELD}
          type="password"
          label={messages['account.password.confirm']}
          autoComplete="new-password"
          maxLength={64}
          error={errors[CONFIRM_FIELD]}
        />
        <p className="mt-2 text-sm text-base-content/70">{messages['account.register.userNameNote']}</p>
        <ConsentCheckbox
          template={messages['legal.consent']}
          userAgreement={{ label: messages['legal.userAgreement'], href: localePath(locale, '/legal/user-agreement') }}
          privacyPolicy={{ label: messages['legal.privacyPolicy'], href: localePath(locale, '/legal/privacy-policy') }}
          error={errors[consentField]}
        />
        <SubmitButton
          busy={busy}
          label={messages['account.register.submit']}
          busyLabel={messages['account.common.submitting']}
        />
      </form>
      <p className="mt-4 text-sm">
        {messages['account.register.haveAccount']}{' '}
        <KeepRedirectLink href={localePath(locale, loginPath)}>{messages['account.register.toLogin']}</KeepRedirectLink>
      </p>
    </div>
  );
}
