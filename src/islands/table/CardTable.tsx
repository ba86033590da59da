/**
 * The one table markup of the signed-in area and the studio: a focusable, named frame that
 * scrolls sideways, and a table that becomes a list of cards in a narrow frame (the rules are
 * src/styles/tables.css). Columns say what they are (`kind`), and each body cell carries its
 * column's header as its card label, so no page writes card markup of its own. DataTable builds
 * on it (sortable headers, paging, loading); the studio's lists use it directly.
 */
import type { HTMLAttributes, ReactNode } from 'react';

/**
 * What a column is to its row, for the card a row becomes on a phone: `key` names the row (the
 * card's title; the first column when no column says so), `status` is a badge (beside the title),
 * `secondary` a code or date shown small under the title, `action` the row's buttons (last,
 * right-aligned). Other columns are the card's label and value pairs. On a wide screen `status`,
 * `secondary` and `action` cells do not wrap.
 */
export type ColumnKind = 'key' | 'status' | 'secondary' | 'action';

export interface CardColumn<Row> {
  /** Unique among the columns; also the row's field shown when there is no `render`. */
  key: string;
  /** The header, and each cell's label in the card layout. */
  label: string;
  kind?: ColumnKind;
  /** How a cell shows its row; the field's raw value when absent. */
  render?: (row: Row) => ReactNode;
  /** The cells' classes: right-aligned numbers, nowrap codes… */
  className?: string;
  /** The header cell when it is more than the label: its content (a sort button, a select-all box) and attributes. */
  head?: { content: ReactNode; className?: string; sort?: 'ascending' | 'descending' | 'none' };
}

interface Props<Row> {
  /** The table's accessible name, and its frame's (the region a keyboard scrolls). */
  caption: string;
  /** Shown as the table's heading; by default read but not shown (the page heading says it). */
  captionShown?: boolean;
  columns: readonly CardColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** A row's own attributes (data- markers, a highlight). */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number>;
  /** The key column's cells are row headers (`th scope="row"`), not plain cells. */
  rowHeaders?: boolean;
  /** The frame's and the table's extra classes (a border, the compact size, greyed while loading). */
  frameClassName?: string;
  tableClassName?: string;
  busy?: boolean;
  /** Rows after the data (an empty or loading row spanning every column). */
  children?: ReactNode;
}

export default function CardTable<Row>(props: Props<Row>) {
  const {
    caption,
    captionShown = false,
    columns,
    rows,
    rowKey,
    rowProps,
    rowHeaders = false,
    frameClassName = '',
    tableClassName = '',
    busy,
    children,
  } = props;
  const keyColumn = columns.find((column) => column.kind === 'key') ?? columns[0];
  const kindOf = (column: CardColumn<Row>) => (column === keyColumn ? 'key' : column.kind);
  return (
    // Focusable, so that a keyboard can scroll the frame when the table is wider than it.
    <div className={`table-frame ${frameClassName}`} tabIndex={0} role="region" aria-label={caption}>
      <table className={`table table-cards ${tableClassName}`} aria-busy={busy}>
        <caption className={captionShown ? 'text-start text-lg font-semibold' : 'sr-only'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                data-col={kindOf(column)}
                className={column.head?.className}
                aria-sort={column.head?.sort}
              >
                {column.head ? column.head.content : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => {
                const kind = kindOf(column);
                const Cell = kind === 'key' && rowHeaders ? 'th' : 'td';
                return (
                  <Cell
                    key={column.key}
                    scope={Cell === 'th' ? 'row' : undefined}
                    data-col={kind}
                    data-label={column.label}
                    className={column.className}
                  >
                    {column.render ? column.render(row) : String((row as Record<string, unknown>)[column.key] ?? '')}
                  </Cell>
                );
              })}
            </tr>
          ))}
          {children}
        </tbody>
      </table>
    </div>
  );
}
