import { useRef, useState } from 'react';
import type { FieldErrors } from './formValidation.ts';
import { focusFirstError } from './signIn.ts';

/**
 * What every account form keeps while it is filled in and sent: its element, its field errors,
 * whether a call is under way, and `fail`, which shows errors and moves focus to the first one.
 */
export function useFormErrors() {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const fail = (next: FieldErrors) => {
    setErrors(next);
    focusFirstError(formRef.current, next);
  };
  return { formRef, errors, setErrors, busy, setBusy, fail };
}
