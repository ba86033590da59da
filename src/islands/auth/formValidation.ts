/**
 * Form validation in the islands with the same zod schemas the server uses
 * (src/lib/schemas/*.ts), so a field's rule and its localized message are written once.
 * Islands get no i18next: the page passes the `validation.*` and `field.*` messages of its
 * locale as a prop, and `localizeIssues` fills them in here as the server does for its 400s.
 */
import type { z } from 'zod/mini';
import type { ApiEnvelope, FieldError } from '../../lib/apiCodes.ts';
import { format } from '../../lib/api/messages.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import { localizeIssues } from '../../lib/schemas/issues.ts';
import { controlCharacterIssues } from '../../lib/schemas/text.ts';
import type { ValidationMessages } from '../../lib/i18n/formMessages.ts';

// The islands take the messages' type with the form helpers that read them.
export type { ValidationMessages };

/** Per-field messages, keyed by the field's name in the form (`a.b` for nested fields). */
export type FieldErrors = Readonly<Record<string, string>>;

export type Validated<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

function toFieldErrors(list: readonly FieldError[]): FieldErrors {
  const errors: Record<string, string> = {};
  // The first message of a field is the one to fix first; later ones would only repeat it.
  for (const { field, message } of list) errors[field] ??= message;
  return errors;
}

/** Validates `values` with `schema`; on failure, one localized message per field. */
export function validateForm<S extends z.ZodMiniType>(
  schema: S,
  values: unknown,
  messages: ValidationMessages,
): Validated<z.output<S>> {
  // The server's rule, in the same order: control characters first (src/lib/schemas/text.ts).
  const unclean = controlCharacterIssues(values);
  const result = unclean.length ? undefined : schema.safeParse(values);
  if (result?.success) return { ok: true, data: result.data };
  const hasKey = (key: string): key is MessageKey => Object.hasOwn(messages, key);
  const t = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => format(messages[key] ?? key, vars);
  return {
    ok: false,
    errors: toFieldErrors(localizeIssues(result?.error.issues ?? unclean, { input: values, schema, t, hasKey })),
  };
}

/**
 * The field errors of a validation answer (code 400 with `data.errors`), so the server's
 * verdict lands next to the same fields as the browser's would. Empty when there are none.
 */
export function serverFieldErrors(answer: ApiEnvelope<unknown>): FieldErrors {
  const data = answer.data as { errors?: unknown } | null;
  if (!data || !Array.isArray(data.errors)) return {};
  const list = data.errors.filter(
    (item): item is FieldError =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as FieldError).field === 'string' &&
      typeof (item as FieldError).message === 'string',
  );
  return toFieldErrors(list);
}

/** The form's fields as plain strings (every control of these forms is a text input). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/** `errors` with one field's message replaced, or removed when `message` is empty. */
export function withFieldError(errors: FieldErrors, field: string, message: string | undefined): FieldErrors {
  const next: Record<string, string> = {};
  for (const [name, text] of Object.entries(errors)) if (name !== field) next[name] = text;
  if (message) next[field] = message;
  return next;
}

/**
 * A `field.*` text as a label. The dictionaries keep field names in lower case for use inside
 * sentences ("Please enter mobile number"); on its own above an input it starts with a capital.
 */
export function labelCase(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
