/**
 * What both ways of certifying an enterprise share (docs/enterprises.md), used by the server and
 * the pages alike:
 *
 * - the complete record a certification needs, whichever way it goes: submission for the
 *   operator's review (enterpriseuser/editAuthInfo) and bank USB-key certification
 *   (getIcbcAccountInfo, saveEmp) refuse a record with one of these fields empty, with the same
 *   400 企业信息不完整，请先填写：{fields}; the USB-key page shows the same list before it asks
 *   for an account number;
 * - the answer of GET /api/front/thirdparty/getUsbKeyBank: which bank is behind USB-key
 *   certification, so the page can say "demo sandbox bank" or "not available".
 */
import type { EnterpriseFieldName } from './schemas/enterprise.ts';

/** The fields a certification needs, in the order the refusal names them. */
export const certificationRequiredFields = [
  'creditCode',
  'legalPerson',
  'contactName',
  'contactPhone',
  'address',
  'industry',
  'areaCode',
  'clearanceAccount',
  'voltageLevel',
  'electricityAccounts',
] as const satisfies readonly EnterpriseFieldName[];

export type CertificationRequiredField = (typeof certificationRequiredFields)[number];

/** The record as the database row and the EnterpriseData answer both hold it. */
export type CertificationRecord = {
  readonly [K in Exclude<CertificationRequiredField, 'electricityAccounts'>]: string | null;
} & { readonly electricityAccounts: readonly string[] };

/** The required fields this record leaves empty (blank counts as empty); empty when complete. */
export function missingForCertification(record: CertificationRecord): CertificationRequiredField[] {
  return certificationRequiredFields.filter((name) => {
    if (name === 'electricityAccounts') return record.electricityAccounts.length === 0;
    const value = record[name];
    return value === null || value.trim() === '';
  });
}

/**
 * GET /api/front/thirdparty/getUsbKeyBank: the bank behind USB-key certification (BANK_PROVIDER).
 * `sandbox`: the local stand-in bank of demo mode, which certifies anyone holding a sandbox
 * account's name with the demo PIN; `none`: USB-key certification is not offered.
 */
export interface UsbKeyBankData {
  provider: 'sandbox' | 'none';
  /** Whether USB-key certification can be used at all (false with `none`). */
  available: boolean;
  /** Demo mode: the sandbox bank, not a real one. */
  sandbox: boolean;
  /** The sandbox keys' demo PIN; null unless `sandbox`. */
  demoPin: string | null;
}
