import { useState, type SubmitEvent } from 'react';
import { message } from '../../lib/api/notify.ts';
import {
  enterpriseAddBody,
  enterpriseDraftBody,
  enterpriseEditBody,
  type EnterpriseData,
} from '../../lib/schemas/enterprise.ts';
import SubmitButton from '../auth/SubmitButton.tsx';
import TextField from '../auth/TextField.tsx';
import { postForm } from '../auth/formCall.ts';
import { formValues, validateForm, type ValidationMessages } from '../auth/formValidation.ts';
import { useFormErrors } from '../auth/useFormErrors.ts';
import SelectField, { type Option } from './SelectField.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import { ENTERPRISE_ADD_URL, ENTERPRISE_DRAFT_URL, ENTERPRISE_EDIT_URL } from './enterpriseCalls.ts';

/** The lists the form chooses from, filled in at build time from the content (regions, industries, voltage levels). */
export interface EnterpriseOptions {
  areas: readonly Option[];
  industries: readonly Option[];
  voltageLevels: readonly Option[];
}

interface Props {
  /** The record to edit; none: the form creates the user's enterprise. */
  enterprise?: EnterpriseData | undefined;
  options: EnterpriseOptions;
  messages: CertifyMessages;
  validation: ValidationMessages;
  onSaved: (enterprise: EnterpriseData) => void;
  onCancel?: (() => void) | undefined;
}

type Intent = 'save' | 'draft';

/**
 * The enterprise record as a form: create (add), edit (edit) or keep a draft (temporarySave).
 * Each is checked with the call's own shared schema before it is sent, so the field errors are
 * the server's; a draft checks only what was filled in. Values go as the strings typed (the
 * schemas split the electricity accounts and read the number themselves).
 */
export default function EnterpriseForm({ enterprise, options, messages, validation, onSaved, onCancel }: Props) {
  const { formRef, errors, setErrors, busy, setBusy, fail } = useFormErrors();
  const [intent, setIntent] = useState<Intent>('save');
  const m = messages;

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const submitter = (event.nativeEvent as { submitter?: unknown }).submitter;
    const chosen: Intent = submitter instanceof HTMLButtonElement && submitter.value === 'draft' ? 'draft' : 'save';
    setIntent(chosen);
    const values: Record<string, string> = formValues(event.currentTarget);
    const id = enterprise ? { id: String(enterprise.id) } : {};
    let url: string;
    let body: Record<string, string>;
    if (chosen === 'draft') {
      // Only what was filled in: an empty field of a draft keeps its saved value.
      body = { ...id, ...Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== '')) };
      const checked = validateForm(enterpriseDraftBody, body, validation);
      if (!checked.ok) return fail(checked.errors);
      url = ENTERPRISE_DRAFT_URL;
    } else {
      body = { ...id, ...values };
      const checked = validateForm(enterprise ? enterpriseEditBody : enterpriseAddBody, body, validation);
      if (!checked.ok) return fail(checked.errors);
      url = enterprise ? ENTERPRISE_EDIT_URL : ENTERPRISE_ADD_URL;
    }
    setErrors({});
    setBusy(true);
    const answer = await postForm<EnterpriseData>(url, body);
    setBusy(false);
    if (answer?.ok) {
      message.success(
        chosen === 'draft'
          ? m['certify.record.draftSaved']
          : enterprise
            ? m['certify.record.saved']
            : m['certify.record.created'],
      );
      onSaved(answer.data);
    } else if (answer) {
      fail(answer.errors);
    }
  };

  const certified = enterprise?.authStatus === 2;
  const field = (name: string) => m[`certify.field.${name}` as keyof CertifyMessages];
  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
      {certified && (
        <p role="note" className="alert alert-warning mb-2 text-sm">
          {m['certify.record.coreFieldsNote']}
        </p>
      )}
      <div className="grid gap-x-6 md:grid-cols-2">
        <TextField
          name="enterpriseName"
          label={field('enterpriseName')}
          defaultValue={enterprise?.enterpriseName ?? ''}
          maxLength={100}
          required
          error={errors['enterpriseName']}
        />
        <TextField
          name="creditCode"
          label={field('creditCode')}
          defaultValue={enterprise?.creditCode ?? ''}
          maxLength={22}
          autoCapitalize="characters"
          spellCheck={false}
          required
          error={errors['creditCode']}
          hint={m['certify.form.creditCodeHint']}
        />
        <TextField
          name="legalPerson"
          label={field('legalPerson')}
          defaultValue={enterprise?.legalPerson ?? ''}
          maxLength={64}
          required
          error={errors['legalPerson']}
        />
        <TextField
          name="contactName"
          label={field('contactName')}
          defaultValue={enterprise?.contactName ?? ''}
          maxLength={64}
          autoComplete="name"
          required
          error={errors['contactName']}
        />
        <TextField
          name="contactPhone"
          type="tel"
          label={field('contactPhone')}
          defaultValue={enterprise?.contactPhone ?? ''}
          maxLength={11}
          inputMode="numeric"
          autoComplete="tel"
          required
          error={errors['contactPhone']}
        />
        <TextField
          name="clearanceAccount"
          label={field('clearanceAccount')}
          defaultValue={enterprise?.clearanceAccount ?? ''}
          maxLength={32}
          spellCheck={false}
          required
          error={errors['clearanceAccount']}
        />
        <SelectField
          name="areaCode"
          label={field('areaCode')}
          options={options.areas}
          placeholder={m['certify.common.select']}
          defaultValue={enterprise?.areaCode ?? ''}
          required
          error={errors['areaCode']}
        />
        <SelectField
          name="industry"
          label={field('industry')}
          options={options.industries}
          placeholder={m['certify.common.select']}
          defaultValue={enterprise?.industry ?? ''}
          required
          error={errors['industry']}
        />
        <SelectField
          name="voltageLevel"
          label={field('voltageLevel')}
          options={options.voltageLevels}
          placeholder={m['certify.common.select']}
          defaultValue={enterprise?.voltageLevel ?? ''}
          required
          error={errors['voltageLevel']}
        />
        <TextField
          name="annualConsumption"
          type="number"
          label={field('annualConsumption')}
          defaultValue={enterprise?.annualConsumption ?? ''}
          min={0}
          step="0.001"
          inputMode="decimal"
          error={errors['annualConsumption']}
        />
        <TextField
          name="partnerCode"
          label={field('partnerCode')}
          defaultValue={enterprise?.partnerCode ?? ''}
          maxLength={32}
          autoCapitalize="characters"
          spellCheck={false}
          error={errors['partnerCode']}
          hint={m['certify.form.partnerCodeHint']}
        />
      </div>
      <TextField
        name="address"
        label={field('address')}
        defaultValue={enterprise?.address ?? ''}
        maxLength={200}
        autoComplete="street-address"
        required
        error={errors['address']}
      />
      <TextField
        name="electricityAccounts"
        label={field('electricityAccounts')}
        defaultValue={enterprise?.electricityAccounts.join(', ') ?? ''}
        spellCheck={false}
        required
        error={errors['electricityAccounts']}
        hint={m['certify.form.accountsHint']}
      />
      <p className="mt-2 text-xs text-muted">{m['certify.form.draftHint']}</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <SubmitButton
          busy={busy && intent === 'save'}
          label={enterprise ? m['certify.form.save'] : m['certify.form.create']}
          busyLabel={m['certify.form.saving']}
          className="btn btn-primary"
        />
        <button
          type="submit"
          name="intent"
          value="draft"
          className="btn"
          disabled={busy}
          aria-busy={busy && intent === 'draft'}
        >
          {busy && intent === 'draft' && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy && intent === 'draft' ? m['certify.form.saving'] : m['certify.form.saveDraft']}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
            {m['certify.common.cancel']}
          </button>
        )}
      </div>
    </form>
  );
}
