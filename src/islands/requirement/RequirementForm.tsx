import { useEffect, useRef, useState, type ReactNode } from 'react';
import { post } from '../../lib/api/index.ts';
import type { FieldError, ValidationErrorData } from '../../lib/apiCodes.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { formatCount } from '../../lib/i18n/plural.ts';
import { areaCode as storedAreaCode } from '../../stores/area.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import { validateRequirement, valuesOf, type RequirementField, type RequirementMessages } from './requirementForm.ts';

interface Option {
  value: string;
  label: string;
  /** The label's language when it is not the page's (a business type not translated yet: zh-CN). */
  lang?: string | undefined;
}

interface Props {
  locale: Locale;
  messages: RequirementMessages;
  areas: readonly Option[];
  bizTypes: readonly Option[];
  defaultAreaCode: string;
}

const submitUrl = '/api/front/requirement/submitRequirement';

/**
 * The requirement form (需求提交). Server-rendered with every field, so it is complete before any
 * script; it hydrates on intent. Values are the browser's own (uncontrolled inputs), checked on
 * submit with the shared schema; errors sit under their fields, are listed in a summary that
 * takes the focus, and the first wrong field is named by aria-describedby. The server's answer
 * (its own field errors, or its success message) is shown the same way.
 */
export default function RequirementForm({ locale, messages, areas, bizTypes, defaultAreaCode }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLHeadingElement>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  useMountedSignal(rootRef);

  // The region defaults to the visitor's stored choice (the static HTML cannot know it).
  useEffect(() => {
    const select = rootRef.current?.querySelector<HTMLSelectElement>('select[name="areaCode"]');
    const stored = storedAreaCode.get();
    if (select && select.value === defaultAreaCode && areas.some((area) => area.value === stored))
      select.value = stored;
  }, [areas, defaultAreaCode]);

  const errorOf = (name: RequirementField) => errors.find((error) => error.field === name)?.message;

  // Each failed submit moves the focus to the error summary, each success to its heading, once the
  // new state is on screen.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt > 0) summaryRef.current?.focus();
  }, [attempt]);
  useEffect(() => {
    if (success !== null) successRef.current?.focus();
  }, [success]);

  function showErrors(found: FieldError[]) {
    setErrors(found);
    setAttempt((count) => count + 1);
  }

  async function submit(form: HTMLFormElement) {
    if (busy) return;
    const values = valuesOf(form);
    const found = validateRequirement(values, messages);
    if (found.length) return showErrors(found);
    setBusy(true);
    const answer = await post<ValidationErrorData | Record<string, never>>(submitUrl, values, { quiet: true });
    setBusy(false);
    if (!answer) return; // transport fault: the request client has already said so
    if (answer.code === 200) {
      setErrors([]);
      setSuccess(answer.message);
      return;
    }
    const fieldErrors = 'errors' in answer.data ? answer.data.errors : [];
    showErrors(fieldErrors.length ? fieldErrors : [{ field: 'value', message: answer.message }]);
  }

  if (success !== null) {
    return (
      <div ref={rootRef} role="status" className="rounded-box border border-success/40 bg-success/10 p-6">
        <h2 ref={successRef} tabIndex={-1} className="text-xl font-semibold text-success-content/90 focus:outline-none">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="mr-2 inline size-6 text-success"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="m5 12 5 5 9-10" />
          </svg>
          {messages['site.form.successTitle']}
        </h2>
        <p className="mt-2">{success}</p>
        <button type="button" className="btn btn-primary btn-sm mt-4" onClick={() => setSuccess(null)}>
          {messages['site.form.again']}
        </button>
      </div>
    );
  }

  const field = (
    name: RequirementField,
    label: string,
    required: boolean,
    control: (props: Record<string, unknown>) => ReactNode,
  ) => {
    const error = errorOf(name);
    const id = `requirement-${name}`;
    return (
      <div className="fieldset">
        <label className="fieldset-legend" htmlFor={id}>
          {label}
          {required && (
            <span aria-hidden="true" className="text-error">
              {' '}
              *
            </span>
          )}
        </label>
        {control({
          id,
          name,
          required,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
        })}
        {error && (
          <p id={`${id}-error`} className="mt-1 text-sm text-error">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <div ref={rootRef}>
      {errors.length > 0 && (
        <div ref={summaryRef} tabIndex={-1} role="alert" className="alert alert-error mb-6 block">
          <p className="font-semibold">{formatCount(messages, 'site.form.errorSummary', locale, errors.length)}</p>
          <ul className="mt-1 list-disc pl-5">
            {errors.map((error) => (
              <li key={error.field}>
                {error.field === 'value' ? (
                  error.message
                ) : (
                  <a className="underline" href={`#requirement-${error.field}`}>
                    {error.message}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit(event.currentTarget);
        }}
        className="max-w-2xl"
        aria-describedby="requirement-note"
      >
        <p id="requirement-note" className="mb-2 text-sm text-base-content/80">
          {messages['site.form.requiredNote']}
        </p>
        <fieldset className="grid gap-x-6 sm:grid-cols-2">
          <legend className="sr-only">{messages['site.form.legend']}</legend>
          {field('contactName', messages['field.contactName'], true, (props) => (
            <input {...props} type="text" autoComplete="name" maxLength={32} className="input w-full" />
          ))}
          {field('phone', messages['field.phone'], true, (props) => (
            <input
              {...props}
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              maxLength={11}
              className="input w-full"
            />
          ))}
          {field('company', messages['field.company'], false, (props) => (
            <input {...props} type="text" autoComplete="organization" maxLength={100} className="input w-full" />
          ))}
          {field('areaCode', messages['site.area.listLabel'], true, (props) => (
            <select {...props} defaultValue={defaultAreaCode} className="select w-full">
              {areas.map((area) => (
                <option key={area.value} value={area.value}>
                  {area.label}
                </option>
              ))}
            </select>
          ))}
          {field('bizTypeId', messages['field.bizTypeId'], false, (props) => (
            <select {...props} defaultValue="" className="select w-full sm:col-span-2">
              <option value="">{messages['site.form.choose']}</option>
              {bizTypes.map((type) => (
                <option key={type.value} value={type.value} lang={type.lang}>
                  {type.label}
                </option>
              ))}
            </select>
          ))}
          <div className="sm:col-span-2">
            {field('content', messages['field.content'], true, (props) => (
              <textarea {...props} rows={5} maxLength={1000} className="textarea w-full" />
            ))}
          </div>
        </fieldset>
        <button type="submit" className="btn btn-primary mt-4" disabled={busy} aria-busy={busy}>
          {busy ? messages['site.form.submitting'] : messages['site.form.submit']}
        </button>
      </form>
    </div>
  );
}
