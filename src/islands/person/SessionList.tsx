import { useCallback, useEffect, useState } from 'react';
import { goToLogin } from '../../lib/api/client.ts';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { SessionData } from '../../lib/schemas/account.ts';
import { markLoggedOut } from '../../stores/session.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { getForm, postForm } from '../auth/formCall.ts';
import SettingsCard from './SettingsCard.tsx';
import { END_SESSION_URL, SESSIONS_URL, type AccountMessages } from './accountSettings.ts';
import { formatDateTime } from './personData.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';

interface Props {
  locale: Locale;
  messages: AccountMessages;
  /** Bumped when the list may have changed elsewhere (a password change ends other sessions). */
  version: number;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; sessions: SessionData[] };

/** The account's live sessions, each of which can be ended after a confirmation. */
export default function SessionList({ locale, messages, version }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [ending, setEnding] = useState<SessionData | null>(null);
  const [busy, setBusy] = useState(false);

  const fetchSessions = useCallback(async (): Promise<Loaded> => {
    const answer = await getForm<SessionData[]>(SESSIONS_URL);
    return answer?.ok && Array.isArray(answer.data) ? { state: 'ready', sessions: answer.data } : { state: 'failed' };
  }, []);
  // A retry shows loading first.
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchSessions());
  }, [fetchSessions]);

  // Loaded at first (the state starts as loading) and again when the caller's `version` changes
  // (a password change ended the other sessions): the list stays until the new one arrives.
  useEffect(() => {
    void fetchSessions().then(setLoaded);
  }, [fetchSessions, version]);

  const deviceName = (session: SessionData) => session.device || messages['account.sessions.unknownDevice'];

  const confirmEnd = async () => {
    if (!ending || busy) return;
    setBusy(true);
    const answer = await postForm<SessionData[]>(END_SESSION_URL, { id: ending.id });
    setBusy(false);
    const ended = ending;
    setEnding(null);
    if (!answer?.ok) return;
    if (ended.current) {
      // The server has ended this browser's session and cleared its cookie.
      markLoggedOut();
      goToLogin();
      return;
    }
    message.success(answer.message);
    setLoaded({ state: 'ready', sessions: Array.isArray(answer.data) ? answer.data : [] });
  };

  return (
    <SettingsCard title={messages['account.sessions.title']} lead={messages['account.sessions.lead']}>
      {loaded.state === 'loading' && <Loading label={messages['common.loading']} className="text-sm" />}
      {loaded.state === 'failed' && (
        <LoadFailed
          message={messages['account.common.loadFailed']}
          retryLabel={messages['account.common.retry']}
          onRetry={() => void load()}
        />
      )}
      {loaded.state === 'ready' &&
        (loaded.sessions.length === 0 ? (
          <p className="text-sm text-base-content/70">{messages['account.sessions.empty']}</p>
        ) : (
          <ul className="divide-y divide-base-200">
            {loaded.sessions.map((session) => (
              <li key={session.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {deviceName(session)}
                    {session.current && (
                      <span className="badge badge-success badge-sm shrink-0 whitespace-nowrap">
                        {messages['account.sessions.current']}
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-muted">
                    {format(messages['account.sessions.signedIn'], { time: formatDateTime(session.createdAt, locale) })}
                    {' · '}
                    {format(messages['account.sessions.lastSeen'], {
                      time: formatDateTime(session.lastSeenAt, locale),
                    })}
                    {session.ip ? ` · ${format(messages['account.sessions.ip'], { ip: session.ip })}` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-outline btn-error btn-sm"
                  aria-label={format(messages['account.sessions.endNamed'], { device: deviceName(session) })}
                  onClick={() => setEnding(session)}
                >
                  {messages['account.sessions.end']}
                </button>
              </li>
            ))}
          </ul>
        ))}
      <ConfirmDialog
        open={ending !== null}
        title={messages['account.sessions.confirmTitle']}
        body={
          ending?.current
            ? messages['account.sessions.confirmCurrent']
            : format(messages['account.sessions.confirmBody'], { device: ending ? deviceName(ending) : '' })
        }
        confirmLabel={messages['account.sessions.end']}
        cancelLabel={messages['account.common.cancel']}
        busy={busy}
        onConfirm={() => void confirmEnd()}
        onCancel={() => setEnding(null)}
      />
    </SettingsCard>
  );
}
