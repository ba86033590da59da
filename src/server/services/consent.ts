/**
 * Consent to the user agreement and the privacy policy (docs/privacy.md). The current versions are
 * the published content's (legal/*.md, maintained by editors in the studio). A registration must
 * carry them; each agreement or refusal is kept as evidence (consents: user, document, version,
 * time, address, device). Accounts people registered themselves (individual and enterprise users)
 * owe a new agreement once a new version's effective day has come; staff accounts (operators,
 * editors, partner staff) work under their employer's terms and are not asked.
 */
import { desc, eq } from 'drizzle-orm';
import { chinaDate } from '../../lib/chinaTime.ts';
import type { UserRole } from '../../lib/roles.ts';
import type { ConsentBody, ConsentChange, ConsentOwed } from '../../lib/schemas/consent.ts';
import { legalDocumentIds, type LegalDocument, type LegalDocumentId, type SiteContent } from '../../content/schemas.ts';
import { getLegalDocument } from '../../content/query.ts';
import { ApiError } from '../apiError.ts';
import type { Database } from '../db/client.ts';
import { consents, users, type ConsentDecision, type ConsentOrigin } from '../db/schema/index.ts';
import { revokeSession } from '../session.ts';
import { writeAudit } from './audit.ts';

/** The versions a consent names, by document. */
const versionOf: Record<LegalDocumentId, (body: ConsentBody) => string | undefined> = {
  'user-agreement': (body) => body.userAgreementVersion,
  'privacy-policy': (body) => body.privacyPolicyVersion,
};

/** The roles whose accounts people open themselves: these agree to the documents. */
const consentingRoles: readonly UserRole[] = ['individual', 'enterprise'];

export function owesConsent(roles: readonly UserRole[]): boolean {
  return roles.some((role) => consentingRoles.includes(role));
}

/**
 * Refuses versions other than the published ones (a page read before a new version was published):
 * nothing is written, the visitor reads the new text and agrees again.
 */
export function checkCurrentVersions(content: SiteContent, body: ConsentBody): void {
  for (const documentId of legalDocumentIds) {
    if (versionOf[documentId](body) !== getLegalDocument(content, documentId).version)
      throw ApiError.badRequest('legal.consentOutdated');
  }
}

export interface ConsentRecord {
  userId: number;
  decision: ConsentDecision;
  origin: ConsentOrigin;
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
}

/**
 * One row per document at the given versions, and — when agreed — the versions kept on the user
 * (users.agreed_versions, what the session reads). Run it in the caller's transaction.
 */
export async function recordConsent(
  db: Database,
  versions: Readonly<Record<LegalDocumentId, string>>,
  record: ConsentRecord,
): Promise<void> {
  await db.insert(consents).values(
    legalDocumentIds.map((document) => ({
      ...record,
      document,
      version: versions[document],
      userAgent: record.userAgent?.slice(0, 512) ?? null,
    })),
  );
  if (record.decision === 'agreed')
    await db
      .update(users)
      .set({ agreedVersions: { ...versions } })
      .where(eq(users.id, record.userId));
}

/** What the session knows of a user's consent (SessionUser). */
export interface ConsentingUser {
  roles: readonly UserRole[];
  agreedVersions: Partial<Record<string, string>>;
}

/**
 * A signed-in user's answer to the versions in effect, recorded and audited (`user.consent`); a
 * refusal also ends `endSessionId`, the session it was given in.
 */
export async function decideConsent(
  db: Database,
  versions: Readonly<Record<LegalDocumentId, string>>,
  record: ConsentRecord,
  endSessionId?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await recordConsent(tx, versions, record);
    if (endSessionId !== undefined) await revokeSession(tx, endSessionId);
    await writeAudit(tx, {
      userId: record.userId,
      action: 'user.consent',
      target: `user:${record.userId}`,
      detail: { decision: record.decision, versions },
      ip: record.ip,
    });
  });
}

/** The published versions, by document. */
export function currentVersions(content: SiteContent): Record<LegalDocumentId, string> {
  return Object.fromEntries(legalDocumentIds.map((id) => [id, getLegalDocument(content, id).version])) as Record<
    LegalDocumentId,
    string
  >;
}

/** What currentUser says a user must agree to; undefined when nothing. */
export function consentOwed(user: ConsentingUser, content: SiteContent, shown: SiteContent): ConsentOwed | undefined {
  const changes = owedConsents(user, shown);
  if (changes.length === 0) return undefined;
  const versions = currentVersions(content);
  return {
    changes,
    versions: { userAgreementVersion: versions['user-agreement'], privacyPolicyVersion: versions['privacy-policy'] },
  };
}

/**
 * The documents whose version in effect the user has not agreed to: for a consenting account,
 * each document whose last agreed version is another, once that version's effective day (China
 * time) has come. `shown` is the content in the reader's locale, for titles and changes.
 */
export function owedConsents(user: ConsentingUser, shown: SiteContent, now = new Date()): ConsentChange[] {
  if (!owesConsent(user.roles)) return [];
  const today = chinaDate(now);
  const owed: ConsentChange[] = [];
  for (const documentId of legalDocumentIds) {
    const document: LegalDocument = getLegalDocument(shown, documentId);
    if (document.effective > today || user.agreedVersions[documentId] === document.version) continue;
    owed.push({
      documentId,
      title: document.title,
      version: document.version,
      effective: document.effective,
      changes: document.changes,
    });
  }
  return owed;
}

/** The user's consents, newest first (their personal data, and the evidence). */
export async function consentHistory(db: Database, userId: number) {
  return db
    .select({
      document: consents.document,
      version: consents.version,
      decision: consents.decision,
      origin: consents.origin,
      at: consents.at,
      ip: consents.ip,
      userAgent: consents.userAgent,
    })
    .from(consents)
    .where(eq(consents.userId, userId))
    .orderBy(desc(consents.at), desc(consents.id));
}
