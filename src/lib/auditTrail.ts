/**
 * The audit trail's vocabulary, declared once: every action an entry may record (the writer,
 * services/audit.ts, accepts no other), the kinds of target (`order:HGD…`, `user:5`) and the detail
 * fields, each with its name in the dictionaries — so the auditor's table and its export read in
 * plain words in the reader's language, the same on the page and in the file.
 */
import { authStatusKey, authStatuses } from './authStatus.ts';
import type { MessageKey } from './i18n/index.ts';
import { orderActions, orderStatuses } from './orderStatus.ts';
import { roleKey, userRoles, type UserRole } from './roles.ts';

export const auditActions = [
  // Signing in and out
  'session.login',
  'session.renew',
  'session.loginFailed',
  'session.locked',
  'session.secondFactorOwed',
  'session.logout',
  'session.end',
  // The second factor
  'secondFactor.enrolStart',
  'secondFactor.enable',
  'secondFactor.disable',
  'secondFactor.verify',
  'secondFactor.failed',
  'secondFactor.locked',
  'secondFactor.recoveryCodes',
  'secondFactor.reset',
  // One's own account
  'user.register',
  'user.consent',
  'user.changeInfo',
  'user.passwordChange',
  'user.passwordReset',
  'user.dataExport',
  'user.cancelRequest',
  'user.cancelWithdrawn',
  'user.cancelled',
  // Staff administration
  'staff.create',
  'staff.grant',
  'staff.revoke',
  'staff.disable',
  'staff.enable',
  // Enterprises and their certification
  'enterprise.bind',
  'enterprise.add',
  'enterprise.draft',
  'enterprise.edit',
  'enterprise.editField',
  'enterprise.delete',
  'enterprise.fileUpload',
  'enterprise.fileDelete',
  'enterprise.reveal',
  'certification.submit',
  'certification.backToReview',
  'certification.approve',
  'certification.return',
  'certification.usbkey',
  'certification.usbkeyRemove',
  // Orders
  'order.create',
  'order.delete',
  ...orderActions.map((action) => `order.${action}` as const),
  // Partners and settlements
  'partner.export',
  'partner.relationAdd',
  'partner.relationDelete',
  'settlement.import',
  'audit.export',
  // Content
  'content.create',
  'content.save',
  'content.delete',
  'content.discard',
  'content.restore',
  'content.import',
  'content.export',
  'content.image',
  'content.imageDelete',
  'content.preview',
  'content.publish',
  'content.rollback',
  'content.schedule',
  'content.scheduleCancel',
] as const;
export type AuditAction = (typeof auditActions)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (auditActions as readonly string[]).includes(value);
}

/** The name of an action in the dictionaries (`session.login` → 登录). */
export function auditActionKey(action: AuditAction) {
  return `audit.action.${action}` as const satisfies MessageKey;
}

/**
 * The kinds of record an entry's target names, as `<kind>:<id>`, and `audit`, the trail itself (its
 * export); other targets are content paths and image names, shown as they are.
 */
export const auditTargetKinds = ['user', 'enterprise', 'order', 'partner', 'build', 'schedule'] as const;
export type AuditTargetKind = (typeof auditTargetKinds)[number];
const wholeTargets = ['audit'] as const;

/** The detail fields an entry may carry, named in the dictionaries (`audit.detail.<field>`). */
export const auditDetailFields = [
  'method',
  'deviceId',
  'secondFactor',
  'by',
  'from',
  'to',
  'reason',
  'status',
  'role',
  'via',
  'was',
  'field',
  'fields',
  'kind',
  'purpose',
  'proof',
  'decision',
  'versions',
  'consent',
  'session',
  'enterpriseId',
  'enterpriseName',
  'clearanceAccount',
  'partnerId',
  'productName',
  'sellingSetId',
  'schemeParamId',
  'fileId',
  'fileName',
  'files',
  'contentType',
  'size',
  'bytes',
  'sha256',
  'replaced',
  'erasureDay',
  'minutes',
  'format',
  'rows',
  'buildId',
  'paths',
  'scheduleId',
  'scheduled',
  'revision',
] as const;
export type AuditDetailField = (typeof auditDetailFields)[number];

/** The detail fields whose values are words of the portal's own, each named (`audit.value.<field>.<value>`). */
const namedValues = {
  method: ['account', 'mobile', 'register', 'passwordChange'],
  via: ['ops', 'cli'],
  proof: ['password', 'sms'],
  decision: ['agreed', 'declined'],
  kind: ['totp', 'recovery', 'businessLicence', 'authLetter'],
  was: ['enrolling', 'enrolled'],
} as const;
type NamedValueKey = {
  [F in keyof typeof namedValues]: `audit.value.${F}.${(typeof namedValues)[F][number]}`;
}[keyof typeof namedValues];
const namedValueKeys = Object.entries(namedValues).flatMap(([field, values]) =>
  values.map((value) => `audit.value.${field}.${value}` as NamedValueKey),
);

/** Every message the trail is shown with: what the auditor's page is given. */
export const auditMessageKeys = [
  ...auditActions.map(auditActionKey),
  ...auditTargetKinds.map((kind) => `audit.target.${kind}` as const),
  ...wholeTargets.map((target) => `audit.target.${target}` as const),
  ...auditDetailFields.map((field) => `audit.detail.${field}` as const),
  ...orderStatuses.map((status) => `orderStatus.${status}` as const),
  ...authStatuses.map((status) => `authStatus.${status}` as const),
  ...userRoles.map(roleKey),
  ...namedValueKeys,
  'audit.value.yes',
  'audit.value.no',
  'audit.value.system',
  'audit.detail.separator',
  'audit.detail.joiner',
] as const satisfies readonly MessageKey[];

/** The words the trail is shown in: the reader's dictionary, looked up by key. */
export type AuditWords = (key: MessageKey, params?: Record<string, string | number>) => string;

/** An entry's action in words; an action of an older release (not in the list) as written. */
export function auditActionText(action: string, words: AuditWords): string {
  return isAuditAction(action) ? words(auditActionKey(action)) : action;
}

/** An entry's target in words: `order:HGD…` → 订单 HGD…; a content path as it is. */
export function auditTargetText(target: string | null, words: AuditWords): string {
  if (!target) return '-';
  if ((wholeTargets as readonly string[]).includes(target)) {
    return words(`audit.target.${target as (typeof wholeTargets)[number]}`);
  }
  const colon = target.indexOf(':');
  const kind = target.slice(0, colon);
  if (colon < 0 || !(auditTargetKinds as readonly string[]).includes(kind)) return target;
  return words(`audit.target.${kind as AuditTargetKind}`, { id: target.slice(colon + 1) });
}

function isUserRole(value: unknown): value is UserRole {
  return (userRoles as readonly unknown[]).includes(value);
}

/** A coded value in words where its field says what it codes: a role, an order's or a certification's state. */
function codedValue(action: string, field: string, value: unknown): MessageKey | null {
  if (field === 'role' || field === 'by') {
    if (value === 'system') return 'audit.value.system';
    return isUserRole(value) ? roleKey(value) : null;
  }
  if (action.startsWith('order.') && ['from', 'to', 'status'].includes(field)) {
    return (orderStatuses as readonly unknown[]).includes(value) ? `orderStatus.${value as OrderStatusValue}` : null;
  }
  if (action.startsWith('certification.') && field === 'from') return authStatusKey(value);
  const named: readonly string[] | undefined = namedValues[field as keyof typeof namedValues];
  return typeof value === 'string' && named?.includes(value)
    ? (`audit.value.${field}.${value}` as NamedValueKey)
    : null;
}
type OrderStatusValue = (typeof orderStatuses)[number];

function valueText(action: string, field: string, value: unknown, words: AuditWords): string {
  const coded = codedValue(action, field, value);
  if (coded) return words(coded);
  if (value === true) return words('audit.value.yes');
  if (value === false) return words('audit.value.no');
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.map((item) => valueText(action, field, item, words)).join(', ');
  // A nested value (a table request, the versions agreed) as written: its keys are its own.
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An entry's detail as `名称：值` pairs; a field of an older release keeps its key. */
export function auditDetailText(action: string, detail: Record<string, unknown>, words: AuditWords): string {
  // In the list's order (who, from, to…), not the stored one: jsonb keeps keys shortest first.
  const rank = (key: string) => {
    const at = (auditDetailFields as readonly string[]).indexOf(key);
    return at < 0 ? auditDetailFields.length : at;
  };
  return Object.entries(detail)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => {
      const label = (auditDetailFields as readonly string[]).includes(key)
        ? words(`audit.detail.${key as AuditDetailField}`)
        : key;
      return `${label}${words('audit.detail.separator')}${valueText(action, key, value, words)}`;
    })
    .join(words('audit.detail.joiner'));
}
