import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import { flashOnNextPage } from '../../lib/flash.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { maskMobile } from '../../lib/masking.ts';
import { localePath } from '../../lib/paths.ts';
import { bindBody, type UserInfoData } from '../../lib/schemas/account.ts';
import { appCode, webDeviceId } from '../../lib/schemas/auth.ts';
import SmsCodeButton from './SmsCodeButton.tsx';
import SubmitButton from './SubmitButton.tsx';
import TextField from './TextField.tsx';
import { getForm, postForm } from './formCall.ts';
import { formValues, validateForm, type ValidationMessages } from './formValidation.ts';
import { USER_INFO_URL, storeUserInfo } from '../person/personData.ts';
import { BIND_URL, type BindingMessages } from './settingForms.ts';
import { sendCodeToOwnPhone } from './smsFlow.ts';
import { useSessionReady } from '../useSessionReady.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { useFormErrors } from './useFormErrors.ts';

interface Props {
  locale: Locale;
  messages: BindingMessages;
  validation: ValidationMessages;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; info: UserInfoData };

function loadedFrom(answer: Awaited<ReturnType<typeof getForm<UserInfoData>>>): Loaded {
  return answer?.ok ? { state: 'ready', info: answer.data } : { state: 'failed' };
}

/**
 * Binding (/setting/binding): links the logged-in account to an enterprise by its clearance
 * account and name, which gives it the enterprise role. The call takes the spec's six fields;
 * userId, userName and mobile are the account's own (the server refuses any other), so they are
 * shown read-only, and the code goes to the account's own phone.
 */
export default function BindingForm({ locale, messages, validation }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();

  // Starts as loading: the first load only sets the answer; a retry shows loading first.
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(loadedFrom(await getForm<UserInfoData>(USER_INFO_URL)));
  }, []);

  const ready = useSessionReady();
  useEffect(() => {
    if (ready) void getForm<UserInfoData>(USER_INFO_URL).then((answer) => setLoaded(loadedFrom(answer)));
  }, [ready]);

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

  const { info } = loaded;
  const overview = localePath(locale, '/person/overview');
  if (info.enterprise) {
    return (
      <div role="status" className="alert alert-info">
        <span>{format(messages['account.binding.alreadyBound'], { name: info.enterprise.enterpriseName })}</span>
        <a className="btn btn-sm" href={overview}>
          {messages['account.binding.toOverview']}
        </a>
      </div>
    );
  }

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = {
      ...formValues(event.currentTarget),
      userId: String(info.userId),
      userName: info.userName,
      mobile: info.mobile,
      deviceId: webDeviceId,
      appCode,
    };
    const checked = validateForm(bindBody, values, validation);
    if (!checked.ok) return fail(checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<UserInfoData>(BIND_URL, checked.data);
    if (answer?.ok) {
      storeUserInfo(answer.data);
      flashOnNextPage('success', answer.message || messages['account.binding.ok']);
      window.location.assign(overview);
      return;
    }
    setBusy(false);
    if (answer) fail(answer.errors);
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        name="userName"
        label={messages['field.userName']}
        value={info.userName}
        readOnly
        error={errors['userName']}
      />
      <TextField
        name="mobile"
        label={messages['field.phone']}
        value={maskMobile(info.mobile)}
        readOnly
        error={errors['mobile']}
        hint={format(messages['account.binding.codeNote'], { phone: maskMobile(info.mobile) })}
      />
      <TextField
        name="code"
        inputMode="numeric"
        label={messages['field.smsCode']}
        autoComplete="one-time-code"
        maxLength={6}
        error={errors['code']}
        addon={<SmsCodeButton messages={messages} onSend={() => sendCodeToOwnPhone('binding')} />}
      />
      <TextField
        name="enterpriseName"
        label={messages['field.enterpriseName']}
        autoComplete="organization"
        maxLength={100}
        error={errors['enterpriseName']}
      />
      <TextField
        name="clearanceAccount"
        label={messages['field.clearanceAccount']}
        maxLength={32}
        error={errors['clearanceAccount']}
      />
      <SubmitButton
        busy={busy}
        label={messages['account.binding.submit']}
        busyLabel={messages['account.common.submitting']}
      />
    </form>
  );
}
