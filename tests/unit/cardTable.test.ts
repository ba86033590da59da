// @vitest-environment happy-dom
/**
 * The shared table markup that the phone layout (src/styles/tables.css) reads: every body cell
 * labelled with its column's header, the columns' kinds on their cells, the first column as the
 * key when none is declared, a focusable named frame, and DataTable's sort buttons and pager on
 * top of it. The layout itself is measured in the browser (tests/e2e/layout.spec.ts).
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import CardTable, { type CardColumn } from '../../src/islands/table/CardTable.tsx';
import DataTable, { type Column } from '../../src/islands/table/DataTable.tsx';
import { dataTableMessageKeys, type DataTableMessages } from '../../src/islands/table/dataTable.ts';
import { dictionaries } from '../../src/lib/i18n/index.ts';

interface Row {
  orderNo: string;
  setName: string;
  status: string;
}

const rows: Row[] = [
  { orderNo: 'HGD1', setName: '分时电价套餐', status: '待受理' },
  { orderNo: 'HGD2', setName: '固定价格套餐', status: '已生效' },
];

const dom = (html: string) => {
  const body = document.createElement('div');
  body.innerHTML = html;
  return body;
};

describe('CardTable', () => {
  const columns: CardColumn<Row>[] = [
    { key: 'orderNo', label: '订单号' },
    { key: 'setName', label: '套餐' },
    { key: 'status', label: '状态', kind: 'status' },
  ];

  test('labels every body cell with its header and marks the kinds, the first column as the key', () => {
    const html = renderToStaticMarkup(
      createElement(CardTable<Row>, { caption: '我的订单', columns, rows, rowKey: (row) => row.orderNo }),
    );
    expect(html).toContain('<div class="table-frame " tabindex="0" role="region" aria-label="我的订单">');
    expect(html).toContain('<td data-col="key" data-label="订单号">HGD1</td>');
    expect(html).toContain('<td data-label="套餐">分时电价套餐</td>');
    expect(html).toContain('<td data-col="status" data-label="状态">已生效</td>');
    expect(html).toContain('<caption class="sr-only">我的订单</caption>');
  });

  test('a declared key wins over the first column, and row headers are th scope=row', () => {
    const keyed: CardColumn<Row>[] = [
      { ...columns[0]!, kind: 'secondary' },
      { ...columns[1]!, kind: 'key' },
      columns[2]!,
    ];
    const html = renderToStaticMarkup(
      createElement(CardTable<Row>, {
        caption: 'x',
        columns: keyed,
        rows,
        rowKey: (row) => row.orderNo,
        rowHeaders: true,
      }),
    );
    expect(html).toContain('<td data-col="secondary" data-label="订单号">HGD1</td>');
    expect(html).toContain('<th scope="row" data-col="key" data-label="套餐">分时电价套餐</th>');
  });
});

describe('DataTable', () => {
  const messages = Object.fromEntries(
    dataTableMessageKeys.map((key) => [key, dictionaries['id-ID'][key]]),
  ) as DataTableMessages;
  const columns: Column<Row>[] = [
    { key: 'orderNo', label: 'Nomor pesanan', sortable: true },
    { key: 'setName', label: 'Paket' },
    { key: 'status', label: 'Status', kind: 'status', sortable: true },
  ];
  const render = (page: number, totalCount: number) =>
    dom(
      renderToStaticMarkup(
        createElement(DataTable<Row>, {
          caption: 'Pesanan saya',
          columns,
          rowKey: (row) => row.orderNo,
          load: 'ready',
          rows,
          totalCount,
          page,
          pageSize: 10,
          sort: { key: 'status', order: 'asc' },
          emptyMessage: '-',
          messages,
          onSort: () => {},
          onPage: () => {},
          onPageSize: () => {},
          onRetry: () => {},
        }),
      ),
    );

  test('sortable headers are buttons in cells with aria-sort; cells carry the plain labels', () => {
    const body = render(1, 2);
    const heads = [...body.querySelectorAll('thead th')];
    expect(heads.map((th) => th.getAttribute('aria-sort'))).toEqual(['none', null, 'ascending']);
    expect(heads[0]?.querySelector('button')?.textContent).toContain('Nomor pesanan');
    expect([...body.querySelectorAll('tbody tr:first-child td')].map((td) => td.getAttribute('data-label'))).toEqual([
      'Nomor pesanan',
      'Paket',
      'Status',
    ]);
    expect(body.querySelector('table')?.getAttribute('aria-busy')).toBe('false');
  });

  test('the pager names its buttons in words and shows arrows, first and last only beyond two pages', () => {
    const names = (body: HTMLElement) => [...body.querySelectorAll('nav button')].map((button) => button.textContent);
    expect(names(render(1, 2))).toEqual(['‹Halaman sebelumnya', 'Halaman berikutnya›']);
    expect(names(render(2, 35))).toEqual([
      '«Halaman pertama',
      '‹Halaman sebelumnya',
      'Halaman berikutnya›',
      'Halaman terakhir»',
    ]);
    expect(render(2, 35).querySelector('[aria-current="page"]')?.textContent).toBe('Halaman 2 dari 4');
    // The arrows are not read; the words are hidden in a narrow frame, never removed.
    expect(render(2, 35).querySelectorAll('nav button [aria-hidden="true"]')).toHaveLength(4);
  });
});
