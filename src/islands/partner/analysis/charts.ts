/**
 * Chart.js for the analysis pages: only the parts the three charts use are registered (bar and
 * line controllers, their elements, category and linear scales, legend and tooltip), not
 * `chart.js/auto`, so the islands' bundle carries no pie, radar, time scale or other plugins.
 * Everything locale-dependent (axis titles, tick and tooltip numbers) comes from the caller.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartOptions,
} from 'chart.js';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { chartUnits, metricNumberFormat, tickNumberFormat, type ChartModel, type MetricUnit } from './chartData.ts';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);
// A chart never draws a value that is not in the data: a line is smoothed only monotonically, so
// between two points it stays between their values (no bulge above a peak or below a dip).
Chart.defaults.elements.line.cubicInterpolationMode = 'monotone';

/**
 * The Okabe–Ito palette: eight colours told apart with the common colour-vision deficiencies,
 * one per institution at the comparison's maximum of eight.
 */
export const palette = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'] as const;

export type ChartKind = 'bar' | 'line';

export interface ChartTexts {
  /** The x axis title (institution, class, time). */
  xTitle: string;
  /** The y axis title of each unit (count, MWh, 元). */
  unitTitles: Record<MetricUnit, string>;
}

/** The user asked the system for less motion: charts then draw without animation. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

/** The Chart.js configuration of a model: one y axis per unit, numbers in the page's locale. */
export function chartConfig(kind: ChartKind, model: ChartModel, locale: Locale, texts: ChartTexts, reducedMotion: boolean): ChartConfiguration<ChartKind, (number | null)[], string> {
  const ticks = tickNumberFormat(locale);
  const units = chartUnits(model);
  const valueFormats = new Map(units.map((unit) => [unit, metricNumberFormat(locale, unit)]));
  const scales: NonNullable<ChartOptions<ChartKind>['scales']> = {
    x: { type: 'category', title: { display: true, text: texts.xTitle }, ticks: { autoSkip: true, maxRotation: 45 } },
  };
  units.forEach((unit, index) => {
    scales[unit] = {
      type: 'linear',
      position: index % 2 === 0 ? 'left' : 'right',
      beginAtZero: true,
      title: { display: true, text: texts.unitTitles[unit] },
      ticks: { callback: (value: number | string) => ticks.format(Number(value)) },
      grid: { drawOnChartArea: index === 0 },
    };
  });
  return {
    type: kind,
    data: {
      labels: model.labels,
      datasets: model.series.map((series, index) => {
        const colour = palette[index % palette.length] ?? palette[0];
        return {
          label: series.label,
          data: series.values,
          yAxisID: series.unit,
          backgroundColor: colour,
          borderColor: colour,
          ...(kind === 'line' ? { spanGaps: false, pointRadius: model.labels.length > 40 ? 0 : 3 } : {}),
        };
      }),
    },
    options: {
      locale,
      responsive: true,
      maintainAspectRatio: false,
      animation: reducedMotion ? false : { duration: 400 },
      interaction: { mode: 'index', intersect: false },
      scales,
      plugins: {
        legend: { display: model.series.length > 1, position: 'bottom' },
        tooltip: {
          callbacks: {
            label: (item) => {
              const unit = model.series[item.datasetIndex]?.unit ?? 'count';
              const value = item.parsed.y;
              return `${item.dataset.label ?? ''}: ${value === null ? '—' : (valueFormats.get(unit)?.format(value) ?? String(value))}`;
            },
          },
        },
      },
    },
  };
}

/** A chart on a canvas; the caller destroys it (unmount, or before drawing another). */
export function createChart(canvas: HTMLCanvasElement, config: ChartConfiguration<ChartKind, (number | null)[], string>): Chart<ChartKind, (number | null)[], string> {
  return new Chart(canvas, config);
}
