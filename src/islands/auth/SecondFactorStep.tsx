import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { appCode, webDeviceId, type CurrentUserData } from '../../lib/schemas/auth.ts';
import { loginSecondFactorBody } from '../../lib/schemas/secondFactor.ts';
import SubmitButton from './SubmitButton.tsx';
import TextField from './TextField.tsx';
import { totpCodeInput } from './codeInputs.ts';
import { postForm } from './formCall.ts';
import { formValues, validateForm, type FieldErrors, type ValidationMessages } from './formValidation.ts';
import { LOGIN_SECOND_FACTOR_URL, type LoginMessages } from './loginForm.ts';
import { focusFirstError } from './signIn.ts';

interface Props {
  messages: LoginMessages;
  validation: ValidationMessages;
  /** Signed in: the answer's current user and message. */
  onSignedIn: (user: CurrentUserData, message: string) => void;
  /** Back to the first step: the pending login is gone (expired, used, out of tries) or the user asked. */
  onRestart: () => void;
}

type Kind = 'app' | 'recovery';

/**
 * The login's second step (docs/accounts-ui.md): the code of the authenticator app, or one
 * recovery code instead. The pending login lives in an HttpOnly cookie the first step set, so
 * this form sends the code alone.
 */
export default function SecondFactorStep({ messages, validation, onSignedIn, onRestart }: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const [kind, setKind] = useState<Kind>('app');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  // The step replaces the first one in place: the code field is where the user goes next.
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, [kind]);

  const fail = (next: FieldErrors) => {
    setErrors(next);
    focusFirstError(formRef.current, next);
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const checked = validateForm(
      loginSecondFactorBody,
      { ...formValues(form), deviceId: webDeviceId, appCode },
      validation,
    );
    if (!checked.ok) return fail(checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<CurrentUserData>(LOGIN_SECOND_FACTOR_URL, checked.data);
    if (answer?.ok) {
      onSignedIn(answer.data, answer.message);
      return;
    }
    setBusy(false);
    if (!answer) return;
    const field = form.elements.namedItem('secondFactorCode');
    if (field instanceof HTMLInputElement) field.value = '';
    // A refusal without a field is the pending login itself gone (the toast said so): start again.
    if (answer.code === 400 && Object.keys(answer.errors).length === 0) onRestart();
    else fail(answer.errors);
  };

  const switchKind = () => {
    setErrors({});
    setKind(kind === 'app' ? 'recovery' : 'app');
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-1 text-lg font-semibold">
        {messages['account.secondFactor.stepTitle']}
      </h2>
      <p className="mb-2 text-sm text-base-content/70">
        {kind === 'app' ? messages['account.secondFactor.stepLead'] : messages['account.secondFactor.recoveryLead']}
      </p>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        {kind === 'app' ? (
          <TextField
            key="app"
            name="secondFactorCode"
            label={messages['field.totpCode']}
            {...totpCodeInput}
            error={errors['secondFactorCode']}
          />
        ) : (
          <TextField
            key="recovery"
            name="secondFactorCode"
            label={messages['field.recoveryCode']}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={11}
            className="font-mono"
            error={errors['secondFactorCode']}
          />
        )}
        <SubmitButton
          busy={busy}
          label={messages['account.secondFactor.submit']}
          busyLabel={messages['account.login.submitting']}
        />
      </form>
      <div className="mt-4 flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" className="link" onClick={switchKind}>
          {kind === 'app' ? messages['account.secondFactor.useRecovery'] : messages['account.secondFactor.useApp']}
        </button>
        <button type="button" className="link" onClick={onRestart}>
          {messages['account.secondFactor.back']}
        </button>
      </div>
    </section>
  );
}
