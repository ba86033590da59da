/**
 * The rules of single fields, written once and used by the forms (islands) and the server.
 * A field's message comes from `validation.*` with its label `field.<name>` (see issues.ts), so a
 * rule here never carries text; a custom rule names a dictionary key as its message instead.
 */
import { z } from 'zod';

/** Mainland mobile number: 11 digits starting with 13–19. */
export const phonePattern = /^1[3-9]\d{9}$/;
export const phoneSchema = z.string().regex(phonePattern);

/** GB/T 2260 province-level area code: six digits. */
export const areaCodePattern = /^\d{6}$/;
export const areaCodeSchema = z.string().regex(areaCodePattern);

/** The spec's default region (Guangdong). */
export const defaultAreaCode = '440000';

/** The largest value of a PostgreSQL `integer` (int4), the type of every id and count column. */
export const int4Max = 2_147_483_647;

/** A record's id as a call names it (query strings are text): a positive int4, never beyond the column. */
export const recordIdSchema = z.coerce.number().int().positive().max(int4Max);

/** Six-digit SMS code. */
export const smsCodeSchema = z.string().regex(/^\d{6}$/);

/** Login name: 4–32 letters, digits or underscores (DOMAIN.md, User). */
export const userNameSchema = z
  .string()
  .min(4)
  .max(32)
  .regex(/^[A-Za-z0-9_]+$/);

/** Password: 8–64 characters with at least one letter and one digit (DOMAIN.md, Security). */
export const passwordSchema = z
  .string()
  .min(8)
  .max(64)
  .refine((value) => /[A-Za-z]/.test(value) && /\d/.test(value), {
    message: 'validation.passwordChars',
  });

/** A person's display name. */
export const personNameSchema = z.string().trim().min(1).max(64);

export const emailSchema = z.email().max(128);
