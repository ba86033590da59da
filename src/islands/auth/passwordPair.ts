/**
 * The "type it twice" check of the forms that set a password. It is a property of the form, not of
 * the call (the server gets the password once), so it lives here and not in the shared schemas.
 */
import type { FieldErrors } from './formValidation.ts';

export const CONFIRM_FIELD = 'confirmPassword';

/** The mismatch error for the confirmation field, or none. */
export function confirmError(
  values: Readonly<Record<string, string>>,
  passwordField: string,
  mismatchMessage: string,
): FieldErrors {
  const confirm = values[CONFIRM_FIELD] ?? '';
  return confirm === (values[passwordField] ?? '') ? {} : { [CONFIRM_FIELD]: mismatchMessage };
}
