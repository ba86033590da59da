/**
 * Reading an uploaded `.xlsx` within bounds (docs/partner.md, Import format — "Bounds"). An xlsx
 * is a zip, and a zip can declare — or hide — far more than it holds: a 200 KB upload that unpacks
 * to 200 MB kept the whole server busy for a minute inside the spreadsheet parser. So before any
 * parser sees the bytes, this module reads the zip's central directory itself and refuses:
 *
 * - more parts than `maxEntries` (read from the directory's end record, before walking it);
 * - a part that declares more than `maxPartBytes` unpacked, or parts declaring more than
 *   `maxTotalBytes` together;
 * - a part over `ratioFloorBytes` that claims to unpack more than `maxRatio` times its packed size;
 * - encryption, split archives, zip64, methods other than stored/deflate, duplicate names, data
 *   outside the file (unreadable).
 *
 * Then it unpacks ONLY the parts needed to read the first sheet (workbook, its relationships, the
 * sheet, shared strings, styles), each with its own cap (`maxSheetBytes`, `maxSharedStringsBytes`,
 * `maxOtherPartBytes`), off the main thread (node:zlib, async) and with a hard output limit equal
 * to the size the directory declares: a part whose data unpacks to more than it declares is cut
 * off at that size and refused ("mismatch"), never inflated further. Only then does read-excel-file
 * parse those parts (handed over as a stored — uncompressed — zip of just them).
 */
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { zipSync } from 'fflate';
import { readSheet } from 'read-excel-file/universal';

export interface XlsxReadLimits {
  /** Parts (zip entries) a file may hold at all. */
  maxEntries: number;
  /** The most any one part may declare unpacked. */
  maxPartBytes: number;
  /** The most all parts together may declare unpacked. */
  maxTotalBytes: number;
  /** The sheet read. */
  maxSheetBytes: number;
  /** xl/sharedStrings.xml (or wherever the workbook points). */
  maxSharedStringsBytes: number;
  /** The workbook, its relationships and the styles. */
  maxOtherPartBytes: number;
  /** Unpacked ÷ packed size a part over `ratioFloorBytes` may claim. */
  maxRatio: number;
  /** Parts that unpack to at most this many bytes are not ratio-checked (tiny XML reaches odd ratios and cannot hurt). */
  ratioFloorBytes: number;
}

export type XlsxRefusal =
  | { reason: 'entries'; entries: number; max: number }
  | { reason: 'size'; maxBytes: number }
  | { reason: 'ratio'; max: number }
  | { reason: 'mismatch' }
  | { reason: 'unreadable' };

/** Why a file was refused before (or while) it was unpacked; the caller turns it into a message. */
export class XlsxRefused extends Error {
  readonly refusal: XlsxRefusal;
  constructor(refusal: XlsxRefusal) {
    super(`xlsx refused: ${refusal.reason}`);
    this.refusal = refusal;
    this.name = 'XlsxRefused';
  }
}

const refuse = (refusal: XlsxRefusal): never => {
  throw new XlsxRefused(refusal);
};

/** One entry of the central directory. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  compressedSize: number;
  /** Declared unpacked size. */
  size: number;
  localHeaderOffset: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Where the central directory starts: every entry's data must end before it. */
  directoryOffset: number;
}

const endSignature = 0x06054b50;
const entrySignature = 0x02014b50;
const localSignature = 0x04034b50;

/**
 * The central directory, checked against the limits before anything is unpacked. Reads only the
 * end record and the directory (small, bounded loops: at most `maxEntries` records).
 */
export function readZipDirectory(bytes: Uint8Array, limits: XlsxReadLimits): ZipDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record: 22 bytes plus a comment of at most 65 535, at the very end.
  let end = -1;
  for (let at = bytes.byteLength - 22; at >= 0 && at >= bytes.byteLength - 22 - 0xffff; at--) {
    if (view.getUint32(at, true) === endSignature) {
      end = at;
      break;
    }
  }
  if (end < 0) refuse({ reason: 'unreadable' });
  const disk = view.getUint16(end + 4, true);
  const directoryDisk = view.getUint16(end + 6, true);
  const entriesOnDisk = view.getUint16(end + 8, true);
  const entryCount = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  // 0xffff entries means zip64's "see the other record": at least that many either way.
  if (entryCount > limits.maxEntries || entriesOnDisk > limits.maxEntries) {
    refuse({ reason: 'entries', entries: Math.max(entryCount, entriesOnDisk), max: limits.maxEntries });
  }
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) refuse({ reason: 'unreadable' });
  // zip64 sizes or offsets (0xffffffff) are never needed by a file this small.
  if (directorySize === 0xffffffff || directoryOffset === 0xffffffff || directoryOffset + directorySize > end)
    refuse({ reason: 'unreadable' });

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  const decoder = new TextDecoder('utf-8');
  let total = 0;
  let at = directoryOffset;
  const directoryEnd = directoryOffset + directorySize;
  for (let index = 0; index < entryCount; index++) {
    if (at + 46 > directoryEnd || view.getUint32(at, true) !== entrySignature) refuse({ reason: 'unreadable' });
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localHeaderOffset = view.getUint32(at + 42, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directoryEnd) refuse({ reason: 'unreadable' });
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at = next;
    // Encrypted (bit 0), other methods, zip64 sizes, a name twice: not a spreadsheet we read.
    if ((flags & 1) !== 0 || (method !== 0 && method !== 8) || names.has(name)) refuse({ reason: 'unreadable' });
    if (size === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff)
      refuse({ reason: 'unreadable' });
    if (localHeaderOffset + 30 + compressedSize > directoryOffset) refuse({ reason: 'unreadable' });
    if (size > limits.maxPartBytes) refuse({ reason: 'size', maxBytes: limits.maxPartBytes });
    total += size;
    if (total > limits.maxTotalBytes) refuse({ reason: 'size', maxBytes: limits.maxTotalBytes });
    if (size > limits.ratioFloorBytes && size > limits.maxRatio * compressedSize)
      refuse({ reason: 'ratio', max: limits.maxRatio });
    // A stored part is its own size.
    if (method === 0 && size !== compressedSize) refuse({ reason: 'mismatch' });
    names.add(name);
    entries.push({ name, method, compressedSize, size, localHeaderOffset });
  }
  return { entries, directoryOffset };
}

const inflateRawAsync = promisify(inflateRaw);

/**
 * One part's bytes, unpacked on libuv's thread pool with a hard output limit: its declared size.
 * A part whose data would unpack to more is stopped at that size and refused (`mismatch`); so is
 * one that unpacks to less.
 */
export async function unpackEntry(bytes: Uint8Array, directory: ZipDirectory, entry: ZipEntry): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (view.getUint32(local, true) !== localSignature) refuse({ reason: 'unreadable' });
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const stop = start + entry.compressedSize;
  if (stop > directory.directoryOffset) refuse({ reason: 'unreadable' });
  const packed = bytes.subarray(start, stop);
  if (entry.method === 0) return packed;
  let unpacked: Uint8Array;
  try {
    // maxOutputLength ≥ 1 (zlib's own rule); an empty part that unpacks to one byte is refused below.
    unpacked = await inflateRawAsync(packed, { maxOutputLength: Math.max(1, entry.size) });
  } catch (error) {
    const code = (error as { code?: string }).code;
    // ERR_BUFFER_TOO_LARGE: the data unpacks to more than the directory says (inflation stopped there).
    return refuse(
      code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError
        ? { reason: 'mismatch' }
        : { reason: 'unreadable' },
    );
  }
  if (unpacked.byteLength !== entry.size) refuse({ reason: 'mismatch' });
  return unpacked;
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[entity]!;
  });
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return match ? unescapeXml(match[1] ?? match[2] ?? '') : undefined;
}

/** A relationship's target as read-excel-file resolves it: `/x` → `x`, else relative to `xl/`. */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

/**
 * The parts read-excel-file needs for the first sheet, from the workbook and its relationships:
 * `{ sheet, sharedStrings, styles }` paths (the latter two may be absent), or undefined when they
 * cannot be made out (then every XML part, each still bounded, is handed over and the parser decides).
 */
export function firstSheetParts(
  workbookXml: string,
  relationshipsXml: string,
): { sheet: string; sharedStrings: string; styles: string } | undefined {
  const relationships = new Map<string, { type: string; target: string }>();
  let sharedStrings = 'xl/sharedStrings.xml';
  let styles = 'xl/styles.xml';
  for (const [tag] of relationshipsXml.matchAll(/<(?:[\w.-]+:)?Relationship\s[^>]*>/g)) {
    const id = attribute(tag, '(?:[\\w.-]+:)?Id');
    const type = attribute(tag, '(?:[\\w.-]+:)?Type') ?? '';
    const target = attribute(tag, '(?:[\\w.-]+:)?Target');
    if (target === undefined) continue;
    if (type.endsWith('/relationships/sharedStrings')) sharedStrings = partPath(target);
    else if (type.endsWith('/relationships/styles')) styles = partPath(target);
    else if (type.endsWith('/relationships/worksheet') && id !== undefined) relationships.set(id, { type, target });
  }
  // The first <sheet> with a name (read-excel-file's "sheet 1"); its relationship id is `r:id` (any prefix).
  for (const [tag] of workbookXml.matchAll(/<(?:[\w.-]+:)?sheet\s[^>]*>/g)) {
    if (attribute(tag, 'name') === undefined) continue;
    const id = attribute(tag, '(?:[\\w.-]+:)?id');
    const relationship = id === undefined ? undefined : relationships.get(id);
    return relationship ? { sheet: partPath(relationship.target), sharedStrings, styles } : undefined;
  }
  return undefined;
}

/** A cell as read-excel-file gives it with `parseNumber: (text) => text`. */
export type XlsxCellValue = string | number | boolean | Date | null;

/**
 * The first sheet of an uploaded `.xlsx`, read within `limits` (see the file's comment). Throws
 * `XlsxRefused` for a file beyond them or one that cannot be read.
 */
export async function readFirstSheetBounded(
  bytes: Uint8Array,
  limits: XlsxReadLimits,
  options: { trim?: boolean } = {},
): Promise<XlsxCellValue[][]> {
  const archive = await boundedParts(bytes, limits);
  try {
    // Numbers as stored (`parseNumber`), so 0.39200 stays exact text and is checked as a decimal by the caller.
    return (await readSheet(archive, 1, {
      parseNumber: (text: string) => text,
      trim: options.trim ?? true,
    })) as XlsxCellValue[][];
  } catch {
    return refuse({ reason: 'unreadable' });
  }
}

/** The needed parts, unpacked within their caps, as a stored zip for read-excel-file. */
async function boundedParts(bytes: Uint8Array, limits: XlsxReadLimits): Promise<ArrayBuffer> {
  const directory = readZipDirectory(bytes, limits);
  const byName = new Map(directory.entries.map((entry) => [entry.name, entry]));
  const parts: Record<string, Uint8Array> = {};
  const unpack = async (name: string, cap: number): Promise<Uint8Array | undefined> => {
    const entry = byName.get(name);
    if (!entry) return undefined;
    if (entry.size > cap) refuse({ reason: 'size', maxBytes: cap });
    const data = await unpackEntry(bytes, directory, entry);
    parts[name] = data;
    return data;
  };
  const workbook = await unpack('xl/workbook.xml', limits.maxOtherPartBytes);
  const relationships = await unpack('xl/_rels/workbook.xml.rels', limits.maxOtherPartBytes);
  if (!workbook || !relationships) refuse({ reason: 'unreadable' });
  const decoder = new TextDecoder('utf-8');
  const needed = firstSheetParts(decoder.decode(workbook), decoder.decode(relationships));
  if (needed && byName.has(needed.sheet)) {
    await unpack(needed.sheet, limits.maxSheetBytes);
    await unpack(needed.sharedStrings, limits.maxSharedStringsBytes);
    await unpack(needed.styles, limits.maxOtherPartBytes);
  } else {
    // Not made out here: every XML part (what read-excel-file would read), each within the sheet's cap.
    for (const entry of directory.entries) {
      if (!(entry.name in parts) && /\.xml(\.rels)?$/.test(entry.name)) await unpack(entry.name, limits.maxSheetBytes);
    }
  }
  const zipped = zipSync(parts, { level: 0 });
  return zipped.byteOffset === 0 && zipped.byteLength === zipped.buffer.byteLength
    ? (zipped.buffer as ArrayBuffer)
    : (zipped.slice().buffer as ArrayBuffer);
}
