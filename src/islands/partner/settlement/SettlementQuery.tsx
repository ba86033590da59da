import { useId, useState, type SubmitEvent } from 'react';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { exportRowCap } from '../../../lib/partner.ts';
import type { SettlementRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import DataTable, { type Column } from '../../table/DataTable.tsx';
import { useSessionTable } from '../../table/useSessionTable.ts';
import ExportButton from '../../table/ExportButton.tsx';
import PartnerPicker from '../PartnerPicker.tsx';
import { SETTLEMENT_API } from '../partnerApi.ts';
import { idFromText } from '../partnerTree.ts';
import { OutOfScopeNotice, outsideScope } from '../OutOfScope.tsx';
import { usePartnerTree } from '../usePartnerTree.ts';
import {
  SUBTREE,
  callFields,
  defaultSort,
  formatFixed,
  monthsOf,
  statusOptions,
  toRequest,
  type SettlementQueryMessages,
} from './settlementQuery.ts';
import StatusBadge from '../../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: SettlementQueryMessages;
}

type Row = Partial<SettlementRowData>;

const query = { sort: defaultSort };
/** The keyword box finds an enterprise by name, or one order by its number. */
const build = { searchFields: ['enterpriseName', 'orderNo'] };

/**
 * The settlement results a partner user may see (/partner/query/settlement): an institution's
 * subtree (tree select), a month range (the last three months unless the address says
 * otherwise), an enterprise keyword and a status; sortable and paged, everything in the address
 * (useUrlTable), so reload and a shared link show the same rows. Export writes exactly the
 * filtered rows, in the table's order, to an .xlsx file.
 */
export default function SettlementQuery({ locale, messages }: Props) {
  const table = useSessionTable<Row>({
    url: `${SETTLEMENT_API}/getSettlementAntTable`,
    query,
    build,
    toRequest,
    fields: callFields,
  });
  const tree = usePartnerTree();
  const { state } = table;
  const id = useId();
  const [monthError, setMonthError] = useState('');
  const months = monthsOf(state);
  const partnerId = idFromText(state.filters[SUBTREE]?.[0]);
  const outside = outsideScope(tree.load, [partnerId]).length > 0;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const from = text('from');
    const to = text('to');
    if (from && to && from > to) {
      setMonthError(messages['settlement.filter.monthOrder']);
      document.getElementById(`${id}-to`)?.focus();
      return;
    }
    setMonthError('');
    table.patch({
      keyword: text('keyword'),
      filters: { ...state.filters, status: text('status') ? [text('status')] : [] },
      ranges: { settleMonth: { ...(from ? { start: from } : {}), ...(to ? { end: to } : {}) } },
    });
  };

  const choosePartner = (chosen: number | undefined) => {
    table.patch({ filters: { ...state.filters, [SUBTREE]: chosen === undefined ? [] : [String(chosen)] } });
  };

  const statusWord = (status: number | undefined) =>
    status === 1 || status === 2 ? messages[`partner.settlementStatus.${status}`] : '-';

  const number = 'text-end whitespace-nowrap tabular-nums';
  const columns: Column<Row>[] = [
    { key: 'settleMonth', label: messages['settlement.col.settleMonth'], kind: 'secondary', sortable: true },
    { key: 'orderNo', label: messages['settlement.col.orderNo'], className: 'font-mono text-xs whitespace-nowrap' },
    {
      key: 'enterpriseName',
      label: messages['settlement.col.enterpriseName'],
      kind: 'key',
      sortable: true,
      className: 'min-w-32',
      render: (row) => (
        <>
          <span className="block">{row.enterpriseName}</span>
          {row.creditCode && <span className="block font-mono text-xs text-muted">{row.creditCode}</span>}
        </>
      ),
    },
    {
      key: 'partnerName',
      label: messages['settlement.col.partnerName'],
      sortable: true,
      className: 'whitespace-nowrap',
      render: (row) => row.partnerName ?? '-',
    },
    { key: 'setName', label: messages['settlement.col.setName'], className: 'min-w-24' },
    {
      key: 'settledEnergy',
      label: messages['settlement.col.settledEnergy'],
      sortable: true,
      className: number,
      render: (row) => formatFixed(row.settledEnergy, locale, 3),
    },
    {
      key: 'contractPrice',
      label: messages['settlement.col.contractPrice'],
      sortable: true,
      className: number,
      render: (row) => formatFixed(row.contractPrice, locale, 5),
    },
    {
      key: 'marketPrice',
      label: messages['settlement.col.marketPrice'],
      sortable: true,
      className: number,
      render: (row) => formatFixed(row.marketPrice, locale, 5),
    },
    {
      key: 'settledAmount',
      label: messages['settlement.col.settledAmount'],
      sortable: true,
      className: number,
      render: (row) => formatFixed(row.settledAmount, locale, 2),
    },
    {
      key: 'saving',
      label: messages['settlement.col.saving'],
      sortable: true,
      className: number,
      render: (row) => formatFixed(row.saving, locale, 2),
    },
    {
      key: 'status',
      label: messages['settlement.col.status'],
      kind: 'status',
      render: (row) => (
        <StatusBadge kind="settlement" status={row.status ?? 0} label={statusWord(row.status)} size="sm" />
      ),
    },
  ];

  const field = (
    name: string,
    label: string,
    input: { type: string; defaultValue: string; className: string; placeholder?: string; error?: string },
  ) => (
    <div className="fieldset py-0">
      <label htmlFor={`${id}-${name}`} className="fieldset-legend pb-1 text-sm">
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={input.type}
        maxLength={100}
        className={`input input-sm ${input.className} ${input.error ? 'input-error' : ''}`}
        placeholder={input.placeholder}
        defaultValue={input.defaultValue}
        aria-invalid={input.error ? true : undefined}
        aria-describedby={input.error ? `${id}-${name}-error` : undefined}
      />
      {input.error && (
        <p id={`${id}-${name}-error`} className="label text-xs text-error">
          {input.error}
        </p>
      )}
    </div>
  );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <PartnerPicker
          label={messages['settlement.filter.partner']}
          treeLabel={messages['settlement.tree.label']}
          allLabel={messages['settlement.filter.allPartners']}
          load={tree.load}
          selectedId={partnerId}
          onChange={choosePartner}
          onRetry={tree.reload}
          messages={messages}
        />
      </div>
      <form
        key={JSON.stringify([state.keyword, state.filters, state.ranges])}
        role="search"
        aria-label={messages['settlement.filter.label']}
        className="flex flex-wrap items-start gap-3"
        onSubmit={submit}
        noValidate
      >
        {field('from', messages['settlement.filter.from'], {
          type: 'month',
          defaultValue: months.start,
          className: 'w-40',
          placeholder: 'YYYY-MM',
        })}
        {field('to', messages['settlement.filter.to'], {
          type: 'month',
          defaultValue: months.end,
          className: 'w-40',
          placeholder: 'YYYY-MM',
          error: monthError,
        })}
        {field('keyword', messages['settlement.filter.keyword'], {
          type: 'search',
          defaultValue: state.keyword,
          className: 'w-56',
          placeholder: messages['settlement.filter.keywordHint'],
        })}
        <div className="fieldset py-0">
          <label htmlFor={`${id}-status`} className="fieldset-legend pb-1 text-sm">
            {messages['settlement.filter.status']}
          </label>
          <select
            id={`${id}-status`}
            name="status"
            className="select select-sm w-36"
            defaultValue={state.filters['status']?.[0] ?? ''}
          >
            <option value="">{messages['settlement.filter.anyStatus']}</option>
            {statusOptions.map((status) => (
              <option key={status} value={status}>
                {messages[`partner.settlementStatus.${status}`]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-2 self-end">
          <button type="submit" className="btn btn-primary btn-sm">
            {messages['settlement.filter.search']}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => {
              setMonthError('');
              table.patch({ keyword: '', filters: {}, ranges: {}, likes: {}, sort: [...defaultSort] });
            }}
          >
            {messages['settlement.filter.reset']}
          </button>
        </div>
      </form>
      <ExportButton
        url={`${SETTLEMENT_API}/exportSettlementAntTable`}
        data={() => ({ ...callFields(state), antTable: buildAntTable(toRequest(state), build) })}
        locale={locale}
        messages={messages}
        // From the load state, not the session flag: that may already be set when the island
        // hydrates, and a `disabled` differing from the prerendered HTML is never corrected.
        disabled={table.load !== 'ready' || table.totalCount === 0 || outside}
        hint={format(messages['settlement.export.hint'], { cap: new Intl.NumberFormat(locale).format(exportRowCap) })}
      />
      {outside && tree.load.state === 'ready' ? (
        <OutOfScopeNotice roots={tree.load.roots} messages={messages} onOwn={(root) => choosePartner(root.id)} />
      ) : (
        <DataTable
          caption={messages['page.settlement.title']}
          columns={columns}
          rowKey={(row) => String(row.id)}
          emptyMessage={messages['settlement.empty']}
          messages={messages}
          {...table.view}
        />
      )}
    </div>
  );
}
