/**
 * The enterprise record (enterpriseuser/add, edit, temporarySave, editfield, editAuthInfo, del;
 * docs/enterprises.md). The state rules of DOMAIN.md live here:
 *
 * - under review (1) nothing is edited: the operator is looking at it (409);
 * - a certified (2) enterprise whose name or credit code changes goes back to review (1);
 * - it is submitted (0 or 3 → 1) only complete, with both certification files;
 * - it is deleted only while 0 or 3 and never ordered (orders stay for audit).
 *
 * Every call is one transaction holding the enterprise row's lock, with its audit row and, for
 * changes of status, a notice to the owner. Checks against the lists (industry, region, voltage
 * level) come first, so a bad value changes nothing.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import { AuthStatusCode, canSubmitForReview } from '../../lib/authStatus.ts';
import { t } from '../../lib/i18n/index.ts';
import { maskAccountNo } from '../../lib/masking.ts';
import {
  authFileKinds,
  certifiedCoreFields,
  enterpriseFieldNames,
  type EnterpriseDraft,
  type EnterpriseFieldName,
  type EnterpriseRecord,
} from '../../lib/schemas/enterprise.ts';
import { getDictionary, listIndustries } from '../../content/query.ts';
import type { Database } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import {
  enterpriseAuthFiles,
  enterprises,
  partnerInstitutions,
  regions,
  users,
  type EnterpriseRow,
} from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { uploadKey } from '../uploads/storage.ts';
import { writeAudit } from './audit.ts';
import { contentStore } from './contentStore.ts';
import {
  deletableStatus,
  findOwnEnterprise,
  orderCount,
  ownedEnterprise,
  statusWords,
  type EnterpriseActor,
} from './enterpriseView.ts';
import { createNotice } from './notices.ts';
import { requireCompleteRecord } from './recordCompleteness.ts';

/** Field values as the schemas give them (any subset of the record). */
export type EnterpriseChanges = {
  [K in Exclude<keyof EnterpriseRecord, 'annualConsumption'>]?: EnterpriseRecord[K] | undefined;
} & { annualConsumption?: number | null | undefined };

/**
 * Values that must be on a list of the site's (industries, regions, voltage levels) or name a
 * partner institution (the referral code): checked before any write. Answers the referring
 * institution's id when a code was given.
 */
async function checkListed(db: Database, changes: EnterpriseChanges): Promise<{ partnerId?: number }> {
  const content = contentStore.current();
  if (
    changes.industry !== undefined &&
    !listIndustries(content).some((industry) => industry.code === changes.industry)
  ) {
    throw ApiError.field('industry', 'enterprise.validation.unknownIndustry');
  }
  if (
    changes.voltageLevel !== undefined &&
    !(getDictionary(content, 'voltageLevel') ?? []).some((level) => level.code === changes.voltageLevel)
  ) {
    throw ApiError.field('voltageLevel', 'enterprise.validation.unknownVoltage');
  }
  if (changes.areaCode !== undefined) {
    const [region] = await db
      .select({ areaCode: regions.areaCode })
      .from(regions)
      .where(and(eq(regions.areaCode, changes.areaCode), eq(regions.enabled, true)))
      .limit(1);
    if (!region) throw ApiError.field('areaCode', 'enterprise.validation.unknownArea');
  }
  if (changes.partnerCode === undefined) return {};
  const [partner] = await db
    .select({ id: partnerInstitutions.id })
    .from(partnerInstitutions)
    .where(eq(partnerInstitutions.code, changes.partnerCode))
    .limit(1);
  if (!partner) throw ApiError.field('partnerCode', 'partner.unknownCode');
  return { partnerId: partner.id };
}

/** The columns a change writes. */
function columnsOf(changes: EnterpriseChanges): Partial<typeof enterprises.$inferInsert> {
  const columns: Partial<typeof enterprises.$inferInsert> = {};
  for (const name of enterpriseFieldNames) {
    const value = changes[name];
    if (value === undefined) continue;
    if (name === 'annualConsumption') columns.annualConsumption = value === null ? null : (value as number).toFixed(3);
    else if (name === 'electricityAccounts') columns.electricityAccounts = [...(value as string[])];
    else (columns as Record<string, unknown>)[name] = value;
  }
  return columns;
}

/** The names of the fields whose value differs from the row's. */
function changedFields(row: EnterpriseRow, changes: EnterpriseChanges): EnterpriseFieldName[] {
  return enterpriseFieldNames.filter((name) => {
    const value = changes[name];
    if (value === undefined) return false;
    const current = row[name];
    if (name === 'annualConsumption') return (current === null ? null : Number(current)) !== value;
    if (name === 'electricityAccounts') return (current as string[]).join(',') !== (value as string[]).join(',');
    return current !== value;
  });
}

/** Another enterprise already registered with this credit code → 409. */
async function checkCreditCodeFree(db: Database, creditCode: string, exceptId?: number): Promise<void> {
  const [other] = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(
      and(eq(enterprises.creditCode, creditCode), exceptId === undefined ? undefined : ne(enterprises.id, exceptId)),
    )
    .limit(1);
  if (other) throw ApiError.conflict('enterprise.error.creditCodeTaken');
}

/** The unique clearance account raced or is taken: the loser is told, nothing kept. */
function clearanceTaken(error: unknown): never {
  if (isUniqueViolation(error)) throw ApiError.conflict('auth.clearanceTaken');
  throw error;
}

/** An individual becomes an enterprise user; other roles (partner, operator) stay (as binding does). */
async function grantEnterpriseRole(db: Database, userId: number): Promise<void> {
  await db
    .update(users)
    .set({
      roles: sql`array(select distinct r from unnest(array_remove(${users.roles}, 'individual') || array['enterprise']::text[]) as r order by 1)`,
    })
    .where(eq(users.id, userId));
}

/** The reverse: without an enterprise the user is an individual again, unless another role remains. */
async function revokeEnterpriseRole(db: Database, userId: number): Promise<void> {
  await db
    .update(users)
    .set({
      roles: sql`case when cardinality(array_remove(${users.roles}, 'enterprise')) = 0 then array['individual']::text[] else array_remove(${users.roles}, 'enterprise') end`,
    })
    .where(eq(users.id, userId));
}

/** Creates the user's enterprise (add: complete and not a draft; temporarySave: a draft). */
async function createEnterprise(
  db: Database,
  actor: EnterpriseActor,
  changes: EnterpriseChanges,
  draft: boolean,
): Promise<number> {
  const referral = await checkListed(db, changes);
  try {
    return await db.transaction(async (tx) => {
      // The user row is locked so two adds of one user cannot both pass the "has none" check.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.user.id)).for('update');
      if (await findOwnEnterprise(tx, actor.user.id)) throw ApiError.conflict('enterprise.error.alreadyHas');
      if (changes.creditCode) await checkCreditCodeFree(tx, changes.creditCode);
      const [created] = await tx
        .insert(enterprises)
        .values({
          ownerUserId: actor.user.id,
          enterpriseName: changes.enterpriseName!,
          clearanceAccount: changes.clearanceAccount!,
          ...columnsOf(changes),
          ...referral,
          authStatus: AuthStatusCode.NOT_CERTIFIED,
          draft,
        })
        .returning({ id: enterprises.id });
      const id = created!.id;
      await grantEnterpriseRole(tx, actor.user.id);
      await writeAudit(tx, {
        userId: actor.user.id,
        action: draft ? 'enterprise.draft' : 'enterprise.add',
        target: `enterprise:${id}`,
        detail: { fields: enterpriseFieldNames.filter((name) => changes[name] !== undefined), ...referral },
        ip: actor.ip,
      });
      return id;
    });
  } catch (error) {
    return clearanceTaken(error);
  }
}

interface UpdateMode {
  /** The draft flag after the write; undefined leaves it as it is (editfield). */
  draft: boolean | undefined;
  action: 'enterprise.edit' | 'enterprise.draft' | 'enterprise.editField';
}

/** Applies changes to the user's enterprise `id` under the state rules; returns the id. */
async function updateEnterprise(
  db: Database,
  actor: EnterpriseActor,
  id: number,
  changes: EnterpriseChanges,
  mode: UpdateMode,
): Promise<number> {
  const referral = await checkListed(db, changes);
  try {
    return await db.transaction(async (tx) => {
      const row = await ownedEnterprise(tx, actor.user.id, id, true);
      if (row.authStatus === AuthStatusCode.UNDER_REVIEW) throw ApiError.conflict('enterprise.error.underReview');
      const changed = changedFields(row, changes);
      if (changes.creditCode && changed.includes('creditCode'))
        await checkCreditCodeFree(tx, changes.creditCode, row.id);
      const coreChanged = changed.some((name) => (certifiedCoreFields as readonly string[]).includes(name));
      const backToReview = row.authStatus === AuthStatusCode.CERTIFIED && coreChanged;
      await tx
        .update(enterprises)
        .set({
          ...columnsOf(changes),
          ...referral,
          ...(backToReview
            ? { authStatus: AuthStatusCode.UNDER_REVIEW, submittedAt: new Date(), draft: false }
            : mode.draft === undefined
              ? {}
              : { draft: mode.draft }),
          updatedAt: new Date(),
        })
        .where(eq(enterprises.id, row.id));
      await writeAudit(tx, {
        userId: actor.user.id,
        action: mode.action,
        target: `enterprise:${row.id}`,
        detail: {
          fields: changed,
          ...(referral.partnerId === undefined || referral.partnerId === row.partnerId ? {} : referral),
        },
        ip: actor.ip,
      });
      if (backToReview) {
        const enterpriseName = changes.enterpriseName ?? row.enterpriseName;
        await writeAudit(tx, {
          userId: actor.user.id,
          action: 'certification.backToReview',
          target: `enterprise:${row.id}`,
          detail: { fields: changed.filter((name) => (certifiedCoreFields as readonly string[]).includes(name)) },
          ip: actor.ip,
        });
        await createNotice(tx, {
          userId: row.ownerUserId,
          type: 'notification',
          messageKey: 'enterprise.notice.backToReview',
          vars: { enterpriseName },
          ref: `enterprise:${row.id}`,
        });
      }
      return row.id;
    });
  } catch (error) {
    return clearanceTaken(error);
  }
}

/** enterpriseuser/add — the user has none yet (409 otherwise). */
export function addEnterprise(db: Database, actor: EnterpriseActor, record: EnterpriseRecord): Promise<number> {
  return createEnterprise(db, actor, { ...record, annualConsumption: record.annualConsumption ?? null }, false);
}

/** enterpriseuser/edit — the whole record; draft no more. */
export function editEnterprise(
  db: Database,
  actor: EnterpriseActor,
  id: number,
  record: EnterpriseRecord,
): Promise<number> {
  return updateEnterprise(
    db,
    actor,
    id,
    { ...record, annualConsumption: record.annualConsumption ?? null },
    {
      draft: false,
      action: 'enterprise.edit',
    },
  );
}

/** enterpriseuser/temporarySave — a draft of any subset; without id it creates the enterprise. */
export function saveEnterpriseDraft(db: Database, actor: EnterpriseActor, draft: EnterpriseDraft): Promise<number> {
  const { id, ...changes } = draft;
  if (id === undefined) return createEnterprise(db, actor, changes, true);
  return updateEnterprise(db, actor, id, changes, { draft: true, action: 'enterprise.draft' });
}

/** enterpriseuser/editfield — one field, with the rules of edit. */
export function editEnterpriseField(
  db: Database,
  actor: EnterpriseActor,
  id: number,
  field: EnterpriseFieldName,
  value: EnterpriseChanges[EnterpriseFieldName],
): Promise<number> {
  return updateEnterprise(db, actor, id, { [field]: value } as EnterpriseChanges, {
    draft: undefined,
    action: 'enterprise.editField',
  });
}

/** enterpriseuser/editAuthInfo — submit for certificate review (0 or 3 → 1). */
export async function submitForReview(db: Database, actor: EnterpriseActor, id: number): Promise<number> {
  return db.transaction(async (tx) => {
    const row = await ownedEnterprise(tx, actor.user.id, id, true);
    if (!canSubmitForReview(row.authStatus)) {
      throw ApiError.conflict('enterprise.error.notSubmittable', { status: statusWords(actor.locale, row.authStatus) });
    }
    requireCompleteRecord(actor.locale, row);
    const files = await tx
      .select({ kind: enterpriseAuthFiles.kind })
      .from(enterpriseAuthFiles)
      .where(eq(enterpriseAuthFiles.enterpriseId, row.id));
    const absent = authFileKinds.filter((kind) => !files.some((file) => file.kind === kind));
    if (absent.length > 0) {
      const names = absent
        .map((kind) => t(actor.locale, `enterprise.kind.${kind}`))
        .join(t(actor.locale, 'enterprise.listSeparator'));
      throw ApiError.badRequest('enterprise.error.filesMissing', { files: names });
    }
    await tx
      .update(enterprises)
      .set({
        authStatus: AuthStatusCode.UNDER_REVIEW,
        authType: 'certificate',
        submittedAt: new Date(),
        draft: false,
        updatedAt: new Date(),
      })
      .where(eq(enterprises.id, row.id));
    await writeAudit(tx, {
      userId: actor.user.id,
      action: 'certification.submit',
      target: `enterprise:${row.id}`,
      detail: { from: row.authStatus },
      ip: actor.ip,
    });
    await createNotice(tx, {
      userId: row.ownerUserId,
      type: 'notification',
      messageKey: 'enterprise.notice.submitted',
      vars: { enterpriseName: row.enterpriseName },
      ref: `enterprise:${row.id}`,
    });
    return row.id;
  });
}

/**
 * enterpriseuser/del — only while 0 or 3 and never ordered. The rows go in one transaction (files,
 * bank binding and challenges by cascade), then the stored bytes; the user loses the enterprise role.
 */
export async function deleteEnterprise(
  db: Database,
  actor: EnterpriseActor,
  id: number,
  objects: ObjectStore,
): Promise<void> {
  const storedNames = await db.transaction(async (tx) => {
    const row = await ownedEnterprise(tx, actor.user.id, id, true);
    if (!deletableStatus(row.authStatus)) {
      throw ApiError.conflict('enterprise.error.notDeletable', { status: statusWords(actor.locale, row.authStatus) });
    }
    if ((await orderCount(tx, row.id)) > 0) throw ApiError.conflict('enterprise.error.hasOrders');
    const files = await tx
      .delete(enterpriseAuthFiles)
      .where(eq(enterpriseAuthFiles.enterpriseId, row.id))
      .returning({ storedName: enterpriseAuthFiles.storedName });
    await tx.delete(enterprises).where(eq(enterprises.id, row.id));
    await revokeEnterpriseRole(tx, actor.user.id);
    await writeAudit(tx, {
      userId: actor.user.id,
      action: 'enterprise.delete',
      target: `enterprise:${row.id}`,
      detail: {
        enterpriseName: row.enterpriseName,
        clearanceAccount: maskAccountNo(row.clearanceAccount),
        files: files.length,
      },
      ip: actor.ip,
    });
    return files.map((file) => file.storedName);
  });
  await objects.remove(storedNames.map(uploadKey));
}
