/**
 * Reading the partner institutions (docs/partner.md, Calls): the user's own relations, the visible
 * tree (spec §3 `partnerTree`) and one institution's details. Scope is decided by the caller
 * (src/server/services/partnerScope.ts); these functions read what they are given.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { PartnerLevel } from '../../lib/partner.ts';
import type { PartnerData, PartnerDetailData, PartnerTreeNode, RelatedPartnerData } from '../../lib/schemas/partner.ts';
import type { Database } from '../db/client.ts';
import { partnerAccounts, partnerInstitutions, type PartnerInstitutionRow } from '../db/schema/index.ts';
import { partnerNotFound } from './partnerScope.ts';

const partnerFields = {
  id: partnerInstitutions.id,
  code: partnerInstitutions.code,
  name: partnerInstitutions.name,
  parentId: partnerInstitutions.parentId,
  level: partnerInstitutions.level,
  areaCode: partnerInstitutions.areaCode,
};

function partnerData(row: Pick<PartnerInstitutionRow, keyof typeof partnerFields>): PartnerData {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    parentId: row.parentId,
    level: row.level as PartnerLevel,
    areaCode: row.areaCode,
  };
}

/** The institutions `userId` is related to, by code; with `empId`, only the relation with that staff number. */
export async function relatedPartners(db: Database, userId: number, empId?: string): Promise<RelatedPartnerData[]> {
  const rows = await db
    .select({ ...partnerFields, empId: partnerAccounts.empId })
    .from(partnerAccounts)
    .innerJoin(partnerInstitutions, eq(partnerInstitutions.id, partnerAccounts.partnerId))
    .where(and(eq(partnerAccounts.userId, userId), empId === undefined ? undefined : eq(partnerAccounts.empId, empId)))
    .orderBy(asc(partnerInstitutions.code));
  return rows.map((row) => ({ ...partnerData(row), empId: row.empId }));
}

/**
 * The visible institutions nested: the scope's roots first (by code), each node's children by
 * code. One query; the nesting is done here over the scope's rows.
 */
export async function partnerTree(
  db: Database,
  scope: { ids: readonly number[]; roots: readonly number[] },
): Promise<PartnerTreeNode[]> {
  if (scope.ids.length === 0) return [];
  const rows = await db
    .select(partnerFields)
    .from(partnerInstitutions)
    .where(inArray(partnerInstitutions.id, [...scope.ids]))
    .orderBy(asc(partnerInstitutions.code), asc(partnerInstitutions.id));
  const nodes = new Map<number, PartnerTreeNode>(rows.map((row) => [row.id, { ...partnerData(row), children: [] }]));
  const roots = new Set(scope.roots);
  const top: PartnerTreeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parentId === null || roots.has(row.id) ? undefined : nodes.get(row.parentId);
    // Rows come by code, so every child list is in code order too.
    if (parent) parent.children.push(node);
    else top.push(node);
  }
  return top;
}

/** One institution's details: parent's name, the names from the root down, and its number of children. */
export async function partnerDetail(db: Database, partnerId: number): Promise<PartnerDetailData> {
  const [row] = await db.select().from(partnerInstitutions).where(eq(partnerInstitutions.id, partnerId));
  if (!row) throw partnerNotFound();
  const ancestorIds = row.path
    .split('/')
    .filter((part) => part !== '')
    .map(Number);
  const [ancestors, [children]] = await Promise.all([
    db
      .select({ id: partnerInstitutions.id, name: partnerInstitutions.name })
      .from(partnerInstitutions)
      .where(inArray(partnerInstitutions.id, ancestorIds)),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(partnerInstitutions)
      .where(eq(partnerInstitutions.parentId, partnerId)),
  ]);
  const nameOf = new Map(ancestors.map((ancestor) => [ancestor.id, ancestor.name]));
  return {
    ...partnerData(row),
    address: row.address,
    phone: row.phone,
    contactName: row.contactName,
    parentName: row.parentId === null ? null : (nameOf.get(row.parentId) ?? null),
    pathNames: ancestorIds.map((id) => nameOf.get(id) ?? ''),
    childCount: Number(children?.count ?? 0),
  };
}
