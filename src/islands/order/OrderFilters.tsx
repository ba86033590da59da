import { useId, type SubmitEvent } from 'react';
import type { TableQueryState } from '../../lib/tableRequest.ts';
import type { OrderFilterMessages } from './orderList.ts';
import { orderStatusLabel, statusOptions } from './orderView.ts';

interface Props {
  /** The form's accessible name. */
  label: string;
  keywordHint: string;
  state: TableQueryState;
  messages: OrderFilterMessages;
  onApply: (patch: Partial<TableQueryState>) => void;
}

/**
 * Status, keyword and order-date filters of an orders table. Uncontrolled: the form is rebuilt
 * (its `key`) whenever the address changes (back/forward), so it always shows what is applied.
 */
export default function OrderFilters({ label, keywordHint, state, messages, onApply }: Props) {
  const id = useId();
  const created = state.ranges.createdAt ?? {};

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const status = text('status');
    onApply({
      keyword: text('q'),
      filters: { ...state.filters, status: status ? [status] : [] },
      ranges: {
        ...state.ranges,
        createdAt: { ...(text('from') ? { start: text('from') } : {}), ...(text('to') ? { end: text('to') } : {}) },
      },
    });
  };

  const reset = () => onApply({ keyword: '', filters: {}, ranges: {}, likes: {} });

  return (
    <form
      key={JSON.stringify([state.keyword, state.filters, state.ranges])}
      aria-label={label}
      role="search"
      className="flex flex-wrap items-end gap-3"
      onSubmit={submit}
    >
      <div className="fieldset py-0">
        <label htmlFor={`${id}-status`} className="fieldset-legend pb-1 text-sm">
          {messages['ordering.filter.status']}
        </label>
        <select
          id={`${id}-status`}
          name="status"
          className="select select-sm w-36"
          defaultValue={state.filters.status?.[0] ?? ''}
        >
          <option value="">{messages['ordering.filter.allStatuses']}</option>
          {statusOptions.map((status) => (
            <option key={status} value={status}>
              {orderStatusLabel(status, messages)}
            </option>
          ))}
        </select>
      </div>
      <div className="fieldset py-0">
        <label htmlFor={`${id}-q`} className="fieldset-legend pb-1 text-sm">
          {messages['ordering.filter.keyword']}
        </label>
        <input
          id={`${id}-q`}
          name="q"
          type="search"
          maxLength={100}
          className="input input-sm w-56"
          placeholder={keywordHint}
          defaultValue={state.keyword}
        />
      </div>
      <div className="fieldset py-0">
        <label htmlFor={`${id}-from`} className="fieldset-legend pb-1 text-sm">
          {messages['ordering.filter.createdFrom']}
        </label>
        <input
          id={`${id}-from`}
          name="from"
          type="date"
          className="input input-sm w-40"
          defaultValue={created.start ?? ''}
        />
      </div>
      <div className="fieldset py-0">
        <label htmlFor={`${id}-to`} className="fieldset-legend pb-1 text-sm">
          {messages['ordering.filter.createdTo']}
        </label>
        <input id={`${id}-to`} name="to" type="date" className="input input-sm w-40" defaultValue={created.end ?? ''} />
      </div>
      <div className="flex gap-2">
        {/* Soft: the row's page may have its own primary action beside it (my orders: 订购套餐). */}
        <button type="submit" className="btn btn-soft btn-primary btn-sm">
          {messages['ordering.filter.search']}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={reset}>
          {messages['ordering.filter.reset']}
        </button>
      </div>
    </form>
  );
}
