/**
 * Staff accounts (operators, editors, partner staff): the inputs of `npm run user` and of the
 * operator's page /ops/staff (base /api/ops/staff), and what the page lists. The server
 * (src/server/services/staffAccounts.ts), the command line and the page share them; the rules of
 * each field are the registration's (fields.ts) and the staff relation's (partner.ts).
 */
import { z } from 'zod/mini';
import type { UserRole } from '../roles.ts';
import { staffRoles, type StaffRole } from '../staffRoles.ts';
import { passwordSchema, personNameSchema, phoneSchema, recordIdSchema, userNameSchema } from './fields.ts';
import { empIdSchema, partnerCodeSchema } from './partner.ts';
import type { TableAnswer } from './table.ts';

/** The roles that make an account staff (lib/roles.ts): any of them lists it on /ops/staff. */
export { staffRoles, type StaffRole };

/**
 * The roles granted and revoked directly, each within its duty (lib/roles.ts, staffDuties);
 * `partner` comes with a relation to an institution.
 */
export const grantableRoles = ['admin', 'operator', 'editor', 'auditor'] as const satisfies readonly StaffRole[];
export type GrantableRole = (typeof grantableRoles)[number];

/** A partner needs the institution (by its code) and the staff number there; the other roles take neither. */
function checkInstitution(
  input: { role: StaffRole; institutionCode?: string | undefined; empId?: string | undefined },
  ctx: z.core.$RefinementCtx,
): void {
  for (const field of ['institutionCode', 'empId'] as const) {
    if (input.role === 'partner' && input[field] === undefined) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'validation.required' });
    }
    if (input.role !== 'partner' && input[field] !== undefined) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'staff.onlyPartnerInstitution' });
    }
  }
}

const staffFields = z.object({
  userName: userNameSchema,
  mobile: phoneSchema,
  name: personNameSchema,
  role: z.enum(staffRoles),
  institutionCode: z.optional(partnerCodeSchema),
  empId: z.optional(empIdSchema),
});

/** A new staff account's fields but its password: checked before the password is asked for. */
export const newStaffFields = staffFields.check(z.superRefine(checkInstitution));

/** A new staff account (`npm run user -- create`), with the registration's rules for each field. */
export const createStaffInput = z
  .extend(staffFields, { password: passwordSchema })
  .check(z.superRefine(checkInstitution));
export type CreateStaffInput = z.output<typeof createStaffInput>;

/** POST grant and revoke: a user and a role granted directly. */
export const staffRoleBody = z.object({ userId: recordIdSchema, role: z.enum(grantableRoles) });
export type StaffRoleBody = z.input<typeof staffRoleBody>;

/** POST disable, enable, resetSecondFactor: the user acted on. */
export const staffUserBody = z.object({ userId: recordIdSchema });
export type StaffUserBody = z.input<typeof staffUserBody>;

/** POST relateInstitution: relate a user to an institution (by its code) with a staff number. */
export const relateInstitutionBody = z.object({
  userId: recordIdSchema,
  institutionCode: partnerCodeSchema,
  empId: empIdSchema,
});
export type RelateInstitutionBody = z.input<typeof relateInstitutionBody>;

/** A confirmed authenticator, one being set up (QR code shown, no code typed yet), or none. */
export const secondFactorStates = ['none', 'enrolling', 'enrolled'] as const;
export type SecondFactorState = (typeof secondFactorStates)[number];

/** `disabled`: signing in is refused and every session has ended. */
export const accountStatuses = ['active', 'disabled'] as const;
export type AccountStatus = (typeof accountStatuses)[number];

/** One of a user's relations to a partner institution. */
export interface StaffInstitutionData {
  /** The relation's id (what partneraccount/delRelationPartnerAccount takes). */
  relationId: number;
  partnerId: number;
  code: string;
  name: string;
  empId: string;
}

/** A row of the staff table (POST /api/ops/staff/getAntTable) and the answer of every change. */
export interface StaffRowData {
  id: number;
  userName: string;
  name: string;
  /** Masked: 138****8000. */
  mobile: string;
  roles: UserRole[];
  status: AccountStatus;
  secondFactor: SecondFactorState;
  institutions: StaffInstitutionData[];
  /** The last sign-in (ISO 8601), or null for never. */
  lastLoginAt: string | null;
  createdAt: string;
  /** The signed-in operator's own account (its operator role and status cannot be changed here). */
  self: boolean;
}
export type StaffTableData = TableAnswer<StaffRowData>;
