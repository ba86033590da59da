import { useCallback, useEffect, useRef, useState } from 'react';
import { format } from '../../lib/api/messages.ts';
import { message } from '../../lib/api/notify.ts';
import { flashOnNextPage } from '../../lib/flash.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import type { OrderDetailData } from '../../lib/schemas/order.ts';
import ConfirmDialog from '../ConfirmDialog.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { useSessionReady } from '../useSessionReady.ts';
import OrderFacts from './OrderFacts.tsx';
import type { OrderDetailMessages } from './orderDetail.ts';
import { callQuiet } from '../quietCall.ts';
import { ORDER_API, orderNoFromLocation, orderStatusLabel } from './orderView.ts';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  locale: Locale;
  messages: OrderDetailMessages;
}

type Loaded =
  | { state: 'missing' }
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; order: OrderDetailData };

type Pending = 'cancel' | 'delete' | null;

/**
 * One order of the enterprise (/certify/order/detail?orderNo=…): its parameters, status history
 * and notices, and what its owner may do now. Cancel and delete are offered only when the server
 * says they are allowed (allowedActions, canDelete), each after a confirmation; a refusal (the
 * operator moved the order meanwhile) is shown beside the buttons and the order reloaded.
 */
export default function OrderDetail({ locale, messages }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ready = useSessionReady();

  // Starts as loading: the first load only sets the answer (after the call, or at once when the
  // address names no order); a retry or a reload after an action shows loading first.
  const fetchOrder = useCallback(async (): Promise<Loaded> => {
    const orderNo = orderNoFromLocation();
    if (!orderNo) return { state: 'missing' };
    const answer = await callQuiet<OrderDetailData>('GET', `${ORDER_API}/getOrderDetail`, { orderNo });
    return answer?.ok
      ? { state: 'ready', order: answer.data }
      : { state: 'failed', message: answer?.message || messages['ordering.detail.loadFailed'] };
  }, [messages]);
  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    setLoaded(await fetchOrder());
  }, [fetchOrder]);

  useEffect(() => {
    if (ready) void fetchOrder().then(setLoaded);
  }, [ready, fetchOrder]);

  if (loaded.state === 'missing') {
    return (
      <div role="alert" className="alert alert-warning">
        <span>{messages['ordering.detail.missing']}</span>
        <a className="btn btn-sm" href={localePath(locale, '/person/order')}>
          {messages['ordering.detail.back']}
        </a>
      </div>
    );
  }
  if (loaded.state === 'loading') return <Loading label={messages['common.loading']} />;
  if (loaded.state === 'failed') {
    return <LoadFailed message={loaded.message} retryLabel={messages['ordering.retry']} onRetry={() => void load()} />;
  }

  const { order } = loaded;
  const canCancel = order.allowedActions.includes('cancel');
  const status = orderStatusLabel(order.status, messages);

  const confirm = async () => {
    setBusy(true);
    setRefusal('');
    const answer =
      pending === 'cancel'
        ? await callQuiet<OrderDetailData>('GET', `${ORDER_API}/cancelOrder`, { orderNo: order.orderNo })
        : await callQuiet<object>('POST', `${ORDER_API}/del`, { orderNo: order.orderNo });
    setBusy(false);
    const action = pending;
    setPending(null);
    if (!answer) return;
    if (!answer.ok) {
      setRefusal(answer.message);
      // The order may have moved on (the operator accepted it meanwhile): show it as it is now.
      const fresh = await callQuiet<OrderDetailData>('GET', `${ORDER_API}/getOrderDetail`, { orderNo: order.orderNo });
      if (fresh?.ok) setLoaded({ state: 'ready', order: fresh.data });
      return;
    }
    if (action === 'delete') {
      flashOnNextPage('success', messages['ordering.detail.deleted']);
      window.location.assign(localePath(locale, '/person/order'));
      return;
    }
    setLoaded({ state: 'ready', order: answer.data as OrderDetailData });
    message.success(messages['ordering.detail.cancelled']);
    headingRef.current?.focus();
  };

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center gap-3">
        <h2 ref={headingRef} tabIndex={-1} className="text-xl font-semibold outline-none">
          {order.orderNo}
        </h2>
        <StatusBadge kind="order" status={order.status} label={status} />
        <a className="link link-primary ml-auto text-sm" href={localePath(locale, '/person/order')}>
          {messages['ordering.detail.back']}
        </a>
      </div>

      <OrderFacts order={order} locale={locale} messages={messages} />

      {/* What may be done, after the facts it is about: a quiet row, not a card of its own around one
          red button; the refusal of a call stays beside it. */}
      <section
        aria-labelledby="order-actions"
        className="flex flex-wrap items-center gap-3 border-t border-base-300 pt-4"
      >
        <h3 id="order-actions" className="text-sm font-semibold">
          {messages['ordering.detail.actions']}
        </h3>
        {canCancel || order.canDelete ? (
          <div className="flex flex-wrap gap-2">
            {canCancel && (
              <button type="button" className="btn btn-ghost btn-sm text-error" onClick={() => setPending('cancel')}>
                {messages['ordering.detail.cancel']}
              </button>
            )}
            {order.canDelete && (
              <button type="button" className="btn btn-ghost btn-sm text-error" onClick={() => setPending('delete')}>
                {messages['ordering.detail.delete']}
              </button>
            )}
          </div>
        ) : (
          <p className="text-sm text-muted">{format(messages['ordering.detail.noActions'], { status })}</p>
        )}
        {refusal && (
          <div role="alert" className="alert alert-error w-full">
            <span>{refusal}</span>
          </div>
        )}
      </section>

      <ConfirmDialog
        open={pending !== null}
        title={format(messages[pending === 'delete' ? 'ordering.detail.deleteTitle' : 'ordering.detail.cancelTitle'], {
          orderNo: order.orderNo,
        })}
        body={messages[pending === 'delete' ? 'ordering.detail.deleteBody' : 'ordering.detail.cancelBody']}
        confirmLabel={
          messages[pending === 'delete' ? 'ordering.detail.deleteConfirm' : 'ordering.detail.cancelConfirm']
        }
        cancelLabel={messages['ordering.detail.keep']}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </div>
  );
}
