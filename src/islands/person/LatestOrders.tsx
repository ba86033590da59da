import { useEffect, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { OrderRowData, OrderTableData } from '../../lib/schemas/order.ts';
import { buildAntTable, defaultTableQuery } from '../../lib/tableRequest.ts';
import { ORDER_API, formatDateTime, orderDetailHref, orderStatusLabel } from '../order/orderView.ts';
import { callQuiet } from '../quietCall.ts';
import { OVERVIEW_ORDER_COUNT, type OverviewMessages } from './overview.ts';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: OverviewMessages;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; rows: OrderRowData[] };

const latestRequest = buildAntTable(
  { ...defaultTableQuery({ size: OVERVIEW_ORDER_COUNT }), sort: [{ key: 'createdAt', order: 'desc' }] },
  { select: ['orderNo', 'setName', 'status', 'createdAt'] },
);

/** The overview's latest orders of the user's enterprise (only rendered when there is one). */
export default function LatestOrders({ locale, messages }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    void callQuiet<OrderTableData<OrderRowData>>('POST', `${ORDER_API}/getAntTable`, { antTable: latestRequest }).then(
      (answer) => setLoaded(answer?.ok ? { state: 'ready', rows: answer.data.result } : { state: 'failed' }),
    );
  }, []);

  if (loaded.state === 'loading')
    return (
      <p role="status" className="text-sm text-base-content/70">
        {messages['common.loading']}
      </p>
    );
  if (loaded.state === 'failed')
    return (
      <p role="alert" className="text-sm text-error">
        {messages['account.common.loadFailed']}
      </p>
    );
  if (loaded.rows.length === 0)
    return <p className="text-sm text-base-content/70">{messages['account.overview.ordersEmpty']}</p>;
  return (
    <ul className="divide-y divide-base-200">
      {loaded.rows.map((row) => (
        <li key={row.orderNo} className="flex flex-wrap items-center gap-2 py-2 text-sm">
          <a className="link link-primary font-mono" href={orderDetailHref(locale, row.orderNo)}>
            {row.orderNo}
          </a>
          <span className="min-w-0 flex-1 truncate">{row.setName}</span>
          <StatusBadge kind="order" status={row.status} label={orderStatusLabel(row.status, messages)} size="sm" />
          <span className="w-full text-xs text-muted">{formatDateTime(row.createdAt, locale)}</span>
        </li>
      ))}
    </ul>
  );
}
