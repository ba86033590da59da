import { useState } from 'react';
import { message } from '../../lib/api/notify.ts';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { EnterpriseData } from '../../lib/schemas/enterprise.ts';
import { postForm } from '../auth/formCall.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import EnterpriseDetails, { AuthFileList, BankBindingDetails } from './EnterpriseDetails.tsx';
import EnterpriseForm, { type EnterpriseOptions } from './EnterpriseForm.tsx';
import EnterprisePending from './EnterprisePending.tsx';
import EmptyState from '../EmptyState.tsx';
import RemoveButton from './RemoveButton.tsx';
import Section from './Section.tsx';
import { ReviewComment } from './StatusLine.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import { ENTERPRISE_DELETE_URL, authStatusWord, certificateOpen } from './enterpriseCalls.ts';
import { useOwnEnterprise } from './useOwnEnterprise.ts';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: CertifyMessages;
  validation: ValidationMessages;
  options: EnterpriseOptions;
}

/**
 * My enterprise (/person/enterprise): the record with its status, the operator's comment, the
 * files and the bank binding; editing (save or keep a draft); deleting where allowed. A user
 * without an enterprise gets the form that creates one, and the way to bind an existing one.
 */
export default function EnterpriseRecord({ locale, messages: m, validation, options }: Props) {
  const { view, setView, load } = useOwnEnterprise();
  const [editing, setEditing] = useState(false);

  const saved = (enterprise: EnterpriseData) => {
    setEditing(false);
    setView({ state: 'ready', enterprise });
  };

  if (view.state === 'loading' || view.state === 'failed') {
    return <EnterprisePending view={view} locale={locale} messages={m} onRetry={() => void load()} />;
  }
  if (view.state === 'none') {
    return (
      <div className="grid gap-4">
        <EmptyState
          role="status"
          title={m['certify.record.noneTitle']}
          message={m['certify.record.noneLead']}
          action={{ href: localePath(locale, '/setting/binding'), label: m['certify.record.bindLink'] }}
        />
        <Section title={m['certify.record.addTitle']}>
          <EnterpriseForm options={options} messages={m} validation={validation} onSaved={saved} />
        </Section>
      </div>
    );
  }

  const { enterprise } = view;
  if (editing) {
    return (
      <Section title={m['certify.record.editTitle']}>
        <EnterpriseForm
          enterprise={enterprise}
          options={options}
          messages={m}
          validation={validation}
          onSaved={saved}
          onCancel={() => setEditing(false)}
        />
      </Section>
    );
  }

  const remove = async () => {
    const answer = await postForm<Record<string, never>>(ENTERPRISE_DELETE_URL, { id: enterprise.id });
    if (answer?.ok) {
      message.success(m['certify.record.deleted']);
      setView({ state: 'none' });
    }
  };

  const status = enterprise.authStatus;
  const binding = enterprise.bankBinding;
  return (
    <div className="grid gap-4">
      <Section
        title={m['certify.record.title']}
        action={
          <p className="flex items-center gap-2">
            {enterprise.draft && <span className="badge badge-warning">{m['certify.record.draftBadge']}</span>}
            <StatusBadge kind="auth" status={status} label={authStatusWord(status, m)} />
          </p>
        }
      >
        {status === 3 && (
          <>
            <p className="text-sm">{m['certify.record.returnedNote']}</p>
            {enterprise.reviewComment && <ReviewComment comment={enterprise.reviewComment} messages={m} />}
          </>
        )}
        {status === 1 && (
          <p role="note" className="alert alert-info text-sm">
            {m['certify.record.underReviewNote']}
          </p>
        )}
        <EnterpriseDetails enterprise={enterprise} locale={locale} messages={m} voltageLevels={options.voltageLevels} />
        <div className="card-actions">
          {status !== 1 && (
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing(true)}>
              {m['certify.record.edit']}
            </button>
          )}
          {certificateOpen(status) && (
            <a className="btn btn-sm" href={localePath(locale, '/certify/enterprise')}>
              {m['certify.record.certify']}
            </a>
          )}
          {enterprise.canDelete && (
            <RemoveButton
              label={m['certify.record.delete']}
              title={m['certify.record.deleteTitle']}
              body={format(m['certify.record.deleteBody'], { name: enterprise.enterpriseName })}
              messages={m}
              onRemove={remove}
            />
          )}
        </div>
        {!enterprise.canDelete && <p className="text-xs text-muted">{m['certify.record.cannotDelete']}</p>}
      </Section>

      <Section title={m['certify.record.filesTitle']}>
        <AuthFileList files={enterprise.files} locale={locale} messages={m} />
      </Section>

      <Section title={m['certify.record.bankTitle']}>
        {binding ? (
          <BankBindingDetails binding={binding} locale={locale} messages={m} />
        ) : (
          <p className="text-sm text-base-content/70">{m['certify.record.bankNone']}</p>
        )}
      </Section>
    </div>
  );
}
