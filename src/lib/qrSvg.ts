/**
 * A QR code as a small SVG document: the footer's site address (src/pages/site-qr.svg.ts) and a
 * second factor's enrolment (services/secondFactor.ts). The symbol comes from `qr` (no
 * dependencies of its own); the drawing is ours, one path of each row's dark runs, because the
 * library's SVG draws every module as its own square, about three times the bytes.
 */
import encodeQR, { type ErrorCorrection } from 'qr';

export interface QrSvgOptions {
  /** The quiet zone around the symbol, in modules (at least 1). */
  margin: number;
  ecc?: ErrorCorrection;
  /** Colours of the dark modules and of the background. */
  dark?: string;
  light?: string;
}

export function qrSvg(
  text: string,
  { margin, ecc = 'medium', dark = '#000000', light = '#ffffff' }: QrSvgOptions,
): string {
  // The library draws the quiet zone into the matrix: its rows start and end light.
  const modules = encodeQR(text, 'raw', { ecc, border: margin });
  const size = modules.length;
  let path = '';
  modules.forEach((row, y) => {
    // Each run is a 1-wide stroke along the row's middle; after the first, moves are relative to the last run's end.
    let pen: number | undefined;
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let end = x;
      while (row[end]) end++;
      path += pen === undefined ? `M${x} ${y + 0.5}h${end - x}` : `m${x - pen} 0h${end - x}`;
      pen = end;
      x = end;
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<path fill="${light}" d="M0 0h${size}v${size}H0z"/><path stroke="${dark}" d="${path}"/></svg>\n`
  );
}
