import { useRef, useState } from 'react';
import { message } from '../../lib/api/notify.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import {
  authFileKinds,
  type AuthFileData,
  type AuthFileKindName,
  type EnterpriseData,
} from '../../lib/schemas/enterprise.ts';
import SubmitButton from '../auth/SubmitButton.tsx';
import { postForm } from '../auth/formCall.ts';
import AuthFileSlot from './AuthFileSlot.tsx';
import EnterprisePending from './EnterprisePending.tsx';
import Section from './Section.tsx';
import StatusLine, { ReviewComment } from './StatusLine.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import { ENTERPRISE_SUBMIT_URL, certificateOpen } from './enterpriseCalls.ts';
import { useOwnEnterprise } from './useOwnEnterprise.ts';

interface Props {
  locale: Locale;
  messages: CertifyMessages;
}

/**
 * Certificate certification (/certify/enterprise/certificate): the business licence and the
 * letter of authorisation, then submission for the operator's review (editAuthInfo → status 1).
 */
export default function CertificateCertify({ locale, messages: m }: Props) {
  const { view, setView, load } = useOwnEnterprise();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  // The kinds whose file is on its way, and a submission asked for meanwhile: it goes once they
  // land, and the server says what is missing if one failed.
  // Refs, as an upload reports its end to the callback of the render it started in.
  const uploading = useRef(new Set<AuthFileKindName>());
  const queued = useRef(false);
  const [submitQueued, setSubmitQueued] = useState(false);
  const queue = (on: boolean) => {
    queued.current = on;
    setSubmitQueued(on);
  };

  if (view.state !== 'ready')
    return <EnterprisePending view={view} locale={locale} messages={m} onRetry={() => void load()} />;

  const { enterprise } = view;
  const editable = certificateOpen(enterprise.authStatus);
  const fileOf = (kind: AuthFileKindName) => enterprise.files.find((file) => file.kind === kind);
  const complete = authFileKinds.every((kind) => fileOf(kind) !== undefined);

  // From the record as it is when the upload ends (two uploads may end in either order).
  const changed = (kind: AuthFileKindName, file: AuthFileData | undefined) => {
    setProblem('');
    setView((current) => {
      if (current.state !== 'ready') return current;
      const files = current.enterprise.files.filter((existing) => existing.kind !== kind);
      return { state: 'ready', enterprise: { ...current.enterprise, files: file ? [...files, file] : files } };
    });
  };

  const send = async () => {
    setProblem('');
    setBusy(true);
    const answer = await postForm<EnterpriseData>(ENTERPRISE_SUBMIT_URL, { id: enterprise.id });
    setBusy(false);
    if (answer?.ok) {
      message.success(m['certify.submit.done']);
      setView({ state: 'ready', enterprise: answer.data });
    } else if (answer) {
      // The server names what is missing from the record (its toast says it too); keep it in view.
      setProblem(Object.values(answer.errors)[0] ?? answer.message);
    }
  };

  const submit = () => {
    if (busy || submitQueued) return;
    if (uploading.current.size > 0) {
      queue(true);
    } else if (!complete) {
      setProblem(m['certify.submit.needFiles']);
    } else {
      void send();
    }
  };

  const uploadingChanged = (kind: AuthFileKindName, active: boolean) => {
    if (active) uploading.current.add(kind);
    else uploading.current.delete(kind);
    if (!active && uploading.current.size === 0 && queued.current) {
      queue(false);
      void send();
    }
  };

  return (
    <div className="grid gap-4">
      <Section title={m['certify.authType.certificate']}>
        <StatusLine enterprise={enterprise} messages={m} />
        {enterprise.authStatus === 3 && enterprise.reviewComment && (
          <ReviewComment comment={enterprise.reviewComment} messages={m} />
        )}
        {!editable && <p className="text-sm text-base-content/70">{m['certify.files.locked']}</p>}
        <div className="grid gap-4 md:grid-cols-2">
          {authFileKinds.map((kind) => (
            <AuthFileSlot
              key={kind}
              kind={kind}
              file={fileOf(kind)}
              editable={editable}
              locale={locale}
              messages={m}
              onChange={changed}
              onUploading={uploadingChanged}
            />
          ))}
        </div>
      </Section>
      {editable && (
        <Section title={m['certify.submit.title']}>
          <p className="text-sm text-base-content/70">{m['certify.submit.lead']}</p>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
            className="flex flex-wrap items-center gap-2"
          >
            <SubmitButton
              busy={busy || submitQueued}
              label={m['certify.submit.action']}
              busyLabel={m[submitQueued ? 'certify.submit.afterUpload' : 'certify.submit.submitting']}
              className="btn btn-primary"
            />
            <a className="btn btn-ghost" href={localePath(locale, '/person/enterprise')}>
              {m['certify.submit.editRecord']}
            </a>
          </form>
          {problem && (
            <p role="alert" className="text-sm text-error">
              {problem}
            </p>
          )}
        </Section>
      )}
    </div>
  );
}
