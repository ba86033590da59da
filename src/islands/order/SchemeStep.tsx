import { useId, useState, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { OrderSchemeParamSnapshot } from '../../lib/schemas/order.ts';
import type { WizardMessages } from './orderWizard.ts';
import { schemeConsumption, schemeMonths, schemePrice } from './schemeText.ts';
import type { SellingSetInfo } from './wizardData.ts';

interface Props {
  locale: Locale;
  selling: SellingSetInfo;
  schemes: readonly OrderSchemeParamSnapshot[];
  chosen: string;
  messages: WizardMessages;
  onChange: () => void;
  onNext: (schemeParamId: string) => void;
}

/** Step 1 with a package chosen: the package on sale, and its plan parameters that fit the enterprise. */
export default function SchemeStep({ locale, selling, schemes, chosen, messages, onChange, onNext }: Props) {
  const id = useId();
  const [error, setError] = useState('');

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('schemeParamId');
    if (typeof value !== 'string' || !value) {
      setError(messages['ordering.scheme.required']);
      event.currentTarget.querySelector<HTMLInputElement>('input[name="schemeParamId"]')?.focus();
      return;
    }
    onNext(value);
  };

  return (
    <div className="grid gap-4">
      <section aria-labelledby={`${id}-selling`} className="card border border-base-300 bg-base-100">
        <div className="card-body gap-2 p-4">
          <h3 id={`${id}-selling`} className="text-sm text-muted">
            {messages['ordering.set.selected']}
          </h3>
          <p className="text-lg font-semibold">{selling.setName}</p>
          <p className="text-sm">{selling.orgCom.name}</p>
          <p className="text-xs text-muted">
            {format(messages['ordering.guide.validRange'], { from: selling.validFrom, to: selling.validTo })}
          </p>
          <div className="card-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={onChange}>
              {messages['ordering.set.change']}
            </button>
          </div>
        </div>
      </section>

      {!selling.orderable ? (
        <p role="alert" className="alert alert-warning">
          {messages['ordering.set.notOrderable']}
        </p>
      ) : schemes.length === 0 ? (
        <p role="alert" className="alert alert-warning">
          {messages['ordering.scheme.none']}
        </p>
      ) : (
        <form noValidate onSubmit={submit} className="grid gap-4">
          <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
            <legend className="mb-2 font-semibold">{messages['ordering.scheme.legend']}</legend>
            {schemes.map((scheme) => (
              <label
                key={scheme.schemeParamId}
                className="flex cursor-pointer items-start gap-3 rounded-box border border-base-300 p-3 has-[:checked]:border-primary"
              >
                <input
                  type="radio"
                  name="schemeParamId"
                  value={scheme.schemeParamId}
                  defaultChecked={scheme.schemeParamId === chosen || schemes.length === 1}
                  className="radio radio-primary mt-1"
                  onChange={() => setError('')}
                />
                <span className="grid gap-1 text-sm">
                  <span className="font-semibold">{scheme.name}</span>
                  <span>{schemePrice(scheme, locale, messages)}</span>
                  <span className="text-base-content/70">
                    {schemeMonths(scheme, messages)} · {schemeConsumption(scheme, locale, messages)}
                  </span>
                  {scheme.remark && <span className="text-muted">{scheme.remark}</span>}
                </span>
              </label>
            ))}
            {error && (
              <p id={`${id}-error`} className="text-sm text-error">
                {error}
              </p>
            )}
          </fieldset>
          <div>
            <button type="submit" className="btn btn-primary">
              {messages['ordering.next']}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
