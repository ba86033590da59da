import { useCallback, useEffect, useId, useState } from 'react';
import type { Locale } from '../../../lib/i18n/locales.ts';
import type { PartnerAccountInfoData } from '../../../lib/schemas/partner.ts';
import { Loading, LoadFailed } from '../../LoadStatus.tsx';
import { callQuiet } from '../../quietCall.ts';
import { PARTNER_ACCOUNT_API } from '../partnerApi.ts';
import type { OrganizationMessages } from './organization.ts';
import StaffRelations from './StaffRelations.tsx';

interface Props {
  partnerId: number;
  locale: Locale;
  messages: OrganizationMessages;
}

type Load =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; info: PartnerAccountInfoData };

/** One institution (getPartnerAccountInfo): its details, then its staff relations. */
export default function InstitutionPanel({ partnerId, locale, messages }: Props) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const headingId = useId();
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  useEffect(() => {
    let current = true;
    void callQuiet<PartnerAccountInfoData>('GET', `${PARTNER_ACCOUNT_API}/getPartnerAccountInfo`, { partnerId }).then(
      (answer) => {
        if (!current) return;
        if (answer?.ok) setLoad({ state: 'ready', info: answer.data });
        else setLoad({ state: 'failed', message: answer?.message ?? '' });
      },
    );
    return () => {
      current = false;
    };
  }, [partnerId, attempt]);

  if (load.state === 'loading') return <Loading label={messages['common.loading']} />;
  if (load.state === 'failed') {
    return (
      <LoadFailed
        message={load.message || messages['settlement.org.loadFailed']}
        retryLabel={messages['settlement.tree.retry']}
        onRetry={reload}
      />
    );
  }
  const { partner, accounts } = load.info;
  if (!partner) return <p>{messages['settlement.org.choose']}</p>;

  const fact = (label: string, value: string) => (
    <div className="grid grid-cols-[8rem_1fr] gap-2 py-1">
      <dt className="text-base-content/70">{label}</dt>
      <dd className="break-words">{value || messages['settlement.org.none']}</dd>
    </div>
  );

  return (
    <div className="grid content-start gap-6">
      <section aria-labelledby={headingId} className="grid gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {partner.name}
          <span className="sr-only"> · {messages['settlement.org.details']}</span>
        </h2>
        <dl className="divide-y divide-base-200 text-sm">
          {fact(messages['settlement.org.code'], partner.code)}
          {fact(messages['settlement.org.level'], messages[`partner.level.${partner.level}`])}
          {fact(messages['settlement.org.parent'], partner.parentName ?? '')}
          {fact(messages['settlement.org.address'], partner.address)}
          {fact(messages['settlement.org.phone'], partner.phone)}
          {fact(messages['settlement.org.contact'], partner.contactName)}
          {fact(messages['settlement.org.path'], partner.pathNames.join(' / '))}
          {fact(messages['settlement.org.childCount'], new Intl.NumberFormat(locale).format(partner.childCount))}
        </dl>
      </section>
      <StaffRelations partner={partner} accounts={accounts} locale={locale} messages={messages} onChanged={reload} />
    </div>
  );
}
