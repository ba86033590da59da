/** The partner scope (docs/partner.md, Scope): what a user's relations let it see, and the 404 for the rest. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/apiError.ts';
import { assertAllInScope, partnerScopeOf, subtreeInScope, subtreeOf } from '../../src/server/services/partnerScope.ts';
import { ApiCode } from '../../src/lib/apiCodes.ts';
import { createTestApp, openPerFile } from './harness.ts';
import { insertPartnerTree, insertPartnerUser, insertUser, type PartnerTree } from './partnerFixtures.ts';

const t = openPerFile(() => createTestApp());

async function codeOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error.code : -1;
  }
}

describe('partnerScopeOf', () => {
  let tree: PartnerTree;

  it('is empty for a user without relations', async () => {
    tree = await insertPartnerTree(t);
    const user = await insertUser(t, ['partner']);
    expect(await partnerScopeOf(t.db, user.userId)).toEqual({ ids: [], roots: [] });
  });

  it('a branch user sees its branch and its sub-branches, never the sibling branch, the head office or another bank', async () => {
    const user = await insertPartnerUser(t, [tree.branchA]);
    const scope = await partnerScopeOf(t.db, user.userId);
    expect(scope.ids).toEqual([tree.branchA, tree.subA1, tree.subA2].sort((a, b) => a - b));
    expect(scope.roots).toEqual([tree.branchA]);
    for (const id of [tree.head, tree.branchB, tree.subB1, tree.other]) expect(scope.ids).not.toContain(id);
  });

  it('a head office user sees the whole bank but not the other bank', async () => {
    const user = await insertPartnerUser(t, [tree.head]);
    const scope = await partnerScopeOf(t.db, user.userId);
    expect(scope.ids).toEqual(
      [tree.head, tree.branchA, tree.branchB, tree.subA1, tree.subA2, tree.subB1].sort((a, b) => a - b),
    );
    expect(scope.roots).toEqual([tree.head]);
  });

  it('a relation inside another related subtree is not a root; separate relations are both roots', async () => {
    const nested = await insertPartnerUser(t, [tree.subA1, tree.branchA]);
    expect((await partnerScopeOf(t.db, nested.userId)).roots).toEqual([tree.branchA]);
    const apart = await insertPartnerUser(t, [tree.subA2, tree.subB1]);
    const scope = await partnerScopeOf(t.db, apart.userId);
    expect(scope.ids).toEqual([tree.subA2, tree.subB1].sort((a, b) => a - b));
    expect(scope.roots.sort((a, b) => a - b)).toEqual([tree.subA2, tree.subB1].sort((a, b) => a - b));
  });

  it('a sub-branch user sees that sub-branch only', async () => {
    const user = await insertPartnerUser(t, [tree.subA1]);
    expect((await partnerScopeOf(t.db, user.userId)).ids).toEqual([tree.subA1]);
  });
});

describe('subtreeInScope', () => {
  it('answers the subtree of a visible institution and 404 for one out of scope or missing, alike', async () => {
    const tree = await insertPartnerTree(t);
    const user = await insertPartnerUser(t, [tree.branchA]);
    const scope = await partnerScopeOf(t.db, user.userId);
    expect(await subtreeInScope(t.db, scope, tree.branchA)).toEqual(
      [tree.branchA, tree.subA1, tree.subA2].sort((a, b) => a - b),
    );
    expect(await subtreeInScope(t.db, scope, tree.subA2)).toEqual([tree.subA2]);
    expect(await codeOf(subtreeInScope(t.db, scope, tree.branchB))).toBe(ApiCode.NOT_FOUND);
    expect(await codeOf(subtreeInScope(t.db, scope, tree.head))).toBe(ApiCode.NOT_FOUND);
    expect(await codeOf(subtreeInScope(t.db, scope, 2_000_000_000))).toBe(ApiCode.NOT_FOUND);
    expect(() => assertAllInScope(scope, [tree.subA1, tree.subB1])).toThrow(ApiError);
    expect(() => assertAllInScope(scope, [tree.subA1, tree.subA2])).not.toThrow();
  });

  it('subtreeOf (operators) answers any institution and 404 for a missing one', async () => {
    const tree = await insertPartnerTree(t);
    expect(await subtreeOf(t.db, tree.branchB)).toEqual([tree.branchB, tree.subB1].sort((a, b) => a - b));
    expect(await codeOf(subtreeOf(t.db, 2_000_000_000))).toBe(ApiCode.NOT_FOUND);
  });
});
