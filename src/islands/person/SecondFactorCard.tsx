import { useCallback, useEffect, useState, type ReactNode, type SubmitEvent } from 'react';
import { statusBadgeClass } from '../../lib/statusBadges.ts';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import {
  confirmSecondFactorBody,
  enrolSecondFactorBody,
  secondFactorProofBody,
  verifySecondFactorBody,
  type RecoveryCodesData,
  type SecondFactorEnrolmentData,
  type SecondFactorStatusData,
} from '../../lib/schemas/secondFactor.ts';
import type { z } from 'zod/mini';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { secondFactorCodeInput, totpCodeInput } from '../auth/codeInputs.ts';
import { getForm, postForm } from '../auth/formCall.ts';
import { formValues, validateForm, type ValidationMessages } from '../auth/formValidation.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { useSessionReady } from '../useSessionReady.ts';
import RecoveryCodes from './RecoveryCodes.tsx';
import SettingsCard from './SettingsCard.tsx';
import type { AccountMessages } from './accountSettings.ts';
import { formatDateTime } from './personData.ts';
import {
  CONFIRM_SECOND_FACTOR_URL,
  DISABLE_SECOND_FACTOR_URL,
  ENROL_SECOND_FACTOR_URL,
  REGENERATE_RECOVERY_CODES_URL,
  SECOND_FACTOR_URL,
  VERIFY_SECOND_FACTOR_URL,
  secondFactorCardId,
} from './secondFactor.ts';

interface Props {
  locale: Locale;
  messages: AccountMessages;
  validation: ValidationMessages;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; status: SecondFactorStatusData };

/** What the card shows besides the status: nothing, one of the steps, or new recovery codes. */
type Stage =
  | { step: 'idle' }
  | { step: 'password' }
  | { step: 'scan'; enrolment: SecondFactorEnrolmentData }
  | { step: 'codes'; codes: string[] }
  | { step: 'regenerate' }
  | { step: 'disable' };

/**
 * Two-step verification in account settings (docs/accounts-ui.md): its status; turning it on
 * (password → QR code and manual key → first code → recovery codes, shown once); confirming a
 * sign-in that has not proved it; new recovery codes and turning it off, each after a code or the
 * password. A role that requires it cannot turn it off (the server refuses too).
 */
export default function SecondFactorCard({ locale, messages, validation }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [stage, setStage] = useState<Stage>({ step: 'idle' });

  const fetchStatus = useCallback(async (): Promise<Loaded> => {
    const answer = await getForm<SecondFactorStatusData>(SECOND_FACTOR_URL);
    return answer?.ok ? { state: 'ready', status: answer.data } : { state: 'failed' };
  }, []);
  const reload = useCallback(async () => setLoaded(await fetchStatus()), [fetchStatus]);

  const ready = useSessionReady();
  useEffect(() => {
    if (!ready) return;
    void fetchStatus().then((next) => {
      setLoaded(next);
      // Linked to from a page that needs the factor (SessionGate, the request client): bring it into view.
      if (window.location.hash === `#${secondFactorCardId}`)
        requestAnimationFrame(() => document.getElementById(secondFactorCardId)?.scrollIntoView());
    });
  }, [ready, fetchStatus]);

  const card = (children: ReactNode) => (
    <SettingsCard
      id={secondFactorCardId}
      title={messages['account.secondFactor.title']}
      lead={messages['account.secondFactor.lead']}
    >
      {children}
    </SettingsCard>
  );

  if (loaded.state === 'loading') return card(<Loading label={messages['common.loading']} />);
  if (loaded.state === 'failed') {
    return card(
      <LoadFailed
        message={messages['account.common.loadFailed']}
        retryLabel={messages['account.common.retry']}
        onRetry={() => {
          setLoaded({ state: 'loading' });
          void reload();
        }}
      />,
    );
  }
  const { status } = loaded;
  const idle = () => setStage({ step: 'idle' });
  const showCodes = (codes: string[]) => {
    setStage({ step: 'codes', codes });
    void reload();
  };

  return card(
    <div className="grid gap-3">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className={statusBadgeClass('secondFactor', status.enabled ? 'on' : 'off')}>
          {status.enabled ? messages['account.secondFactor.on'] : messages['account.secondFactor.off']}
        </span>
        {status.enabledAt && (
          <span>
            {format(messages['account.secondFactor.enabledAt'], { time: formatDateTime(status.enabledAt, locale) })}
          </span>
        )}
        {status.enabled && (
          <span>{format(messages['account.secondFactor.codesLeft'], { count: status.recoveryCodesLeft })}</span>
        )}
      </p>
      {status.required && !status.enabled && (
        <p role="alert" className="alert alert-warning text-sm">
          {messages['account.secondFactor.required']}
        </p>
      )}
      {status.enabled && !status.sessionVerified && stage.step !== 'codes' && (
        <VerifyForm messages={messages} validation={validation} onVerified={() => void reload()} />
      )}

      {stage.step === 'codes' && (
        <RecoveryCodes locale={locale} codes={stage.codes} messages={messages} onDone={idle} />
      )}
      {stage.step === 'password' && (
        <PasswordStep
          messages={messages}
          validation={validation}
          onCancel={idle}
          onEnrolled={(enrolment) => setStage({ step: 'scan', enrolment })}
        />
      )}
      {stage.step === 'scan' && (
        <ScanStep
          enrolment={stage.enrolment}
          messages={messages}
          validation={validation}
          onCancel={idle}
          onConfirmed={showCodes}
        />
      )}
      {(stage.step === 'regenerate' || stage.step === 'disable') && (
        <ProofForm
          key={stage.step}
          action={stage.step}
          messages={messages}
          validation={validation}
          onCancel={idle}
          onDone={(codes) => {
            if (codes) showCodes(codes);
            else {
              idle();
              void reload();
            }
          }}
        />
      )}

      {stage.step === 'idle' && !status.enabled && (
        <div>
          <button type="button" className="btn btn-primary" onClick={() => setStage({ step: 'password' })}>
            {messages['account.secondFactor.enable']}
          </button>
        </div>
      )}
      {stage.step === 'idle' && status.enabled && (
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className="btn" onClick={() => setStage({ step: 'regenerate' })}>
            {messages['account.secondFactor.regenerate']}
          </button>
          {status.required ? (
            <span className="text-sm text-base-content/70">{messages['account.secondFactor.disableLocked']}</span>
          ) : (
            <button type="button" className="btn btn-outline btn-error" onClick={() => setStage({ step: 'disable' })}>
              {messages['account.secondFactor.disable']}
            </button>
          )}
        </div>
      )}
    </div>,
  );
}

interface StepProps {
  messages: AccountMessages;
  validation: ValidationMessages;
}

/**
 * One form of the card: validates with the call's schema, posts, shows field errors; `onOk` gets
 * the answer's data and message.
 */
function useCardForm<S extends z.ZodMiniType, T>(
  schema: S,
  url: string,
  validation: ValidationMessages,
  onOk: (data: T, text: string) => void,
) {
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();
  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const checked = validateForm(schema, formValues(event.currentTarget), validation);
    if (!checked.ok) return fail(checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<T>(url, checked.data as Record<string, string>);
    setBusy(false);
    if (answer?.ok) onOk(answer.data, answer.message);
    else if (answer) fail(answer.errors);
  };
  return { formRef, errors, busy, submit };
}

function FormButtons({
  busy,
  label,
  messages,
  onCancel,
}: {
  busy: boolean;
  label: string;
  messages: AccountMessages;
  onCancel?: () => void;
}) {
  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <SubmitButton
        busy={busy}
        label={label}
        busyLabel={messages['account.common.submitting']}
        className="btn btn-primary"
      />
      {onCancel && (
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          {messages['account.common.cancel']}
        </button>
      )}
    </div>
  );
}

function PasswordStep({
  messages,
  validation,
  onCancel,
  onEnrolled,
}: StepProps & { onCancel: () => void; onEnrolled: (enrolment: SecondFactorEnrolmentData) => void }) {
  const { formRef, errors, busy, submit } = useCardForm<typeof enrolSecondFactorBody, SecondFactorEnrolmentData>(
    enrolSecondFactorBody,
    ENROL_SECOND_FACTOR_URL,
    validation,
    (data) => onEnrolled(data),
  );
  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="max-w-md">
      <p className="text-sm">{messages['account.secondFactor.passwordLead']}</p>
      <TextField
        name="password"
        type="password"
        label={messages['field.password']}
        autoComplete="current-password"
        maxLength={128}
        error={errors['password']}
        autoFocus
      />
      <FormButtons
        busy={busy}
        label={messages['account.secondFactor.continue']}
        messages={messages}
        onCancel={onCancel}
      />
    </form>
  );
}

function ScanStep({
  enrolment,
  messages,
  validation,
  onCancel,
  onConfirmed,
}: StepProps & { enrolment: SecondFactorEnrolmentData; onCancel: () => void; onConfirmed: (codes: string[]) => void }) {
  const { formRef, errors, busy, submit } = useCardForm<typeof confirmSecondFactorBody, RecoveryCodesData>(
    confirmSecondFactorBody,
    CONFIRM_SECOND_FACTOR_URL,
    validation,
    (data, text) => {
      message.success(text);
      onConfirmed(data.recoveryCodes);
    },
  );
  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(enrolment.manualKey.replace(/ /g, ''));
      message.success(messages['account.secondFactor.copied']);
    } catch {
      message.error(messages['account.secondFactor.copyFailed']);
    }
  };
  return (
    <div className="grid gap-3">
      <p className="font-medium">{messages['account.secondFactor.scanStep']}</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <img
          src={enrolment.qrCode}
          alt={messages['account.secondFactor.qrAlt']}
          width={180}
          height={180}
          className="rounded-box border border-base-300 bg-white p-1"
        />
        <div className="min-w-0 text-sm">
          <p>{messages['account.secondFactor.manualKey']}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2">
            <code className="rounded bg-base-200 px-2 py-1 font-mono text-base break-all" data-manual-key>
              {enrolment.manualKey}
            </code>
            <button type="button" className="btn btn-xs" onClick={() => void copyKey()}>
              {messages['account.secondFactor.copyKey']}
            </button>
          </p>
        </div>
      </div>
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="max-w-md">
        <p className="font-medium">{messages['account.secondFactor.codeStep']}</p>
        <TextField name="totpCode" label={messages['field.totpCode']} {...totpCodeInput} error={errors['totpCode']} />
        <FormButtons
          busy={busy}
          label={messages['account.secondFactor.confirm']}
          messages={messages}
          onCancel={onCancel}
        />
      </form>
    </div>
  );
}

function VerifyForm({ messages, validation, onVerified }: StepProps & { onVerified: () => void }) {
  const { formRef, errors, busy, submit } = useCardForm<typeof verifySecondFactorBody, unknown>(
    verifySecondFactorBody,
    VERIFY_SECOND_FACTOR_URL,
    validation,
    (_data, text) => {
      message.success(text);
      onVerified();
    },
  );
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void submit(event)}
      className="alert alert-warning flex max-w-xl flex-col items-stretch"
    >
      <p className="text-sm">{messages['account.secondFactor.unverified']}</p>
      <TextField
        name="secondFactorCode"
        label={messages['field.secondFactorCode']}
        {...secondFactorCodeInput}
        error={errors['secondFactorCode']}
      />
      <FormButtons busy={busy} label={messages['account.secondFactor.verify']} messages={messages} />
    </form>
  );
}

function ProofForm({
  action,
  messages,
  validation,
  onCancel,
  onDone,
}: StepProps & { action: 'regenerate' | 'disable'; onCancel: () => void; onDone: (codes?: string[]) => void }) {
  const url = action === 'regenerate' ? REGENERATE_RECOVERY_CODES_URL : DISABLE_SECOND_FACTOR_URL;
  const { formRef, errors, busy, submit } = useCardForm<typeof secondFactorProofBody, Partial<RecoveryCodesData>>(
    secondFactorProofBody,
    url,
    validation,
    (data, text) => {
      message.success(text);
      onDone(data.recoveryCodes);
    },
  );
  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} className="max-w-md">
      <p className="text-sm">
        {action === 'regenerate'
          ? messages['account.secondFactor.regenerateLead']
          : messages['account.secondFactor.disableLead']}
      </p>
      <p className="text-sm text-base-content/70">{messages['account.secondFactor.proofLead']}</p>
      <TextField
        name="secondFactorCode"
        label={messages['field.secondFactorCode']}
        {...secondFactorCodeInput}
        error={errors['secondFactorCode']}
        autoFocus
      />
      <TextField
        name="password"
        type="password"
        label={messages['field.password']}
        autoComplete="current-password"
        maxLength={128}
        error={errors['password']}
      />
      <FormButtons
        busy={busy}
        label={
          action === 'regenerate'
            ? messages['account.secondFactor.regenerate']
            : messages['account.secondFactor.disable']
        }
        messages={messages}
        onCancel={onCancel}
      />
    </form>
  );
}
