import { useId, type SelectHTMLAttributes } from 'react';
import { labelCase } from '../auth/formValidation.ts';

export interface Option {
  value: string;
  label: string;
}

interface Props extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> {
  name: string;
  label: string;
  options: readonly Option[];
  /** The empty first choice ("请选择"). */
  placeholder: string;
  error?: string | undefined;
}

/** One labelled list choice with its error; the counterpart of auth/TextField for lists. */
export default function SelectField({ name, label, options, placeholder, error, className, ...select }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="fieldset py-1">
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">
        {labelCase(label)}
      </label>
      <select
        id={id}
        name={name}
        className={['select w-full', error ? 'select-error' : '', className ?? ''].join(' ').trim()}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} className="label text-xs whitespace-normal text-error">
          {error}
        </p>
      )}
    </div>
  );
}
