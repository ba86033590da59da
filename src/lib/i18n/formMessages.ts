/**
 * The validation texts a form receives: read at build time by the .astro pages (a form island
 * gets them as props, so the browser never gets a whole dictionary — only the validation texts
 * and the island's own keys) and by the API, which checks the studio's editor form with them.
 */
import { dictionaries, pick, type MessageKey } from './index.ts';
import type { Locale } from './locales.ts';

/** The `validation.*` and `field.*` messages of one locale. */
export type ValidationMessages = Readonly<Record<string, string>>;

/** Which keys of a dictionary a form needs to validate (chosen at build time by the page). */
export function isValidationKey(key: string): boolean {
  return key.startsWith('validation.') || key.startsWith('field.');
}

/**
 * Messages of the custom rules in the shared schemas (they name their message by key), and the
 * form's own checks.
 */
const customRuleKeys = [
  'auth.samePassword',
  'auth.nothingToChange',
  'account.password.mismatch',
  'legal.consentRequired',
] as const satisfies readonly MessageKey[];

/** Every `validation.*` and `field.*` text of the locale, plus the custom rules' messages. */
export function validationMessages(locale: Locale): ValidationMessages {
  const dictionary = dictionaries[locale];
  const keys = (Object.keys(dictionary) as MessageKey[]).filter(isValidationKey);
  return pick(locale, [...keys, ...customRuleKeys]);
}
