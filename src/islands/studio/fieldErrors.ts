/**
 * The item editor's errors as the editor fixes them. A save shows every problem at its field;
 * from then on each change re-checks the errors still shown with the kind's own schema (the
 * build's, through validateForm — no second set of rules here): an error whose field is now
 * valid goes, one still invalid for another reason shows that reason, and no error appears at a
 * field the editor has not been told about yet (that waits for the next save). Errors only the
 * server can judge (a Markdown field it cannot render, a refused upload, a taken id) go when
 * their own field changes.
 */
import type { FieldErrors } from '../auth/formValidation.ts';
import { pathName, type FieldPath } from '../../lib/studio/formModel.ts';

/** Whether a change at `changed` is a change of `field`: the field itself, a part of it, or a whole it is part of. */
export function changesField(changed: string, field: string): boolean {
  return field === changed || changed === '' || field.startsWith(`${changed}.`) || changed.startsWith(`${field}.`);
}

/**
 * The errors after the data changed at `changed`. `check` re-checks the changed data (called
 * only when a shown error is the schema's); `serverOnly` names the shown errors the schema
 * cannot judge.
 */
export function recheckedErrors(
  errors: FieldErrors,
  changed: FieldPath,
  check: () => FieldErrors,
  serverOnly: ReadonlySet<string> = new Set(),
): FieldErrors {
  const fields = Object.keys(errors);
  if (fields.length === 0) return errors;
  const at = pathName(changed);
  let fresh: FieldErrors | undefined;
  const next: Record<string, string> = {};
  for (const field of fields) {
    const message = errors[field] ?? '';
    if (serverOnly.has(field)) {
      if (!changesField(at, field)) next[field] = message;
      continue;
    }
    // Every schema error is re-checked, not only the changed field's: a rule comparing two
    // fields (validTo after validFrom) is reported at one of them and fixed at the other.
    fresh ??= check();
    const now = fresh[field];
    if (now) next[field] = now;
  }
  const same = Object.keys(next).length === fields.length && fields.every((field) => next[field] === errors[field]);
  return same ? errors : next;
}
