/**
 * The requirement form's logic apart from its React shell: the messages it needs, and the
 * validation of its values with the very schema the server uses (submitRequirementBody), with
 * the same localized messages the server would answer (lib/schemas/issues.ts).
 */
import { format } from '../../lib/api/index.ts';
import type { FieldError } from '../../lib/apiCodes.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import { countKeys } from '../../lib/i18n/plural.ts';
import { localizeIssues } from '../../lib/schemas/issues.ts';
import { controlCharacterIssues } from '../../lib/schemas/text.ts';
import { submitRequirementBody, type SubmitRequirementBody } from '../../lib/schemas/requirement.ts';

export const requirementFieldNames = ['contactName', 'phone', 'company', 'areaCode', 'bizTypeId', 'content'] as const;
export type RequirementField = (typeof requirementFieldNames)[number];

export const requirementMessageKeys = [
  'field.value',
  'field.contactName',
  'field.phone',
  'field.company',
  'field.areaCode',
  'field.bizTypeId',
  'field.content',
  'validation.default',
  'validation.required',
  'validation.whitespace',
  'validation.controlChars',
  'validation.pattern',
  'validation.enum',
  'validation.type',
  'validation.typeName.string',
  'validation.string.len',
  'validation.string.min',
  'validation.string.max',
  'validation.string.range',
  'site.area.listLabel',
  'site.form.legend',
  'site.form.requiredNote',
  'site.form.choose',
  'site.form.submit',
  'site.form.submitting',
  ...countKeys('site.form.errorSummary'),
  'site.form.successTitle',
  'site.form.again',
] as const satisfies readonly MessageKey[];

export type RequirementMessages = Record<(typeof requirementMessageKeys)[number], string>;

/** The form's values as the browser holds them (FormData entries are strings). */
export type RequirementValues = Record<RequirementField, string>;

export function valuesOf(form: HTMLFormElement): RequirementValues {
  const data = new FormData(form);
  return Object.fromEntries(
    requirementFieldNames.map((name) => [name, String(data.get(name) ?? '')]),
  ) as RequirementValues;
}

/** Field errors in the visitor's language, in the form's field order; empty when valid. */
export function validateRequirement(values: RequirementValues, messages: RequirementMessages): FieldError[] {
  const input: SubmitRequirementBody = values;
  const unclean = controlCharacterIssues(input);
  const result = unclean.length ? undefined : submitRequirementBody.safeParse(input);
  if (result?.success) return [];
  const known = new Set<string>(requirementMessageKeys);
  const errors = localizeIssues(result?.error.issues ?? unclean, {
    input,
    schema: submitRequirementBody,
    t: (key, vars) =>
      format(known.has(key) ? messages[key as keyof RequirementMessages] : messages['validation.default'], vars),
    hasKey: (key): key is MessageKey => known.has(key),
  });
  // One message per field, the first the schema reports.
  const byField = new Map<string, FieldError>();
  for (const error of errors) if (!byField.has(error.field)) byField.set(error.field, error);
  return requirementFieldNames.flatMap((name) => byField.get(name) ?? []);
}
