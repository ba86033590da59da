/**
 * Build-time only (imported by .astro pages): the messages a form island receives as props. The
 * browser never gets a whole dictionary — only the validation texts and the island's own keys.
 */
import { dictionaries, pick, type MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { isValidationKey, type ValidationMessages } from './formValidation.ts';

/**
 * Messages of the custom rules in the shared schemas (they name their message by key), and the
 * form's own checks.
 */
const customRuleKeys = [
  'auth.samePassword',
  'auth.nothingToChange',
  'account.password.mismatch',
] as const satisfies readonly MessageKey[];

/** Every `validation.*` and `field.*` text of the locale, plus the custom rules' messages. */
export function validationMessages(locale: Locale): ValidationMessages {
  const dictionary = dictionaries[locale];
  const keys = (Object.keys(dictionary) as MessageKey[]).filter(isValidationKey);
  return pick(locale, [...keys, ...customRuleKeys]);
}
