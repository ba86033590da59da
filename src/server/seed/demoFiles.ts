/**
 * Small real documents for the demo enterprises' certification files (seed.ts): a one-page PDF
 * that says what it is, and a PNG drawn like a scanned licence (border, lines of text, a red seal).
 * Made in code rather than kept as binary files, so the seed stays reviewable; both open in any
 * viewer and pass the upload's content check (uploads/fileType.ts).
 */
import { crc32, deflateSync } from 'node:zlib';

/** A one-page A4 PDF with the given lines in Helvetica (ASCII only: no font embedding needed). */
export function demoPdf(lines: readonly string[]): Uint8Array {
  const escape = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const text = lines
    .map((line, i) => `BT /F1 ${i === 0 ? 20 : 12} Tf 72 ${770 - i * 28} Td (${escape(line)}) Tj ET`)
    .join('\n');
  const stream = `0.85 0.1 0.1 RG 3 w 400 80 120 120 re S\n${text}\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A PNG of a document: a white sheet with a blue border, grey lines where text would be (their
 * lengths vary with `variant`, so two demo files do not look alike) and a red seal bottom right.
 */
export function demoPng(variant: number, width = 320, height = 220): Uint8Array {
  const rows: Buffer[] = [];
  const sealX = width - 70;
  const sealY = height - 60;
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3, 255);
    row[0] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      let rgb: [number, number, number] | null = null;
      const border = x < 6 || y < 6 || x >= width - 6 || y >= height - 6;
      if (border) rgb = [30, 80, 160];
      const line = Math.floor((y - 30) / 22);
      const inLine = y >= 30 && (y - 30) % 22 < 8 && line < 7;
      const lineEnd = width - 40 - ((line * 37 + variant * 53) % 120);
      if (!border && inLine && x >= 28 && x < lineEnd) rgb = line === 0 ? [40, 40, 40] : [150, 150, 150];
      const d = Math.hypot(x - sealX, y - sealY);
      if (d < 36 && d > 30) rgb = [200, 30, 30];
      if (rgb) row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([
      signature,
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
