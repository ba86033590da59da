import { useState, type ReactNode, type SubmitEvent } from 'react';
import { z } from 'zod/mini';
import { message } from '../../lib/api/notify.ts';
import { format } from '../../lib/api/messages.ts';
import { missingForCertification, type UsbKeyBankData } from '../../lib/enterpriseCertification.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import {
  icbcAccountInfoQuery,
  saveEmpBody,
  usbKeySignBody,
  type EnterpriseData,
  type IcbcAccountInfoData,
  type UsbKeySignatureData,
} from '../../lib/schemas/enterprise.ts';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { formValues, validateForm, type ValidationMessages } from '../auth/formValidation.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';
import { BankBindingDetails } from './EnterpriseDetails.tsx';
import EnterprisePending from './EnterprisePending.tsx';
import RemoveButton from './RemoveButton.tsx';
import Section from './Section.tsx';
import StatusLine from './StatusLine.tsx';
import { bankGet, bankPost, type BankOutcome } from './bankCall.ts';
import type { CertifyKey, CertifyMessages } from './certifyMessages.ts';
import {
  BANK_ACCOUNT_URL,
  BANK_REMOVE_URL,
  BANK_SAVE_URL,
  USB_KEY_SIGN_URL,
  certificateOpen,
  shownTime,
} from './enterpriseCalls.ts';
import { useOwnEnterprise } from './useOwnEnterprise.ts';
import { useUsbKeyBank } from './useUsbKeyBank.ts';

interface Props {
  locale: Locale;
  messages: CertifyMessages;
  validation: ValidationMessages;
}

/** A refusal shown in place: the bank being unavailable reads differently from a plain refusal. */
function Refusal({
  outcome,
  messages: m,
}: {
  outcome: { bankDown: boolean; message: string };
  messages: CertifyMessages;
}) {
  return (
    <div role="alert" className="alert alert-error text-sm">
      {outcome.bankDown ? (
        <div>
          <p className="font-semibold">{m['certify.usbkey.bankFailed']}</p>
          <p>{outcome.message}</p>
        </div>
      ) : (
        <p>{outcome.message}</p>
      )}
    </div>
  );
}

type Refused = Extract<NonNullable<BankOutcome<unknown>>, { ok: false }>;

/** Demo mode, said on the page: the bank here is the sandbox, and its demo PIN certifies anyone. */
function SandboxNotice({ bank, messages: m }: { bank: UsbKeyBankData; messages: CertifyMessages }) {
  return (
    <div role="note" aria-label={m['certify.usbkey.sandboxTitle']} className="alert alert-warning text-sm">
      <div>
        <p className="font-semibold">{m['certify.usbkey.sandboxTitle']}</p>
        <p>{format(m['certify.usbkey.sandboxNotice'], { pin: bank.demoPin ?? '' })}</p>
      </div>
    </div>
  );
}

/**
 * Bank USB-key certification (/certify/enterprise/usbkey): the enterprise's bank account is looked
 * up (its name must be the enterprise's), the key signs the bank's one-time challenge with its
 * PIN, and saveEmp certifies the enterprise at once. A bound account can be removed here.
 *
 * The page first asks which bank is behind it (getUsbKeyBank): the sandbox of demo mode is said
 * in a notice above everything; with none, the page says USB-key certification is not available
 * and points to certification with documents. A record missing a field that certification needs
 * (the same list the server checks) is sent to be completed before any account is asked for.
 */
export default function UsbKeyCertify({ locale, messages: m, validation }: Props) {
  const { view, setView, load } = useOwnEnterprise();
  const bank = useUsbKeyBank();
  const [account, setAccount] = useState<IcbcAccountInfoData | null>(null);
  const [refused, setRefused] = useState<Refused | null>(null);
  const lookup = useFormErrors();
  const sign = useFormErrors();
  // What the forms render, taken out of the two objects (each also holds its form's ref, which
  // must not be read while rendering).
  const { formRef: lookupForm, errors: lookupErrors, busy: lookupBusy } = lookup;
  const { formRef: signForm, errors: signErrors, busy: signBusy } = sign;

  if (view.state !== 'ready')
    return <EnterprisePending view={view} locale={locale} messages={m} onRetry={() => void load()} />;
  // Until the page knows which bank is behind it (demo sandbox, none), it offers nothing.
  if (bank === undefined)
    return <EnterprisePending view={{ state: 'loading' }} locale={locale} messages={m} onRetry={() => void load()} />;
  const { enterprise } = view;
  const binding = enterprise.bankBinding;
  const unavailable = bank?.available === false;
  const page = (content: ReactNode) => (
    <div className="grid gap-4">
      {bank?.sandbox && <SandboxNotice bank={bank} messages={m} />}
      {content}
    </div>
  );

  const lookUp = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (lookup.busy) return;
    setRefused(null);
    const checked = validateForm(icbcAccountInfoQuery, formValues(event.currentTarget), validation);
    if (!checked.ok) return lookup.fail(checked.errors);
    lookup.setErrors({});
    lookup.setBusy(true);
    const outcome = await bankGet<IcbcAccountInfoData>(BANK_ACCOUNT_URL, checked.data);
    lookup.setBusy(false);
    if (!outcome) return;
    if (outcome.ok) {
      setAccount(outcome.data);
    } else if (Object.keys(outcome.errors).length) {
      lookup.fail(outcome.errors);
    } else {
      setRefused(outcome);
    }
  };

  const signAndSave = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sign.busy || !account) return;
    setRefused(null);
    const values = formValues(event.currentTarget);
    const key = validateForm(
      usbKeySignBody,
      { accountNo: account.accountNo, pin: values['pin'] ?? '', challenge: account.challenge },
      validation,
    );
    const holder = validateForm(
      z.pick(saveEmpBody, { empName: true, empNo: true }),
      { empName: values['empName'] ?? '', empNo: values['empNo'] ?? '' },
      validation,
    );
    if (!key.ok || !holder.ok) return sign.fail({ ...(key.ok ? {} : key.errors), ...(holder.ok ? {} : holder.errors) });
    sign.setErrors({});
    sign.setBusy(true);
    // The key signs the bank's challenge (the sandbox stands in for the bank's browser driver)…
    const signed = await bankPost<UsbKeySignatureData>(USB_KEY_SIGN_URL, key.data);
    if (!signed || !signed.ok) {
      sign.setBusy(false);
      if (!signed) return;
      if (signed.bankDown) setRefused(signed);
      // The key refuses for its PIN (or names the field itself): the message belongs beside the PIN.
      else sign.fail(Object.keys(signed.errors).length ? signed.errors : { pin: signed.message });
      return;
    }
    // …and the server checks the signature with the bank before it certifies.
    const saved = await bankPost<EnterpriseData>(BANK_SAVE_URL, {
      accountNo: account.accountNo,
      ...holder.data,
      challenge: account.challenge,
      signature: signed.data.signature,
      certSerial: signed.data.certSerial,
    });
    sign.setBusy(false);
    if (!saved) return;
    if (saved.ok) {
      message.success(m['certify.usbkey.done']);
      setAccount(null);
      setView({ state: 'ready', enterprise: saved.data });
    } else if (Object.keys(saved.errors).length) {
      sign.fail(saved.errors);
    } else {
      setRefused(saved);
    }
  };

  const remove = async () => {
    const outcome = await bankPost<EnterpriseData>(BANK_REMOVE_URL, {});
    if (!outcome) return;
    if (outcome.ok) {
      message.success(m['certify.usbkey.removed']);
      setView({ state: 'ready', enterprise: outcome.data });
    } else {
      setRefused(outcome);
    }
  };

  const status = <StatusLine enterprise={enterprise} messages={m} />;

  if (binding) {
    return page(
      <Section title={m['certify.usbkey.boundTitle']}>
        {status}
        <BankBindingDetails binding={binding} locale={locale} messages={m} />
        {refused && <Refusal outcome={refused} messages={m} />}
        {unavailable ? (
          <p className="text-sm text-base-content/70">{m['certify.usbkey.unavailableBound']}</p>
        ) : (
          <div className="card-actions">
            <RemoveButton
              label={m['certify.usbkey.remove']}
              title={m['certify.usbkey.removeTitle']}
              body={format(m['certify.usbkey.removeBody'], { account: binding.accountNoMasked })}
              messages={m}
              onRemove={remove}
            />
          </div>
        )}
      </Section>,
    );
  }

  if (unavailable) {
    return (
      <Section title={m['certify.usbkey.unavailableTitle']}>
        {status}
        <p className="text-sm">{m['certify.usbkey.unavailable']}</p>
        {certificateOpen(enterprise.authStatus) && (
          <div className="card-actions">
            <a className="btn btn-sm btn-primary" href={localePath(locale, '/certify/enterprise/certificate')}>
              {m['certify.way.certificateAction']}
            </a>
          </div>
        )}
      </Section>
    );
  }

  if (!certificateOpen(enterprise.authStatus)) {
    return page(
      <Section title={m['certify.authType.usbkey']}>
        {status}
        <p className="text-sm text-base-content/70">{m['certify.usbkey.notNow']}</p>
        <div className="card-actions">
          <a className="btn btn-sm" href={localePath(locale, '/certify/enterprise')}>
            {m['certify.status.title']}
          </a>
        </div>
      </Section>,
    );
  }

  // The same complete record as certification with documents (the server refuses it otherwise).
  const missing = missingForCertification(enterprise);
  if (missing.length > 0) {
    const fields = missing
      .map((name) => m[`certify.field.${name}` satisfies CertifyKey])
      .join(m['enterprise.listSeparator']);
    return page(
      <Section title={m['certify.usbkey.incompleteTitle']}>
        {status}
        <p className="text-sm">{format(m['certify.usbkey.incomplete'], { fields })}</p>
        <div className="card-actions">
          <a className="btn btn-sm btn-primary" href={localePath(locale, '/person/enterprise')}>
            {m['certify.submit.editRecord']}
          </a>
        </div>
      </Section>,
    );
  }

  return page(
    <>
      <Section title={`1. ${m['certify.usbkey.accountStep']}`}>
        {status}
        <form ref={lookupForm} noValidate onSubmit={(event) => void lookUp(event)} className="max-w-md">
          <TextField
            name="accountNo"
            label={m['certify.usbkey.accountNo']}
            inputMode="numeric"
            autoComplete="off"
            maxLength={40}
            readOnly={account !== null}
            defaultValue={account?.accountNo ?? ''}
            hint={m['certify.usbkey.accountHint']}
            error={lookupErrors['accountNo']}
          />
          {account ? (
            <button
              type="button"
              className="btn btn-ghost mt-4"
              onClick={() => {
                setAccount(null);
                setRefused(null);
              }}
            >
              {m['certify.usbkey.restart']}
            </button>
          ) : (
            <SubmitButton
              busy={lookupBusy}
              label={m['certify.usbkey.lookup']}
              busyLabel={m['certify.usbkey.looking']}
              className="btn btn-primary mt-4"
            />
          )}
        </form>
        {!account && refused && <Refusal outcome={refused} messages={m} />}
      </Section>

      {account && (
        <Section title={`2. ${m['certify.usbkey.signStep']}`}>
          <dl className="grid gap-2 text-sm md:grid-cols-3">
            {(
              [
                ['certify.usbkey.accountName', account.accountName],
                ['certify.usbkey.bankName', account.bankName],
                ['certify.usbkey.branchName', account.branchName],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className="text-muted">{m[label]}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="text-sm">{m['certify.usbkey.insert']}</p>
          <p className="text-xs text-muted">
            {format(m['certify.usbkey.expiresAt'], { time: shownTime(account.expiresAt, locale, m) })}
          </p>
          <form ref={signForm} noValidate onSubmit={(event) => void signAndSave(event)} className="max-w-md">
            <TextField
              name="pin"
              type="password"
              label={m['certify.usbkey.pin']}
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              error={signErrors['pin']}
            />
            <TextField
              name="empName"
              label={m['certify.usbkey.empName']}
              autoComplete="name"
              maxLength={64}
              error={signErrors['empName']}
            />
            <TextField
              name="empNo"
              label={m['certify.usbkey.empNo']}
              autoComplete="off"
              maxLength={32}
              error={signErrors['empNo']}
            />
            <SubmitButton
              busy={signBusy}
              label={m['certify.usbkey.sign']}
              busyLabel={m['certify.usbkey.signing']}
              className="btn btn-primary mt-4"
            />
          </form>
          {refused && <Refusal outcome={refused} messages={m} />}
        </Section>
      )}
    </>,
  );
}
