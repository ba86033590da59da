/**
 * `node scripts/contact-sheet.ts <directory> [<out directory>]`: the contact sheets of
 * docs/visual.md from the first-screen screenshots the layout browser test saves with
 * CONTACT_SHEET=<directory> (`<shape>--<locale>--<width>.png`): one sheet per width, a row per page
 * shape and a column per locale, each screenshot scaled down, with the shape and locale written.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { locales } from '../src/lib/i18n/locales.ts';

const [source, out = 'docs/screenshots/contact-sheet'] = process.argv.slice(2);
if (!source) throw new Error('usage: node scripts/contact-sheet.ts <screenshots directory> [<out directory>]');

const files = readdirSync(source).filter((file) => file.endsWith('.png'));
const parts = files.map((file) => {
  const [shape = '', locale = '', width = ''] = path.basename(file, '.png').split('--');
  return { file, shape, locale, width: Number(width) };
});
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

for (const width of [...new Set(parts.map((part) => part.width))].sort((a, b) => a - b)) {
  const shots = parts.filter((part) => part.width === width);
  const shapes = [...new Set(shots.map((part) => part.shape))];
  const scale = width > 800 ? 0.25 : 0.4;
  const first = await sharp(path.join(source, shots[0]!.file)).metadata();
  const cellWidth = Math.round((first.width ?? width) * scale);
  const cellHeight = Math.round((first.height ?? width) * scale);
  const label = 28;
  const gap = 8;
  const sheetWidth = locales.length * (cellWidth + gap) + gap;
  const sheetHeight = label + shapes.length * (cellHeight + label + gap) + gap;
  const layers: OverlayOptions[] = [];
  const text = (value: string, left: number, top: number, size = 14) =>
    layers.push({
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${cellWidth}" height="${label}"><text x="0" y="${label - 9}" font-family="sans-serif" font-size="${size}" fill="#1f2937">${escape(value)}</text></svg>`,
      ),
      left,
      top,
    });
  locales.forEach((locale, column) => text(locale, gap + column * (cellWidth + gap), 0, 16));
  for (const [row, shape] of shapes.entries()) {
    const top = label + row * (cellHeight + label + gap);
    text(shape.replace(/-/g, ' '), gap, top);
    for (const [column, locale] of locales.entries()) {
      const shot = shots.find((part) => part.shape === shape && part.locale === locale);
      if (!shot) continue;
      layers.push({
        input: await sharp(path.join(source, shot.file)).resize(cellWidth, cellHeight).toBuffer(),
        left: gap + column * (cellWidth + gap),
        top: top + label,
      });
    }
  }
  const file = path.join(out, `contact-sheet-${width}.png`);
  await sharp({ create: { width: sheetWidth, height: sheetHeight, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png({ palette: true, compressionLevel: 9, effort: 10 })
    .toFile(file);
  console.log(`${file}: ${shapes.length} page shapes × ${locales.length} locales at ${width} px`);
}
