/**
 * The QR codes drawn as SVG (src/lib/qrSvg.ts): the drawing is read back as an image and decoded,
 * so a path that misplaces a run or drops the quiet zone fails here and not in a phone's camera.
 */
import decodeQR from 'qr/decode.js';
import { describe, expect, it } from 'vitest';
import { qrSvg } from '../../src/lib/qrSvg.ts';

/** Paints the SVG's runs into an RGB image, `scale` pixels a module. */
function rasterise(svg: string, scale = 4) {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const path = /stroke="[^"]+" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  const width = size * scale;
  const data = new Uint8Array(width * width * 3).fill(255);
  let x = 0;
  let y = 0;
  for (const [, command, first = '0', second = '0'] of path.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    if (command === 'M') {
      x = Number(first);
      y = Number(second) - 0.5;
    } else if (command === 'm') {
      x += Number(first);
    } else {
      const run = Number(first);
      for (let row = y * scale; row < (y + 1) * scale; row++) {
        data.fill(0, (row * width + x * scale) * 3, (row * width + (x + run) * scale) * 3);
      }
      x += run;
    }
  }
  return { width, height: width, data };
}

describe('qrSvg', () => {
  const enrolment =
    'otpauth://totp/%E6%B1%87%E8%B4%AD%E7%94%B5:demo_person?issuer=%E6%B1%87%E8%B4%AD%E7%94%B5&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30';

  it('draws a symbol that decodes to the text it was given', () => {
    for (const [text, margin] of [
      [enrolment, 2],
      ['http://localhost:4321/', 1],
    ] as const) {
      expect(decodeQR(rasterise(qrSvg(text, { margin })))).toBe(text);
    }
  });

  it('is one small SVG document with the colours asked for and a square quiet zone', () => {
    const svg = qrSvg('http://localhost:4321/', { margin: 1, dark: '#1e2a3b', light: '#ffffff' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 27 27"[^>]*>.*<\/svg>\n$/s);
    expect(svg).toContain('<path fill="#ffffff" d="M0 0h27v27H0z"/>');
    expect(svg).toContain('stroke="#1e2a3b"');
    // Version 2 at medium correction is 25 modules; a margin of 1 each side makes 27; the first run starts inside it.
    expect(svg).toMatch(/d="M1 1\.5h7/);
    expect(svg.length).toBeLessThan(1300);
  });

  it('is the same drawing for the same text', () => {
    expect(qrSvg(enrolment, { margin: 2 })).toBe(qrSvg(enrolment, { margin: 2 }));
  });
});
