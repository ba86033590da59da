/**
 * Enterprises and binding (spec §3 "Binding"; DOMAIN.md, Enterprise and Roles). Binding links the
 * logged-in user to the enterprise of a clearance account — found, or created with the given name
 * and auth status 0 — and gives the `enterprise` role. Certification (certificationReview.ts) fills in the rest.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { enterprises, users } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { checkSmsCode, consumeSmsCode } from '../sms/codes.ts';
import type { SessionUser } from '../types.ts';
import { writeAudit } from './audit.ts';

export interface BindInput {
  userId: number;
  userName: string;
  mobile: string;
  code: string;
  clearanceAccount: string;
  enterpriseName: string;
  ip: string | null;
}

/** Binds `user` to an enterprise; returns the enterprise id. */
export async function bindEnterprise(db: Database, user: SessionUser, input: BindInput): Promise<number> {
  // The form names the account it binds; it must be the one logged in, with its own phone.
  if (
    input.userId !== user.id ||
    input.userName.toLowerCase() !== user.userName.toLowerCase() ||
    input.mobile !== user.mobile
  ) {
    throw ApiError.forbidden('auth.notYourAccount');
  }
  const codeId = await checkSmsCode(db, { phone: input.mobile, purpose: 'binding', code: input.code });
  const clearanceAccount = input.clearanceAccount.trim();
  try {
    return await db.transaction(async (tx) => {
      await consumeSmsCode(tx, codeId);
      const [own] = await tx
        .select({ id: enterprises.id, clearanceAccount: enterprises.clearanceAccount })
        .from(enterprises)
        .where(eq(enterprises.ownerUserId, user.id))
        .limit(1);
      if (own && own.clearanceAccount !== clearanceAccount) throw ApiError.conflict('auth.alreadyBound');
      let enterpriseId = own?.id;
      if (enterpriseId === undefined) {
        const [existing] = await tx
          .select({ id: enterprises.id })
          .from(enterprises)
          .where(eq(enterprises.clearanceAccount, clearanceAccount))
          .limit(1);
        if (existing) throw ApiError.conflict('auth.clearanceTaken');
        const [created] = await tx
          .insert(enterprises)
          .values({
            ownerUserId: user.id,
            enterpriseName: input.enterpriseName,
            clearanceAccount,
            contactName: user.name,
            contactPhone: user.mobile,
          })
          .returning({ id: enterprises.id });
        enterpriseId = created!.id;
      }
      // An individual becomes an enterprise user; other roles (partner, operator) stay.
      await tx
        .update(users)
        .set({
          roles: sql`array(select distinct r from unnest(array_remove(${users.roles}, 'individual') || array['enterprise']::text[]) as r order by 1)`,
        })
        .where(eq(users.id, user.id));
      await writeAudit(tx, {
        userId: user.id,
        action: 'enterprise.bind',
        target: `enterprise:${enterpriseId}`,
        ip: input.ip,
      });
      return enterpriseId;
    });
  } catch (error) {
    // Two binds raced for one clearance account (or one user): the loser is told, nothing kept.
    if (isUniqueViolation(error)) throw ApiError.conflict('auth.clearanceTaken');
    throw error;
  }
}
