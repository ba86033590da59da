/**
 * A streamed `.xlsx` writer for the exports (DOMAIN.md: exports stream an `.xlsx` file). Rows are
 * turned into SpreadsheetML as they arrive and deflated into the zip by fflate, only when the
 * response asks for more (a pull stream), so memory stays flat however many rows there are.
 *
 * Why not a spreadsheet library (docs/partner.md, "Exports"): the npm `xlsx` package is frozen on
 * npm with known CVEs; exceljs's streaming writer was slower and held more buffers (the sheet is
 * kept until commit; measured in docs/performance.md) and brings 195 packages; others build
 * the whole file in memory. An export needs one sheet of typed cells with number formats, which is
 * a few fixed XML parts plus the rows, so it is written here on fflate's streaming zip.
 * The file opens in Excel, WPS and LibreOffice; tests read it back with read-excel-file.
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/** How a column's numbers are shown: counts, energy (MWh, 3 dp), prices (元/kWh, 5 dp), money (元, 2 dp). */
export type XlsxFormat = 'text' | 'int' | 'energy' | 'price' | 'money';

export interface XlsxColumn {
  header: string;
  format: XlsxFormat;
  /** In characters (Excel's unit); default from the format. */
  width?: number;
  /** Summed in the totals row. */
  total?: boolean;
}

export type XlsxCell = string | number | null;

export interface XlsxSheet {
  name: string;
  columns: readonly XlsxColumn[];
  rows: AsyncIterable<readonly XlsxCell[]> | Iterable<readonly XlsxCell[]>;
  /** Written in the first column of a totals row after the data (e.g. 合计); no totals row without it. */
  totalsLabel?: string;
  /**
   * A totals row the caller computes instead (asked for once the rows are done), written in bold:
   * for totals that are not column sums, like the analysis' union of subtrees. Wins over `totalsLabel`.
   */
  totals?: () => readonly XlsxCell[] | undefined;
}

/** Style indexes in styles.xml: the plain format, then the same format in bold (header, totals). */
const formatStyle: Record<XlsxFormat, number> = { text: 1, int: 2, energy: 3, price: 4, money: 5 };
const boldOffset = 5;
const decimals: Record<XlsxFormat, number> = { text: 0, int: 0, energy: 3, price: 5, money: 2 };
const defaultWidth: Record<XlsxFormat, number> = { text: 18, int: 10, energy: 14, price: 12, money: 16 };

/**
 * Rows turned into XML and deflated per slice: big enough to keep the zip busy, small enough that
 * a slice (docs/performance.md) never holds the server's thread long — between slices the writer yields to
 * the event loop, so other requests are answered while a long export runs.
 */
const rowsPerChunk = 100;

/** One turn of the event loop: rows read from memory and the stream's reads chain as microtasks only. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const workbookRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

// cellXfs: 0 default; 1–5 text, int (#,##0), energy (#,##0.000), price (0.00000), money (#,##0.00); 6–10 the same in bold.
const formatIds = [49, 3, 164, 165, 4];
const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.000"/><numFmt numFmtId="165" formatCode="0.00000"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="11"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${[
  0, 1,
]
  .map((font) =>
    formatIds
      .map(
        (id) =>
          `<xf numFmtId="${id}" fontId="${font}" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"${font ? ' applyFont="1"' : ''}/>`,
      )
      .join(''),
  )
  .join(
    '',
  )}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** Characters XML 1.0 cannot carry (controls other than tab, newline, return; lone surrogates; U+FFFE/F). */
const notXml =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function escapeXml(text: string): string {
  return text
    .replace(notXml, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A sheet name: at most 31 characters, none of `[]:*?/\`. */
function sheetName(name: string): string {
  return escapeXml(name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1');
}

/** `A`, `B`, … `Z`, `AA`, … for a zero-based column index. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

function cellXml(ref: string, value: XlsxCell, style: number): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}" s="${style}"><v>${value}</v></c>` : '';
  return `<c r="${ref}" s="${style}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
}

function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

function workbookXml(name: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${sheetName(name)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
}

function sheetStart(columns: readonly XlsxColumn[]): string {
  const cols = columns
    .map(
      (column, index) =>
        `<col min="${index + 1}" max="${index + 1}" width="${column.width ?? defaultWidth[column.format]}" customWidth="1"/>`,
    )
    .join('');
  const header = columns
    .map((column, index) => cellXml(`${columnLetter(index)}1`, column.header, 1 + boldOffset))
    .join('');
  // The header row stays in view while scrolling.
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${cols}</cols><sheetData><row r="1">${header}</row>`;
}

/** The totals row: SUM formulas over the data, with the sums as cached values for readers that do not calculate. */
function totalsRow(sheet: XlsxSheet, rowNumber: number, sums: number[]): string {
  const dataRows = rowNumber - 2;
  const cells = sheet.columns.map((column, index) => {
    const ref = `${columnLetter(index)}${rowNumber}`;
    const style = formatStyle[column.format] + boldOffset;
    if (index === 0) return cellXml(ref, sheet.totalsLabel ?? '', formatStyle.text + boldOffset);
    if (!column.total) return '';
    const value = round(sums[index] ?? 0, decimals[column.format]);
    const formula = dataRows > 0 ? `<f>SUM(${columnLetter(index)}2:${columnLetter(index)}${rowNumber - 1})</f>` : '';
    return `<c r="${ref}" s="${style}">${formula}<v>${value}</v></c>`;
  });
  return `<row r="${rowNumber}">${cells.join('')}</row>`;
}

/** A totals row of the caller's values, in bold. */
function givenTotalsRow(columns: readonly XlsxColumn[], rowNumber: number, values: readonly XlsxCell[]): string {
  const cells = columns.map((column, index) =>
    cellXml(`${columnLetter(index)}${rowNumber}`, values[index] ?? null, formatStyle[column.format] + boldOffset),
  );
  return `<row r="${rowNumber}">${cells.join('')}</row>`;
}

/**
 * The workbook as a byte stream. Rows are read from `sheet.rows` only as the consumer pulls, so
 * a slow client slows the database reads instead of filling memory; cancelling the stream (the
 * client went away) stops reading rows.
 */
export function xlsxStream(sheet: XlsxSheet): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator: AsyncIterator<readonly XlsxCell[]> | Iterator<readonly XlsxCell[]> =
    Symbol.asyncIterator in sheet.rows ? sheet.rows[Symbol.asyncIterator]() : sheet.rows[Symbol.iterator]();
  const sums = sheet.columns.map(() => 0);
  let rowNumber = 1;
  let zip: Zip;
  let body: ZipDeflate;
  let finished = false;
  let chunksOut = 0;

  /** The next rows as XML into the zip; the end of the sheet and the zip after the last one. */
  async function writeRows(): Promise<void> {
    await yieldToEventLoop();
    let xml = '';
    for (let count = 0; count < rowsPerChunk; count += 1) {
      const next = await iterator.next();
      if (next.done) {
        const given = sheet.totals?.();
        const totals = given
          ? givenTotalsRow(sheet.columns, rowNumber + 1, given)
          : sheet.totalsLabel === undefined
            ? ''
            : totalsRow(sheet, rowNumber + 1, sums);
        finished = true;
        body.push(encoder.encode(`${xml}${totals}</sheetData></worksheet>`), true);
        zip.end();
        return;
      }
      rowNumber += 1;
      const cells = sheet.columns.map((column, index) => {
        const value = next.value[index] ?? null;
        if (column.total && typeof value === 'number' && Number.isFinite(value))
          sums[index] = (sums[index] ?? 0) + value;
        return cellXml(`${columnLetter(index)}${rowNumber}`, value, formatStyle[column.format]);
      });
      xml += `<row r="${rowNumber}">${cells.join('')}</row>`;
    }
    body.push(encoder.encode(xml));
  }

  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) {
          controller.error(error);
          return;
        }
        if (chunk.length > 0) {
          chunksOut += 1;
          controller.enqueue(chunk);
        }
        if (final) controller.close();
      });
      const fixedParts: Array<[string, string]> = [
        ['[Content_Types].xml', contentTypes],
        ['_rels/.rels', rootRels],
        ['xl/workbook.xml', workbookXml(sheet.name)],
        ['xl/_rels/workbook.xml.rels', workbookRels],
        ['xl/styles.xml', styles],
      ];
      for (const [path, xml] of fixedParts) {
        const part = new ZipPassThrough(path);
        zip.add(part);
        part.push(encoder.encode(xml), true);
      }
      body = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
      zip.add(body);
      body.push(encoder.encode(sheetStart(sheet.columns)));
    },
    // Deflate may hold a chunk's bytes back; keep producing until some bytes went out (or the
    // end), because a pull that enqueues nothing is not called again for the read waiting on it.
    async pull() {
      const before = chunksOut;
      while (!finished && chunksOut === before) await writeRows();
    },
    async cancel() {
      zip.terminate();
      await iterator.return?.();
    },
  });
}

/** An ASCII stand-in for clients that ignore `filename*`: the name's safe characters, or `export.xlsx`. */
function asciiName(fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._-]/g, '').replace(/^[-._]+/, '');
  return ascii.endsWith('.xlsx') && ascii.length > 5 ? ascii : 'export.xlsx';
}

/** The download response: the file's type, its (localized) name per RFC 6266/5987, never cached. */
export function xlsxResponse(stream: ReadableStream<Uint8Array>, fileName: string): Response {
  return new Response(stream, {
    headers: {
      'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      'Cache-Control': 'no-store',
    },
  });
}
