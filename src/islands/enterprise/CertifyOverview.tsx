import { useCallback, useEffect, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { EnterpriseData } from '../../lib/schemas/enterprise.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { useSessionReady } from '../useSessionReady.ts';
import Section from './Section.tsx';
import StatusLine, { ReviewComment } from './StatusLine.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import { certificateOpen, loadEnterprise, type EnterpriseLoad } from './enterpriseCalls.ts';

interface Props {
  locale: Locale;
  messages: CertifyMessages;
}

type View = { state: 'loading' } | EnterpriseLoad<EnterpriseData>;

const leads = ['certify.status.lead0', 'certify.status.lead1', 'certify.status.lead2', 'certify.status.lead3'] as const;

/** Enterprise certification (/certify/enterprise): where the enterprise stands and the two ways to certify it. */
export default function CertifyOverview({ locale, messages: m }: Props) {
  const [view, setView] = useState<View>({ state: 'loading' });

  const load = useCallback(async () => {
    setView({ state: 'loading' });
    const loaded = await loadEnterprise<EnterpriseData>();
    if (loaded) setView(loaded);
  }, []);

  const ready = useSessionReady();
  useEffect(() => {
    if (ready) void load();
  }, [ready, load]);

  if (view.state === 'loading') return <Loading label={m['common.loading']} />;
  if (view.state === 'failed') {
    return <LoadFailed message={m['certify.common.loadFailed']} retryLabel={m['certify.common.retry']} onRetry={() => void load()} />;
  }
  if (view.state === 'none') {
    return (
      <div role="status" className="alert alert-info">
        <span>{m['certify.status.noEnterprise']}</span>
        <a className="btn btn-sm" href={localePath(locale, '/person/enterprise')}>{m['certify.status.toEnterprise']}</a>
      </div>
    );
  }

  const { enterprise } = view;
  const status = enterprise.authStatus;
  const open = certificateOpen(status);
  // A USB-key binding can be looked at (and removed) whatever the status.
  const usbkeyOpen = open || enterprise.bankBinding !== null;
  const lead = leads[status];
  return (
    <div className="grid gap-4">
      <Section title={m['certify.status.title']}>
        <StatusLine enterprise={enterprise} messages={m} />
        {lead && <p className="text-sm text-base-content/70">{m[lead]}</p>}
        {status === 3 && enterprise.reviewComment && (
          <ReviewComment comment={enterprise.reviewComment} messages={m} />
        )}
        <div className="card-actions">
          <a className="btn btn-ghost btn-sm" href={localePath(locale, '/person/enterprise')}>{m['certify.status.toEnterprise']}</a>
          {status === 2 && <a className="btn btn-primary btn-sm" href={localePath(locale, '/handle/order')}>{m['certify.status.ordersLink']}</a>}
        </div>
      </Section>
      <div className="grid gap-4 md:grid-cols-2">
        <Section title={m['certify.authType.certificate']}>
          <p className="text-sm text-base-content/70">{m['certify.way.certificateDesc']}</p>
          <div className="card-actions">
            {open || status === 1 ? (
              <a className="btn btn-primary btn-sm" href={localePath(locale, '/certify/enterprise/certificate')}>{m['certify.way.certificateAction']}</a>
            ) : (
              <p className="text-xs text-base-content/60">{m['certify.way.unavailable']}</p>
            )}
          </div>
        </Section>
        <Section title={m['certify.authType.usbkey']}>
          <p className="text-sm text-base-content/70">{m['certify.way.usbkeyDesc']}</p>
          <div className="card-actions">
            {usbkeyOpen ? (
              <a className="btn btn-primary btn-sm" href={localePath(locale, '/certify/enterprise/usbkey')}>{m['certify.way.usbkeyAction']}</a>
            ) : (
              <p className="text-xs text-base-content/60">{m['certify.way.unavailable']}</p>
            )}
          </div>
        </Section>
      </div>
    </div>
  );
}
