/**
 * What the portal holds about the signed-in person (PIPL art. 45, GB/T 35273-2020 8.1 and 8.6):
 * GET /api/front/user/personalData answers it, GET /api/front/user/personalData/download gives a
 * copy as JSON or xlsx. Pages and server share these types (docs/privacy.md).
 */
import { z } from 'zod/mini';
import { preprocess } from './fields.ts';
import type { SessionData } from './account.ts';
import type { EnterpriseData } from './enterprise.ts';

export const personalDataFormats = ['json', 'xlsx'] as const;
export type PersonalDataFormat = (typeof personalDataFormats)[number];

/** GET /api/front/user/personalData/download?format=json|xlsx (json when omitted). */
export const personalDataDownloadQuery = z.object({
  format: preprocess((value) => (value === '' || value === undefined ? 'json' : value), z.enum(personalDataFormats)),
});

export interface PersonalAccount {
  userId: number;
  userName: string;
  name: string;
  /** The person's own number, whole: it is theirs. */
  mobile: string;
  email: string;
  roles: string[];
  createdAt: string;
}

export interface PersonalOrder {
  orderNo: string;
  setName: string;
  orgComName: string;
  status: number;
  contractStart: string;
  contractMonths: number;
  estimatedConsumption: string;
  createdAt: string;
}

export interface PersonalNotice {
  type: string;
  title: string;
  description: string;
  createdAt: string;
  read: boolean;
}

/** A sign-in (or a refused one) from the audit trail. */
export interface PersonalSignIn {
  at: string;
  succeeded: boolean;
  ip: string | null;
  method: string;
}

/** An agreement to (or refusal of) a version of the user agreement or privacy policy. */
export interface PersonalConsent {
  document: string;
  version: string;
  decision: string;
  at: string;
  ip: string | null;
}

export interface PersonalData {
  generatedAt: string;
  account: PersonalAccount;
  /** The enterprise the person owns, as its owner's record page reads it. */
  enterprise: EnterpriseData | null;
  orders: PersonalOrder[];
  notices: PersonalNotice[];
  /** The last 180 days, newest first, at most 100. */
  signIns: PersonalSignIn[];
  sessions: SessionData[];
  /** Newest first. */
  consents: PersonalConsent[];
}
