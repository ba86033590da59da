import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { labelCase } from './formValidation.ts';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  /** Something beside the input on the same row (the SMS button, the captcha image). */
  addon?: ReactNode;
}

/**
 * One labelled input with its hint and its error. Uncontrolled on purpose: the forms read their
 * values with FormData on submit, so text typed before the island hydrates (it hydrates on intent)
 * is never reset by React.
 */
export default function TextField({ name, label, error, hint, addon, className, ...input }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  // The error replaces the hint while there is one, so only one of them describes the input.
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className="fieldset py-1">
      <label htmlFor={id} className="fieldset-legend pb-1 text-sm">
        {labelCase(label)}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          id={id}
          name={name}
          className={['input w-full', error ? 'input-error' : '', className ?? ''].join(' ').trim()}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {addon}
      </div>
      {hint && !error && (
        <p id={hintId} className="label text-xs whitespace-normal">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="label text-xs whitespace-normal text-error">
          {error}
        </p>
      )}
    </div>
  );
}
