import { useId, type ReactNode } from 'react';
import { format } from '../../lib/api/messages.ts';
import EmptyState, { type EmptyAction } from '../EmptyState.tsx';
import { LoadFailed } from '../LoadStatus.tsx';
import type { TableSort } from '../../lib/tableRequest.ts';
import CardTable, { type CardColumn } from './CardTable.tsx';
import { PAGE_SIZES, type DataTableMessages } from './dataTable.ts';

export interface Column<Row> extends Omit<CardColumn<Row>, 'head'> {
  /** The table's field name: the sort key sent to the server. */
  key: string;
  sortable?: boolean;
}

/** Header cells wrap (a long label takes two lines, not the column's width), in the cells' size, aligned with them. */
function headerClass(column: Column<unknown>): string {
  const end = /\btext-(right|end)\b/.test(column.className ?? '');
  return `whitespace-normal align-bottom text-xs ${end ? 'text-end' : ''}`;
}

export type TableLoad = 'loading' | 'failed' | 'ready';

interface Props<Row> {
  /** The table's accessible name (its caption, read but not shown: the page heading says it). */
  caption: string;
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  load: TableLoad;
  rows: readonly Row[];
  totalCount: number;
  page: number;
  pageSize: number;
  /** The primary order (the first of the URL's sorts). */
  sort: TableSort | undefined;
  /** The server's refusal, shown instead of the generic failure text. */
  failure?: string;
  /** What an empty answer means here ("no orders yet" differs from "nothing matches"). */
  emptyMessage: ReactNode;
  /** The next step an empty table offers ("订购套餐" under "no orders yet"); none when a filter emptied it. */
  emptyAction?: EmptyAction | undefined;
  messages: DataTableMessages;
  /** A header was activated: the island picks the next order (useUrlTable's nextSort). */
  onSort: (key: string) => void;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  onRetry: () => void;
}

/**
 * The data table every list of the signed-in area uses (my orders, the operator's queues, the
 * audit trail). Server-side paging and sorting: the island above it keeps page, size and sort in
 * the URL and loads; this component only shows and asks. Sortable headers are buttons inside
 * the header cells with `aria-sort` on the cell (WAI-ARIA sortable table pattern). Cells are
 * compact and headers wrap, so a table of a dozen columns fits the common desktop width (1280 px
 * with the side menu); narrower, the table scrolls sideways inside its frame with its first
 * column held in view, and in a phone's width each row is a card (CardTable: columns say which
 * is the row's key, status, secondary value and action). While a page loads the previous rows
 * stay (greyed, `aria-busy`) so the layout does not jump; one polite live region says
 * "loading", the range shown or "empty", so each state is announced once.
 */
export default function DataTable<Row>(props: Props<Row>) {
  const {
    caption,
    columns,
    rowKey,
    load,
    rows,
    totalCount,
    page,
    pageSize,
    sort,
    failure,
    emptyMessage,
    emptyAction,
    messages,
    onSort,
    onPage,
    onPageSize,
    onRetry,
  } = props;
  const sizeId = useId();
  const pages = Math.max(1, Math.ceil(totalCount / pageSize));
  const from = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(totalCount, page * pageSize);
  const busy = load === 'loading';

  // Sortable headers are buttons inside the header cells, with the order on the cell (aria-sort).
  const cardColumns: CardColumn<Row>[] = columns.map((column) => {
    if (!column.sortable)
      return { ...column, head: { content: column.label, className: headerClass(column as Column<unknown>) } };
    const sorted = sort?.key === column.key ? sort.order : undefined;
    return {
      ...column,
      head: {
        className: headerClass(column as Column<unknown>),
        sort: sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none',
        content: (
          <button
            type="button"
            // Inline, not a flex box: a long label wraps inside the button (a flex item would
            // keep its whole width), and the arrow may go to the next line.
            className="text-start font-semibold hover:underline focus-visible:underline"
            onClick={() => onSort(column.key)}
            title={format(messages['ordering.table.sortBy'], { column: column.label })}
          >
            {column.label}{' '}
            <span aria-hidden="true" className="text-xs whitespace-nowrap">
              {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
            </span>
            {sorted && (
              <span className="sr-only">
                {sorted === 'asc' ? messages['ordering.table.sortedAsc'] : messages['ordering.table.sortedDesc']}
              </span>
            )}
          </button>
        ),
      },
    };
  });

  const status =
    load === 'loading'
      ? messages['common.loading']
      : load === 'ready' && rows.length > 0
        ? format(messages['ordering.table.summary'], { from, to, total: totalCount })
        : '';

  return (
    <div className="grid gap-3">
      <p role="status" className="flex min-h-6 items-center gap-2 text-sm text-base-content/70">
        {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        {status}
      </p>
      {load === 'failed' && (
        <LoadFailed
          message={failure || messages['ordering.table.loadFailed']}
          retryLabel={messages['ordering.table.retry']}
          onRetry={onRetry}
        />
      )}
      {load !== 'failed' && (
        <CardTable
          caption={caption}
          columns={cardColumns}
          rows={rows}
          rowKey={rowKey}
          rowProps={() => ({ className: 'hover:bg-base-200/50' })}
          frameClassName="rounded-box border border-base-300"
          tableClassName={`table-sm ${busy ? 'opacity-60' : ''}`}
          busy={busy}
        >
          {load === 'ready' && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="py-8">
                <EmptyState message={emptyMessage} action={emptyAction} framed={false} />
              </td>
            </tr>
          )}
          {load === 'loading' && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="py-8 text-center">
                <span className="loading loading-spinner loading-md" aria-hidden="true" />
              </td>
            </tr>
          )}
        </CardTable>
      )}
      {load !== 'failed' && totalCount > 0 && (
        <nav
          aria-label={messages['ordering.table.pagination']}
          className="@container flex flex-wrap items-center justify-between gap-3"
        >
          <div className="flex items-center gap-2 text-sm">
            <label htmlFor={sizeId}>{messages['ordering.table.pageSize']}</label>
            <select
              id={sizeId}
              className="select select-sm w-20"
              value={pageSize}
              disabled={busy}
              onChange={(event) => onPageSize(Number(event.currentTarget.value))}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </div>
          {/* In a narrow frame the buttons show arrows only (their names stay the words): first, prev,
              "page X of Y", next and last, never wider than the screen in any language. The words
              come with the frame's width (a container query: a side menu narrows it too). */}
          <div className="join max-w-full">
            {pages > 2 && (
              <button
                type="button"
                className="btn btn-sm join-item"
                disabled={busy || page <= 1}
                onClick={() => onPage(1)}
              >
                <span aria-hidden="true">«</span>
                <span className="@max-3xl:sr-only">{messages['ordering.table.first']}</span>
              </button>
            )}
            <button
              type="button"
              className="btn btn-sm join-item"
              disabled={busy || page <= 1}
              onClick={() => onPage(page - 1)}
            >
              <span aria-hidden="true">‹</span>
              <span className="@max-lg:sr-only">{messages['ordering.table.prev']}</span>
            </button>
            <span
              className="btn btn-sm join-item pointer-events-none btn-ghost h-auto min-h-8 shrink whitespace-normal"
              aria-current="page"
            >
              {format(messages['ordering.table.pageOf'], { page, pages })}
            </span>
            <button
              type="button"
              className="btn btn-sm join-item"
              disabled={busy || page >= pages}
              onClick={() => onPage(page + 1)}
            >
              <span className="@max-lg:sr-only">{messages['ordering.table.next']}</span>
              <span aria-hidden="true">›</span>
            </button>
            {pages > 2 && (
              <button
                type="button"
                className="btn btn-sm join-item"
                disabled={busy || page >= pages}
                onClick={() => onPage(pages)}
              >
                <span className="@max-3xl:sr-only">{messages['ordering.table.last']}</span>
                <span aria-hidden="true">»</span>
              </button>
            )}
          </div>
        </nav>
      )}
    </div>
  );
}
