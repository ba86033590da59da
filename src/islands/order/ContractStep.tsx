import { useId, type SubmitEvent } from 'react';
import { z } from 'zod/mini';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { createOrderBody, type OrderSchemeParamSnapshot } from '../../lib/schemas/order.ts';
import TextField from '../auth/TextField.tsx';
import { formValues, labelCase, validateForm, type FieldErrors } from '../auth/formValidation.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';
import { startMonths, type WizardMessages } from './orderWizard.ts';
import { schemeConsumption } from './schemeText.ts';

export interface ContractValues {
  contractStart: string;
  contractMonths: string;
  estimatedConsumption: string;
}

interface Props {
  locale: Locale;
  scheme: OrderSchemeParamSnapshot;
  values: ContractValues;
  /** The server's verdict on these fields when the order was refused (400). */
  serverErrors: FieldErrors;
  messages: WizardMessages;
  onBack: () => void;
  onNext: (values: ContractValues) => void;
}

/** The contract's three fields, checked with the order form's shared schema. */
const contractSchema = z.pick(createOrderBody, {
  contractStart: true,
  contractMonths: true,
  estimatedConsumption: true,
});

function SelectField({
  name,
  label,
  hint,
  error,
  options,
  value,
}: {
  name: string;
  label: string;
  hint?: string;
  error?: string | undefined;
  options: { value: string; label: string }[];
  value: string;
}) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="fieldset py-1">
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">
        {labelCase(label)}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        className={`select w-full ${error ? 'select-error' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint && !error && (
        <p id={`${id}-hint`} className="label text-xs whitespace-normal">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="label text-xs whitespace-normal text-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Step 2: when the contract starts, how long it runs, how much the enterprise expects to use. */
export default function ContractStep({ locale, scheme, values, serverErrors, messages, onBack, onNext }: Props) {
  const { formRef, errors, fail } = useFormErrors();
  const shown = Object.keys(errors).length > 0 ? errors : serverErrors;
  const months = startMonths();

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entered = formValues(event.currentTarget);
    const checked = validateForm(contractSchema, entered, messages);
    if (!checked.ok) {
      fail(checked.errors);
      return;
    }
    onNext({
      contractStart: entered.contractStart ?? '',
      contractMonths: entered.contractMonths ?? '',
      estimatedConsumption: String(checked.data.estimatedConsumption),
    });
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="grid max-w-xl gap-2">
      <SelectField
        name="contractStart"
        label={messages['field.contractStart']}
        hint={messages['ordering.field.contractStartHint']}
        error={shown.contractStart}
        value={months.includes(values.contractStart) ? values.contractStart : (months[0] ?? '')}
        options={months.map((month) => ({ value: month, label: month }))}
      />
      <SelectField
        name="contractMonths"
        label={messages['field.contractMonths']}
        error={shown.contractMonths}
        value={
          scheme.contractMonths.map(String).includes(values.contractMonths)
            ? values.contractMonths
            : String(scheme.contractMonths[0] ?? '')
        }
        options={scheme.contractMonths.map((count) => ({
          value: String(count),
          label: format(messages['ordering.field.monthsOption'], { months: count }),
        }))}
      />
      <TextField
        name="estimatedConsumption"
        label={`${messages['field.estimatedConsumption']} (MWh)`}
        type="number"
        inputMode="decimal"
        min={0}
        step="0.001"
        required
        defaultValue={values.estimatedConsumption}
        hint={format(messages['ordering.field.estimatedConsumptionHint'], {
          range: schemeConsumption(scheme, locale, messages),
        })}
        error={shown.estimatedConsumption}
      />
      <div className="mt-4 flex gap-2">
        <button type="button" className="btn" onClick={onBack}>
          {messages['ordering.back']}
        </button>
        <button type="submit" className="btn btn-primary">
          {messages['ordering.next']}
        </button>
      </div>
    </form>
  );
}
