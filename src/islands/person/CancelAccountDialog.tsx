import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { flashOnNextPage } from '../../lib/flash.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import { cancelAccountBody } from '../../lib/schemas/account.ts';
import { markLoggedOut } from '../../stores/session.ts';
import SmsCodeButton from '../auth/SmsCodeButton.tsx';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { postForm } from '../auth/formCall.ts';
import { formValues, validateForm, type ValidationMessages } from '../auth/formValidation.ts';
import { sendCodeToOwnPhone } from '../auth/smsFlow.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';
import type { AccountMessages } from './accountSettings.ts';

/** Here rather than in accountSettings.ts: a value imported by both would split a chunk of its own (docs/performance.md). */
const CANCEL_ACCOUNT_URL = '/api/front/user/cancelAccount';

interface Props {
  locale: Locale;
  messages: AccountMessages;
  validation: ValidationMessages;
  /** Closed without a request (cancel, Escape). */
  onClose: () => void;
}

/**
 * The request to close the account (loaded when the card's button is pressed): the password, or
 * an SMS code to the account's phone, then the request. A refusal (an order in progress, a
 * certification under review) is said here; once requested the person is signed out and the
 * home page says when the account will be closed.
 */
export default function CancelAccountDialog({ locale, messages, validation, onClose }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [bySms, setBySms] = useState(false);
  const [refusal, setRefusal] = useState('');
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const close = () => {
    if (busy) return;
    dialogRef.current?.close();
    onClose();
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = formValues(event.currentTarget);
    const checked = validateForm(
      cancelAccountBody,
      bySms ? { code: values['code'] } : { password: values['password'] },
      validation,
    );
    if (!checked.ok) return fail(checked.errors);
    setErrors({});
    setRefusal('');
    setBusy(true);
    const answer = await postForm<{ erasureDay: string }>(CANCEL_ACCOUNT_URL, checked.data);
    setBusy(false);
    if (answer?.ok) {
      markLoggedOut();
      flashOnNextPage('success', answer.message);
      window.location.assign(localePath(locale, '/welcome/home'));
      return;
    }
    if (!answer) return;
    if (Object.keys(answer.errors).length) fail(answer.errors);
    else setRefusal(answer.message);
  };

  return (
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <div className="modal-box">
        <h2 id={titleId} className="text-lg font-semibold">
          {messages['account.cancel.confirmTitle']}
        </h2>
        <p className="py-2 text-sm">{messages['account.cancel.confirmLead']}</p>
        <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
          {bySms ? (
            <TextField
              name="code"
              label={messages['field.smsCode']}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              error={errors['code']}
              addon={<SmsCodeButton messages={messages} onSend={() => sendCodeToOwnPhone('verify')} />}
            />
          ) : (
            <TextField
              name="password"
              type="password"
              label={messages['field.password']}
              autoComplete="current-password"
              maxLength={128}
              error={errors['password']}
            />
          )}
          <button type="button" className="btn btn-link btn-sm px-0" onClick={() => setBySms((now) => !now)}>
            {messages[bySms ? 'account.cancel.usePassword' : 'account.cancel.useSms']}
          </button>
          {refusal && (
            <p role="alert" className="text-sm text-error">
              {refusal}
            </p>
          )}
          <div className="modal-action flex-wrap">
            <button type="button" className="btn" onClick={close} disabled={busy}>
              {messages['account.common.cancel']}
            </button>
            <SubmitButton
              busy={busy}
              label={messages['account.cancel.submit']}
              busyLabel={messages['account.common.submitting']}
              className="btn btn-error"
            />
          </div>
        </form>
      </div>
    </dialog>
  );
}
