/**
 * The messages the enterprise and certification islands receive as a prop: the `certify.*`
 * namespace plus the shared status words. Types only here, so no dictionary reaches the browser;
 * the pages fill them in at build time (certifyPageMessages.ts).
 */
import type certify from '../../lib/i18n/messages/certify/index.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';

export type CertifyKey = keyof (typeof certify)['zh-CN'];

/** Keys from outside the namespace that every certification island shows. */
export const sharedCertifyKeys = [
  'common.loading',
  'authStatus.0',
  'authStatus.1',
  'authStatus.2',
  'authStatus.3',
  // Joins the labels of a list of fields (the USB-key page's missing fields).
  'enterprise.listSeparator',
] as const satisfies readonly MessageKey[];

export type CertifyMessages = Readonly<Record<CertifyKey | (typeof sharedCertifyKeys)[number], string>>;
