/**
 * The enterprise as every enterprise call answers it (EnterpriseData, docs/enterprises.md), and the
 * lookups that decide who may touch which enterprise: the owner's own, or any for an operator.
 * Another user's enterprise is "not found", exactly like one that does not exist (DOMAIN.md).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { isAuthStatus, AuthStatusCode } from '../../lib/authStatus.ts';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import type {
  AuthFileData,
  AuthFileKindName,
  AuthFileContentType,
  EnterpriseData,
} from '../../lib/schemas/enterprise.ts';
import { listIndustries } from '../../content/query.ts';
import { maskAccountNo, maskMobile } from '../../lib/masking.ts';
import { regionName } from '../../lib/regionNames.ts';
import type { Database } from '../db/client.ts';
import {
  bankBindings,
  enterpriseAuthFiles,
  enterprises,
  orders,
  partnerInstitutions,
  regions,
  type EnterpriseAuthFileRow,
  type EnterpriseRow,
} from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import type { SessionUser } from '../types.ts';
import { contentStore } from './contentStore.ts';

/** Who acts, from where, reading which language: what every enterprise write records and answers in. */
export interface EnterpriseActor {
  user: SessionUser;
  ip: string | null;
  locale: Locale;
}

export const authFileDownloadPath = '/api/front/hgdarc/enterpriseauthfile/download';

export function isOperator(user: SessionUser): boolean {
  return user.roles.includes('operator');
}

/** The status in the reader's words ("审核中"), for "the enterprise is X" messages. */
export function statusWords(locale: Locale, status: number): string {
  return isAuthStatus(status) ? t(locale, `authStatus.${status}` as MessageKey) : '-';
}

/** The user's own enterprise, or null. */
export async function findOwnEnterprise(db: Database, userId: number): Promise<EnterpriseRow | null> {
  const [row] = await db.select().from(enterprises).where(eq(enterprises.ownerUserId, userId)).limit(1);
  return row ?? null;
}

/**
 * The enterprise `id` if it is the user's own, locked for the rest of the transaction when `lock`;
 * anything else → 404.
 */
export async function ownedEnterprise(db: Database, userId: number, id: number, lock = false): Promise<EnterpriseRow> {
  const query = db
    .select()
    .from(enterprises)
    .where(and(eq(enterprises.id, id), eq(enterprises.ownerUserId, userId)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw ApiError.notFound();
  return row;
}

/** The user's own enterprise (locked when `lock`); none → 404 telling them to add one. */
export async function ownEnterpriseOrFail(db: Database, userId: number, lock = false): Promise<EnterpriseRow> {
  const query = db.select().from(enterprises).where(eq(enterprises.ownerUserId, userId)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw ApiError.notFound('enterprise.error.none');
  return row;
}

/** Any enterprise by id (operators), locked when `lock`; none → 404. */
export async function enterpriseById(db: Database, id: number, lock = false): Promise<EnterpriseRow> {
  const query = db.select().from(enterprises).where(eq(enterprises.id, id)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw ApiError.notFound();
  return row;
}

export function toAuthFileData(row: EnterpriseAuthFileRow): AuthFileData {
  return {
    id: row.id,
    kind: row.kind as AuthFileKindName,
    originalName: row.originalName,
    contentType: row.contentType as AuthFileContentType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
    url: `${authFileDownloadPath}?id=${row.id}`,
  };
}

/** Whether enterpriseuser/del is allowed: not certified or returned, and never ordered. */
export function deletableStatus(status: number): boolean {
  return status === AuthStatusCode.NOT_CERTIFIED || status === AuthStatusCode.RETURNED;
}

export async function orderCount(db: Database, enterpriseId: number, statuses?: readonly number[]): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.enterpriseId, enterpriseId), statuses ? inArray(orders.status, [...statuses]) : undefined));
  return Number(row?.n ?? 0);
}

/**
 * The whole record as the pages show it, to a reader of `locale`: its industry and region named in
 * that language. Its contact's mobile and its clearance account are whole for its owner only;
 * anyone else (staff) reads them masked (revealEnterpriseField gives one whole, audited).
 */
export async function enterpriseData(
  db: Database,
  row: EnterpriseRow,
  locale: Locale,
  readerId: number,
): Promise<EnterpriseData> {
  const [files, [binding], [region], ordered, [partner]] = await Promise.all([
    db
      .select()
      .from(enterpriseAuthFiles)
      .where(eq(enterpriseAuthFiles.enterpriseId, row.id))
      .orderBy(asc(enterpriseAuthFiles.kind)),
    db.select().from(bankBindings).where(eq(bankBindings.enterpriseId, row.id)).limit(1),
    row.areaCode
      ? db.select({ name: regions.name }).from(regions).where(eq(regions.areaCode, row.areaCode)).limit(1)
      : Promise.resolve([] as { name: string }[]),
    orderCount(db, row.id),
    row.partnerId === null
      ? Promise.resolve([] as { code: string; name: string }[])
      : db
          .select({ code: partnerInstitutions.code, name: partnerInstitutions.name })
          .from(partnerInstitutions)
          .where(eq(partnerInstitutions.id, row.partnerId)),
  ]);
  const masked = readerId !== row.ownerUserId;
  const industryName =
    listIndustries(contentStore.localized(locale)).find((industry) => industry.code === row.industry)?.name ?? '';
  return {
    id: row.id,
    enterpriseName: row.enterpriseName,
    creditCode: row.creditCode,
    legalPerson: row.legalPerson,
    contactName: row.contactName,
    contactPhone: masked && row.contactPhone ? maskMobile(row.contactPhone) : row.contactPhone,
    address: row.address,
    industry: row.industry,
    industryName,
    areaCode: row.areaCode,
    areaName: region && row.areaCode ? regionName(locale, { areaCode: row.areaCode, name: region.name }) : '',
    clearanceAccount: masked ? maskAccountNo(row.clearanceAccount) : row.clearanceAccount,
    electricityAccounts: [...row.electricityAccounts],
    voltageLevel: row.voltageLevel,
    annualConsumption: row.annualConsumption === null ? null : Number(row.annualConsumption),
    authStatus: isAuthStatus(row.authStatus) ? row.authStatus : AuthStatusCode.NOT_CERTIFIED,
    authType: row.authType ?? null,
    reviewComment: row.reviewComment,
    draft: row.draft,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    files: files.map(toAuthFileData),
    bankBinding: binding
      ? {
          bank: binding.bank,
          accountNoMasked: binding.accountNoMasked,
          accountName: binding.accountName,
          empName: binding.empName,
          boundAt: binding.createdAt.toISOString(),
        }
      : null,
    canDelete: deletableStatus(row.authStatus) && ordered === 0,
    partnerCode: partner?.code ?? null,
    partnerName: partner?.name ?? null,
    masked,
  };
}

/** Reads the enterprise again (after a write) and answers it as `readerId` may see it. */
export async function enterpriseDataById(
  db: Database,
  id: number,
  locale: Locale,
  readerId: number,
): Promise<EnterpriseData> {
  return enterpriseData(db, await enterpriseById(db, id), locale, readerId);
}
