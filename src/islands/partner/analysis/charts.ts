/**
 * The analysis charts' geometry: where every axis, tick, bar, line, point and legend entry of a
 * chart goes in a box of a given size, as plain numbers that AnalysisChart.tsx draws as SVG.
 * Pure and free of the DOM (text widths come from the caller), so it is tested without a browser.
 *
 * Drawn here rather than by a chart library: Chart.js, even with only the bar and line parts
 * registered, is 45 KB compressed — more than an analysis page's whole budget left after React
 * (docs/performance.md, "JavaScript on signed-in pages"). What the pages need is small: a
 * category x axis, one linear y axis per unit starting at zero (two at most: more units are
 * drawn as small multiples), grouped bars or straight lines, a legend when there are several
 * series and the values of one category on hover.
 */
import type { Locale } from '../../../lib/i18n/locales.ts';
import { chartUnits, tickNumberFormat, type ChartModel, type MetricUnit } from './chartData.ts';

/**
 * The Okabe–Ito palette: eight colours told apart with the common colour-vision deficiencies,
 * one per institution at the comparison's maximum of eight.
 */
export const palette = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
] as const;

export type ChartKind = 'bar' | 'line';

export interface ChartTexts {
  /** The x axis title (institution, class, time). */
  xTitle: string;
  /** The y axis title of each unit (count, MWh, 元). */
  unitTitles: Record<MetricUnit, string>;
}

/** Width of a text in the chart's font, in pixels (the browser measures; tests pass an estimate). */
export type MeasureText = (text: string) => number;

/** Sizes of the chart's type (pixels): tick labels, titles and legend share one font. */
export const chartFont = { size: 12, lineHeight: 16 } as const;

const gap = 6;
const legendSwatch = 12;
/** Beyond this many categories a line shows no point markers (they would merge into a band). */
const pointMarkersUpTo = 40;
/** Share of a category's width its group of bars takes, and of a bar's slot the bar takes (Chart.js's look). */
const groupShare = 0.8;
const barShare = 0.9;

export interface Tick {
  value: number;
  /** Position on its axis (pixels from the top of the box). */
  y: number;
  label: string;
}

export interface YAxis {
  unit: MetricUnit;
  side: 'left' | 'right';
  title: string;
  /** The x of the axis line; tick labels sit outside it, the title further out. */
  x: number;
  titleX: number;
  ticks: Tick[];
  /** Only the first axis draws grid lines across the plot. */
  grid: boolean;
}

export interface XLabel {
  text: string;
  x: number;
  y: number;
  /** Drawn turned by this many degrees (0 or -45) around its anchor. */
  rotate: number;
}

export interface Bar {
  series: number;
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
  colour: string;
}

export interface Line {
  series: number;
  colour: string;
  /** SVG path data: one sub-path per run of values without a gap. */
  path: string;
  points: { index: number; x: number; y: number }[];
  pointRadius: number;
}

export interface LegendEntry {
  label: string;
  colour: string;
  x: number;
  y: number;
}

export interface Plot {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ChartLayout {
  width: number;
  height: number;
  plot: Plot;
  /** Width of one category; category `i` spans plot.left + i × band. */
  band: number;
  xAxis: { title: string; titleY: number; labels: XLabel[] };
  yAxes: YAxis[];
  bars: Bar[];
  lines: Line[];
  legend: LegendEntry[];
}

/** The round step nearest `range / count`: 1, 2, 2.5 or 5 × a power of ten. */
function niceStep(range: number, count: number): number {
  const raw = range / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  // Each boundary is the geometric mean of the two steps beside it.
  const nice = fraction < Math.SQRT2 ? 1 : fraction < 2.24 ? 2 : fraction < 3.54 ? 2.5 : fraction < 7.07 ? 5 : 10;
  return nice * power;
}

/**
 * The ticks of a linear axis that starts at zero (or below, for negative values) and covers
 * every value, about `count` of them at round steps.
 */
export function linearTicks(values: readonly number[], count: number): number[] {
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  if (low === high) return [0, 1];
  const step = niceStep(high - low, count);
  const first = Math.floor(low / step) * step;
  const last = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's decimals, so 0.1 + 0.2 reads 0.3.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  for (let value = first; value <= last + step / 2; value += step) ticks.push(Number(value.toFixed(decimals)));
  return ticks;
}

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * SVG path data of one run of points: straight segments from period to period. A curve would
 * draw values between two periods that no period had; a straight segment claims nothing more than
 * "from this value to that one".
 */
function linePath(points: readonly { x: number; y: number }[]): string {
  return points.map((point, index) => `${index === 0 ? 'M' : 'L'}${round(point.x)} ${round(point.y)}`).join(' ');
}

/**
 * The panels a chart is drawn as: one chart when its metrics have at most two units (one y axis
 * each, left and right), else small multiples — one panel per unit, each with its one axis — since
 * a third axis cannot be read against the other two. Each series keeps its colour across panels.
 */
export function chartPanels(model: ChartModel): ChartModel[] {
  const coloured = model.series.map((series, index) => ({
    ...series,
    colour: series.colour ?? palette[index % palette.length]!,
  }));
  const units = chartUnits(model);
  if (units.length <= maxAxes) return [{ ...model, series: coloured }];
  return units.map((unit) => ({ ...model, series: coloured.filter((series) => series.unit === unit) }));
}

/** Y axes one chart may have: left and right. */
export const maxAxes = 2;

/** Legend entries laid out in centred rows; returns them and the height they take. */
function layoutLegend(
  labels: readonly string[],
  colours: readonly string[],
  width: number,
  top: number,
  measure: MeasureText,
  always: boolean,
): { entries: LegendEntry[]; height: number } {
  if (labels.length < (always ? 1 : 2)) return { entries: [], height: 0 };
  const itemWidths = labels.map((label) => legendSwatch + gap + measure(label) + 2 * gap);
  const rows: number[][] = [[]];
  let rowWidth = 0;
  itemWidths.forEach((itemWidth, index) => {
    if (rowWidth + itemWidth > width && rows.at(-1)!.length > 0) {
      rows.push([]);
      rowWidth = 0;
    }
    rows.at(-1)!.push(index);
    rowWidth += itemWidth;
  });
  const entries: LegendEntry[] = [];
  rows.forEach((row, rowIndex) => {
    const total = row.reduce((sum, index) => sum + itemWidths[index]!, 0);
    let x = Math.max(0, (width - total) / 2);
    for (const index of row) {
      entries.push({
        label: labels[index]!,
        colour: colours[index]!,
        x,
        y: top + rowIndex * chartFont.lineHeight,
      });
      x += itemWidths[index]!;
    }
  });
  return { entries, height: rows.length * chartFont.lineHeight + gap };
}

/**
 * Everything a chart draws in a `width` × `height` box: one y axis per unit, two at most (the first
 * on the left and drawing the grid, the second on the right; `chartPanels` splits a chart of more
 * units), ticks in compact notation in the page's locale, category labels turned 45° when they do
 * not fit and thinned when even then they would overlap, grouped bars or straight lines broken at
 * missing values, and a legend below when there is more than one series (or always, for a panel of
 * small multiples: `legend: 'always'`, so each panel names what it shows).
 */
export function layoutChart(
  kind: ChartKind,
  model: ChartModel,
  locale: Locale,
  texts: ChartTexts,
  size: { width: number; height: number },
  measure: MeasureText,
  legend: 'several' | 'always' = 'several',
): ChartLayout {
  const { width, height } = size;
  const colours = model.series.map((series, index) => series.colour ?? palette[index % palette.length]!);
  const units = chartUnits(model);
  if (units.length > maxAxes) throw new Error(`a chart has at most ${maxAxes} y axes (chartPanels splits it)`);
  const tickFormat = tickNumberFormat(locale);
  const categories = model.labels.length;

  // Legend first (it takes rows at the bottom), then the x labels' height, then the plot.
  const legendProbe = layoutLegend(
    model.series.map((series) => series.label),
    colours,
    width,
    0,
    measure,
    legend === 'always',
  );
  const labelWidths = model.labels.map(measure);
  const widestLabel = Math.max(0, ...labelWidths);

  // The y axes' widths depend on their tick labels, which depend on the plot height: ticks are
  // chosen for an estimated plot height, then the layout is fixed from their labels.
  const bottomFixed = gap + chartFont.lineHeight + gap + legendProbe.height;
  const estimatePlotHeight = Math.max(40, height - bottomFixed - chartFont.lineHeight * 2);
  const tickCount = Math.max(2, Math.min(10, Math.floor(estimatePlotHeight / (chartFont.lineHeight * 2.5))));
  const axisTicks = units.map((unit) => {
    const values = model.series
      .filter((series) => series.unit === unit)
      .flatMap((series) => series.values.filter((value): value is number => value !== null));
    return linearTicks(values, tickCount);
  });
  const axisWidths = axisTicks.map(
    (ticks) => chartFont.lineHeight + gap + Math.max(...ticks.map((value) => measure(tickFormat.format(value)))) + gap,
  );
  const leftWidth = axisWidths.filter((_, index) => index % 2 === 0).reduce((sum, w) => sum + w, 0);
  const rightWidth = axisWidths.filter((_, index) => index % 2 === 1).reduce((sum, w) => sum + w, 0);
  const plotLeft = Math.max(leftWidth, gap);
  const plotWidth = Math.max(10, width - plotLeft - Math.max(rightWidth, gap * 2));
  const band = categories > 0 ? plotWidth / categories : plotWidth;

  // Category labels: level when they fit their band, else turned 45°; thinned to every n-th when
  // even turned they would touch.
  const rotate = widestLabel > band - 4 ? -45 : 0;
  const diagonal = Math.SQRT1_2;
  const labelsHeight =
    rotate === 0
      ? chartFont.lineHeight
      : Math.min(widestLabel, height / 3) * diagonal + chartFont.lineHeight * diagonal;
  const every = rotate === 0 ? 1 : Math.max(1, Math.ceil((chartFont.lineHeight * 1.2) / band));

  const top = chartFont.lineHeight / 2;
  const plotHeight = Math.max(20, height - top - labelsHeight - bottomFixed);
  const plot: Plot = { left: plotLeft, top, width: plotWidth, height: plotHeight };
  const bottom = top + plotHeight;

  const scales = new Map<MetricUnit, (value: number) => number>();
  let leftEdge = plotLeft;
  let rightEdge = plotLeft + plotWidth;
  const yAxes: YAxis[] = units.map((unit, index) => {
    const ticks = axisTicks[index]!;
    const low = ticks[0]!;
    const high = ticks.at(-1)!;
    const toY = (value: number) => bottom - ((value - low) / (high - low)) * plotHeight;
    scales.set(unit, toY);
    const side = index % 2 === 0 ? 'left' : 'right';
    const axisWidth = axisWidths[index]!;
    const x = side === 'left' ? leftEdge : rightEdge;
    const titleX =
      side === 'left' ? x - axisWidth + chartFont.lineHeight / 2 : x + axisWidth - chartFont.lineHeight / 2;
    if (side === 'left') leftEdge -= axisWidth;
    else rightEdge += axisWidth;
    return {
      unit,
      side,
      title: texts.unitTitles[unit],
      x,
      titleX,
      ticks: ticks.map((value) => ({ value, y: toY(value), label: tickFormat.format(value) })),
      grid: index === 0,
    };
  });

  const centre = (index: number) => plotLeft + band * (index + 0.5);
  const labels: XLabel[] = model.labels
    .map((text, index) => ({ text, x: centre(index), y: bottom + gap + (rotate === 0 ? chartFont.size : 0), rotate }))
    .filter((_, index) => index % every === 0);

  const bars: Bar[] = [];
  const lines: Line[] = [];
  model.series.forEach((series, seriesIndex) => {
    const colour = colours[seriesIndex]!;
    const toY = scales.get(series.unit)!;
    if (kind === 'bar') {
      const slot = (band * groupShare) / model.series.length;
      series.values.forEach((value, index) => {
        if (value === null) return;
        const x = centre(index) - (band * groupShare) / 2 + slot * seriesIndex + (slot * (1 - barShare)) / 2;
        const zero = toY(0);
        const y = toY(value);
        bars.push({
          series: seriesIndex,
          index,
          x,
          y: Math.min(y, zero),
          width: slot * barShare,
          height: Math.abs(zero - y),
          colour,
        });
      });
      return;
    }
    const points = series.values.flatMap((value, index) =>
      value === null ? [] : [{ index, x: centre(index), y: toY(value) }],
    );
    // Runs of consecutive categories with a value: a missing value is a gap, never a false zero.
    const runs: { x: number; y: number }[][] = [];
    points.forEach((point, position) => {
      if (position === 0 || point.index !== points[position - 1]!.index + 1) runs.push([]);
      runs.at(-1)!.push(point);
    });
    lines.push({
      series: seriesIndex,
      colour,
      path: runs.map(linePath).join(' '),
      points,
      pointRadius: categories > pointMarkersUpTo ? 0 : 3,
    });
  });

  const xTitleY = bottom + labelsHeight + gap + chartFont.size;
  const legendEntries = layoutLegend(
    model.series.map((series) => series.label),
    colours,
    width,
    xTitleY + gap + chartFont.lineHeight / 2,
    measure,
    legend === 'always',
  ).entries;
  return {
    width,
    height,
    plot,
    band,
    xAxis: { title: texts.xTitle, titleY: xTitleY, labels },
    yAxes,
    bars,
    lines,
    legend: legendEntries,
  };
}

/** The category under a pointer at `x` (pixels in the chart's box), or undefined outside the plot. */
export function categoryAt(layout: ChartLayout, x: number, categories: number): number | undefined {
  const offset = x - layout.plot.left;
  if (offset < 0 || offset >= layout.plot.width || categories === 0) return undefined;
  return Math.min(categories - 1, Math.floor(offset / layout.band));
}
