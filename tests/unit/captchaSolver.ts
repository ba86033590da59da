/**
 * A template-matching captcha solver, the attack svg-captcha fell to: it knows the captcha's font
 * (it renders every glyph of src/server/services/captchaImage.ts undistorted, optionally turned
 * by a few angles, as templates), cleans the image the usual way (dark pixels as ink, specks
 * removed), slides every template over it scoring normalised cross-correlation, and picks the
 * four best-scoring glyphs in left-to-right order (dynamic programming; neighbours may overlap by
 * half a glyph). Used by captchaSolver.test.ts.
 */
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import { captchaGlyphs, drawCaptcha } from '../../src/server/services/captchaImage.ts';

/**
 * An ink map at half the image's resolution (the image's CSS size; one value per 2×2 pixels,
 * 0 = paper, 1 = ink). Half read more than a third: the stronger attack.
 */
export interface InkMap {
  width: number;
  height: number;
  data: Float32Array;
}

interface Template {
  /** The answer character it stands for (answers are case-insensitive). */
  answer: string;
  width: number;
  height: number;
  /**
   * The template T is kept sparse: its ink pixels (column, row, value), its mean and the norm of
   * T − mean. The correlation of the zero-mean unit-norm template with a window W is then
   * (Σ T·W − mean·ΣW) / norm, the first sum over the ink pixels only.
   */
  ink: { x: number; y: number; value: number }[];
  mean: number;
  norm: number;
}

/** Pixels darker than this are ink: the text is dark, the background light. */
const inkLuminance = 120;
/** Ink blobs smaller than this (pixels of the full image) are speckle. */
const speckPixels = 14;
/** Pixels of the image per pixel of the ink map. */
const scale = 2;

export async function pngInk(png: Buffer): Promise<InkMap> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvasInk(canvas);
}

export function canvasInk(canvas: Canvas): InkMap {
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const ink = new Uint8Array(width * height);
  for (let i = 0; i < ink.length; i++) {
    const luminance = 0.299 * (rgba[i * 4] ?? 0) + 0.587 * (rgba[i * 4 + 1] ?? 0) + 0.114 * (rgba[i * 4 + 2] ?? 0);
    ink[i] = luminance < inkLuminance ? 1 : 0;
  }
  removeSpecks(ink, width, height);
  const small = { width: Math.floor(width / scale), height: Math.floor(height / scale) };
  const data = new Float32Array(small.width * small.height);
  for (let y = 0; y < small.height; y++) {
    for (let x = 0; x < small.width; x++) {
      let total = 0;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) total += ink[(y * scale + dy) * width + x * scale + dx] ?? 0;
      data[y * small.width + x] = total / (scale * scale);
    }
  }
  return { ...small, data };
}

/** Clears 8-connected ink components smaller than speckPixels. */
function removeSpecks(ink: Uint8Array, width: number, height: number): void {
  const seen = new Uint8Array(ink.length);
  const stack: number[] = [];
  const component: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    component.length = 0;
    while (stack.length > 0) {
      const at = stack.pop() ?? 0;
      component.push(at);
      const x = at % width;
      const y = (at - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (ink[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    if (component.length < speckPixels) for (const at of component) ink[at] = 0;
  }
}

function inkBox(ink: InkMap): { minX: number; minY: number; maxX: number; maxY: number } {
  let [minX, minY, maxX, maxY] = [ink.width, ink.height, -1, -1];
  for (let y = 0; y < ink.height; y++) {
    for (let x = 0; x < ink.width; x++) {
      if ((ink.data[y * ink.width + x] ?? 0) > 0) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return { minX, minY, maxX, maxY };
}

/**
 * The glyph's columns (one of paper each side) over the rows of the whole font (capital top to
 * descender), as a zero-mean unit-norm template: an `n` is then told from the foot of an `h`.
 */
function toTemplate(answer: string, ink: InkMap, rows: { top: number; bottom: number }): Template {
  const box = inkBox(ink);
  const minX = Math.max(0, box.minX - 1);
  const maxX = Math.min(ink.width - 1, box.maxX + 1);
  const minY = Math.max(0, rows.top - 1);
  const maxY = Math.min(ink.height - 1, rows.bottom + 1);
  const width = maxX - minX + 1;
  const height = maxY - minY + 1;
  const values = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) values[y * width + x] = ink.data[(minY + y) * ink.width + minX + x] ?? 0;
  const mean = values.reduce((total, v) => total + v, 0) / values.length;
  const norm = Math.sqrt(values.reduce((total, v) => total + (v - mean) ** 2, 0));
  const inkPixels: Template['ink'] = [];
  values.forEach((value, i) => {
    if (value > 0) inkPixels.push({ x: i % width, y: Math.floor(i / width), value });
  });
  return { answer: answer.toLowerCase(), width, height, ink: inkPixels, mean, norm };
}

/**
 * One template per glyph of the font and per angle (degrees): the glyph as the generator draws it
 * with the distortion off, turned about its centre.
 */
export function fontTemplates(angles: readonly number[] = [0]): Template[] {
  const inks: { char: string; ink: InkMap }[] = [];
  for (const char of captchaGlyphs) {
    // A fixed draw: its colour is then a dark teal. A random one is now and then so light (a dark
    // yellow) that it reads as paper, and the glyph has no ink to make a template of.
    const upright = drawCaptcha(char, { distort: false, clutter: false, random: () => 0.5 });
    for (const angle of angles) {
      const turned = createCanvas(upright.width, upright.height);
      const ctx = turned.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, turned.width, turned.height);
      ctx.translate(turned.width / 2, turned.height / 2);
      ctx.rotate((angle * Math.PI) / 180);
      ctx.drawImage(upright, -upright.width / 2, -upright.height / 2);
      inks.push({ char, ink: canvasInk(turned) });
    }
  }
  const boxes = inks.map(({ ink }) => inkBox(ink));
  const rows = { top: Math.min(...boxes.map((box) => box.minY)), bottom: Math.max(...boxes.map((box) => box.maxY)) };
  return inks.map(({ char, ink }) => toTemplate(char, ink, rows));
}

/** How far a glyph's successor starts at least, as a share of its width (overlap allowed). */
const minAdvance = 0.5;

/** Reads `length` characters: best normalised cross-correlation per position, best sequence overall. */
export function solve(ink: InkMap, templates: readonly Template[], length = 4): string {
  const { width, height, data } = ink;
  // Integral images of the ink and its square: each window's mean and variance in O(1).
  const stride = width + 1;
  const sum = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowSquares = 0;
    for (let x = 0; x < width; x++) {
      const v = data[y * width + x] ?? 0;
      rowSum += v;
      rowSquares += v * v;
      sum[(y + 1) * stride + x + 1] = (sum[y * stride + x + 1] ?? 0) + rowSum;
      squares[(y + 1) * stride + x + 1] = (squares[y * stride + x + 1] ?? 0) + rowSquares;
    }
  }
  const box = (table: Float64Array, x: number, y: number, w: number, h: number) =>
    (table[(y + h) * stride + x + w] ?? 0) -
    (table[y * stride + x + w] ?? 0) -
    (table[(y + h) * stride + x] ?? 0) +
    (table[y * stride + x] ?? 0);

  // score[t][x]: the best correlation of template t with its left edge at column x (any row).
  const scores = templates.map((template) => {
    const row = new Float32Array(width).fill(Number.NEGATIVE_INFINITY);
    const n = template.width * template.height;
    const offsets = Int32Array.from(template.ink, (pixel) => pixel.y * width + pixel.x);
    const weights = Float32Array.from(template.ink, (pixel) => pixel.value);
    for (let x = 0; x + template.width <= width; x++) {
      for (let y = 0; y + template.height <= height; y++) {
        const s = box(sum, x, y, template.width, template.height);
        const variance = box(squares, x, y, template.width, template.height) - (s * s) / n;
        if (variance < 1) continue; // (almost) no ink here
        const origin = y * width + x;
        let dot = 0;
        for (let i = 0; i < offsets.length; i++) dot += weights[i]! * data[origin + offsets[i]!]!;
        const ncc = (dot - template.mean * s) / template.norm / Math.sqrt(variance);
        if (ncc > (row[x] ?? 0)) row[x] = ncc;
      }
    }
    return row;
  });

  // best[k][t][x]: the best total of k+1 glyphs, the last one t at x; a successor may start at
  // x + minAdvance × width of t.
  const advance = templates.map((template) => Math.max(1, Math.round(minAdvance * template.width)));
  type Step = { total: number; from: number };
  let layer: Step[][] = scores.map((row) => Array.from(row, (total) => ({ total, from: -1 })));
  const layers: Step[][][] = [layer];
  for (let k = 1; k < length; k++) {
    // prefix[x]: the best previous layer entry (total, and t·width + x to go back) ending by x.
    const landing = new Float64Array(width + 1).fill(Number.NEGATIVE_INFINITY);
    const landingFrom = new Int32Array(width + 1).fill(-1);
    layer.forEach((row, t) =>
      row.forEach((step, x) => {
        const end = x + (advance[t] ?? 1);
        if (end <= width && step.total > (landing[end] ?? 0)) {
          landing[end] = step.total;
          landingFrom[end] = t * width + x;
        }
      }),
    );
    for (let x = 1; x <= width; x++) {
      if ((landing[x - 1] ?? 0) > (landing[x] ?? 0)) {
        landing[x] = landing[x - 1] ?? 0;
        landingFrom[x] = landingFrom[x - 1] ?? -1;
      }
    }
    layer = scores.map((row) =>
      Array.from(row, (score, x) => ({ total: score + (landing[x] ?? 0), from: landingFrom[x] ?? -1 })),
    );
    layers.push(layer);
  }
  let best = { total: Number.NEGATIVE_INFINITY, at: -1 };
  layer.forEach((row, t) =>
    row.forEach((step, x) => {
      if (step.total > best.total) best = { total: step.total, at: t * width + x };
    }),
  );
  let text = '';
  let at = best.at;
  for (let k = length - 1; k >= 0 && at >= 0; k--) {
    const t = Math.floor(at / width);
    text = (templates[t]?.answer ?? '?') + text;
    at = layers[k]?.[t]?.[at % width]?.from ?? -1;
  }
  return text;
}
