/** Users: lookups and the current-user view the client maps (spec §3, "Current user"). */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { users, type UserRole } from '../db/schema/index.ts';
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
 * telephone → phone, enterpriseName → group. `enterpriseName` stays '' until enterprises exist.
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

export function currentUserView(user: SessionUser, enterpriseName = ''): CurrentUserView {
  return {
    orgId: String(user.id),
    orgName: user.name || user.userName,
    userName: user.userName,
    telephone: user.mobile,
    enterpriseName,
    avatar: user.avatar,
    email: user.email,
    roles: user.roles,
  };
}
