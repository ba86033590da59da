import { useCallback, useEffect, useState } from 'react';
import { fetchDownload } from '../../lib/api/client.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { PersonalData, PersonalDataFormat } from '../../lib/schemas/personalData.ts';
import { getForm } from '../auth/formCall.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import SettingsCard from './SettingsCard.tsx';
import { EXPORT_PERSONAL_DATA_URL, PERSONAL_DATA_URL, type AccountMessages } from './accountSettings.ts';
import { formatDateTime } from './personData.ts';

interface Props {
  locale: Locale;
  messages: AccountMessages;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; data: PersonalData };

const recentShown = 5;

/**
 * "My personal information": what the portal holds about the person, section by section, the
 * latest sign-ins (refused ones too), and a copy to download as JSON or Excel.
 */
export default function PersonalDataCard({ locale, messages }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [downloading, setDownloading] = useState<PersonalDataFormat | null>(null);

  const fetchData = useCallback(async (): Promise<Loaded> => {
    const answer = await getForm<PersonalData>(PERSONAL_DATA_URL);
    return answer?.ok ? { state: 'ready', data: answer.data } : { state: 'failed' };
  }, []);
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchData());
  }, [fetchData]);
  useEffect(() => {
    void fetchData().then(setLoaded);
  }, [fetchData]);

  const download = async (format: PersonalDataFormat) => {
    if (downloading) return;
    setDownloading(format);
    // A refusal or a fault is told by the request client's notification.
    await fetchDownload(EXPORT_PERSONAL_DATA_URL, { format });
    setDownloading(null);
  };

  // A bare number: the row's label says what is counted.
  const count = (n: number) => new Intl.NumberFormat(locale).format(n);

  return (
    <SettingsCard id="personal-data" title={messages['account.data.title']} lead={messages['account.data.lead']}>
      {loaded.state === 'loading' && <Loading label={messages['common.loading']} className="text-sm" />}
      {loaded.state === 'failed' && (
        <LoadFailed
          message={messages['account.common.loadFailed']}
          retryLabel={messages['account.common.retry']}
          onRetry={() => void load()}
        />
      )}
      {loaded.state === 'ready' && (
        <>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-muted">{messages['account.data.section.account']}</dt>
            <dd className="min-w-0 break-words">{loaded.data.account.userName}</dd>
            <dt className="text-muted">{messages['account.data.section.enterprise']}</dt>
            <dd className="min-w-0 break-words">
              {loaded.data.enterprise?.enterpriseName ?? messages['account.data.noEnterprise']}
            </dd>
            <dt className="text-muted">{messages['account.data.section.orders']}</dt>
            <dd>{count(loaded.data.orders.length)}</dd>
            <dt className="text-muted">{messages['account.data.section.notices']}</dt>
            <dd>{count(loaded.data.notices.length)}</dd>
            <dt className="text-muted">{messages['account.data.section.signIns']}</dt>
            <dd>{count(loaded.data.signIns.length)}</dd>
            <dt className="text-muted">{messages['account.data.section.sessions']}</dt>
            <dd>{count(loaded.data.sessions.length)}</dd>
            <dt className="text-muted">{messages['account.data.section.consents']}</dt>
            <dd>{count(loaded.data.consents.length)}</dd>
          </dl>
          {loaded.data.signIns.length > 0 && (
            <>
              <h3 className="mt-2 text-sm font-medium">{messages['account.data.recentSignIns']}</h3>
              <ul className="divide-y divide-base-200 text-sm">
                {loaded.data.signIns.slice(0, recentShown).map((signIn) => (
                  <li key={`${signIn.at}-${signIn.succeeded}`} className="flex flex-wrap gap-x-3 py-1.5">
                    <span className="tabular-nums">{formatDateTime(signIn.at, locale)}</span>
                    <span className={signIn.succeeded ? '' : 'text-error'}>
                      {messages[signIn.succeeded ? 'account.data.signInOk' : 'account.data.signInFailed']}
                    </span>
                    {signIn.ip && <span className="text-muted">{signIn.ip}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="mt-2 flex flex-wrap gap-2">
            {(['json', 'xlsx'] as const).map((format) => (
              <button
                key={format}
                type="button"
                className="btn btn-outline btn-sm"
                disabled={downloading !== null}
                aria-busy={downloading === format}
                onClick={() => void download(format)}
              >
                {downloading === format && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
                {messages[format === 'json' ? 'account.data.downloadJson' : 'account.data.downloadXlsx']}
              </button>
            ))}
          </div>
          <p className="text-xs text-muted">{messages['account.data.downloadNote']}</p>
        </>
      )}
    </SettingsCard>
  );
}
