import { useEffect, useState } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { allowedActions } from '../../lib/orderStatus.ts';
import type { OpsOrderRowData } from '../../lib/schemas/order.ts';
import OrderFilters from '../order/OrderFilters.tsx';
import { createdDaysAsInstants, newestFirst } from '../order/orderList.ts';
import { OPS_API, formatDateTime, orderStatusLabel } from '../order/orderView.ts';
import DataTable, { type Column } from '../table/DataTable.tsx';
import { useSessionTable } from '../table/useSessionTable.ts';
import OpsOrderPanel from './OpsOrderPanel.tsx';
import type { OpsOrdersMessages } from './opsOrders.ts';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: OpsOrdersMessages;
}

const query = { sort: newestFirst };
const build = { searchFields: ['orderNo', 'enterpriseName', 'setName', 'orgComName'] };

/** The order being handled is in the address too (`order=`), so a reload or a link reopens it. */
function openOrderFromLocation(): string {
  return new URLSearchParams(window.location.search).get('order')?.trim() ?? '';
}

function setOpenOrder(orderNo: string): void {
  const params = new URLSearchParams(window.location.search);
  if (orderNo) params.set('order', orderNo);
  else params.delete('order');
  const search = params.toString();
  window.history.pushState(null, '', `${window.location.pathname}${search ? `?${search}` : ''}`);
}

/**
 * The operator's order queue (/ops/orders): every enterprise's orders, filtered, searched, sorted
 * and paged on the server with the state in the address; one order at a time opened below the
 * table to move it on (accept, confirm, complete, cancel, reject).
 */
export default function OpsOrders({ locale, messages }: Props) {
  const table = useSessionTable<OpsOrderRowData>({
    url: `${OPS_API}/order/getAntTable`,
    query,
    build,
    toRequest: createdDaysAsInstants,
  });
  const [open, setOpen] = useState('');
  const { state } = table;

  useEffect(() => {
    const read = () => setOpen(openOrderFromLocation());
    read();
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, []);

  const show = (orderNo: string) => {
    setOpenOrder(orderNo);
    setOpen(orderNo);
  };

  const columns: Column<OpsOrderRowData>[] = [
    {
      key: 'orderNo',
      label: messages['ordering.col.orderNo'],
      sortable: true,
      className: 'whitespace-nowrap font-mono',
    },
    {
      key: 'enterpriseName',
      label: messages['certify.field.enterpriseName'],
      sortable: true,
    },
    { key: 'setName', label: messages['ordering.col.setName'] },
    { key: 'orgComName', label: messages['ordering.col.orgComName'] },
    {
      key: 'contractStart',
      label: messages['ordering.col.contractStart'],
      sortable: true,
      className: 'whitespace-nowrap',
    },
    {
      key: 'status',
      label: messages['ordering.col.status'],
      kind: 'status',
      sortable: true,
      render: (row) => (
        <span className="flex flex-wrap gap-1">
          <StatusBadge kind="order" status={row.status} label={orderStatusLabel(row.status, messages)} size="sm" />
          {row.deleted && (
            <span className="badge badge-sm badge-ghost whitespace-nowrap">{messages['ops.orders.deleted']}</span>
          )}
        </span>
      ),
    },
    {
      key: 'createdAt',
      label: messages['ordering.col.createdAt'],
      kind: 'secondary',
      sortable: true,
      className: 'whitespace-nowrap',
      render: (row) => formatDateTime(row.createdAt, locale),
    },
    {
      key: 'open',
      label: messages['ordering.detail.actions'],
      kind: 'action',
      // 处理 where the state machine leaves the operator something to do, 查看 where it does not.
      render: (row) => {
        const actionable = allowedActions(row.status, 'operator').length > 0;
        return (
          <button
            type="button"
            className={`btn btn-xs ${actionable ? 'btn-outline btn-primary' : 'btn-outline'}`}
            aria-label={format(messages[actionable ? 'ops.orders.openLabel' : 'ops.orders.viewLabel'], {
              orderNo: row.orderNo,
            })}
            aria-pressed={open === row.orderNo}
            onClick={() => show(row.orderNo)}
          >
            {messages[actionable ? 'ops.orders.open' : 'ops.orders.view']}
          </button>
        );
      },
    },
  ];

  return (
    <div className="grid gap-4">
      <OrderFilters
        label={messages['ops.orders.filterLabel']}
        keywordHint={messages['ops.orders.keywordHint']}
        state={state}
        messages={messages}
        onApply={table.patch}
      />
      <DataTable
        caption={messages['page.opsOrders.title']}
        columns={columns}
        rowKey={(row) => row.orderNo}
        emptyMessage={messages['ops.orders.empty']}
        messages={messages}
        {...table.view}
      />
      {open && (
        <OpsOrderPanel
          key={open}
          orderNo={open}
          locale={locale}
          messages={messages}
          onClose={() => show('')}
          onChanged={table.retry}
        />
      )}
    </div>
  );
}
