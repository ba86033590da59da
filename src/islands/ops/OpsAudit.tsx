import { useId, type SubmitEvent } from 'react';
import { format } from '../../lib/api/messages.ts';
import {
  auditActionKey,
  auditActionText,
  auditActions,
  auditDetailText,
  auditTargetText,
  type AuditWords,
} from '../../lib/auditTrail.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { exportRowCap } from '../../lib/partner.ts';
import type { AuditRowData } from '../../lib/schemas/order.ts';
import { buildAntTable, type TableSort } from '../../lib/tableRequest.ts';
import { OPS_API, formatDateTime } from '../order/orderView.ts';
import DataTable, { type Column } from '../table/DataTable.tsx';
import ExportButton from '../table/ExportButton.tsx';
import { daysAsInstants } from '../table/dayRange.ts';
import { useSessionTable } from '../table/useSessionTable.ts';
import type { OpsAuditMessages } from './opsAudit.ts';

interface Props {
  locale: Locale;
  messages: OpsAuditMessages;
}

const query = { sort: [{ key: 'at', order: 'desc' }] as TableSort[] };
/** The keyword box searches the target (order:HGD…, enterprise:12, user:3). */
const build = { searchFields: ['target'] };
const toRequest = daysAsInstants('at');

/**
 * The audit trail (/ops/audit), the auditor's: who did what to which record, when and from where;
 * filtered by action, target and time, newest first, with the state in the address; exported as
 * the table filters it.
 */
export default function OpsAudit({ locale, messages }: Props) {
  const table = useSessionTable<AuditRowData>({ url: `${OPS_API}/audit/getAntTable`, query, build, toRequest });
  const { state } = table;
  const id = useId();
  const at = state.ranges.at ?? {};
  const words: AuditWords = (key, params) => format(messages[key as keyof OpsAuditMessages], params ?? {});

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    table.patch({
      keyword: text('target'),
      filters: { action: text('action') ? [text('action')] : [] },
      ranges: { at: { ...(text('from') ? { start: text('from') } : {}), ...(text('to') ? { end: text('to') } : {}) } },
    });
  };

  const columns: Column<AuditRowData>[] = [
    {
      key: 'at',
      label: messages['ops.audit.col.at'],
      sortable: true,
      className: 'whitespace-nowrap',
      render: (row) => formatDateTime(row.at, locale),
    },
    {
      key: 'userName',
      label: messages['ops.audit.col.userName'],
      sortable: true,
      render: (row) => row.userName ?? messages['ops.audit.system'],
    },
    {
      key: 'action',
      label: messages['ops.audit.col.action'],
      sortable: true,
      render: (row) => auditActionText(row.action, words),
    },
    {
      key: 'target',
      label: messages['ops.audit.col.target'],
      className: 'break-words',
      render: (row) => auditTargetText(row.target, words),
    },
    {
      key: 'detail',
      label: messages['ops.audit.col.detail'],
      className: 'max-w-md text-sm break-words',
      render: (row) => auditDetailText(row.action, row.detail, words) || '-',
    },
    {
      key: 'ip',
      label: messages['ops.audit.col.ip'],
      className: 'whitespace-nowrap text-xs',
      render: (row) => row.ip ?? '-',
    },
  ];

  const field = (
    name: string,
    label: string,
    props: { type?: string; placeholder?: string; defaultValue: string; className: string },
  ) => (
    <div className="fieldset py-0">
      <label htmlFor={`${id}-${name}`} className="fieldset-legend pb-1 text-sm">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={props.type ?? 'text'}
        maxLength={100}
        className={`input input-sm ${props.className}`}
        placeholder={props.placeholder}
        defaultValue={props.defaultValue}
      />
    </div>
  );

  return (
    <div className="grid gap-4">
      <form
        key={JSON.stringify([state.keyword, state.filters, state.ranges])}
        role="search"
        aria-label={messages['ops.audit.filterLabel']}
        className="flex flex-wrap items-end gap-3"
        onSubmit={submit}
      >
        <div className="fieldset py-0">
          <label htmlFor={`${id}-action`} className="fieldset-legend pb-1 text-sm">
            {messages['ops.audit.action']}
          </label>
          <select
            id={`${id}-action`}
            name="action"
            className="select select-sm w-56 max-w-full"
            defaultValue={state.filters.action?.[0] ?? ''}
          >
            <option value="">{messages['ops.audit.allActions']}</option>
            {auditActions.map((action) => (
              <option key={action} value={action}>
                {messages[auditActionKey(action)]}
              </option>
            ))}
          </select>
        </div>
        {field('target', messages['ops.audit.target'], {
          type: 'search',
          placeholder: messages['ops.audit.targetHint'],
          defaultValue: state.keyword,
          className: 'w-64',
        })}
        {field('from', messages['ops.audit.from'], { type: 'date', defaultValue: at.start ?? '', className: 'w-40' })}
        {field('to', messages['ops.audit.to'], { type: 'date', defaultValue: at.end ?? '', className: 'w-40' })}
        <div className="flex gap-2">
          <button type="submit" className="btn btn-primary btn-sm">
            {messages['ordering.filter.search']}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => table.patch({ keyword: '', filters: {}, ranges: {}, likes: {} })}
          >
            {messages['ordering.filter.reset']}
          </button>
        </div>
      </form>
      <ExportButton
        url={`${OPS_API}/audit/exportAntTable`}
        data={() => ({ antTable: buildAntTable(toRequest(state), build) })}
        locale={locale}
        messages={messages}
        disabled={table.load !== 'ready' || table.totalCount === 0}
        hint={format(messages['ops.audit.exportHint'], { cap: new Intl.NumberFormat(locale).format(exportRowCap) })}
      />
      <DataTable
        caption={messages['page.opsAudit.title']}
        columns={columns}
        rowKey={(row) => String(row.id)}
        emptyMessage={messages['ops.audit.empty']}
        messages={messages}
        {...table.view}
      />
    </div>
  );
}
