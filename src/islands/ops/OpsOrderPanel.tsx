import { useCallback, useEffect, useRef, useState } from 'react';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { findTransition, operatorReasonActions, type OrderAction } from '../../lib/orderStatus.ts';
import type { OrderDetailData } from '../../lib/schemas/order.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import OrderFacts from '../order/OrderFacts.tsx';
import { OPS_API, orderStatusLabel } from '../order/orderView.ts';
import { callQuiet } from '../quietCall.ts';
import { actionKeys, type OpsOrdersMessages } from './opsOrders.ts';
import ReasonDialog from './ReasonDialog.tsx';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  orderNo: string;
  locale: Locale;
  messages: OpsOrdersMessages;
  onClose: () => void;
  /** An order changed: the queue reloads its page. */
  onChanged: () => void;
}

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; order: OrderDetailData };

/**
 * One order in the operator's console: its facts and the transitions the operator may make now
 * (allowedActions of /api/ops), each confirmed with a reason where one is required.
 */
export default function OpsOrderPanel({ orderNo, locale, messages, onClose, onChanged }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [action, setAction] = useState<OrderAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Starts as loading (one instance per order: the queue keys it by number); a retry shows loading first.
  const fetchOrder = useCallback(async (): Promise<Loaded> => {
    const answer = await callQuiet<OrderDetailData>('GET', `${OPS_API}/order/getOrderDetail`, { orderNo });
    return answer?.ok
      ? { state: 'ready', order: answer.data }
      : { state: 'failed', message: answer?.message || messages['ordering.detail.loadFailed'] };
  }, [orderNo, messages]);
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchOrder());
  }, [fetchOrder]);

  useEffect(() => {
    void fetchOrder().then(setLoaded);
    headingRef.current?.focus();
  }, [fetchOrder]);

  const run = async (reason: string) => {
    if (!action) return;
    setBusy(true);
    setRefusal('');
    const answer = await callQuiet<OrderDetailData>('POST', `${OPS_API}/order/transition`, {
      orderNo,
      action,
      ...(reason ? { reason } : {}),
    });
    setBusy(false);
    if (!answer) return;
    if (!answer.ok) {
      setRefusal(answer.message);
      return;
    }
    setAction(null);
    setLoaded({ state: 'ready', order: answer.data });
    message.success(format(messages['ops.action.done'], { status: orderStatusLabel(answer.data.status, messages) }));
    onChanged();
  };

  const order = loaded.state === 'ready' ? loaded.order : undefined;
  const transition = order && action ? findTransition(order.status, action, 'operator') : undefined;

  return (
    <section aria-labelledby="ops-order-title" className="grid gap-4 rounded-box border border-primary/40 p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="ops-order-title" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
          {format(messages['ops.orders.detailTitle'], { orderNo })}
        </h2>
        {order && <StatusBadge kind="order" status={order.status} label={orderStatusLabel(order.status, messages)} />}
        {order?.deletedAt && <span className="badge badge-ghost">{messages['ops.orders.deleted']}</span>}
        <button type="button" className="btn btn-ghost btn-sm ml-auto" onClick={onClose}>
          {messages['ops.orders.closeDetail']}
        </button>
      </div>
      {loaded.state === 'loading' && <Loading label={messages['common.loading']} />}
      {loaded.state === 'failed' && (
        <LoadFailed message={loaded.message} retryLabel={messages['ordering.retry']} onRetry={() => void load()} />
      )}
      {order && (
        <>
          <div
            className="flex flex-wrap items-center gap-2"
            role="group"
            aria-label={messages['ordering.detail.actions']}
          >
            {order.allowedActions.length === 0 ? (
              <p className="text-sm text-base-content/70">
                {format(messages['ops.orders.noActions'], { status: orderStatusLabel(order.status, messages) })}
              </p>
            ) : (
              order.allowedActions.map((name) => (
                <button
                  key={name}
                  type="button"
                  className={`btn btn-sm ${name === 'cancel' || name === 'reject' ? 'btn-outline btn-error' : 'btn-primary'}`}
                  onClick={() => {
                    setRefusal('');
                    setAction(name);
                  }}
                >
                  {messages[actionKeys[name]]}
                </button>
              ))
            )}
          </div>
          <OrderFacts order={order} locale={locale} messages={messages} />
          <ReasonDialog
            open={action !== null}
            title={
              action ? format(messages['ops.action.title'], { action: messages[actionKeys[action]], orderNo }) : ''
            }
            body={
              transition
                ? format(messages['ops.action.body'], {
                    from: orderStatusLabel(order.status, messages),
                    to: orderStatusLabel(transition.to, messages),
                  })
                : ''
            }
            reasonRequired={action !== null && operatorReasonActions.includes(action)}
            labels={{
              reason: messages['ops.action.reason'],
              hint: messages['ops.action.reasonHint'],
              required: messages['ops.action.reasonRequired'],
              tooLong: messages['ops.action.reasonTooLong'],
              submit: messages['ops.action.submit'],
              busy: messages['ops.action.busy'],
              back: messages['ops.action.back'],
            }}
            busy={busy}
            refusal={refusal}
            onSubmit={(reason) => void run(reason)}
            onCancel={() => setAction(null)}
          />
        </>
      )}
    </section>
  );
}
