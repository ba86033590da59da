/**
 * The institution page (/partner/organization): its messages and the chosen institution in the
 * address (`?partnerId=17`), so reload and a shared link open the same institution.
 */
import type { MessageKey } from '../../../lib/i18n/index.ts';
import { partnerTreeMessageKeys } from '../partnerTree.ts';
import { outOfScopeMessageKeys } from '../OutOfScope.tsx';

export const organizationMessageKeys = [
  ...partnerTreeMessageKeys,
  ...outOfScopeMessageKeys,
  'settlement.tree.label',
  'settlement.org.choose',
  'settlement.org.details',
  'settlement.org.code',
  'settlement.org.level',
  'settlement.org.parent',
  'settlement.org.none',
  'settlement.org.address',
  'settlement.org.phone',
  'settlement.org.contact',
  'settlement.org.path',
  'settlement.org.childCount',
  'settlement.org.loadFailed',
  'settlement.staff.title',
  'settlement.staff.col.name',
  'settlement.staff.col.userName',
  'settlement.staff.col.mobile',
  'settlement.staff.col.empId',
  'settlement.staff.col.since',
  'settlement.staff.col.actions',
  'settlement.staff.empty',
  'settlement.staff.self',
  'settlement.staff.selfHint',
  'settlement.staff.remove',
  'settlement.staff.removeTitle',
  'settlement.staff.removeBody',
  'settlement.staff.removeConfirm',
  'settlement.staff.cancel',
  'settlement.staff.removed',
  'settlement.staff.add',
  'settlement.staff.userName',
  'settlement.staff.userNameHint',
  'settlement.staff.userNameInvalid',
  'settlement.staff.empId',
  'settlement.staff.empIdHint',
  'settlement.staff.empIdInvalid',
  'settlement.staff.required',
  'settlement.staff.submit',
  'settlement.staff.added',
] as const satisfies readonly MessageKey[];

export type OrganizationMessages = Record<(typeof organizationMessageKeys)[number], string>;

/** The address with the chosen institution, the page's other query keys kept. */
export function addressWith(partnerId: number | undefined): string {
  const params = new URLSearchParams(window.location.search);
  if (partnerId === undefined) params.delete('partnerId');
  else params.set('partnerId', String(partnerId));
  const query = params.toString();
  return `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`;
}
