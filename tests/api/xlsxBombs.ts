/**
 * Zip bombs shaped as `.xlsx` uploads, made here with fflate (tests/api/settlementImport.test.ts,
 * "zip bombs"): a valid workbook whose sheet unpacks to far more than it weighs, one with thousands
 * of parts, and a copy whose central directory lies about a part's size.
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';

const parts: Record<string, string> = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/workbook.xml':
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
};

const columns = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const filler = 'HGD20260101000001 2026-09 '.repeat(40);

function concat(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * A valid xlsx whose sheet1.xml is `megabytes` MiB of rows (each row numbered, 26 cells of the same
 * long text, so read-excel-file would read it all), deflated 1 MiB at a time: 200 MiB weigh ~1.2 MB.
 * `sameRows`: the same row again and again (no `r` numbers, valid SpreadsheetML), which packs
 * ~250:1 — for the ratio check.
 */
export function bigSheetXlsx(megabytes: number, { sameRows = false } = {}): Uint8Array<ArrayBuffer> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else out.push(chunk);
  });
  for (const [name, text] of Object.entries(parts)) {
    const part = new ZipPassThrough(name);
    zip.add(part);
    part.push(strToU8(text), true);
  }
  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 9 });
  zip.add(sheet);
  sheet.push(
    strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    ),
  );
  const sameRow = `<row>${columns.map(() => `<c t="inlineStr"><is><t>${filler}</t></is></c>`).join('')}</row>`;
  let line = 0;
  for (let mebibyte = 0; mebibyte < megabytes; mebibyte++) {
    let text = '';
    while (text.length < 1024 * 1024) {
      line++;
      text += sameRows
        ? sameRow
        : `<row r="${line}">${columns.map((column) => `<c r="${column}${line}" t="inlineStr"><is><t>${filler}</t></is></c>`).join('')}</row>`;
    }
    sheet.push(strToU8(text));
  }
  sheet.push(strToU8('</sheetData></worksheet>'), true);
  zip.end();
  if (failure) throw failure;
  return concat(out);
}

/** A valid xlsx with `count` extra small parts (an empty sheet otherwise). */
export function manyPartsXlsx(count: number): Uint8Array<ArrayBuffer> {
  const files: Record<string, Uint8Array> = Object.fromEntries(
    Object.entries(parts).map(([name, text]) => [name, strToU8(text)]),
  );
  files['xl/worksheets/sheet1.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>',
  );
  for (let index = 0; index < count; index++) files[`xl/parts/part${index}.xml`] = strToU8(`<part>${index}</part>`);
  return zipSync(files, { level: 0 }) as Uint8Array<ArrayBuffer>;
}

/** Where the central directory's record of the named part starts. */
function directoryRecord(zip: Uint8Array, name: string): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (view.getUint32(end, true) !== 0x06054b50) end--;
  let at = view.getUint32(end + 16, true);
  for (let index = 0; index < view.getUint16(end + 10, true); index++) {
    const nameLength = view.getUint16(at + 28, true);
    if (new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)) === name) return at;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  throw new Error(`no part ${name}`);
}

/** A copy of the zip whose central directory declares `size` as the named part's unpacked size. */
export function withDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(zip);
  new DataView(bytes.buffer).setUint32(directoryRecord(bytes, name) + 24, size, true);
  return bytes;
}

/** The packed size the central directory records for a part. */
export function packedSize(zip: Uint8Array, name: string): number {
  return new DataView(zip.buffer, zip.byteOffset, zip.byteLength).getUint32(directoryRecord(zip, name) + 20, true);
}
