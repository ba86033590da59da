/**
 * The login captcha's picture: a PNG drawn with @napi-rs/canvas (skia) from a small stroke font of
 * our own, so no system font is needed and no font outline can be matched.
 *
 * svg-captcha, used before, drew each character as a fixed font outline moved by at most ±0.1, so a
 * script that knew the font read every image. Here each glyph is distorted on its own: a non-linear
 * warp (sine displacement of its stroke points), then size, width, shear and a turn that is never
 * near upright, and a stroke width of its own; the glyphs' boxes reach into their neighbours',
 * they sit on an uneven baseline and are crossed by two thin curves in their colour, over a
 * textured background with speckle. Meant for a person to read at the first try; a
 * template-matching solver that knows the font reads about 1 in 200
 * (tests/unit/captchaSolver.test.ts: it reads the undistorted drawing every time).
 *
 * All randomness comes from node:crypto.
 */
import { randomBytes } from 'node:crypto';
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';

/** Device pixels; shown at half size (120 × 40 CSS px) for a sharp image on high-density screens. */
export const captchaImageSize = { width: 240, height: 80 } as const;

/** A number in [0, 1). */
export type Random = () => number;

/** Uniform numbers from node:crypto, read from a pooled buffer (one system call per 256 numbers). */
export function cryptoRandom(): Random {
  let pool = randomBytes(1024);
  let offset = 0;
  return () => {
    if (offset >= pool.length) {
      pool = randomBytes(1024);
      offset = 0;
    }
    const value = pool.readUInt32LE(offset) / 2 ** 32;
    offset += 4;
    return value;
  };
}

/*
 * The stroke font. Units: cap height and ascenders 0 → 10 (the baseline), x-height 4, descenders to
 * 13.5; y grows downwards. Commands: M x y, L x y, Q cx cy x y (quadratic curve), Z. One entry per
 * character of the captcha alphabet (captcha.ts); a missing one fails at start.
 */
const strokeFont: Record<string, string> = {
  A: 'M0 10 L4 0 L8 10 M1.5 6.6 L6.5 6.6',
  C: 'M7.6 1.6 Q6.2 0 4 0 Q0 0 0 5 Q0 10 4 10 Q6.2 10 7.6 8.4',
  D: 'M0 0 L0 10 L3.5 10 Q8 10 8 5 Q8 0 3.5 0 Z',
  E: 'M7 0 L0 0 L0 10 L7 10 M0 5 L5.5 5',
  F: 'M7 0 L0 0 L0 10 M0 5 L5.5 5',
  G: 'M7.6 1.6 Q6.2 0 4 0 Q0 0 0 5 Q0 10 4 10 Q6.4 10 8 8.6 L8 5.6 L4.4 5.6',
  H: 'M0 0 L0 10 M8 0 L8 10 M0 5 L8 5',
  J: 'M2.5 0 L6 0 M6 0 L6 7 Q6 10 3 10 Q0.8 10 0 7.8',
  K: 'M0 0 L0 10 M7.6 0 L0.4 5.6 L8 10',
  M: 'M0 10 L0 0 L4.5 7 L9 0 L9 10',
  N: 'M0 10 L0 0 L8 10 L8 0',
  P: 'M0 10 L0 0 L4.5 0 Q8 0 8 2.8 Q8 5.6 4.5 5.6 L0 5.6',
  Q: 'M4 0 Q0 0 0 5 Q0 10 4 10 Q8 10 8 5 Q8 0 4 0 M5 7.2 L8.6 11',
  R: 'M0 10 L0 0 L4.5 0 Q8 0 8 2.8 Q8 5.6 4.5 5.6 L0 5.6 M4.2 5.6 L8 10',
  T: 'M0 0 L8 0 M4 0 L4 10',
  U: 'M0 0 L0 6.5 Q0 10 4 10 Q8 10 8 6.5 L8 0',
  V: 'M0 0 L4 10 L8 0',
  W: 'M0 0 L2.5 10 L5 2.5 L7.5 10 L10 0',
  X: 'M0 0 L8 10 M8 0 L0 10',
  Y: 'M0 0 L4 5 L8 0 M4 5 L4 10',
  a: 'M0.8 4.9 Q2.2 4 3.6 4 Q6.4 4 6.4 6.6 L6.4 10 M6.4 6.9 Q5.6 6.4 3.4 6.6 Q0.3 6.9 0.3 8.5 Q0.3 10 2.5 10 Q5 10 6.4 8.6',
  b: 'M0 0 L0 10 M0 7 Q0 4 3.3 4 Q6.6 4 6.6 7 Q6.6 10 3.3 10 Q0 10 0 7',
  d: 'M6.6 0 L6.6 10 M6.6 7 Q6.6 4 3.3 4 Q0 4 0 7 Q0 10 3.3 10 Q6.6 10 6.6 7',
  e: 'M0.2 7 L6.6 7 Q6.6 4 3.3 4 Q0 4 0 7 Q0 10 3.3 10 Q5.5 10 6.4 8.8',
  f: 'M5.6 0.8 Q4.9 0 3.8 0 Q2 0 2 2.5 L2 10 M0 4.3 L5.2 4.3',
  g: 'M6.6 4 L6.6 11 Q6.6 13.5 3.3 13.5 Q1.1 13.5 0.3 12.3 M6.6 7 Q6.6 4 3.3 4 Q0 4 0 7 Q0 10 3.3 10 Q6.6 10 6.6 7',
  h: 'M0 0 L0 10 M0 6.6 Q0 4 3.3 4 Q6.6 4 6.6 6.6 L6.6 10',
  j: 'M3.8 4 L3.8 11.5 Q3.8 13.5 1.9 13.5 Q0.7 13.5 0 12.8 M3.8 1 L3.8 1.9',
  k: 'M0 0 L0 10 M5.8 4 L0.4 7.4 L6.2 10',
  m: 'M0 10 L0 4 M0 6 Q0 4 2.3 4 Q4.6 4 4.6 6 L4.6 10 M4.6 6 Q4.6 4 6.9 4 Q9.2 4 9.2 6 L9.2 10',
  n: 'M0 10 L0 4 M0 6.6 Q0 4 3.3 4 Q6.6 4 6.6 6.6 L6.6 10',
  p: 'M0 4 L0 13.5 M0 7 Q0 4 3.3 4 Q6.6 4 6.6 7 Q6.6 10 3.3 10 Q0 10 0 7',
  q: 'M6.6 4 L6.6 12.8 Q6.6 13.6 7.8 13.2 M6.6 7 Q6.6 4 3.3 4 Q0 4 0 7 Q0 10 3.3 10 Q6.6 10 6.6 7',
  r: 'M0 4 L0 10 M0 6.9 Q0.6 4 4.6 4.2',
  t: 'M2 1 L2 8.5 Q2 10 3.8 10 L5 9.8 M0 4.3 L5 4.3',
  u: 'M0 4 L0 7.4 Q0 10 3.3 10 Q6.6 10 6.6 7.4 M6.6 4 L6.6 10',
  w: 'M0 4 L2 10 L4 5 L6 10 L8 4',
  x: 'M0 4 L6.6 10 M6.6 4 L0 10',
  y: 'M0 4 L3.6 9.6 M7 4 L2.2 13.5',
  '3': 'M0.5 1.5 Q1.5 0 3.6 0 Q7 0 7 2.6 Q7 5 3.6 5 M3.6 5 Q7.5 5 7.5 7.5 Q7.5 10 3.6 10 Q1.1 10 0 8.5',
  '4': 'M4.6 0 L0 7.2 L8.4 7.2 M5.8 3.4 L5.8 10',
  '6': 'M6.6 0.8 Q5.6 0 4 0 Q0 0 0 6 Q0 10 3.8 10 Q7.6 10 7.6 6.8 Q7.6 3.6 3.8 3.6 Q0.8 3.6 0.2 6',
  '7': 'M0 0 L7.6 0 L3 10',
};

type Point = readonly [number, number];
interface Glyph {
  strokes: Point[][];
  /** The centre of the glyph's box, the point it turns about. */
  center: Point;
}

/** Flattens a path into polylines with points at most `step` units apart (the warp bends them). */
function parseGlyph(path: string, step = 0.4): Glyph {
  const tokens = path.match(/[MLQZ]|-?\d*\.?\d+/g) ?? [];
  const strokes: Point[][] = [];
  let current: Point[] = [];
  let i = 0;
  const num = () => Number(tokens[i++]);
  const last = (): Point => current[current.length - 1] ?? [0, 0];
  const lineTo = (to: Point) => {
    const from = last();
    const n = Math.max(1, Math.ceil(Math.hypot(to[0] - from[0], to[1] - from[1]) / step));
    for (let k = 1; k <= n; k++)
      current.push([from[0] + ((to[0] - from[0]) * k) / n, from[1] + ((to[1] - from[1]) * k) / n]);
  };
  while (i < tokens.length) {
    const command = tokens[i++];
    if (command === 'M') {
      if (current.length > 1) strokes.push(current);
      current = [[num(), num()]];
    } else if (command === 'L') {
      lineTo([num(), num()]);
    } else if (command === 'Q') {
      const from = last();
      const control: Point = [num(), num()];
      const to: Point = [num(), num()];
      const length =
        Math.hypot(control[0] - from[0], control[1] - from[1]) + Math.hypot(to[0] - control[0], to[1] - control[1]);
      const n = Math.max(2, Math.ceil(length / step));
      for (let k = 1; k <= n; k++) {
        const t = k / n;
        const a = (1 - t) * (1 - t);
        const b = 2 * t * (1 - t);
        const c = t * t;
        current.push([a * from[0] + b * control[0] + c * to[0], a * from[1] + b * control[1] + c * to[1]]);
      }
    } else if (command === 'Z') {
      const first = current[0];
      if (first) lineTo(first);
    } else {
      throw new Error(`captcha font: unknown command ${command ?? ''} in ${path}`);
    }
  }
  if (current.length > 1) strokes.push(current);
  const xs = strokes.flat().map((p) => p[0]);
  const ys = strokes.flat().map((p) => p[1]);
  return { strokes, center: [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2] };
}

/**
 * Lower-case letters are drawn taller than their font units (x-height 3 instead of 4): at this
 * size a person reads them better.
 */
function tallerLowerCase(path: string): string {
  let index = 0;
  // Coordinates alternate x, y after each command letter.
  return path.replace(/[MLQZ]|-?\d*\.?\d+/g, (token) => {
    if (/[MLQZ]/.test(token)) {
      index = 0;
      return token;
    }
    const isY = index++ % 2 === 1;
    const y = Number(token);
    if (!isY || y > 10) return token;
    return String(y < 4 ? y * 0.85 : 3.4 + ((y - 4) * 6.6) / 6);
  });
}

const glyphs = new Map(
  Object.entries(strokeFont).map(([char, path]) => [
    char,
    parseGlyph(/[a-z]/.test(char) ? tallerLowerCase(path) : path),
  ]),
);

/** The characters the font can draw. */
export const captchaGlyphs: readonly string[] = [...glyphs.keys()];

/** Pixels per font unit: capitals are 44 px tall on the 80 px canvas before scaling. */
const unit = 4.4;
/** Baseline of undistorted text, in canvas pixels. */
const baseline = 56;

/**
 * How far each glyph is pulled from the font, drawn anew for every glyph ([low, high] ranges;
 * `turn` and `shear` take either sign). Measured against the template solver of
 * tests/unit/captchaSolver.test.ts, one kind at a time with the clutter on and ranges close to
 * these (share of characters it still read): nothing 96 %, sine bend 91 %, shear 63 %, size and width 52 %, turn 27 %;
 * overlap and noise curves alone cost it nothing. Everything together: about 20 %, and a
 * whole answer almost never. Stronger settings (turns to 26°, bends of 0.9) cost a person's
 * reading more than they cost the solver.
 */
const distortion = {
  /** Radians, either way: never upright. */
  turn: [0.2, 0.4],
  size: [0.9, 1.3],
  /** Width and height relative to the size: narrower or wider glyphs. */
  width: [0.8, 1.25],
  height: [0.92, 1.05],
  shear: [0, 0.15],
  /** Sine displacement of the stroke points (font units) and its wavelength. */
  bend: [0.2, 0.35],
  bendLength: [8, 14],
  /** Stroke width in font units (undistorted: 0.78). */
  stroke: [0.8, 1.1],
  /** How far each glyph's box reaches into the one before, as a share of the narrower box. */
  overlap: [-0.02, 0.06],
  /** Baseline wander, pixels. */
  rise: 4,
} as const satisfies Record<string, readonly [number, number] | number>;

export interface CaptchaDrawOptions {
  /**
   * Per-glyph turn, size, width, shear, bend, stroke width, uneven baseline and overlap (default
   * on). Off draws the font as it is, side by side: only the solver test's control uses that.
   */
  distort?: boolean;
  /** Background texture, noise curves and speckle (default on). */
  clutter?: boolean;
  random?: Random;
}

interface PlacedGlyph {
  strokes: Point[][];
  width: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

const between = (random: Random, low: number, high: number) => low + (high - low) * random();
const inRange = (random: Random, [low, high]: readonly [number, number]) => between(random, low, high);
/** In the range, either sign. */
const eitherWay = (random: Random, range: readonly [number, number]) =>
  (random() < 0.5 ? -1 : 1) * inRange(random, range);

/** One glyph's strokes in pixels around (0, 0) = its centre, distorted or not. */
function shapeGlyph(glyph: Glyph, distort: boolean, random: Random): PlacedGlyph {
  const [cx, cy] = glyph.center;
  if (!distort)
    return placed(
      glyph.strokes.map((stroke) => stroke.map(([x, y]): Point => [(x - cx) * unit, (y - cy) * unit])),
      0.78 * unit,
    );
  const angle = eitherWay(random, distortion.turn);
  const size = inRange(random, distortion.size);
  const scaleX = size * inRange(random, distortion.width);
  const scaleY = size * inRange(random, distortion.height);
  const shear = eitherWay(random, distortion.shear);
  // x moves with y and y with x, each along a sine of its own wavelength and phase.
  const wave = () => ({
    amplitude: inRange(random, distortion.bend),
    length: inRange(random, distortion.bendLength),
    phase: 2 * Math.PI * random(),
  });
  const bendX = wave();
  const bendY = wave();
  const along = (w: ReturnType<typeof wave>, t: number) =>
    w.amplitude * Math.sin((2 * Math.PI * t) / w.length + w.phase);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const transform = (x: number, y: number): Point => {
    const wx = x + along(bendX, y) - cx;
    const wy = y + along(bendY, x) - cy;
    const sx = scaleX * (wx + shear * wy);
    const sy = scaleY * wy;
    return [unit * (cos * sx - sin * sy), unit * (sin * sx + cos * sy)];
  };
  return placed(
    glyph.strokes.map((stroke) => stroke.map(([x, y]) => transform(x, y))),
    inRange(random, distortion.stroke) * unit,
  );
}

function placed(strokes: Point[][], width: number): PlacedGlyph {
  const points = strokes.flat();
  const pad = width / 2;
  return {
    strokes,
    width,
    minX: Math.min(...points.map((p) => p[0])) - pad,
    maxX: Math.max(...points.map((p) => p[0])) + pad,
    minY: Math.min(...points.map((p) => p[1])) - pad,
    maxY: Math.max(...points.map((p) => p[1])) + pad,
  };
}

function hsl(hue: number, saturation: number, lightness: number, alpha = 1): string {
  return `hsla(${hue.toFixed(0)}, ${saturation.toFixed(0)}%, ${lightness.toFixed(0)}%, ${alpha.toFixed(2)})`;
}

function drawBackground(ctx: SKRSContext2D, random: Random, hue: number): void {
  const { width, height } = captchaImageSize;
  const gradient = ctx.createLinearGradient(0, between(random, 0, height), width, between(random, 0, height));
  gradient.addColorStop(0, hsl(hue + between(random, 90, 270), between(random, 25, 60), between(random, 88, 95)));
  gradient.addColorStop(1, hsl(hue + between(random, 90, 270), between(random, 25, 60), between(random, 88, 95)));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
  // Texture: soft blobs and thin arcs of mid-light colours.
  for (let i = 0; i < 14; i++) {
    ctx.fillStyle = hsl(
      between(random, 0, 360),
      between(random, 20, 60),
      between(random, 70, 88),
      between(random, 0.25, 0.6),
    );
    ctx.beginPath();
    ctx.ellipse(
      between(random, 0, width),
      between(random, 0, height),
      between(random, 6, 30),
      between(random, 4, 18),
      between(random, 0, Math.PI),
      0,
      2 * Math.PI,
    );
    ctx.fill();
  }
  for (let i = 0; i < 8; i++) {
    ctx.strokeStyle = hsl(between(random, 0, 360), between(random, 20, 60), between(random, 60, 80), 0.7);
    ctx.lineWidth = between(random, 0.8, 2);
    ctx.beginPath();
    ctx.moveTo(between(random, -20, width), between(random, 0, height));
    ctx.quadraticCurveTo(
      between(random, 0, width),
      between(random, -20, height + 20),
      between(random, 0, width + 20),
      between(random, 0, height),
    );
    ctx.stroke();
  }
}

/**
 * Two curves across the text in its colour, so a colour filter keeps them with the glyphs. They
 * are thinner than the strokes: as thick as them they cost a person more than the solver.
 */
function drawNoiseCurves(
  ctx: SKRSContext2D,
  random: Random,
  color: string,
  band: { top: number; bottom: number },
): void {
  const { width } = captchaImageSize;
  const y = () => between(random, band.top, band.bottom);
  for (let i = 0; i < 2; i++) {
    ctx.strokeStyle = color;
    ctx.lineWidth = between(random, 0.18, 0.26) * unit;
    ctx.lineCap = 'round';
    ctx.beginPath();
    // Slanted, so that they do not pass for a crossbar along the line of text.
    const [from, to] = random() < 0.5 ? [band.top, band.bottom] : [band.bottom, band.top];
    ctx.moveTo(between(random, 0, 30), from + between(random, -6, 6));
    ctx.bezierCurveTo(
      between(random, 40, 110),
      y(),
      between(random, 130, 200),
      y(),
      between(random, 210, width),
      to + between(random, -6, 6),
    );
    ctx.stroke();
  }
}

function drawSpeckle(ctx: SKRSContext2D, random: Random, color: string): void {
  const { width, height } = captchaImageSize;
  for (let i = 0; i < 150; i++) {
    const kind = random();
    ctx.fillStyle =
      kind < 0.3
        ? color
        : kind < 0.6
          ? hsl(0, 0, between(random, 92, 100))
          : hsl(between(random, 0, 360), between(random, 20, 70), between(random, 35, 80));
    ctx.beginPath();
    ctx.arc(between(random, 0, width), between(random, 0, height), between(random, 0.6, 1.6), 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** Draws `text` (characters of the stroke font) on a new canvas. */
export function drawCaptcha(text: string, options: CaptchaDrawOptions = {}): Canvas {
  const { distort = true, clutter = true, random = cryptoRandom() } = options;
  const { width, height } = captchaImageSize;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const hue = between(random, 0, 360);
  const color = hsl(hue, between(random, 45, 75), between(random, 18, 32));
  if (clutter) drawBackground(ctx, random, hue);
  else {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
  }

  // Shape each glyph, then lay them out left to right: each one's box starts inside the one before
  // (or just after it), on a baseline that wanders.
  const shaped = [...text].map((char) => {
    const glyph = glyphs.get(char);
    if (!glyph) throw new Error(`captcha font has no glyph for ${JSON.stringify(char)}`);
    return { glyph, shape: shapeGlyph(glyph, distort, random) };
  });
  const offsets: Point[] = [];
  let cursor = 0;
  for (const [index, { glyph, shape }] of shaped.entries()) {
    const boxWidth = shape.maxX - shape.minX;
    const previous = shaped[index - 1]?.shape;
    const overlap = !previous
      ? 0
      : distort
        ? inRange(random, distortion.overlap) * Math.min(boxWidth, previous.maxX - previous.minX)
        : -4;
    cursor -= overlap;
    const x = cursor - shape.minX;
    cursor += boxWidth;
    // The glyph's centre sits where its font position puts it relative to the baseline.
    let y =
      baseline + (glyph.center[1] - 10) * unit + (distort ? between(random, -distortion.rise, distortion.rise) : 0);
    y = Math.min(Math.max(y, 2 - shape.minY), height - 2 - shape.maxY);
    offsets.push([x, y]);
  }
  // Centre the line (with some play); squeeze it if it is wider than the canvas.
  const squeeze = Math.min(1, (width - 12) / cursor);
  const left =
    (width - cursor * squeeze) / 2 +
    (distort ? between(random, -0.5, 0.5) * Math.max(0, width - 12 - cursor * squeeze) : 0);

  let top: number = height;
  let bottom = 0;
  ctx.strokeStyle = color;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const [index, { shape }] of shaped.entries()) {
    const [ox, oy] = offsets[index] ?? [0, 0];
    top = Math.min(top, oy + shape.minY);
    bottom = Math.max(bottom, oy + shape.maxY);
    for (const stroke of shape.strokes) {
      ctx.lineWidth = shape.width * (distort ? between(random, 0.85, 1.15) : 1);
      ctx.beginPath();
      for (const [k, [px, py]] of stroke.entries()) {
        const x = left + (ox + px) * squeeze;
        const y = oy + py;
        if (k === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.stroke();
    }
  }
  if (clutter) {
    drawNoiseCurves(ctx, random, color, { top: top + 4, bottom: bottom - 4 });
    drawSpeckle(ctx, random, color);
  }
  return canvas;
}

/** The captcha image for `text` as PNG bytes. */
export async function renderCaptchaPng(text: string): Promise<Buffer> {
  return drawCaptcha(text).encode('png');
}
