import { useId, useRef, useState, type SubmitEvent, type KeyboardEvent } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import { appCode, loginAppCode, webDeviceId, type CurrentUserData } from '../../lib/schemas/auth.ts';
import type { SecondFactorChallengeData } from '../../lib/schemas/secondFactor.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import CaptchaImage from './CaptchaImage.tsx';
import KeepRedirectLink from './KeepRedirectLink.tsx';
import PhoneCodeFields from './PhoneCodeFields.tsx';
import SecondFactorStep from './SecondFactorStep.tsx';
import SubmitButton from './SubmitButton.tsx';
import TextField from './TextField.tsx';
import { postForm } from './formCall.ts';
import {
  formValues,
  validateForm,
  withFieldError,
  type FieldErrors,
  type ValidationMessages,
} from './formValidation.ts';
import {
  LOGIN_MOBILE_URL,
  LOGIN_URL,
  accountLoginForm,
  mobileLoginForm,
  type LoginMessages,
  type LoginMode,
} from './loginForm.ts';
import { completeSignIn, focusFirstError, signInTarget } from './signIn.ts';

interface Props {
  locale: Locale;
  messages: LoginMessages;
  validation: ValidationMessages;
}

const modes: readonly LoginMode[] = ['account', 'mobile'];

/** A first step's success: signed in, or (a user with a second factor) a code owed. */
type FirstStepData = CurrentUserData | SecondFactorChallengeData;

function owesSecondFactor(data: FirstStepData): data is SecondFactorChallengeData {
  return (data as Partial<SecondFactorChallengeData>).secondFactor === 'totp';
}

/**
 * The login page (spec §2, /user/login): account mode (user name, password, captcha) and mobile
 * mode (phone, SMS code), then — for a user with two-step verification — the code step.
 * Server-rendered in its first state and hydrated on intent, so the page loads no framework code
 * until the visitor reaches for the form.
 */
export default function LoginForm({ locale, messages, validation }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const mobileRef = useRef<HTMLFormElement>(null);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();
  const [mode, setMode] = useState<LoginMode>('account');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [captchaVersion, setCaptchaVersion] = useState(0);
  /** Set while the login of this mode owes its second factor. */
  const [codeOwed, setCodeOwed] = useState<LoginMode | null>(null);
  useMountedSignal(rootRef);

  const refreshCaptcha = () => setCaptchaVersion(Date.now());
  const fail = (form: HTMLFormElement | null, next: FieldErrors) => {
    setErrors(next);
    focusFirstError(form, next);
  };

  const choose = (next: LoginMode, focus = false) => {
    setMode(next);
    setErrors({});
    if (focus) tabRefs.current[modes.indexOf(next)]?.focus();
  };

  // Arrow keys move between the two tabs (WAI-ARIA tabs pattern, automatic activation).
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = modes.indexOf(mode);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (event.key === 'Home') choose(modes[0] ?? 'account', true);
    else if (event.key === 'End') choose(modes[modes.length - 1] ?? 'mobile', true);
    else if (step) choose(modes[(index + step + modes.length) % modes.length] ?? 'account', true);
    else return;
    event.preventDefault();
  };

  const submitAccount = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const checked = validateForm(
      accountLoginForm,
      { ...formValues(form), deviceId: webDeviceId, appCode: loginAppCode },
      validation,
    );
    if (!checked.ok) return fail(form, checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<FirstStepData>(LOGIN_URL, checked.data);
    if (answer?.ok) {
      if (owesSecondFactor(answer.data)) {
        setBusy(false);
        setCodeOwed('account');
        return;
      }
      completeSignIn(
        'account',
        answer.data,
        answer.message || messages['account.login.ok'],
        signInTarget(window.location.href, locale),
      );
      return;
    }
    setBusy(false);
    // Each image is good for one try, right or wrong.
    refreshCaptcha();
    const captcha = form.elements.namedItem('captcha');
    if (captcha instanceof HTMLInputElement) captcha.value = '';
    if (answer) fail(form, answer.errors);
  };

  const submitMobile = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const checked = validateForm(mobileLoginForm, { ...formValues(form), deviceId: webDeviceId, appCode }, validation);
    if (!checked.ok) return fail(form, checked.errors);
    setErrors({});
    setBusy(true);
    const answer = await postForm<FirstStepData>(LOGIN_MOBILE_URL, checked.data);
    if (answer?.ok) {
      if (owesSecondFactor(answer.data)) {
        setBusy(false);
        setCodeOwed('mobile');
        return;
      }
      completeSignIn(
        'mobile',
        answer.data,
        answer.message || messages['account.login.ok'],
        signInTarget(window.location.href, locale),
      );
      return;
    }
    setBusy(false);
    if (answer) fail(form, answer.errors);
  };

  const submitButton = (
    <SubmitButton
      busy={busy}
      label={messages['account.login.submit']}
      busyLabel={messages['account.login.submitting']}
    />
  );
  const tabId = (m: LoginMode) => `${baseId}-tab-${m}`;
  const panelId = (m: LoginMode) => `${baseId}-panel-${m}`;

  if (codeOwed !== null) {
    return (
      <div ref={rootRef}>
        <SecondFactorStep
          messages={messages}
          validation={validation}
          onSignedIn={(user, text) =>
            completeSignIn(
              codeOwed,
              user,
              text || messages['account.login.ok'],
              signInTarget(window.location.href, locale),
            )
          }
          onRestart={() => {
            setCodeOwed(null);
            setErrors({});
            refreshCaptcha();
          }}
        />
      </div>
    );
  }

  return (
    <div ref={rootRef}>
      {/* One row in every language: labels on one line, a narrow padding on a phone ("Masuk dengan
          ponsel" and its neighbour need 325 px of a 360 px screen), and a row that scrolls rather
          than wraps should a label still be wider. */}
      <div
        role="tablist"
        aria-label={messages['account.login.modesLabel']}
        className="tabs tabs-border scroll-row mb-4"
      >
        {modes.map((m, index) => (
          <button
            key={m}
            ref={(node) => {
              tabRefs.current[index] = node;
            }}
            id={tabId(m)}
            type="button"
            role="tab"
            aria-selected={mode === m}
            aria-controls={panelId(m)}
            tabIndex={mode === m ? 0 : -1}
            className={`tab px-2 sm:px-4 ${mode === m ? 'tab-active' : ''}`}
            onClick={() => choose(m)}
            onKeyDown={onTabKey}
          >
            {m === 'account' ? messages['account.login.modeAccount'] : messages['account.login.modeMobile']}
          </button>
        ))}
      </div>

      <div id={panelId('account')} role="tabpanel" aria-labelledby={tabId('account')} hidden={mode !== 'account'}>
        <form noValidate onSubmit={(event) => void submitAccount(event)}>
          <TextField
            name="userName"
            label={messages['field.userName']}
            hint={messages['account.login.userNameHint']}
            autoComplete="username"
            error={mode === 'account' ? errors['userName'] : undefined}
          />
          <TextField
            name="password"
            type="password"
            label={messages['field.password']}
            autoComplete="current-password"
            error={mode === 'account' ? errors['password'] : undefined}
          />
          <TextField
            name="captcha"
            label={messages['field.captcha']}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={4}
            error={mode === 'account' ? errors['captcha'] : undefined}
            addon={<CaptchaImage messages={messages} version={captchaVersion} onRefresh={refreshCaptcha} />}
          />
          {submitButton}
        </form>
      </div>

      <div id={panelId('mobile')} role="tabpanel" aria-labelledby={tabId('mobile')} hidden={mode !== 'mobile'}>
        <form ref={mobileRef} noValidate onSubmit={(event) => void submitMobile(event)}>
          <PhoneCodeFields
            type="login"
            formRef={mobileRef}
            errors={mode === 'mobile' ? errors : {}}
            onPhoneError={(text) => setErrors((current) => withFieldError(current, 'phone', text))}
            messages={messages}
            validation={validation}
          />
          {submitButton}
        </form>
      </div>

      <div className="mt-4 flex flex-wrap justify-between gap-2 text-sm">
        <KeepRedirectLink href={localePath(locale, '/setting/modify')}>
          {messages['account.login.forgot']}
        </KeepRedirectLink>
        <span>
          {messages['account.login.noAccount']}{' '}
          <KeepRedirectLink href={localePath(locale, '/setting/register')}>
            {messages['account.login.toRegister']}
          </KeepRedirectLink>
        </span>
      </div>
    </div>
  );
}
