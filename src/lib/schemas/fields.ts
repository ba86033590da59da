/**
 * The rules of single fields, written once and used by the forms (islands) and the server.
 * A field's message comes from `validation.*` with its label `field.<name>` (see issues.ts), so a
 * rule here never carries text; a custom rule names a dictionary key as its message instead.
 *
 * Every shared schema (src/lib/schemas, src/content/schemas.ts) is written with `zod/mini`, zod's
 * tree-shakeable form — functions and `.check(…)` instead of methods — so a page's JavaScript
 * carries only the parts of zod its schemas use, about a third of classic zod
 * (docs/performance.md, "JavaScript on signed-in pages"). The server may put these schemas
 * inside classic ones, and parses them like any other; it cannot call classic methods on them
 * (`z.optional(schema)`, not `schema.optional()`).
 */
import { z } from 'zod/mini';

/**
 * Classic zod's `z.preprocess`, which zod/mini lacks: `rewrite` turns the raw input (a form's
 * '' for "not given", a comma-separated list) into what `schema` then checks. The same pipe as
 * classic's, typed as classic types it (any input; the schema's output).
 */
export function preprocess<S extends z.core.$ZodType>(rewrite: (value: unknown) => unknown, schema: S) {
  type Preprocessed = z.ZodMiniPipe<z.ZodMiniTransform<unknown, unknown>, S>;
  return z.pipe(z.transform(rewrite), schema as z.core.$ZodType<unknown, unknown>) as unknown as Preprocessed;
}

/** Mainland mobile number: 11 digits starting with 13–19. */
export const phonePattern = /^1[3-9]\d{9}$/;
export const phoneSchema = z.string().check(z.regex(phonePattern));

/** GB/T 2260 province-level area code: six digits. */
export const areaCodePattern = /^\d{6}$/;
export const areaCodeSchema = z.string().check(z.regex(areaCodePattern));

/** The spec's default region (Guangdong). */
export const defaultAreaCode = '440000';

/** The largest value of a PostgreSQL `integer` (int4), the type of every id and count column. */
export const int4Max = 2_147_483_647;

/** A record's id as a call names it (query strings are text): a positive int4, never beyond the column. */
export const recordIdSchema = z.coerce.number().check(z.int(), z.positive(), z.lte(int4Max));

/** Six-digit SMS code. */
export const smsCodeSchema = z.string().check(z.regex(/^\d{6}$/));

/** Login name: 4–32 letters, digits or underscores (DOMAIN.md, User). */
export const userNameSchema = z.string().check(z.minLength(4), z.maxLength(32), z.regex(/^[A-Za-z0-9_]+$/));

/** Password: 8–64 characters with at least one letter and one digit (DOMAIN.md, Security). */
export const passwordSchema = z.string().check(
  z.minLength(8),
  z.maxLength(64),
  z.refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), { message: 'validation.passwordChars' }),
);

/** A person's display name. */
export const personNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));

export const emailSchema = z.email().check(z.maxLength(128));

/**
 * An uploaded file (a multipart body's part). Anything else stops here, before the rules about
 * its size or name that callers add with `.check(…)`.
 */
export const uploadedFileSchema = z.custom<File>((value) => value instanceof File, { abort: true });
