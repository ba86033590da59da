import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
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
import SettingsCard from './SettingsCard.tsx';
import { CANCEL_ACCOUNT_URL, type AccountMessages } from './accountSettings.ts';

interface Props {
  locale: Locale;
  messages: AccountMessages;
  validation: ValidationMessages;
}

/** Days of the cooling-off, as the server counts them (services/cancellation.ts). */
const coolingOffDays = 15;

/**
 * 注销账号: what closing the account erases and keeps, the cooling-off, and a dialog that asks
 * for the password (or an SMS code to the account's phone) before the request. A refusal (an
 * order in progress, a certification under review) is said in the dialog; once requested the
 * person is signed out and the home page says when the account will be closed.
 */
export default function CancelAccountCard({ locale, messages, validation }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [bySms, setBySms] = useState(false);
  const [refusal, setRefusal] = useState('');
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const close = () => {
    if (busy) return;
    setOpen(false);
    setErrors({});
    setRefusal('');
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
    <SettingsCard id="cancel-account" title={messages['account.cancel.title']} lead={messages['account.cancel.lead']}>
      <p className="text-sm">{format(messages['account.cancel.steps'], { days: coolingOffDays })}</p>
      <div>
        <button type="button" className="btn btn-outline btn-error btn-sm" onClick={() => setOpen(true)}>
          {messages['account.cancel.start']}
        </button>
      </div>
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
            <div className="modal-action">
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
    </SettingsCard>
  );
}
