/**
 * Staff accounts — administrators, operators, editors, auditors and partner staff — as the
 * administrator's page /ops/staff (routes/opsStaff.ts) and the command line `npm run user`
 * (scripts/user.ts) manage them: create one, grant and revoke a role, disable and enable an
 * account, reset its second factor, relate it to a partner institution (through
 * partnerAccounts.ts, which gives the partner role), and list them. Both callers go through these
 * functions, so the rules hold for both:
 *
 * - an account holds the roles of one staff duty at most (lib/roles.ts, staffDuties): a grant
 *   across duties is refused, and the users table refuses it too;
 * - an administrator cannot revoke their own administrator role, disable themselves or reset their
 *   own second factor here (their account settings do that, with proof);
 * - the last active administrator can be neither revoked nor disabled (nobody could undo it but a
 *   shell on the server);
 * - every change is one transaction with its audit row (`detail.via`: `ops` or `cli`; the command
 *   line acts as nobody), and the changes a user should hear about leave them a notice.
 *
 * Staff changes run one at a time (an advisory lock), so two administrators disabling each other
 * at once cannot both pass the last-administrator check.
 */
import type { AuditAction } from '../../lib/auditTrail.ts';
import { and, eq, ne, sql } from 'drizzle-orm';
import { ApiCode } from '../../lib/apiCodes.ts';
import { t, type Locale, type MessageKey, type MessageVars } from '../../lib/i18n/index.ts';
import type { UserRole } from '../../lib/roles.ts';
import { conflictingRole, staffRoles } from '../../lib/staffRoles.ts';
import type {
  CreateStaffInput,
  GrantableRole,
  SecondFactorState,
  StaffInstitutionData,
  StaffRowData,
  StaffTableData,
} from '../../lib/schemas/staff.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import type { Database } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { loginChallenges, partnerInstitutions, recoveryCodes, secondFactors, users } from '../db/schema/index.ts';
import { ApiError } from '../apiError.ts';
import { hashPassword } from '../password.ts';
import { revokeOtherSessions } from '../session.ts';
import { maskMobile } from '../../lib/masking.ts';
import { defineTable, runTable } from '../table/antTable.ts';
import { writeAudit } from './audit.ts';
import { createNotice } from './notices.ts';
import { addRelation } from './partnerAccounts.ts';
import { becomingStaffFields, checkStaffPassword } from './staffPasswords.ts';

/** Who makes a change: the signed-in administrator on /ops/staff, or the command line (nobody). */
export interface StaffActor {
  userId: number | null;
  ip: string | null;
  locale: Locale;
  via: 'ops' | 'cli';
}

/** Serialises staff changes ("hgd" + 2; migrate.ts holds + 1). */
const staffLockKey = 6_849_636_402;

/** The roles that list an account as staff when no keyword is given. */
const staffRoleArray = sql.raw(`array[${staffRoles.map((role) => `'${role}'`).join(', ')}]::text[]`);

export const staffTable = defineTable({
  from: sql`users u`,
  joins: { factor: sql`left join second_factors f on f.user_id = u.id` },
  columns: {
    id: { sql: sql`u.id`, type: 'int', filter: true, sort: true },
    userName: { sql: sql`u.user_name`, type: 'text', search: true, like: true, sort: true },
    name: { sql: sql`u.name`, type: 'text', search: true, like: true, sort: true },
    // Searched whole; answered masked (staffRow).
    mobile: { sql: sql`u.mobile`, type: 'text', search: true, like: true },
    roles: { sql: sql`array_to_string(u.roles, ',')`, type: 'text' },
    status: {
      sql: sql`case when u.status = 'active' then 'active' else 'disabled' end`,
      type: 'text',
      filter: true,
      sort: true,
    },
    secondFactor: {
      sql: sql`case when f.confirmed_at is not null then 'enrolled' when f.user_id is not null then 'enrolling' else 'none' end`,
      type: 'text',
      join: 'factor',
      filter: true,
      sort: true,
    },
    // The user's relations as JSON text (the engine has no JSON type); parsed back in staffRow.
    institutions: {
      sql: sql`(select coalesce(json_agg(json_build_object('relationId', pa.id, 'partnerId', p.id, 'code', p.code, 'name', p.name, 'empId', pa.emp_id) order by p.code, pa.id), '[]'::json)::text
                from partner_accounts pa join partner_institutions p on p.id = pa.partner_id where pa.user_id = u.id)`,
      type: 'text',
    },
    // The audit log keeps every sign-in (sessions are deleted a week after they end).
    lastLoginAt: {
      sql: sql`(select max(a.at) from audit_log a where a.user_id = u.id and a.action = 'session.login')`,
      type: 'timestamp',
      nullable: true,
      sort: true,
    },
    createdAt: { sql: sql`u.created_at`, type: 'timestamp', sort: true },
    isAdmin: { sql: sql`'admin' = any(u.roles)`, type: 'boolean', select: false, filter: true },
    isOperator: { sql: sql`'operator' = any(u.roles)`, type: 'boolean', select: false, filter: true },
    isEditor: { sql: sql`'editor' = any(u.roles)`, type: 'boolean', select: false, filter: true },
    isAuditor: { sql: sql`'auditor' = any(u.roles)`, type: 'boolean', select: false, filter: true },
    isPartner: { sql: sql`'partner' = any(u.roles)`, type: 'boolean', select: false, filter: true },
  },
  defaultSort: [{ key: 'userName', sort: 'ascend' }],
  tieBreaker: sql`u.id`,
});

type StaffTableRow = Awaited<ReturnType<typeof runTable<typeof staffTable.columns>>>['result'][number];

function staffRow(row: StaffTableRow, viewerId: number | null): StaffRowData {
  const id = Number(row.id);
  return {
    id,
    userName: String(row.userName),
    name: String(row.name ?? ''),
    mobile: maskMobile(String(row.mobile ?? '')),
    roles: String(row.roles ?? '')
      .split(',')
      .filter(Boolean) as UserRole[],
    status: row.status === 'active' ? 'active' : 'disabled',
    secondFactor: (row.secondFactor ?? 'none') as SecondFactorState,
    institutions: JSON.parse(String(row.institutions ?? '[]')) as StaffInstitutionData[],
    lastLoginAt: row.lastLoginAt ?? null,
    createdAt: String(row.createdAt),
    self: id === viewerId,
  };
}

/**
 * One page of the staff table. Without a keyword it lists staff (any staff role); a keyword
 * searches every user by user name, name or mobile, so the administrator can find the person to
 * grant a role to. Rows are always whole (the request's `select` is ignored).
 */
export async function staffPage(db: Database, viewerId: number | null, request: TableRequest): Promise<StaffTableData> {
  const searching =
    (request.search?.keyword ?? '').trim() !== '' ||
    Object.values(request.liker ?? {}).some((text) => text.trim() !== '');
  const { select: _select, ...whole } = request;
  const page = await runTable(db, staffTable, whole, searching ? {} : { scope: sql`u.roles && ${staffRoleArray}` });
  return { totalCount: page.totalCount, result: page.result.map((row) => staffRow(row, viewerId)) };
}

/** One account as the staff table shows it (the answer of every change). */
export async function staffRowOf(db: Database, userId: number, viewerId: number | null): Promise<StaffRowData> {
  const page = await runTable(db, staffTable, { filter: { id: [userId] } });
  const row = page.result[0];
  if (!row) throw ApiError.notFound('staff.userNotFound');
  return staffRow(row, viewerId);
}

/** Whether any active account holds the administrator role (a new deployment has none until `npm run user -- create`). */
export async function hasActiveAdmin(db: Database): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, 'active'), sql`'admin' = any(${users.roles})`))
    .limit(1);
  return row !== undefined;
}

/** The id of the account a command names: its user name (any case) or its mobile number. */
export async function findStaffUserId(db: Database, userNameOrMobile: string): Promise<number> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.userName}) = lower(${userNameOrMobile}) or ${users.mobile} = ${userNameOrMobile}`)
    .orderBy(sql`lower(${users.userName}) = lower(${userNameOrMobile}) desc`)
    .limit(1);
  if (!row) throw ApiError.notFound('staff.userNotFound');
  return row.id;
}

/** A refusal shown at one field of a form (or named by its option on the command line). */
function fieldError(locale: Locale, code: number, field: string, key: MessageKey, vars?: MessageVars): ApiError {
  const text = t(locale, key, vars);
  return new ApiError(code, key, vars, { errors: [{ field, message: text }] }, text);
}

function roleName(locale: Locale, role: UserRole): string {
  return t(locale, `account.role.${role}`);
}

async function lockStaff(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${staffLockKey})`);
}

interface Target {
  id: number;
  userName: string;
  roles: UserRole[];
  active: boolean;
}

async function targetFor(tx: Database, userId: number): Promise<Target> {
  const [row] = await tx
    .select({ id: users.id, userName: users.userName, roles: users.roles, status: users.status })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!row) throw ApiError.notFound('staff.userNotFound');
  return { id: row.id, userName: row.userName, roles: row.roles, active: row.status === 'active' };
}

/** Refuses a change that would leave no active administrator (the target is one now). */
async function assertAnotherAdmin(tx: Database, target: Target): Promise<void> {
  if (!target.active || !target.roles.includes('admin')) return;
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.id, target.id), eq(users.status, 'active'), sql`'admin' = any(${users.roles})`))
    .limit(1);
  if (!other) throw ApiError.conflict('staff.lastAdmin');
}

/** Refuses a role of another staff duty than the roles the user holds (staffDuties). */
function assertOneDuty(locale: Locale, held: readonly UserRole[], role: UserRole): void {
  const other = conflictingRole(held, role);
  if (other !== undefined)
    throw ApiError.conflict('staff.dutyConflict', { role: roleName(locale, role), other: roleName(locale, other) });
}

function auditOf(
  actor: StaffActor,
  action: AuditAction,
  target: Target | number,
  detail: Record<string, unknown> = {},
) {
  const id = typeof target === 'number' ? target : target.id;
  return { userId: actor.userId, action, target: `user:${id}`, detail: { ...detail, via: actor.via }, ip: actor.ip };
}

/** A partner institution by its code, or the refusal at the institution field. */
async function institutionIdOf(tx: Database, locale: Locale, code: string): Promise<number> {
  const [row] = await tx
    .select({ id: partnerInstitutions.id })
    .from(partnerInstitutions)
    .where(eq(partnerInstitutions.code, code))
    .limit(1);
  if (!row) throw fieldError(locale, ApiCode.BAD_REQUEST, 'institutionCode', 'staff.unknownInstitution');
  return row.id;
}

/**
 * Creates a staff account with the registration's rules (the input is checked with
 * createStaffInput first); a partner is related to its institution in the same transaction.
 * 409 at `userName` or `mobile` when taken; answers the new id.
 */
export async function createStaffAccount(db: Database, actor: StaffActor, input: CreateStaffInput): Promise<number> {
  await checkStaffPassword({ ...input, roles: [input.role] }, input.password, 'password');
  // Hash outside the transaction: argon2 takes a while and needs no lock.
  const passwordHash = await hashPassword(input.password);
  const taken = async (tx: Database) => {
    const [byName] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.userName}) = lower(${input.userName})`)
      .limit(1);
    if (byName) return fieldError(actor.locale, ApiCode.CONFLICT, 'userName', 'staff.userNameTaken');
    const [byMobile] = await tx.select({ id: users.id }).from(users).where(eq(users.mobile, input.mobile)).limit(1);
    if (byMobile) return fieldError(actor.locale, ApiCode.CONFLICT, 'mobile', 'auth.phoneTaken');
    return null;
  };
  try {
    return await db.transaction(async (tx) => {
      await lockStaff(tx);
      const refusal = await taken(tx);
      if (refusal) throw refusal;
      const partnerId =
        input.role === 'partner' ? await institutionIdOf(tx, actor.locale, input.institutionCode ?? '') : null;
      const [created] = await tx
        .insert(users)
        .values({ userName: input.userName, mobile: input.mobile, name: input.name, passwordHash, roles: [input.role] })
        .returning({ id: users.id });
      const id = created!.id;
      await writeAudit(tx, auditOf(actor, 'staff.create', id, { role: input.role }));
      if (partnerId !== null) {
        // The relation's own rules and audit row (partnerAccounts.ts), inside this transaction.
        await addRelation(
          tx,
          { userId: actor.userId, scope: null, ip: actor.ip, locale: actor.locale, via: actor.via },
          { partnerId, userName: input.userName, empId: input.empId ?? '' },
        );
      }
      return id;
    });
  } catch (error) {
    // Two creations raced past the checks: the unique indexes decided; answer as the checks would.
    if (isUniqueViolation(error)) throw (await taken(db)) ?? error;
    throw error;
  }
}

/**
 * Grants a staff role (other roles stay). 409 when the user has it already, or holds a role of
 * another duty.
 */
export async function grantRole(db: Database, actor: StaffActor, userId: number, role: GrantableRole): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStaff(tx);
    const target = await targetFor(tx, userId);
    if (target.roles.includes(role))
      throw ApiError.conflict('staff.alreadyHasRole', { role: roleName(actor.locale, role) });
    assertOneDuty(actor.locale, target.roles, role);
    await tx
      .update(users)
      .set({
        roles: sql`array(select distinct r from unnest(${users.roles} || array[${role}]::text[]) as r order by 1)`,
        ...becomingStaffFields(target.roles),
      })
      .where(eq(users.id, userId));
    await writeAudit(tx, auditOf(actor, 'staff.grant', target, { role }));
    await createNotice(tx, { userId, type: 'notification', messageKey: `staff.notice.${role}Granted` });
  });
}

/**
 * Revokes a staff role; a user left with no role is an individual again. Sessions
 * stay: every call reads the roles afresh, so the next call of that role answers 403.
 */
export async function revokeRole(db: Database, actor: StaffActor, userId: number, role: GrantableRole): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStaff(tx);
    const target = await targetFor(tx, userId);
    if (!target.roles.includes(role))
      throw ApiError.conflict('staff.lacksRole', { role: roleName(actor.locale, role) });
    if (role === 'admin') {
      if (target.id === actor.userId) throw ApiError.conflict('staff.selfRevokeAdmin');
      await assertAnotherAdmin(tx, target);
    }
    await tx
      .update(users)
      .set({
        roles: sql`case when cardinality(array_remove(${users.roles}, ${role}::text)) = 0 then array['individual']::text[] else array_remove(${users.roles}, ${role}::text) end`,
      })
      .where(eq(users.id, userId));
    await writeAudit(tx, auditOf(actor, 'staff.revoke', target, { role }));
    await createNotice(tx, { userId, type: 'notification', messageKey: `staff.notice.${role}Revoked` });
  });
}

/** Ends every session and pending login of the user (their second step included). */
async function endSessions(tx: Database, userId: number): Promise<void> {
  await revokeOtherSessions(tx, userId, null);
  await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
}

/** Disables an account: signing in is refused (该账户已停用) and every session ends. */
export async function disableAccount(db: Database, actor: StaffActor, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStaff(tx);
    const target = await targetFor(tx, userId);
    if (target.id === actor.userId) throw ApiError.conflict('staff.selfDisable');
    if (!target.active) throw ApiError.conflict('staff.alreadyDisabled');
    await assertAnotherAdmin(tx, target);
    await tx.update(users).set({ status: 'locked' }).where(eq(users.id, userId));
    await endSessions(tx, userId);
    await writeAudit(tx, auditOf(actor, 'staff.disable', target));
  });
}

/** Enables a disabled account (and lifts a login lock it may still have). */
export async function enableAccount(db: Database, actor: StaffActor, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStaff(tx);
    const target = await targetFor(tx, userId);
    if (target.active) throw ApiError.conflict('staff.alreadyActive');
    await tx.update(users).set({ status: 'active', lockedUntil: null, failedLogins: 0 }).where(eq(users.id, userId));
    await writeAudit(tx, auditOf(actor, 'staff.enable', target));
  });
}

/**
 * Resets the user's second factor (a lost phone): the authenticator and the recovery codes are
 * deleted and every session ends, so the next sign-in starts a new enrolment. 409 when the user
 * has none (nor one being set up).
 */
export async function resetSecondFactor(db: Database, actor: StaffActor, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockStaff(tx);
    const target = await targetFor(tx, userId);
    if (target.id === actor.userId) throw ApiError.conflict('staff.selfSecondFactor');
    const [removed] = await tx
      .delete(secondFactors)
      .where(eq(secondFactors.userId, userId))
      .returning({ confirmedAt: secondFactors.confirmedAt });
    if (!removed) throw ApiError.conflict('staff.noSecondFactor');
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await endSessions(tx, userId);
    await writeAudit(
      tx,
      auditOf(actor, 'secondFactor.reset', target, { was: removed.confirmedAt === null ? 'enrolling' : 'enrolled' }),
    );
    await createNotice(tx, { userId, type: 'notification', messageKey: 'staff.notice.secondFactorReset' });
  });
}

/**
 * Relates the user to the institution with this code and staff number, which gives the partner
 * role: partnerAccounts.ts's addRelation, with its refusals (409 already related, staff number
 * taken) and audit row. 400 at `institutionCode` for an unknown code.
 */
export async function relateInstitution(
  db: Database,
  actor: StaffActor,
  input: { userId: number; institutionCode: string; empId: string },
): Promise<void> {
  const [user] = await db.select({ userName: users.userName }).from(users).where(eq(users.id, input.userId)).limit(1);
  if (!user) throw ApiError.notFound('staff.userNotFound');
  const partnerId = await institutionIdOf(db, actor.locale, input.institutionCode);
  await addRelation(
    db,
    { userId: actor.userId, scope: null, ip: actor.ip, locale: actor.locale, via: actor.via },
    { partnerId, userName: user.userName, empId: input.empId },
  );
}
