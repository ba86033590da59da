/** The two-step verification card's calls and the recovery-code file (docs/accounts.md, "Two-step verification"). */
export const SECOND_FACTOR_URL = '/api/front/user/secondFactor';
export const ENROL_SECOND_FACTOR_URL = '/api/front/user/enrolSecondFactor';
export const CONFIRM_SECOND_FACTOR_URL = '/api/front/user/confirmSecondFactor';
export const VERIFY_SECOND_FACTOR_URL = '/api/front/user/verifySecondFactor';
export const DISABLE_SECOND_FACTOR_URL = '/api/front/user/disableSecondFactor';
export const REGENERATE_RECOVERY_CODES_URL = '/api/front/user/regenerateRecoveryCodes';

/** The card's element id: the session gate and the request client link to it (src/lib/secondFactorDemand.ts). */
export const secondFactorCardId = 'second-factor';

export const recoveryCodesFileName = 'hgd-recovery-codes.txt';

/** The downloaded file: a heading line, a blank line, one code a line (CRLF, for every editor). */
export function recoveryCodesFile(heading: string, codes: readonly string[]): string {
  return [heading, '', ...codes, ''].join('\r\n');
}
