import { useEffect, useEffectEvent, useId, useMemo, useRef } from 'react';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { isEmptyChart, metricNumberFormat, type ChartModel } from './chartData.ts';
import { chartConfig, createChart, prefersReducedMotion, type ChartKind, type ChartTexts } from './charts.ts';

export type ChartLoad = 'loading' | 'failed' | 'ready';

interface Props {
  kind: ChartKind;
  model: ChartModel;
  load: ChartLoad;
  locale: Locale;
  /** The chart's accessible name: what it shows (metric, period, scope). */
  label: string;
  texts: ChartTexts;
  messages: {
    loading: string;
    empty: string;
    /** The summary of the data-table alternative ("图表数据"). */
    dataTable: string;
    /** Header of the table's first column (institution, class, time). */
    firstColumn: string;
  };
}

/**
 * One analysis chart: a canvas with `role="img"` and the chart's name, described by a data table
 * of exactly the values drawn (behind a disclosure, visible on demand and read by screen readers
 * through aria-describedby). Loading keeps the previous drawing greyed under a spinner; nothing to
 * draw says so in words instead of showing empty axes. The Chart.js instance is rebuilt when the
 * model changes and destroyed on unmount; with prefers-reduced-motion it draws without animation.
 */
export default function AnalysisChart({ kind, model, load, locale, label, texts, messages }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const tableId = useId();
  const empty = load === 'ready' && isEmptyChart(model);
  const formats = useMemo(
    () => ({ count: metricNumberFormat(locale, 'count'), energy: metricNumberFormat(locale, 'energy'), money: metricNumberFormat(locale, 'money') }),
    [locale],
  );

  // `texts` is rebuilt by the island on every render from its fixed messages, so it is read when
  // the chart is made, not a reason to make it again: a new chart for the same data on every
  // render would flicker and replay its animation.
  const configOf = useEffectEvent((drawn: ChartModel) => chartConfig(kind, drawn, locale, texts, prefersReducedMotion()));
  useEffect(() => {
    const element = canvas.current;
    if (!element || model.labels.length === 0 || empty) return;
    const chart = createChart(element, configOf(model));
    return () => chart.destroy();
  }, [kind, model, locale, empty]);

  return (
    // min-w-0: a grid item as narrow as its column, not as wide as the canvas drawn at a wider
    // size, so the chart follows the window when it narrows (Chart.js resizes with its box).
    <figure className="grid min-w-0 gap-2">
      <div className="relative h-72 w-full rounded-box border border-base-300 p-2 md:h-80" aria-busy={load === 'loading'}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={label}
          aria-describedby={tableId}
          className={empty || model.labels.length === 0 ? 'hidden' : load === 'loading' ? 'opacity-40' : ''}
        />
        {load === 'loading' && (
          <p role="status" className="absolute inset-0 flex items-center justify-center gap-2 text-base-content/70">
            <span className="loading loading-spinner loading-md" aria-hidden="true" />
            {messages.loading}
          </p>
        )}
        {load === 'ready' && empty && (
          <p role="status" className="absolute inset-0 flex items-center justify-center text-center text-base-content/70">{messages.empty}</p>
        )}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer select-none">{messages.dataTable}</summary>
        <div className="mt-2 overflow-x-auto">
          <table id={tableId} className="table table-xs">
            <caption className="sr-only">{label}</caption>
            <thead>
              <tr>
                <th scope="col">{messages.firstColumn}</th>
                {model.series.map((series) => (
                  <th key={series.label} scope="col" className="text-right">{series.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {model.labels.map((rowLabel, index) => (
                <tr key={`${rowLabel}-${index}`}>
                  <th scope="row" className="font-normal">{rowLabel}</th>
                  {model.series.map((series) => {
                    const value = series.values[index];
                    return (
                      <td key={series.label} className="text-right tabular-nums">
                        {value === null || value === undefined ? '—' : formats[series.unit].format(value)}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
