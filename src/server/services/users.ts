/** Users: lookups and the current-user view the client maps (spec §3, "Current user"). */
import { eq, sql } from 'drizzle-orm';
import type { BoundEnterprise, UserInfoData } from '../../lib/schemas/account.ts';
import type { Database } from '../db/client.ts';
import { enterprises, users, type UserRole, type UserRow } from '../db/schema/index.ts';
import type { SessionUser } from '../types.ts';

export async function isMobileRegistered(db: Database, mobile: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.mobile, mobile)).limit(1);
  return row !== undefined;
}

/** Case-insensitive, like the unique index on lower(user_name). */
export async function findUserIdByUserName(db: Database, userName: string): Promise<number | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userName})`)
    .limit(1);
  return row?.id;
}

/**
 * What GET /api/front/user/currentUser answers. The client maps orgId → id, orgName → name,
 * telephone → phone, enterpriseName → group. `enterpriseName` is '' for a user without an enterprise.
 */
export interface CurrentUserView {
  orgId: string;
  orgName: string;
  userName: string;
  telephone: string;
  enterpriseName: string;
  avatar: string;
  email: string;
  roles: UserRole[];
}

export function currentUserView(user: SessionUser): CurrentUserView {
  return {
    orgId: String(user.id),
    orgName: user.name || user.userName,
    userName: user.userName,
    telephone: user.mobile,
    enterpriseName: user.enterpriseName,
    avatar: user.avatar,
    email: user.email,
    roles: user.roles,
  };
}

/** The user row of a login name (case-insensitive), with what login needs. */
export async function findUserByUserName(db: Database, userName: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userName})`)
    .limit(1);
  return row;
}

export async function findUserByMobile(db: Database, mobile: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.mobile, mobile)).limit(1);
  return row;
}

export async function findUserById(db: Database, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The enterprise a user owns (binding), or null. */
export async function findBoundEnterprise(db: Database, userId: number): Promise<BoundEnterprise | null> {
  const [row] = await db
    .select({
      id: enterprises.id,
      enterpriseName: enterprises.enterpriseName,
      clearanceAccount: enterprises.clearanceAccount,
      authStatus: enterprises.authStatus,
    })
    .from(enterprises)
    .where(eq(enterprises.ownerUserId, userId))
    .limit(1);
  return row ?? null;
}

/** The current-user view of a user just signed in or registered (a session's own user carries its enterprise's name). */
export async function loadCurrentUserView(db: Database, row: UserRow): Promise<CurrentUserView> {
  const enterprise = await findBoundEnterprise(db, row.id);
  return currentUserView(sessionUserOf(row, enterprise?.enterpriseName ?? ''));
}

function sessionUserOf(row: UserRow, enterpriseName: string): SessionUser {
  return {
    id: row.id,
    userName: row.userName,
    name: row.name,
    mobile: row.mobile,
    email: row.email,
    avatar: row.avatar,
    roles: row.roles,
    status: row.status,
    enterpriseName,
    agreedVersions: row.agreedVersions,
  };
}

/** What getUserInfo answers: the current-user fields, `mobile`, the enterprise and the creation time. */
export async function userInfoView(db: Database, userId: number): Promise<UserInfoData> {
  const row = await findUserById(db, userId);
  if (!row) throw new Error(`user ${userId} vanished`);
  const enterprise = await findBoundEnterprise(db, userId);
  return {
    ...currentUserView(sessionUserOf(row, enterprise?.enterpriseName ?? '')),
    userId: row.id,
    name: row.name,
    mobile: row.mobile,
    enterprise,
    createdAt: row.createdAt.toISOString(),
  };
}
