import { useCallback, useEffect, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { UserInfoData } from '../../lib/schemas/account.ts';
import { getForm } from '../auth/formCall.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import CancelAccountCard from './CancelAccountCard.tsx';
import PasswordForm from './PasswordForm.tsx';
import PersonalDataCard from './PersonalDataCard.tsx';
import PhoneForm from './PhoneForm.tsx';
import ProfileForm from './ProfileForm.tsx';
import SecondFactorCard from './SecondFactorCard.tsx';
import SessionList from './SessionList.tsx';
import type { AccountMessages } from './accountSettings.ts';
import { USER_INFO_URL, storeUserInfo } from './personData.ts';
import { useSessionReady } from '../useSessionReady.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';

interface Props {
  locale: Locale;
  messages: AccountMessages;
  validation: ValidationMessages;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; info: UserInfoData };

/** Account settings (/person/account): profile, password, two-step verification, phone, the list of sessions and the person's own data. */
export default function AccountSettings({ locale, messages, validation }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [sessionsVersion, setSessionsVersion] = useState(0);

  // Starts as loading: the first load only sets the answer; a retry shows loading first.
  const fetchInfo = useCallback(async (): Promise<Loaded> => {
    const answer = await getForm<UserInfoData>(USER_INFO_URL);
    if (answer?.ok) storeUserInfo(answer.data);
    return answer?.ok ? { state: 'ready', info: answer.data } : { state: 'failed' };
  }, []);
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchInfo());
  }, [fetchInfo]);

  const ready = useSessionReady();
  useEffect(() => {
    if (ready) void fetchInfo().then(setLoaded);
  }, [ready, fetchInfo]);

  const saved = (info: UserInfoData) => {
    storeUserInfo(info);
    setLoaded({ state: 'ready', info });
  };

  if (loaded.state === 'loading') {
    return <Loading label={messages['common.loading']} />;
  }
  if (loaded.state === 'failed') {
    return (
      <LoadFailed
        message={messages['account.common.loadFailed']}
        retryLabel={messages['account.common.retry']}
        onRetry={() => void load()}
      />
    );
  }
  return (
    <div className="grid gap-4">
      <ProfileForm info={loaded.info} messages={messages} validation={validation} onSaved={saved} />
      <PasswordForm messages={messages} validation={validation} onChanged={() => setSessionsVersion((n) => n + 1)} />
      <SecondFactorCard locale={locale} messages={messages} validation={validation} />
      <PhoneForm info={loaded.info} messages={messages} validation={validation} onSaved={saved} />
      <SessionList locale={locale} messages={messages} version={sessionsVersion} />
      <PersonalDataCard locale={locale} messages={messages} />
      <CancelAccountCard locale={locale} messages={messages} validation={validation} />
    </div>
  );
}
