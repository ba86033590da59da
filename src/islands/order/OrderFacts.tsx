import type { ReactNode } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { OrderDetailData } from '../../lib/schemas/order.ts';
import type { OrderFactsMessages } from './orderDetail.ts';
import { actorKeys, formatDateTime, formatNumber, orderStatusLabel } from './orderView.ts';

interface Props {
  order: OrderDetailData;
  locale: Locale;
  messages: OrderFactsMessages;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <h3 id={id} className="card-title text-base">
          {title}
        </h3>
        {children}
      </div>
    </section>
  );
}

/**
 * What an order is: its parameters, the plan parameters as ordered, its status history and the
 * notices about it. Shown to the enterprise on its detail page and to the operator in the queue.
 */
export default function OrderFacts({ order, locale, messages }: Props) {
  const scheme = order.schemeParam;
  const dash = '-';
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section id={`order-info-${order.orderNo}`} title={messages['ordering.detail.info']}>
        <dl className="grid gap-2">
          <Fact label={messages['ordering.detail.status']}>{orderStatusLabel(order.status, messages)}</Fact>
          {order.statusReason && <Fact label={messages['ordering.detail.reason']}>{order.statusReason}</Fact>}
          <Fact label={messages['ordering.detail.enterprise']}>{order.enterprise.enterpriseName}</Fact>
          <Fact label={messages['field.clearanceAccount']}>{order.enterprise.clearanceAccount || dash}</Fact>
          <Fact label={messages['ordering.detail.product']}>{order.productName || dash}</Fact>
          <Fact label={messages['ordering.detail.set']}>{order.setName}</Fact>
          <Fact label={messages['ordering.detail.orgCom']}>{order.orgComName}</Fact>
          <Fact label={messages['ordering.detail.area']}>{order.areaName || order.areaCode}</Fact>
          <Fact label={messages['ordering.detail.contractPeriod']}>
            {format(messages['ordering.detail.periodValue'], {
              start: order.contractStart,
              end: order.contractEnd,
              months: order.contractMonths,
            })}
          </Fact>
          <Fact label={messages['ordering.detail.consumption']}>
            {format(messages['ordering.detail.consumptionValue'], {
              value: formatNumber(order.estimatedConsumption, locale),
            })}
          </Fact>
          <Fact label={messages['ordering.detail.createdAt']}>{formatDateTime(order.createdAt, locale)}</Fact>
          <Fact label={messages['ordering.detail.updatedAt']}>{formatDateTime(order.updatedAt, locale)}</Fact>
        </dl>
      </Section>

      <Section id={`order-scheme-${order.orderNo}`} title={messages['ordering.detail.scheme']}>
        <dl className="grid gap-2">
          <Fact label={messages['ordering.detail.schemeName']}>{scheme.name}</Fact>
          {scheme.priceType === 'energyPrice' && scheme.energyPrice !== undefined && (
            <Fact label={messages['ordering.detail.priceEnergy']}>
              {format(messages['ordering.detail.priceEnergyValue'], {
                value: formatNumber(scheme.energyPrice, locale, 4),
              })}
            </Fact>
          )}
          {scheme.priceType === 'shareRatio' && scheme.shareRatio !== undefined && (
            <Fact label={messages['ordering.detail.priceShare']}>
              {format(messages['ordering.detail.priceShareValue'], {
                value: formatNumber(scheme.shareRatio, locale, 2),
              })}
            </Fact>
          )}
          {scheme.remark && <Fact label={messages['ordering.detail.remark']}>{scheme.remark}</Fact>}
        </dl>
      </Section>

      <Section id={`order-history-${order.orderNo}`} title={messages['ordering.detail.history']}>
        <ol className="grid gap-3">
          {order.history.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className="border-l-2 border-primary/40 pl-3 text-sm">
              <p className="font-medium">
                {entry.fromStatus === null
                  ? `${messages['ordering.detail.historyCreated']} · ${orderStatusLabel(entry.toStatus, messages)}`
                  : `${orderStatusLabel(entry.fromStatus, messages)} → ${orderStatusLabel(entry.toStatus, messages)}`}
              </p>
              <p className="text-muted">
                {formatDateTime(entry.at, locale)} · {messages[actorKeys[entry.actorRole]]}
              </p>
              {entry.note && <p className="mt-1">{entry.note}</p>}
            </li>
          ))}
        </ol>
      </Section>

      <Section id={`order-notices-${order.orderNo}`} title={messages['ordering.detail.notices']}>
        {order.notices.length === 0 ? (
          <p className="text-sm text-base-content/70">{messages['ordering.detail.noNotices']}</p>
        ) : (
          <ul className="divide-y divide-base-200">
            {order.notices.map((notice) => (
              <li key={notice.id} className="py-2 text-sm">
                <p className="font-medium">{notice.title}</p>
                {notice.description && <p className="text-base-content/70">{notice.description}</p>}
                <p className="text-xs text-muted">{formatDateTime(notice.datetime, locale)}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
