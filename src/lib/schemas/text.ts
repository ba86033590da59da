/**
 * The one rule every text input obeys, whatever its field: no control characters and no broken
 * UTF-16. PostgreSQL cannot store U+0000 at all (a NUL would reach it as a 500), and the other C0
 * and C1 controls are invisible in every form, list and export. Tab, line feed and carriage
 * return stay allowed (multi-line text). Checked on the whole input before its schema, by the
 * server (`check` in src/server/validate.ts) and by the forms (`validateForm`), so no call and no
 * form needs to remember it.
 */
import type { z } from 'zod';

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

/**
 * One `validation.controlChars` issue per string (keys included, and an uploaded file's name)
 * that is not clean text, with the path of the field that holds it. Iterative, so a deeply nested
 * JSON body cannot overflow the stack.
 */
export function controlCharacterIssues(input: unknown): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const pending: { value: unknown; path: PropertyKey[] }[] = [{ value: input, path: [] }];
  for (let visited = 0; pending.length > 0 && visited < visitLimit; visited++) {
    const { value, path } = pending.pop()!;
    const flag = (at: PropertyKey[]) => issues.push({ code: 'custom', path: at, message: 'validation.controlChars', input: undefined });
    if (typeof value === 'string') {
      if (!isCleanText(value)) flag(path);
    } else if (typeof File !== 'undefined' && value instanceof File) {
      if (!isCleanText(value.name)) flag(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (!isCleanText(key)) flag([...path, key]);
        else pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return issues.reverse();
}
