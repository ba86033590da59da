/**
 * The operator's review of certificate certification (/api/ops/certification/approve, return;
 * docs/enterprises.md): only an enterprise under review (1) is reviewed — approved to certified (2)
 * or returned (3) with a comment the owner reads. Each decision is one transaction with its audit
 * row and a notice to the owner; anything else is 409 naming the status, and nothing changes.
 */
import { eq } from 'drizzle-orm';
import { AuthStatusCode } from '../../lib/authStatus.ts';
import type { EnterpriseRevealData, RevealableEnterpriseField } from '../../lib/schemas/enterprise.ts';
import type { Database } from '../db/client.ts';
import { enterprises } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { writeAudit } from './audit.ts';
import { enterpriseById, statusWords, type EnterpriseActor } from './enterpriseView.ts';
import { createNotice } from './notices.ts';

export type ReviewDecision = { decision: 'approve' } | { decision: 'return'; comment: string };

export async function reviewCertification(
  db: Database,
  actor: EnterpriseActor,
  id: number,
  review: ReviewDecision,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await enterpriseById(tx, id, true);
    if (row.authStatus !== AuthStatusCode.UNDER_REVIEW) {
      throw ApiError.conflict('enterprise.error.notUnderReview', { status: statusWords(actor.locale, row.authStatus) });
    }
    const now = new Date();
    const approved = review.decision === 'approve';
    await tx
      .update(enterprises)
      .set(
        approved
          ? {
              authStatus: AuthStatusCode.CERTIFIED,
              authType: 'certificate',
              reviewComment: '',
              reviewedAt: now,
              updatedAt: now,
            }
          : { authStatus: AuthStatusCode.RETURNED, reviewComment: review.comment, reviewedAt: now, updatedAt: now },
      )
      .where(eq(enterprises.id, row.id));
    await writeAudit(tx, {
      userId: actor.user.id,
      action: approved ? 'certification.approve' : 'certification.return',
      target: `enterprise:${row.id}`,
      detail: approved
        ? { enterpriseName: row.enterpriseName }
        : { enterpriseName: row.enterpriseName, comment: review.comment },
      ip: actor.ip,
    });
    await createNotice(tx, {
      userId: row.ownerUserId,
      type: 'notification',
      messageKey: approved ? 'enterprise.notice.approved' : 'enterprise.notice.returned',
      vars: approved
        ? { enterpriseName: row.enterpriseName }
        : { enterpriseName: row.enterpriseName, comment: review.comment },
      ref: `enterprise:${row.id}`,
    });
  });
}

/**
 * POST /api/ops/certification/reveal: one whole number of an enterprise (its contact's mobile, its
 * clearance account) for an operator who must have it — to call the contact, to check the
 * account with the power company's records. Each answer is an `enterprise.reveal` entry of the
 * audit trail, naming the field.
 */
export async function revealEnterpriseField(
  db: Database,
  actor: EnterpriseActor,
  id: number,
  field: RevealableEnterpriseField,
): Promise<EnterpriseRevealData> {
  const row = await enterpriseById(db, id);
  await writeAudit(db, {
    userId: actor.user.id,
    action: 'enterprise.reveal',
    target: `enterprise:${row.id}`,
    detail: { field },
    ip: actor.ip,
  });
  return { field, value: row[field] };
}
