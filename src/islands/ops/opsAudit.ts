/** The audit trail (/ops/audit): its messages. */
import { auditMessageKeys } from '../../lib/auditTrail.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import { dataTableMessageKeys } from '../table/dataTable.ts';
import { exportMessageKeys } from '../table/exportFile.ts';

export const opsAuditMessageKeys = [
  ...dataTableMessageKeys,
  ...exportMessageKeys,
  ...auditMessageKeys,
  'ops.audit.exportHint',
  'page.opsAudit.title',
  'ordering.filter.search',
  'ordering.filter.reset',
  'ops.audit.filterLabel',
  'ops.audit.col.at',
  'ops.audit.col.userName',
  'ops.audit.col.action',
  'ops.audit.col.target',
  'ops.audit.col.detail',
  'ops.audit.col.ip',
  'ops.audit.action',
  'ops.audit.allActions',
  'ops.audit.target',
  'ops.audit.targetHint',
  'ops.audit.from',
  'ops.audit.to',
  'ops.audit.empty',
  'ops.audit.system',
] as const satisfies readonly MessageKey[];

export type OpsAuditMessages = Record<(typeof opsAuditMessageKeys)[number], string>;
