/**
 * Build-time only (imported by .astro pages): the messages of the enterprise and certification
 * islands, and the validation texts of their forms.
 */
import certify from '../../lib/i18n/messages/certify/index.ts';
import { dictionaries, pick, type MessageKey } from '../../lib/i18n/index.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { validationMessages } from '../../lib/i18n/formMessages.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import { sharedCertifyKeys, type CertifyKey, type CertifyMessages } from './certifyMessages.ts';

const certifyKeys = Object.keys(certify['zh-CN']) as CertifyKey[];

export function certifyMessages(locale: Locale): CertifyMessages {
  return pick(locale, [...certifyKeys, ...sharedCertifyKeys]);
}

/**
 * The validation texts of the locale, with the enterprise form's labels: a message names its
 * field by `field.<name>`; where the core dictionary has no such label, the form's own label
 * (`certify.field.<name>`) stands in, so "请输入统一社会信用代码" never becomes "请输入该字段".
 */
export function certifyValidation(locale: Locale): ValidationMessages {
  const dictionary: Readonly<Record<string, string>> = dictionaries[locale];
  const labels: Record<string, string> = {};
  const own: [string, CertifyKey][] = [
    ...certifyKeys.flatMap((key): [string, CertifyKey][] => {
      const name = /^certify\.field\.(\w+)$/.exec(key)?.[1];
      return name ? [[name, key]] : [];
    }),
    ['accountNo', 'certify.usbkey.accountNo'],
    ['pin', 'certify.usbkey.pin'],
    ['empName', 'certify.usbkey.empName'],
    ['empNo', 'certify.usbkey.empNo'],
    ['comment', 'certify.ops.comment'],
  ];
  for (const [name, key] of own) {
    if (dictionary[`field.${name}`] === undefined) labels[`field.${name}`] = dictionary[key] ?? '';
  }
  // Custom rules of the shared schemas name their message by a key of another namespace.
  const custom = (Object.keys(dictionary) as MessageKey[]).filter((key) =>
    /^(enterprise|bank)\.validation\./.test(key),
  );
  return { ...validationMessages(locale), ...labels, ...pick(locale, custom) };
}
