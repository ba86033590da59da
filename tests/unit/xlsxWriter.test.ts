/**
 * The streamed .xlsx writer (src/server/xlsx/writer.ts): the package's parts, typed cells with their
 * number formats, escaping, the totals row (formulas with cached sums), the download headers, and
 * that rows are read only as the consumer pulls (the property that keeps an export's memory flat).
 */
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  columnLetter,
  xlsxResponse,
  xlsxStream,
  type XlsxCell,
  type XlsxColumn,
} from '../../src/server/xlsx/writer.ts';

const columns: XlsxColumn[] = [
  { header: '结算月份', format: 'text' },
  { header: '订单数', format: 'int', total: true },
  { header: '结算电量（MWh）', format: 'energy', total: true },
  { header: '合同电价（元/kWh）', format: 'price' },
  { header: '结算电费（元）', format: 'money', total: true },
];

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function sheetXml(rows: XlsxCell[][], totalsLabel?: string): Promise<Record<string, string>> {
  const files = unzipSync(
    await bytesOf(xlsxStream({ name: '结算结果', columns, rows, ...(totalsLabel ? { totalsLabel } : {}) })),
  );
  return Object.fromEntries(Object.entries(files).map(([path, data]) => [path, strFromU8(data)]));
}

describe('xlsxStream', () => {
  it('writes the package parts, the header row in bold and each cell with its format', async () => {
    const files = await sheetXml([['2025-06', 3, 1234.5, 0.39215, 483920.1]]);
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(files['xl/workbook.xml']).toContain('<sheet name="结算结果"');
    expect(files['xl/styles.xml']).toContain('formatCode="#,##0.000"');
    const sheet = files['xl/worksheets/sheet1.xml']!;
    expect(sheet).toContain('<c r="A1" s="6" t="inlineStr"><is><t xml:space="preserve">结算月份</t></is></c>');
    expect(sheet).toContain('<c r="B2" s="2"><v>3</v></c>');
    expect(sheet).toContain('<c r="C2" s="3"><v>1234.5</v></c>');
    expect(sheet).toContain('<c r="D2" s="4"><v>0.39215</v></c>');
    expect(sheet).toContain('<c r="E2" s="5"><v>483920.1</v></c>');
    expect(sheet).not.toContain('<row r="3">');
  });

  it('escapes markup, drops characters XML cannot hold and leaves null cells empty', async () => {
    const sheet = (await sheetXml([['<b>"A&B"</b>\u0001', null, null, null, Number.NaN]]))['xl/worksheets/sheet1.xml']!;
    expect(sheet).toContain('&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;</t>');
    expect(sheet).not.toContain('\u0001');
    expect(sheet).not.toMatch(/r="[B-E]2"/);
  });

  it('ends with a totals row: SUM formulas over the data with the sums cached, rounded to the format', async () => {
    const rows = [
      ['2025-05', 1, 0.1, 0.4, 0.1],
      ['2025-06', 2, 0.2, 0.4, 0.2],
    ];
    const sheet = (await sheetXml(rows, '合计'))['xl/worksheets/sheet1.xml']!;
    expect(sheet).toContain('<row r="4"><c r="A4" s="6" t="inlineStr"><is><t xml:space="preserve">合计</t></is></c>');
    expect(sheet).toContain('<c r="B4" s="7"><f>SUM(B2:B3)</f><v>3</v></c>');
    expect(sheet).toContain('<c r="C4" s="8"><f>SUM(C2:C3)</f><v>0.3</v></c>');
    expect(sheet).toContain('<c r="E4" s="10"><f>SUM(E2:E3)</f><v>0.3</v></c>');
    expect(sheet).not.toContain('r="D4"');
  });

  it("writes the caller's own totals in bold when given, asked for after the rows", async () => {
    let rowsDone = false;
    function* rows() {
      yield ['2025-06', 2, 1.5, 0.4, 10] as XlsxCell[];
      rowsDone = true;
    }
    const files = unzipSync(
      await bytesOf(
        xlsxStream({
          name: 'x',
          columns,
          rows: rows(),
          totalsLabel: '合计',
          totals: () => (rowsDone ? ['合计', 1, 1.5, null, 10] : undefined),
        }),
      ),
    );
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain(
      '<row r="3"><c r="A3" s="6" t="inlineStr"><is><t xml:space="preserve">合计</t></is></c><c r="B3" s="7"><v>1</v></c><c r="C3" s="8"><v>1.5</v></c><c r="E3" s="10"><v>10</v></c></row>',
    );
    expect(sheet).not.toContain('<f>');
  });

  it('writes a totals row of zeros, without formulas, when there are no rows', async () => {
    const sheet = (await sheetXml([], '合计'))['xl/worksheets/sheet1.xml']!;
    expect(sheet).toContain('<c r="B2" s="7"><v>0</v></c>');
    expect(sheet).not.toContain('<f>');
  });

  it('reads rows only as the consumer pulls, and stops reading when the download is cancelled', async () => {
    let produced = 0;
    let closed = false;
    async function* rows() {
      try {
        for (let index = 0; index < 1_000_000; index += 1) {
          produced += 1;
          yield [`企业${index}`, index, index * 1.5, 0.4, index * 600.25] as XlsxCell[];
        }
      } finally {
        closed = true;
      }
    }
    const reader = xlsxStream({ name: 'x', columns, rows: rows() }).getReader();
    let received = 0;
    while (received < 64 * 1024) received += (await reader.read()).value?.length ?? 0;
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(100_000);
    await reader.cancel();
    expect(closed).toBe(true);
  });

  it('gives the event loop a turn between slices of rows, so a long export never holds the server', async () => {
    // Rows from memory and the stream's reads chain as microtasks only: without the writer's own
    // yield, the whole file is written before any timer or other request gets a turn.
    const rows = Array.from(
      { length: 5_000 },
      (_, index) => [`企业${index}`, index, index * 1.5, 0.4, index * 600.25] as XlsxCell[],
    );
    let turns = 0;
    let reading = true;
    const countTurns = () => {
      if (!reading) return;
      turns += 1;
      setImmediate(countTurns);
    };
    setImmediate(countTurns);
    const files = unzipSync(await bytesOf(xlsxStream({ name: 'x', columns, rows })));
    reading = false;
    expect(strFromU8(files['xl/worksheets/sheet1.xml']!)).toContain('<row r="5001">');
    expect(turns).toBeGreaterThanOrEqual(5_000 / 100);
  });
});

describe('xlsxResponse', () => {
  it('names the file in UTF-8 with an ASCII fallback, and is never cached', () => {
    const response = xlsxResponse(new ReadableStream(), '结算结果-20261122.xlsx');
    expect(response.headers.get('Content-Type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="20261122.xlsx"; filename*=UTF-8''${encodeURIComponent('结算结果-20261122.xlsx')}`,
    );
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(xlsxResponse(new ReadableStream(), '统计.xlsx').headers.get('Content-Disposition')).toContain(
      'filename="export.xlsx"',
    );
  });
});

describe('columnLetter', () => {
  it('counts A…Z, AA…', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});
