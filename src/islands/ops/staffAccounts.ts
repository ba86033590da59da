/** The administrator's staff accounts (/ops/staff): its messages, its calls and how states are shown. */
import type { MessageKey } from '../../lib/i18n/index.ts';
import type { AccountStatus, GrantableRole, SecondFactorState } from '../../lib/schemas/staff.ts';
import { dataTableMessageKeys } from '../table/dataTable.ts';

export const STAFF_API = '/api/ops/staff';

export const secondFactorKeys = {
  none: 'staff.secondFactor.none',
  enrolling: 'staff.secondFactor.enrolling',
  enrolled: 'staff.secondFactor.enrolled',
} as const satisfies Record<SecondFactorState, MessageKey>;

export const statusKeys = {
  active: 'staff.status.active',
  disabled: 'staff.status.disabled',
} as const satisfies Record<AccountStatus, MessageKey>;

export const grantKeys = {
  admin: 'staff.action.grantAdmin',
  operator: 'staff.action.grantOperator',
  editor: 'staff.action.grantEditor',
  auditor: 'staff.action.grantAuditor',
} as const satisfies Record<GrantableRole, MessageKey>;
export const revokeKeys = {
  admin: 'staff.action.revokeAdmin',
  operator: 'staff.action.revokeOperator',
  editor: 'staff.action.revokeEditor',
  auditor: 'staff.action.revokeAuditor',
} as const satisfies Record<GrantableRole, MessageKey>;

export function secondFactorBadge(state: SecondFactorState): string {
  return state === 'enrolled' ? 'badge-success' : state === 'enrolling' ? 'badge-warning' : 'badge-ghost';
}

export function statusBadge(status: AccountStatus): string {
  return status === 'active' ? 'badge-success badge-outline' : 'badge-error';
}

/** The role filter's choices: the engine's boolean columns (services/staffAccounts.ts). */
export const roleFilters = {
  admin: 'isAdmin',
  operator: 'isOperator',
  editor: 'isEditor',
  auditor: 'isAuditor',
  partner: 'isPartner',
} as const;

export const staffAccountsMessageKeys = [
  ...dataTableMessageKeys,
  'page.opsStaff.title',
  'common.loading',
  'ordering.filter.search',
  'ordering.filter.reset',
  'ordering.retry',
  'account.role.individual',
  'account.role.enterprise',
  'account.role.partner',
  'account.role.operator',
  'account.role.editor',
  'account.role.admin',
  'account.role.auditor',
  'staff.filterLabel',
  'staff.keyword',
  'staff.keywordHint',
  'staff.scopeHint',
  'staff.role',
  'staff.allRoles',
  'staff.status',
  'staff.allStatuses',
  'staff.status.active',
  'staff.status.disabled',
  'staff.secondFactor.none',
  'staff.secondFactor.enrolling',
  'staff.secondFactor.enrolled',
  'staff.col.user',
  'staff.col.roles',
  'staff.col.secondFactor',
  'staff.col.status',
  'staff.col.institutions',
  'staff.col.lastLogin',
  'staff.neverLoggedIn',
  'staff.you',
  'staff.emptyStaff',
  'staff.emptySearch',
  'staff.openLabel',
  'staff.panel.title',
  'staff.panel.close',
  'staff.panel.loadFailed',
  'staff.panel.mobile',
  'staff.panel.created',
  'staff.panel.roles',
  'staff.panel.account',
  'staff.panel.secondFactor',
  'staff.panel.institutions',
  'staff.panel.noInstitutions',
  'staff.panel.selfHint',
  'staff.panel.partnerHint',
  'staff.panel.dutyHint',
  'staff.panel.secondFactorNone',
  'staff.institution',
  'staff.action.grantAdmin',
  'staff.action.grantOperator',
  'staff.action.grantEditor',
  'staff.action.grantAuditor',
  'staff.action.revokeAdmin',
  'staff.action.revokeOperator',
  'staff.action.revokeEditor',
  'staff.action.revokeAuditor',
  'staff.action.disable',
  'staff.action.enable',
  'staff.action.resetSecondFactor',
  'staff.action.unrelate',
  'staff.action.unrelateLabel',
  'staff.action.done',
  'staff.confirm.revokeTitle',
  'staff.confirm.revokeBody',
  'staff.confirm.revoke',
  'staff.confirm.disableTitle',
  'staff.confirm.disableBody',
  'staff.confirm.disable',
  'staff.confirm.resetTitle',
  'staff.confirm.resetBody',
  'staff.confirm.reset',
  'staff.confirm.unrelateTitle',
  'staff.confirm.unrelateBody',
  'staff.confirm.unrelate',
  'staff.confirm.cancel',
  'staff.relate.title',
  'staff.relate.code',
  'staff.relate.codeHint',
  'staff.relate.codeInvalid',
  'staff.relate.empId',
  'staff.relate.empIdHint',
  'staff.relate.empIdInvalid',
  'staff.relate.required',
  'staff.relate.submit',
] as const satisfies readonly MessageKey[];

export type StaffAccountsMessages = Record<(typeof staffAccountsMessageKeys)[number], string>;
