/**
 * The partner area's security rule (docs/partner.md, Scope): a user sees every institution whose
 * materialised `path` starts with the path of an institution the user is related to
 * (partner_accounts). Every partner call and export computes the scope once per request and
 * filters its rows by `partner_id = any(ids)`; an institution outside the scope answers 404
 * exactly like one that does not exist, so ids cannot be probed.
 */
import { asc, eq, like, or, sql, type SQL } from 'drizzle-orm';
import { ApiError } from '../apiError.ts';
import type { Database } from '../db/client.ts';
import { partnerAccounts, partnerInstitutions } from '../db/schema/index.ts';

export interface PartnerScope {
  /** Every visible institution, ascending. */
  ids: number[];
  /** The related institutions not inside another related one (the tops of the visible tree), by code. */
  roots: number[];
}

/** The one answer for "no such institution" and "not yours": the same code and message. */
export function partnerNotFound(): ApiError {
  return ApiError.notFound('partner.notFound');
}

/** `path` is digits and slashes only (`/1/4/17/`), so a LIKE prefix needs no escaping. */
function underAny(paths: readonly string[]): SQL | undefined {
  return or(...paths.map((path) => like(partnerInstitutions.path, `${path}%`)));
}

/** The institutions `userId` may see, computed from its relations (empty when it has none). */
export async function partnerScopeOf(db: Database, userId: number): Promise<PartnerScope> {
  const related = await db
    .select({ id: partnerInstitutions.id, path: partnerInstitutions.path })
    .from(partnerAccounts)
    .innerJoin(partnerInstitutions, eq(partnerInstitutions.id, partnerAccounts.partnerId))
    .where(eq(partnerAccounts.userId, userId))
    .orderBy(asc(partnerInstitutions.code));
  if (related.length === 0) return { ids: [], roots: [] };
  // A relation inside another related institution's subtree adds nothing to the scope.
  const roots = related.filter(
    (row) => !related.some((other) => other.id !== row.id && row.path.startsWith(other.path)),
  );
  const visible = await db
    .select({ id: partnerInstitutions.id })
    .from(partnerInstitutions)
    .where(underAny(roots.map((row) => row.path)))
    .orderBy(asc(partnerInstitutions.id));
  return { ids: visible.map((row) => row.id), roots: roots.map((row) => row.id) };
}

/** Whether `partnerId` is visible in `scope`. */
export function inScope(scope: PartnerScope, partnerId: number): boolean {
  return scope.ids.includes(partnerId);
}

/**
 * The subtree of `partnerId` (itself included, ascending). Throws the partner 404 when it is not
 * visible, whether or not it exists. Within a scope a visible institution's subtree is visible too.
 */
export async function subtreeInScope(db: Database, scope: PartnerScope, partnerId: number): Promise<number[]> {
  if (!inScope(scope, partnerId)) throw partnerNotFound();
  return subtreeOf(db, partnerId);
}

/** The subtree of an institution regardless of anyone's scope (operators); 404 when it does not exist. */
export async function subtreeOf(db: Database, partnerId: number): Promise<number[]> {
  const [top] = await db
    .select({ path: partnerInstitutions.path })
    .from(partnerInstitutions)
    .where(eq(partnerInstitutions.id, partnerId));
  if (!top) throw partnerNotFound();
  const rows = await db
    .select({ id: partnerInstitutions.id })
    .from(partnerInstitutions)
    .where(like(partnerInstitutions.path, `${top.path}%`))
    .orderBy(asc(partnerInstitutions.id));
  return rows.map((row) => row.id);
}

/** Throws the partner 404 unless every one of `ids` is visible (calls that take several institutions). */
export function assertAllInScope(scope: PartnerScope, ids: readonly number[]): void {
  for (const id of ids) if (!inScope(scope, id)) throw partnerNotFound();
}

/**
 * `column = any(ids)` with the ids bound as ONE parameter (a PostgreSQL array literal of integers
 * read from the database), so a scope of thousands of institutions is still one bound value and
 * one statement shape; an empty scope matches nothing.
 * @example runTable(db, table, request, { scope: partnerIdIn(sql`s.partner_id`, scope.ids) })
 */
export function partnerIdIn(column: SQL, ids: readonly number[]): SQL {
  return sql`${column} = any(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int4[])`;
}
