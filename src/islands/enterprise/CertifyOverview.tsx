import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import EnterprisePending from './EnterprisePending.tsx';
import Section from './Section.tsx';
import StatusLine, { ReviewComment } from './StatusLine.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import { certificateOpen } from './enterpriseCalls.ts';
import { useOwnEnterprise } from './useOwnEnterprise.ts';
import { useUsbKeyBank } from './useUsbKeyBank.ts';

interface Props {
  locale: Locale;
  messages: CertifyMessages;
}

const leads = ['certify.status.lead0', 'certify.status.lead1', 'certify.status.lead2', 'certify.status.lead3'] as const;

/** Enterprise certification (/certify/enterprise): where the enterprise stands and the two ways to certify it. */
export default function CertifyOverview({ locale, messages: m }: Props) {
  const { view, load } = useOwnEnterprise();
  // Without a bank (BANK_PROVIDER=none) the way is not offered; unknown or sandbox, it is.
  const bankAvailable = useUsbKeyBank()?.available !== false;

  if (view.state !== 'ready')
    return <EnterprisePending view={view} locale={locale} messages={m} onRetry={() => void load()} />;

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
        {status === 3 && enterprise.reviewComment && <ReviewComment comment={enterprise.reviewComment} messages={m} />}
        <div className="card-actions">
          <a className="btn btn-ghost btn-sm" href={localePath(locale, '/person/enterprise')}>
            {m['certify.status.toEnterprise']}
          </a>
          {status === 2 && (
            <a className="btn btn-primary btn-sm" href={localePath(locale, '/handle/order')}>
              {m['certify.status.ordersLink']}
            </a>
          )}
        </div>
      </Section>
      <div className="grid gap-4 md:grid-cols-2">
        <Section title={m['certify.authType.certificate']}>
          <p className="text-sm text-base-content/70">{m['certify.way.certificateDesc']}</p>
          <div className="card-actions">
            {open || status === 1 ? (
              <a className="btn btn-primary btn-sm" href={localePath(locale, '/certify/enterprise/certificate')}>
                {m['certify.way.certificateAction']}
              </a>
            ) : (
              <p className="text-xs text-muted">{m['certify.way.unavailable']}</p>
            )}
          </div>
        </Section>
        <Section title={m['certify.authType.usbkey']}>
          <p className="text-sm text-base-content/70">{m['certify.way.usbkeyDesc']}</p>
          <div className="card-actions">
            {!bankAvailable ? (
              <p className="text-xs text-muted">{m['certify.usbkey.unavailableTitle']}</p>
            ) : usbkeyOpen ? (
              <a className="btn btn-primary btn-sm" href={localePath(locale, '/certify/enterprise/usbkey')}>
                {m['certify.way.usbkeyAction']}
              </a>
            ) : (
              <p className="text-xs text-muted">{m['certify.way.unavailable']}</p>
            )}
          </div>
        </Section>
      </div>
    </div>
  );
}
