import { ApiCode } from '../../lib/apiCodes.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { OrderRowData } from '../../lib/schemas/order.ts';
import DataTable, { type Column } from '../table/DataTable.tsx';
import { useSessionTable } from '../table/useSessionTable.ts';
import OrderFilters from './OrderFilters.tsx';
import { createdDaysAsInstants, isFiltered, newestFirst, type OrderListMessages } from './orderList.ts';
import { ORDER_API, formatDateTime, formatNumber, orderDetailHref, orderStatusLabel } from './orderView.ts';
import EmptyState from '../EmptyState.tsx';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: OrderListMessages;
}

const query = { sort: newestFirst };
const build = { searchFields: ['orderNo', 'setName', 'orgComName'] };

/**
 * My orders (/person/order): the enterprise's orders, filtered by status, keyword and order
 * date, sorted and paged on the server, with the whole state in the address.
 */
export default function OrderList({ locale, messages }: Props) {
  const table = useSessionTable<OrderRowData>({
    url: `${ORDER_API}/getAntTable`,
    query,
    build,
    toRequest: createdDaysAsInstants,
  });
  const { state } = table;

  const columns: Column<OrderRowData>[] = [
    {
      key: 'orderNo',
      label: messages['ordering.col.orderNo'],
      sortable: true,
      className: 'whitespace-nowrap',
      render: (row) => (
        <a className="link link-primary font-mono" href={orderDetailHref(locale, row.orderNo)}>
          {row.orderNo}
        </a>
      ),
    },
    { key: 'setName', label: messages['ordering.col.setName'] },
    { key: 'orgComName', label: messages['ordering.col.orgComName'] },
    {
      key: 'contractStart',
      label: messages['ordering.col.contractStart'],
      sortable: true,
      className: 'whitespace-nowrap',
    },
    { key: 'contractMonths', label: messages['ordering.col.contractMonths'], className: 'text-right' },
    {
      key: 'estimatedConsumption',
      label: messages['ordering.col.estimatedConsumption'],
      sortable: true,
      className: 'text-right',
      render: (row) => formatNumber(row.estimatedConsumption, locale),
    },
    {
      key: 'status',
      label: messages['ordering.col.status'],
      kind: 'status',
      sortable: true,
      render: (row) => (
        <StatusBadge kind="order" status={row.status} label={orderStatusLabel(row.status, messages)} size="sm" />
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
  ];

  const filtered = isFiltered(state);

  // Orders belong to an enterprise: a user without one is told where to start, not "retry".
  if (table.failureCode === ApiCode.FORBIDDEN) {
    return (
      <EmptyState
        role="status"
        message={messages['ordering.gate.noEnterprise']}
        action={{ href: localePath(locale, '/setting/binding'), label: messages['ordering.gate.bind'] }}
      />
    );
  }

  return (
    <div className="grid gap-4">
      {/* The page's one primary action first: ordering a package; the filters after it. */}
      <div className="flex flex-wrap items-end gap-3">
        <a className="btn btn-primary btn-sm" href={localePath(locale, '/handle/order')}>
          {messages['ordering.list.newOrder']}
        </a>
        <OrderFilters
          label={messages['ordering.filter.label']}
          keywordHint={messages['ordering.filter.keywordHint']}
          state={state}
          messages={messages}
          onApply={table.patch}
        />
      </div>
      <DataTable
        caption={messages['page.order.title']}
        columns={columns}
        rowKey={(row) => row.orderNo}
        emptyMessage={messages[filtered ? 'ordering.list.emptyFiltered' : 'ordering.list.empty']}
        emptyAction={
          filtered
            ? undefined
            : { href: localePath(locale, '/handle/order'), label: messages['ordering.list.newOrder'] }
        }
        messages={messages}
        {...table.view}
      />
    </div>
  );
}
