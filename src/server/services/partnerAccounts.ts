/**
 * Staff relations to partner institutions (DOMAIN.md, Partner account relation; docs/partner.md,
 * Calls): list an institution's staff, relate a user by login name with a staff number (工号), end
 * a relation. A partner user acts within its scope (anything else is the partner 404); an administrator
 * acts on any institution. A relation gives the `partner` role, the last one removed takes it away;
 * both are audited, each write in one transaction.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { ApiCode } from '../../lib/apiCodes.ts';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import type { PartnerAccountData } from '../../lib/schemas/partner.ts';
import type { Database } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { partnerAccounts, partnerInstitutions, users } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { maskMobile } from '../../lib/masking.ts';
import { writeAudit } from './audit.ts';
import { inScope, partnerNotFound, type PartnerScope } from './partnerScope.ts';
import { becomingStaffFields } from './staffPasswords.ts';

/** Who is acting: a partner user within its scope, or an administrator (scope `null`: everything). */
export interface RelationActor {
  /** Null for the command line (`npm run user`), which acts as nobody signed in. */
  userId: number | null;
  scope: PartnerScope | null;
  ip: string | null;
  locale: Locale;
  /** How the change was made, kept in its audit row (`cli`: the command line; `ops`: /ops/staff). */
  via?: 'cli' | 'ops';
}

/** The institution exists and the actor may see it; else the partner 404 (the same for both). */
export async function requirePartnerVisible(db: Database, actor: RelationActor, partnerId: number): Promise<void> {
  if (actor.scope) {
    if (!inScope(actor.scope, partnerId)) throw partnerNotFound();
    return;
  }
  const [row] = await db
    .select({ id: partnerInstitutions.id })
    .from(partnerInstitutions)
    .where(eq(partnerInstitutions.id, partnerId));
  if (!row) throw partnerNotFound();
}

/** An error shown at one form field with its own code (404 unknown user, 409 taken). */
function fieldError(locale: Locale, code: number, field: string, key: MessageKey): ApiError {
  const text = t(locale, key);
  return new ApiError(code, key, undefined, { errors: [{ field, message: text }] }, text);
}

const accountFields = {
  id: partnerAccounts.id,
  partnerId: partnerAccounts.partnerId,
  userId: partnerAccounts.userId,
  userName: users.userName,
  name: users.name,
  mobile: users.mobile,
  empId: partnerAccounts.empId,
  createdAt: partnerAccounts.createdAt,
};

function accountData(
  row: {
    id: number;
    partnerId: number;
    userId: number;
    userName: string;
    name: string;
    mobile: string;
    empId: string;
    createdAt: Date;
  },
  viewerId: number | null,
): PartnerAccountData {
  return {
    id: row.id,
    partnerId: row.partnerId,
    userId: row.userId,
    userName: row.userName,
    name: row.name,
    mobile: maskMobile(row.mobile),
    empId: row.empId,
    createdAt: row.createdAt.toISOString(),
    self: row.userId === viewerId,
  };
}

/** The staff related to one institution (by staff number), or with `partnerId` absent the viewer's own relations. */
export async function partnerAccountsOf(
  db: Database,
  viewerId: number,
  partnerId: number | null,
): Promise<PartnerAccountData[]> {
  const rows = await db
    .select(accountFields)
    .from(partnerAccounts)
    .innerJoin(users, eq(users.id, partnerAccounts.userId))
    .where(partnerId === null ? eq(partnerAccounts.userId, viewerId) : eq(partnerAccounts.partnerId, partnerId))
    .orderBy(asc(partnerAccounts.empId), asc(partnerAccounts.id));
  return rows.map((row) => accountData(row, viewerId));
}

/** Relates the user named `userName` to `partnerId` with `empId`; answers the new relation. */
export async function addRelation(
  db: Database,
  actor: RelationActor,
  input: { partnerId: number; userName: string; empId: string },
): Promise<PartnerAccountData> {
  await requirePartnerVisible(db, actor, input.partnerId);
  try {
    const id = await db.transaction(async (tx) => {
      const [target] = await tx
        .select({ id: users.id, roles: users.roles })
        .from(users)
        .where(sql`lower(${users.userName}) = lower(${input.userName})`)
        .limit(1);
      if (!target) throw fieldError(actor.locale, ApiCode.NOT_FOUND, 'userName', 'partner.userNotFound');
      const [existing] = await tx
        .select({ userId: partnerAccounts.userId, empId: partnerAccounts.empId })
        .from(partnerAccounts)
        .where(
          and(
            eq(partnerAccounts.partnerId, input.partnerId),
            sql`(${partnerAccounts.userId} = ${target.id} or ${partnerAccounts.empId} = ${input.empId})`,
          ),
        )
        .orderBy(sql`${partnerAccounts.userId} = ${target.id} desc`)
        .limit(1);
      if (existing?.userId === target.id)
        throw fieldError(actor.locale, ApiCode.CONFLICT, 'userName', 'partner.alreadyRelated');
      if (existing) throw fieldError(actor.locale, ApiCode.CONFLICT, 'empId', 'partner.empIdTaken');
      const [created] = await tx
        .insert(partnerAccounts)
        .values({ userId: target.id, partnerId: input.partnerId, empId: input.empId, createdByUserId: actor.userId })
        .returning({ id: partnerAccounts.id });
      // Other roles (individual, enterprise, any staff role) stay: staff may also run an enterprise.
      await tx
        .update(users)
        .set({
          roles: sql`array(select distinct r from unnest(${users.roles} || array['partner']::text[]) as r order by 1)`,
          ...becomingStaffFields(target.roles),
        })
        .where(eq(users.id, target.id));
      await writeAudit(tx, {
        userId: actor.userId,
        action: 'partner.relationAdd',
        target: `partner:${input.partnerId}`,
        detail: {
          relationId: created!.id,
          userId: target.id,
          empId: input.empId,
          ...(actor.via ? { via: actor.via } : {}),
        },
        ip: actor.ip,
      });
      return created!.id;
    });
    const [row] = await db
      .select(accountFields)
      .from(partnerAccounts)
      .innerJoin(users, eq(users.id, partnerAccounts.userId))
      .where(eq(partnerAccounts.id, id));
    return accountData(row!, actor.userId);
  } catch (error) {
    // Two requests raced past the checks: the unique indexes decided; answer as the checks would.
    if (isUniqueViolation(error)) {
      const [related] = await db
        .select({ id: partnerAccounts.id })
        .from(partnerAccounts)
        .innerJoin(users, eq(users.id, partnerAccounts.userId))
        .where(
          and(eq(partnerAccounts.partnerId, input.partnerId), sql`lower(${users.userName}) = lower(${input.userName})`),
        );
      throw related
        ? fieldError(actor.locale, ApiCode.CONFLICT, 'userName', 'partner.alreadyRelated')
        : fieldError(actor.locale, ApiCode.CONFLICT, 'empId', 'partner.empIdTaken');
    }
    throw error;
  }
}

/**
 * Ends relation `id`. Nobody removes their own (someone else must, so an institution is never left
 * without the person who could fix it by mistake); the `partner` role goes with the user's last
 * relation, and nothing else ends (sessions stay; the next call checks the role).
 */
export async function deleteRelation(db: Database, actor: RelationActor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [relation] = await tx
      .select({
        id: partnerAccounts.id,
        userId: partnerAccounts.userId,
        partnerId: partnerAccounts.partnerId,
        empId: partnerAccounts.empId,
      })
      .from(partnerAccounts)
      .where(eq(partnerAccounts.id, id))
      .for('update');
    // Out of scope answers exactly like missing.
    if (!relation || (actor.scope && !inScope(actor.scope, relation.partnerId)))
      throw ApiError.notFound('partner.relationNotFound');
    if (relation.userId === actor.userId) throw ApiError.conflict('partner.relationSelf');
    await tx.delete(partnerAccounts).where(eq(partnerAccounts.id, id));
    const [left] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(partnerAccounts)
      .where(eq(partnerAccounts.userId, relation.userId));
    if (Number(left?.count ?? 0) === 0) {
      await tx
        .update(users)
        .set({
          roles: sql`case when cardinality(array_remove(${users.roles}, 'partner')) = 0 then array['individual']::text[] else array_remove(${users.roles}, 'partner') end`,
        })
        .where(eq(users.id, relation.userId));
    }
    await writeAudit(tx, {
      userId: actor.userId,
      action: 'partner.relationDelete',
      target: `partner:${relation.partnerId}`,
      detail: {
        relationId: relation.id,
        userId: relation.userId,
        empId: relation.empId,
        ...(actor.via ? { via: actor.via } : {}),
      },
      ip: actor.ip,
    });
  });
}
