/**
 * One rule for both ways of certifying (docs/enterprises.md): submission for the operator's review
 * (editAuthInfo) and bank USB-key certification (getIcbcAccountInfo, saveEmp) need the same
 * complete record, and refuse an incomplete one with the same answer — 400 企业信息不完整，请先
 * 填写：{fields}, the missing fields named by their labels in the caller's locale. The list of
 * fields is `certificationRequiredFields` (src/lib/enterpriseCertification.ts), which the
 * USB-key page also uses to say what is missing before it asks for an account.
 */
import { missingForCertification, type CertificationRecord } from '../../lib/enterpriseCertification.ts';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import { ApiError } from '../apiError.ts';
import { inSentence } from '../../lib/schemas/issues.ts';

/** Throws the 400 that names every required field the record leaves empty; returns when complete. */
export function requireCompleteRecord(locale: Locale, record: CertificationRecord): void {
  const missing = missingForCertification(record);
  if (missing.length === 0) return;
  const fields = missing
    .map((name) => inSentence(t(locale, `field.${name}` as MessageKey)))
    .join(t(locale, 'enterprise.listSeparator'));
  throw ApiError.badRequest('enterprise.error.incomplete', { fields });
}
