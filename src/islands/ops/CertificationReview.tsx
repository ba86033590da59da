import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import { message } from '../../lib/api/notify.ts';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import {
  certificationReturnBody,
  type EnterpriseData,
  type EnterpriseRevealData,
  type RevealableEnterpriseField,
} from '../../lib/schemas/enterprise.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import SubmitButton from '../auth/SubmitButton.tsx';
import { postForm } from '../auth/formCall.ts';
import { labelCase, validateForm, type ValidationMessages } from '../auth/formValidation.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';
import EnterpriseDetails, { AuthFileList } from '../enterprise/EnterpriseDetails.tsx';
import type { Option } from '../enterprise/SelectField.tsx';
import Section from '../enterprise/Section.tsx';
import type { CertifyMessages } from '../enterprise/certifyMessages.ts';
import {
  OPS_APPROVE_URL,
  OPS_RETURN_URL,
  OPS_REVEAL_URL,
  loadEnterprise,
  type EnterpriseLoad,
} from '../enterprise/enterpriseCalls.ts';

interface Props {
  id: number;
  locale: Locale;
  messages: CertifyMessages;
  validation: ValidationMessages;
  voltageLevels: readonly Option[];
  onBack: () => void;
}

type View = { state: 'loading' } | EnterpriseLoad<EnterpriseData>;

/** One enterprise under review: its record and files, approve (after confirming) or return with a comment. */
export default function CertificationReview({ id, locale, messages: m, validation, voltageLevels, onBack }: Props) {
  const [view, setView] = useState<View>({ state: 'loading' });
  const [confirming, setConfirming] = useState(false);
  const [approving, setApproving] = useState(false);
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();
  const commentId = useId();

  // Starts as loading (one instance per enterprise: the queue keys it by id); a retry shows loading first.
  const load = useCallback(async () => {
    setView({ state: 'loading' });
    const loaded = await loadEnterprise<EnterpriseData>(id);
    if (loaded) setView(loaded);
  }, [id]);

  useEffect(() => {
    void loadEnterprise<EnterpriseData>(id).then((loaded) => loaded && setView(loaded));
  }, [id]);

  const back = (
    <button type="button" className="btn btn-ghost btn-sm" onClick={onBack}>
      {m['certify.ops.back']}
    </button>
  );
  if (view.state === 'loading') return <Loading label={m['common.loading']} />;
  if (view.state !== 'ready') {
    return (
      <div className="grid gap-2">
        <LoadFailed
          message={m['certify.common.loadFailed']}
          retryLabel={m['certify.common.retry']}
          onRetry={() => void load()}
        />
        <div>{back}</div>
      </div>
    );
  }
  const { enterprise } = view;
  const underReview = enterprise.authStatus === 1;

  const reveal = async (field: RevealableEnterpriseField) => {
    const answer = await postForm<EnterpriseRevealData>(OPS_REVEAL_URL, { id, field });
    return answer?.ok ? answer.data.value : null;
  };

  const approve = async () => {
    setApproving(true);
    const answer = await postForm<EnterpriseData>(OPS_APPROVE_URL, { id });
    setApproving(false);
    setConfirming(false);
    if (answer?.ok) {
      message.success(m['certify.ops.approved']);
      onBack();
    }
  };

  const returnIt = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const comment = new FormData(event.currentTarget).get('comment');
    const checked = validateForm(
      certificationReturnBody,
      { id, comment: typeof comment === 'string' ? comment : '' },
      validation,
    );
    if (!checked.ok) return fail(checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<EnterpriseData>(OPS_RETURN_URL, checked.data);
    setBusy(false);
    if (answer?.ok) {
      message.success(m['certify.ops.returned']);
      onBack();
    } else if (answer) {
      fail(answer.errors);
    }
  };

  const commentError = errors['comment'];
  return (
    <div className="grid gap-4">
      <Section title={enterprise.enterpriseName} action={back}>
        {!underReview && (
          <p role="status" className="alert alert-warning text-sm">
            {m['certify.ops.notUnderReview']}
          </p>
        )}
        <EnterpriseDetails
          enterprise={enterprise}
          locale={locale}
          messages={m}
          voltageLevels={voltageLevels}
          reveal={reveal}
        />
      </Section>
      <Section title={m['certify.ops.filesTitle']}>
        <AuthFileList files={enterprise.files} locale={locale} messages={m} previews />
      </Section>
      {underReview && (
        <Section title={m['certify.ops.title']}>
          <div>
            <button type="button" className="btn btn-success" onClick={() => setConfirming(true)}>
              {m['certify.ops.approve']}
            </button>
          </div>
          <form ref={formRef} noValidate onSubmit={(event) => void returnIt(event)} className="grid max-w-xl gap-1">
            <label htmlFor={commentId} className="fieldset-legend pb-1 text-sm">
              {labelCase(m['certify.ops.comment'])}
            </label>
            <textarea
              id={commentId}
              name="comment"
              className={`textarea w-full ${commentError ? 'textarea-error' : ''}`}
              rows={3}
              maxLength={500}
              aria-invalid={commentError ? true : undefined}
              aria-describedby={`${commentId}-note`}
            />
            <p id={`${commentId}-note`} className={`text-xs ${commentError ? 'text-error' : 'text-muted'}`}>
              {commentError ?? m['certify.ops.commentHint']}
            </p>
            <SubmitButton
              busy={busy}
              label={m['certify.ops.return']}
              busyLabel={m['certify.submit.submitting']}
              className="btn btn-warning mt-2 w-fit"
            />
          </form>
          <ConfirmDialog
            open={confirming}
            title={m['certify.ops.approveTitle']}
            body={format(m['certify.ops.approveBody'], { name: enterprise.enterpriseName })}
            confirmLabel={m['certify.ops.approve']}
            cancelLabel={m['certify.common.cancel']}
            busy={approving}
            onConfirm={() => void approve()}
            onCancel={() => setConfirming(false)}
          />
        </Section>
      )}
    </div>
  );
}
