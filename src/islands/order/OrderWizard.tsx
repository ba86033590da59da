import { useCallback, useEffect, useRef, useState } from 'react';
import { post } from '../../lib/api/client.ts';
import { format } from '../../lib/api/messages.ts';
import { flashOnNextPage } from '../../lib/flash.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { OrderDetailData } from '../../lib/schemas/order.ts';
import { serverFieldErrors, type FieldErrors } from '../auth/formValidation.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { authStatusLabel } from '../person/personData.ts';
import { useSessionReady } from '../useSessionReady.ts';
import ConfirmStep from './ConfirmStep.tsx';
import ContractStep, { type ContractValues } from './ContractStep.tsx';
import { ORDER_API, orderDetailHref } from './orderView.ts';
import { readWizard, wizardSteps, writeWizard, type WizardMessages, type WizardState } from './orderWizard.ts';
import SchemeStep from './SchemeStep.tsx';
import SetGuide from './SetGuide.tsx';
import { loadChoice, loadOrderer, type Choice, type Orderer } from './wizardData.ts';

interface Props {
  locale: Locale;
  messages: WizardMessages;
}

const stepTitleKeys = {
  set: 'ordering.step.set',
  contract: 'ordering.step.contract',
  confirm: 'ordering.step.confirm',
} as const;

const contractFields = ['contractStart', 'contractMonths', 'estimatedConsumption'];

/**
 * Ordering a package (/handle/order): choose the package on sale and its plan parameters, the
 * contract, then confirm. Every step's choices are in the address (pushState), so Back and
 * Forward walk the steps and a reload keeps them. Only a certified enterprise may order: anyone
 * else is told why and where to go.
 */
export default function OrderWizard({ locale, messages }: Props) {
  const ready = useSessionReady();
  const [wizard, setWizard] = useState<WizardState | null>(null);
  const [orderer, setOrderer] = useState<Orderer | null>(null);
  const [choice, setChoice] = useState<{ sellingSetId: string; result: Choice } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  useEffect(() => {
    const read = () => setWizard(readWizard(window.location.search));
    read();
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, []);

  // The orderer and the set's choice start empty (loading); a retry empties them again first.
  useEffect(() => {
    if (!ready) return;
    void loadOrderer().then((result) => result && setOrderer(result));
  }, [ready, attempt]);

  const sellingSetId = wizard?.sellingSetId ?? '';
  useEffect(() => {
    if (!sellingSetId || orderer?.kind !== 'ready') return;
    // A choice for another set is not shown meanwhile (`loaded` below matches the set).
    void loadChoice(sellingSetId, orderer.profile).then((result) => result && setChoice({ sellingSetId, result }));
  }, [sellingSetId, orderer, attempt]);

  const retry = () => {
    setOrderer(null);
    setChoice(null);
    setAttempt((n) => n + 1);
  };

  // After a step change by the reader, focus the step's heading so a screen reader starts there.
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
    moved.current = false;
  }, [wizard?.step, wizard?.sellingSetId]);

  /**
   * A new step: `keep` first writes what was entered into the current history entry, so Back
   * returns to this step with its values; then the next step gets an entry of its own.
   */
  const go = useCallback((next: WizardState, keep?: WizardState) => {
    if (keep) window.history.replaceState(null, '', `${window.location.pathname}${writeWizard(keep)}`);
    window.history.pushState(null, '', `${window.location.pathname}${writeWizard(next)}`);
    moved.current = true;
    setRefusal('');
    setWizard(next);
  }, []);

  if (!wizard || !orderer) return <Loading label={messages['common.loading']} />;
  if (orderer.kind === 'failed') {
    return (
      <LoadFailed
        message={orderer.message || messages['ordering.gate.loadFailed']}
        retryLabel={messages['ordering.retry']}
        onRetry={retry}
      />
    );
  }
  if (orderer.kind === 'noEnterprise') {
    return (
      <div role="alert" className="alert alert-info">
        <span>{messages['ordering.gate.noEnterprise']}</span>
        <a className="btn btn-primary btn-sm" href={localePath(locale, '/setting/binding')}>
          {messages['ordering.gate.bind']}
        </a>
      </div>
    );
  }
  if (orderer.kind === 'notCertified') {
    return (
      <div role="alert" className="alert alert-info">
        <span>
          {format(messages['ordering.gate.notCertified'], {
            status: authStatusLabel(orderer.enterprise.authStatus, messages),
          })}
        </span>
        <a className="btn btn-primary btn-sm" href={localePath(locale, '/certify/enterprise')}>
          {messages['ordering.gate.certify']}
        </a>
      </div>
    );
  }

  const current = wizard.step;
  const loaded = choice && choice.sellingSetId === wizard.sellingSetId ? choice.result : null;
  const scheme =
    loaded?.kind === 'ready' ? loaded.schemes.find((item) => item.schemeParamId === wizard.schemeParamId) : undefined;
  const values: ContractValues = {
    contractStart: wizard.contractStart,
    contractMonths: wizard.contractMonths,
    estimatedConsumption: wizard.estimatedConsumption,
  };
  const defaultConsumption =
    orderer.profile.annualConsumption === undefined ? '' : String(orderer.profile.annualConsumption);

  const submit = async () => {
    if (!loaded || loaded.kind !== 'ready') return;
    setBusy(true);
    setRefusal('');
    const answer = await post<OrderDetailData>(
      `${ORDER_API}/createCustomerOrder`,
      { sellingSetId: wizard.sellingSetId, schemeParamId: wizard.schemeParamId, ...values },
      { quiet: true },
    );
    setBusy(false);
    if (!answer) return;
    if (answer.code === 200) {
      flashOnNextPage('success', messages['ordering.created']);
      window.location.assign(orderDetailHref(locale, answer.data.orderNo));
      return;
    }
    const fieldErrors = serverFieldErrors(answer);
    if (Object.keys(fieldErrors).some((field) => contractFields.includes(field))) {
      // The contract's fields were refused: back to them, with the server's words beside each.
      setServerErrors(fieldErrors);
      go({ ...wizard, step: 'contract' });
      return;
    }
    setRefusal(answer.message);
  };

  let body;
  if (!wizard.sellingSetId) {
    body = (
      <SetGuide
        messages={messages}
        onChoose={(id) => go({ ...wizard, sellingSetId: id, schemeParamId: '', step: 'set' })}
      />
    );
  } else if (!loaded) {
    body = <Loading label={messages['common.loading']} />;
  } else if (loaded.kind === 'failed') {
    body = (
      <div className="grid gap-3">
        <LoadFailed message={loaded.message} retryLabel={messages['ordering.retry']} onRetry={retry} />
        <div>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => go({ ...wizard, sellingSetId: '', schemeParamId: '', step: 'set' })}
          >
            {messages['ordering.set.change']}
          </button>
        </div>
      </div>
    );
  } else if (current === 'set' || !scheme) {
    body = (
      <SchemeStep
        locale={locale}
        selling={loaded.selling}
        schemes={loaded.schemes}
        chosen={wizard.schemeParamId}
        messages={messages}
        onChange={() => go({ ...wizard, sellingSetId: '', schemeParamId: '', step: 'set' })}
        onNext={(schemeParamId) => go({ ...wizard, schemeParamId, step: 'contract' }, { ...wizard, schemeParamId })}
      />
    );
  } else if (current === 'contract') {
    body = (
      <ContractStep
        locale={locale}
        scheme={scheme}
        values={{ ...values, estimatedConsumption: values.estimatedConsumption || defaultConsumption }}
        serverErrors={serverErrors}
        messages={messages}
        onBack={() => go({ ...wizard, step: 'set' })}
        onNext={(next) => {
          setServerErrors({});
          go({ ...wizard, ...next, step: 'confirm' }, { ...wizard, ...next });
        }}
      />
    );
  } else {
    body = (
      <ConfirmStep
        locale={locale}
        enterpriseName={orderer.enterprise.enterpriseName}
        selling={loaded.selling}
        scheme={scheme}
        values={values}
        busy={busy}
        refusal={refusal}
        messages={messages}
        onBack={() => go({ ...wizard, step: 'contract' })}
        onSubmit={() => void submit()}
      />
    );
  }

  const shownStep = current === 'set' || !scheme ? 'set' : current;
  const stepIndex = wizardSteps.indexOf(shownStep);

  return (
    <div className="grid gap-6">
      <nav aria-label={messages['ordering.steps.label']}>
        <ol className="steps w-full">
          {wizardSteps.map((step, index) => (
            <li
              key={step}
              className={`step ${index <= stepIndex ? 'step-primary' : ''}`}
              aria-current={step === shownStep ? 'step' : undefined}
            >
              {messages[stepTitleKeys[step]]}
              {step === shownStep && <span className="sr-only"> ({messages['ordering.step.current']})</span>}
            </li>
          ))}
        </ol>
      </nav>
      <section aria-labelledby="order-step-title" className="grid gap-4">
        <h2 id="order-step-title" ref={headingRef} tabIndex={-1} className="text-xl font-semibold outline-none">
          {!wizard.sellingSetId ? messages['ordering.guide.title'] : messages[stepTitleKeys[shownStep]]}
        </h2>
        {body}
      </section>
    </div>
  );
}
