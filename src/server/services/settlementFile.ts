/**
 * The settlement import's files (docs/partner.md, Import format): reading an uploaded `.csv`
 * (UTF-8, with or without BOM; csv-parse) or `.xlsx` (read-excel-file) into a grid of cells, and
 * writing the template in either format. The kind is decided by the file's first bytes, not by
 * its name or declared type; an old `.xls`, a non-UTF-8 CSV (e.g. saved as GBK) or a broken file
 * is a clear 400 at the `file` field, never a 500.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import type { Locale } from '../../lib/i18n/index.ts';
import { settlementImportColumns } from '../../lib/schemas/partner.ts';
import { ApiError } from '../envelope.ts';
import { xlsxStream } from '../xlsx/writer.ts';

/** A cell as read: text (CSV, xlsx strings and numbers in their stored form), a date (xlsx date cells), or empty. */
export type ImportCell = string | Date | null;

export type ImportFileKind = 'csv' | 'xlsx';

const zipMagic = [0x50, 0x4b, 0x03, 0x04];
const oleMagic = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** The file's kind from its content: a zip is an xlsx, an OLE file an old .xls (refused), anything else CSV text. */
function kindOf(bytes: Uint8Array, locale: Locale): ImportFileKind {
  if (startsWith(bytes, zipMagic)) return 'xlsx';
  if (startsWith(bytes, oleMagic)) throw ApiError.field(locale, 'file', 'partner.import.xls');
  return 'csv';
}

function readCsv(bytes: Uint8Array, locale: Locale): ImportCell[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw ApiError.field(locale, 'file', 'partner.import.notUtf8');
  }
  if (text.includes('\u0000')) throw ApiError.field(locale, 'file', 'partner.import.unreadable');
  try {
    // Records keep their place: an empty line is an empty record, so row numbers match a spreadsheet's.
    const records = parseCsv(text, { bom: true, relax_column_count: true, skip_empty_lines: false, relax_quotes: false }) as string[][];
    return records.map((record) => record.map((cell) => (cell.trim() === '' ? null : cell)));
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw ApiError.field(locale, 'file', 'partner.import.badCsv', { line: line ?? '?' });
  }
}

async function readXlsx(bytes: Uint8Array, locale: Locale): Promise<ImportCell[][]> {
  try {
    // Numbers as stored (`parseNumber`), so 0.39200 stays exact text and is checked as a decimal here.
    const rows = await readSheet(Buffer.from(bytes), 1, { parseNumber: (text: string) => text, trim: true });
    return rows.map((row) =>
      row.map((cell): ImportCell => {
        if (cell === null || cell === undefined) return null;
        if (cell instanceof Date) return cell;
        const text = String(cell);
        return text.trim() === '' ? null : text;
      }),
    );
  } catch {
    throw ApiError.field(locale, 'file', 'partner.import.unreadable');
  }
}

/** The cells of the uploaded file's first sheet (or the CSV), header first. */
export async function readImportFile(bytes: Uint8Array, locale: Locale): Promise<{ kind: ImportFileKind; rows: ImportCell[][] }> {
  if (bytes.byteLength === 0) throw ApiError.field(locale, 'file', 'partner.import.empty');
  const kind = kindOf(bytes, locale);
  return { kind, rows: kind === 'xlsx' ? await readXlsx(bytes, locale) : readCsv(bytes, locale) };
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
    columns: settlementImportColumns.map((column) => ({ header: column.header, format: column.format, width: column.width })),
    rows: [],
  });
}
