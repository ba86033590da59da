/**
 * The settlement import's files (docs/partner.md, Import format): reading an uploaded `.csv`
 * (UTF-8, with or without BOM; csv-parse) or `.xlsx` (read-excel-file) into a grid of cells, and
 * writing the template in either format. The kind is decided by the file's first bytes, not by
 * its name or declared type; an old `.xls`, a non-UTF-8 CSV (e.g. saved as GBK) or a broken file
 * is a clear 400 at the `file` field, never a 500.
 *
 * Both readers are bounded (docs/partner.md, "Bounds"): an xlsx's zip is checked against
 * `xlsxImportLimits` before anything is unpacked (src/server/xlsx/reader.ts), and a CSV stops at the
 * first data row beyond the import's row limit instead of parsing the rest.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { settlementImportColumns, settlementImportMaxRows } from '../../lib/schemas/partner.ts';
import { ApiError } from '../apiError.ts';
import { XlsxRefused, type XlsxReadLimits } from '../xlsx/reader.ts';
import { readFirstSheetOffThread } from '../xlsx/readerThread.ts';
import { xlsxStream } from '../xlsx/writer.ts';

const mib = 1024 * 1024;

/**
 * What an import's xlsx may unpack to, derived from the import's own limits (20 000 rows of 8
 * columns, 5 MB uploaded). Measured here: the template's own form of 20 000 rows (inline strings,
 * the most verbose) is a 7.8 MB sheet (17:1 packed) and reads in 0.5 s; with 20 extra text columns
 * (a wide export of another system) it is 45 MB (22:1) and reads in 2.3 s at ~510 MB RSS — the
 * most a legitimate file should cost. So:
 * - the sheet ≤ 48 MB (~2 400 bytes a row, six times the template's own rows);
 * - shared strings ≤ 16 MB (160 000 distinct cells of ~100 bytes); workbook, relationships and
 *   styles ≤ 8 MB each (Excel's are kilobytes; style bloat in copied workbooks reaches megabytes);
 * - all parts together ≤ 64 MB as declared, ≤ 100 parts (Excel writes ~10–15), and no part over
 *   1 MB claiming more than 100:1 (spreadsheets pack 5–25:1; a bomb packs 200–1000:1).
 */
export const xlsxImportLimits: XlsxReadLimits = {
  maxEntries: 100,
  maxPartBytes: 48 * mib,
  maxTotalBytes: 64 * mib,
  maxSheetBytes: 48 * mib,
  maxSharedStringsBytes: 16 * mib,
  maxOtherPartBytes: 8 * mib,
  maxRatio: 100,
  ratioFloorBytes: 1 * mib,
};

/** A cell as read: text (CSV, xlsx strings and numbers in their stored form), a date (xlsx date cells), or empty. */
export type ImportCell = string | Date | null;

export type ImportFileKind = 'csv' | 'xlsx';

const zipMagic = [0x50, 0x4b, 0x03, 0x04];
const oleMagic = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** The file's kind from its content: a zip is an xlsx, an OLE file an old .xls (refused), anything else CSV text. */
function kindOf(bytes: Uint8Array): ImportFileKind {
  if (startsWith(bytes, zipMagic)) return 'xlsx';
  if (startsWith(bytes, oleMagic)) throw ApiError.field('file', 'partner.import.xls');
  return 'csv';
}

/** Thrown from csv-parse's record hook at the first data row beyond the limit (the parse stops there). */
class TooManyCsvRows extends Error {}

function readCsv(bytes: Uint8Array): ImportCell[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw ApiError.field('file', 'partner.import.notUtf8');
  }
  if (text.includes('\u0000')) throw ApiError.field('file', 'partner.import.unreadable');
  let records = 0;
  let dataRows = 0;
  try {
    // Records keep their place: an empty line is an empty record, so row numbers match a spreadsheet's.
    // The first record is the header; a data row is a record with any non-blank cell (as the checks count).
    const grid = parseCsv(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
      relax_quotes: false,
      on_record: (record: string[]) => {
        if (records++ > 0 && record.some((cell) => cell.trim() !== '') && ++dataRows > settlementImportMaxRows)
          throw new TooManyCsvRows();
        return record;
      },
    });
    return grid.map((record) => record.map((cell) => (cell.trim() === '' ? null : cell)));
  } catch (error) {
    if (error instanceof TooManyCsvRows)
      throw ApiError.field('file', 'partner.import.tooManyRowsOver', { max: settlementImportMaxRows });
    const line = (error as { lines?: number }).lines;
    throw ApiError.field('file', 'partner.import.badCsv', { line: line ?? '?' });
  }
}

/** The message of each refusal of the bounded xlsx reader. */
function xlsxRefusal(error: XlsxRefused): ApiError {
  const refusal = error.refusal;
  switch (refusal.reason) {
    case 'entries':
      return ApiError.field('file', 'partner.import.zipEntries', {
        entries: refusal.entries,
        max: refusal.max,
      });
    case 'size':
      return ApiError.field('file', 'partner.import.zipTooLarge', { max: Math.round(refusal.maxBytes / mib) });
    case 'ratio':
      return ApiError.field('file', 'partner.import.zipRatio', { max: refusal.max });
    case 'mismatch':
      return ApiError.field('file', 'partner.import.zipMismatch');
    default:
      return ApiError.field('file', 'partner.import.unreadable');
  }
}

/** xlsx files are read one at a time per process, so two large uploads never add up in memory. */
let xlsxQueue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = xlsxQueue.then(task, task);
  xlsxQueue = run.catch(() => undefined);
  return run;
}

async function readXlsx(bytes: Uint8Array): Promise<ImportCell[][]> {
  try {
    const rows = await oneAtATime(() => readFirstSheetOffThread(bytes, xlsxImportLimits));
    return rows.map((row) =>
      row.map((cell): ImportCell => {
        if (cell === null || cell === undefined) return null;
        if (cell instanceof Date) return cell;
        const text = String(cell);
        return text.trim() === '' ? null : text;
      }),
    );
  } catch (error) {
    throw error instanceof XlsxRefused ? xlsxRefusal(error) : ApiError.field('file', 'partner.import.unreadable');
  }
}

/** The cells of the uploaded file's first sheet (or the CSV), header first. */
export async function readImportFile(bytes: Uint8Array): Promise<{ kind: ImportFileKind; rows: ImportCell[][] }> {
  if (bytes.byteLength === 0) throw ApiError.field('file', 'partner.import.empty');
  const kind = kindOf(bytes);
  return { kind, rows: kind === 'xlsx' ? await readXlsx(bytes) : readCsv(bytes) };
}

/** The template's header row: the import's columns in order (Chinese headers, whatever the locale: the format is fixed). */
export const templateHeaders: readonly string[] = settlementImportColumns.map((column) => column.header);

/** The CSV template: a BOM (so Excel opens it as UTF-8) and the header line. */
export function csvTemplate(): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`\uFEFF${templateHeaders.join(',')}\r\n`);
}

/** The xlsx template: the header row, text-formatted columns for the order number and month. */
export function xlsxTemplate(sheetName: string): ReadableStream<Uint8Array> {
  return xlsxStream({
    name: sheetName,
    columns: settlementImportColumns.map((column) => ({
      header: column.header,
      format: column.format,
      width: column.width,
    })),
    rows: [],
  });
}
