/**
 * Consent to the user agreement and the privacy policy (docs/privacy.md). A registration carries
 * the versions the visitor read and agreed to; a signed-in user asked again after a new version
 * took effect agrees (POST /api/front/user/consent) or declines (POST …/declineConsent, which signs
 * them out). The server refuses versions other than the current ones. Pages and server share these.
 */
import { z } from 'zod/mini';
import type { LegalDocumentId } from '../../content/schemas.ts';

/** The checkbox's name on the registration form: where a missing consent is said. */
export const consentField = 'agreement';

const versionSchema = z.string().check(z.trim(), z.maxLength(16));

/** The versions agreed to, as form fields; both, or the object refuses with 'legal.consentRequired'. */
export const consentFields = {
  userAgreementVersion: z.optional(versionSchema),
  privacyPolicyVersion: z.optional(versionSchema),
};

/** Said on the consent checkbox when either version is missing; checked alongside the other fields. */
export const consentGiven = z.refine(
  (value: unknown) => {
    // Run even when other fields failed (`when`), so the value may be anything.
    const given = (value ?? {}) as Record<string, unknown>;
    return Boolean(given['userAgreementVersion'] && given['privacyPolicyVersion']);
  },
  { message: 'legal.consentRequired', path: [consentField], when: () => true, params: { ownMessage: true } },
);

/** POST /api/front/user/consent: the new versions, agreed to. */
export const consentBody = z.object(consentFields).check(consentGiven);
export type ConsentBody = z.input<typeof consentBody>;

/** The versions a form shows (read from the content when the page is built). */
export interface ConsentVersions {
  userAgreementVersion: string;
  privacyPolicyVersion: string;
}

/** What a signed-in user must agree to before going on (currentUser's `consentOwed`). */
export interface ConsentOwed {
  /** The documents whose version in effect they have not agreed to. */
  changes: ConsentChange[];
  /** The current versions of both, which an agreement names. */
  versions: ConsentVersions;
}

/** A document whose current version the signed-in user has not agreed to. */
export interface ConsentChange {
  documentId: LegalDocumentId;
  title: string;
  version: string;
  effective: string;
  /** What changed from the version before. */
  changes: string;
}
