/**
 * The one rule every text input obeys, whatever its field: no control characters and no broken
 * UTF-16. PostgreSQL cannot store U+0000 at all (a NUL would reach it as a 500), and the other C0
 * and C1 controls are invisible in every form, list and export. Tab, line feed and carriage
 * return stay allowed (multi-line text). Checked on the whole input before its schema, by the
 * server (`check` in src/server/validate.ts) and by the forms (`validateForm`), so no call and no
 * form needs to remember it.
 */
import type { z } from 'zod/mini';

/** C0 controls but TAB, LF and CR; DEL; C1 controls. */
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text may be stored and shown as it is. */
export function isCleanText(text: string): boolean {
  return !controlCharacter.test(text) && !loneSurrogate.test(text);
}

/** Values visited at most: far beyond any form, and a bound on a hostile body's cost. */
const visitLimit = 100_000;
/** Issues reported at most: the first few say what to fix. */
const issueLimit = 20;

interface Visit {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Visit | undefined;
}

/** The path of a visit, built only for a flagged value (a deep body would make per-node copies quadratic). */
function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * One `validation.controlChars` issue per string (keys included, and an uploaded file's name)
 * that is not clean text, with the path of the field that holds it. Iterative and bounded, so a
 * deeply nested or huge JSON body costs at most `visitLimit` steps.
 */
export function controlCharacterIssues(input: unknown): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const flag = (visit: Visit) =>
    issues.push({ code: 'custom', path: pathOf(visit), message: 'validation.controlChars', input: undefined });
  const pending: Visit[] = [{ value: input, key: undefined, parent: undefined }];
  for (let visited = 0; pending.length > 0 && visited < visitLimit && issues.length < issueLimit; visited++) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (!isCleanText(value)) flag(visit);
    } else if (typeof File !== 'undefined' && value instanceof File) {
      if (!isCleanText(value.name)) flag(visit);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], key: index, parent: visit });
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index]!;
        const child = { value: item, key, parent: visit };
        if (!isCleanText(key)) flag(child);
        else pending.push(child);
      }
    }
  }
  return issues;
}
