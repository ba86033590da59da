import { useEffect, useId, useMemo, useRef, useState, type PointerEvent, type RefObject } from 'react';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { isEmptyChart, metricNumberFormat, type ChartModel, type MetricUnit } from './chartData.ts';
import {
  categoryAt,
  chartFont,
  chartPanels,
  layoutChart,
  type ChartKind,
  type ChartLayout,
  type ChartTexts,
  type MeasureText,
} from './charts.ts';

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

type Size = { width: number; height: number };
type Formats = Record<MetricUnit, Intl.NumberFormat>;

/** Text widths in the font the chart is drawn in (the page's own, at the chart's size). */
function textMeasurer(element: Element): MeasureText {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return (text) => text.length * chartFont.size * 0.6;
  context.font = `${chartFont.size}px ${getComputedStyle(element).fontFamily}`;
  const known = new Map<string, number>();
  return (text) => {
    let width = known.get(text);
    if (width === undefined) {
      width = context.measureText(text).width;
      known.set(text, width);
    }
    return width;
  };
}

/**
 * The box's size, followed as the window changes (the chart is laid out again to fit, never
 * scaled), and a text measurer in the box's font.
 */
function useBox(box: RefObject<HTMLDivElement | null>): (Size & { measure: MeasureText }) | undefined {
  const [state, setState] = useState<Size & { measure: MeasureText }>();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = textMeasurer(element);
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setState((previous) =>
        previous?.width === width && previous.height === height ? previous : { width, height, measure },
      );
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);
  return state;
}

/** One category's value of every series, in a box beside the pointer (drawn in the SVG: no style attributes). */
function Tooltip({
  layout,
  model,
  index,
  pointerX,
  formats,
  measure,
}: {
  layout: ChartLayout;
  model: ChartModel;
  index: number;
  pointerX: number;
  formats: Formats;
  measure: MeasureText;
}) {
  const title = model.labels[index] ?? '';
  const lines = model.series.map((series) => {
    const value = series.values[index];
    return `${series.label}: ${value === null || value === undefined ? '—' : formats[series.unit].format(value)}`;
  });
  const padding = 6;
  const swatch = 10;
  const width = padding * 2 + Math.max(measure(title), ...lines.map((line) => swatch + 4 + measure(line)));
  const height = padding * 2 + chartFont.lineHeight * (lines.length + 1);
  const x = pointerX + 12 + width <= layout.width ? pointerX + 12 : Math.max(0, pointerX - 12 - width);
  const y = layout.plot.top + 4;
  return (
    <g pointerEvents="none">
      <rect x={x} y={y} width={width} height={height} rx={4} fill="rgba(0,0,0,0.8)" />
      <text x={x + padding} y={y + padding + chartFont.size} fill="#fff" fontWeight="bold">
        {title}
      </text>
      {lines.map((line, position) => {
        const baseline = y + padding + chartFont.size + chartFont.lineHeight * (position + 1);
        return (
          <g key={position}>
            <rect
              x={x + padding}
              y={baseline - swatch + 1}
              width={swatch}
              height={swatch}
              fill={model.series[position]?.colour}
              stroke="#fff"
            />
            <text x={x + padding + swatch + 4} y={baseline} fill="#fff">
              {line}
            </text>
          </g>
        );
      })}
    </g>
  );
}

/** The drawing: axes and grid, bars or lines, the legend, the hovered category's values. */
function ChartDrawing({
  layout,
  model,
  formats,
  measure,
}: {
  layout: ChartLayout;
  model: ChartModel;
  formats: Formats;
  measure: MeasureText;
}) {
  const [hover, setHover] = useState<{ index: number; x: number }>();
  const { plot } = layout;
  const bottom = plot.top + plot.height;
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const index = categoryAt(layout, x, model.labels.length);
    setHover(index === undefined ? undefined : { index, x });
  };
  return (
    <svg
      width={layout.width}
      height={layout.height}
      className="absolute inset-0 overflow-visible fill-base-content/70 text-xs"
      aria-hidden="true"
      onPointerMove={onPointerMove}
      onPointerLeave={() => setHover(undefined)}
    >
      {layout.yAxes.map((axis) => (
        <g key={axis.unit}>
          {axis.ticks.map((tick) => (
            <g key={tick.value}>
              {axis.grid && (
                <line
                  x1={plot.left}
                  x2={plot.left + plot.width}
                  y1={tick.y}
                  y2={tick.y}
                  className="stroke-base-content/10"
                />
              )}
              <text
                x={axis.side === 'left' ? axis.x - 6 : axis.x + 6}
                y={tick.y}
                dominantBaseline="middle"
                textAnchor={axis.side === 'left' ? 'end' : 'start'}
              >
                {tick.label}
              </text>
            </g>
          ))}
          <line x1={axis.x} x2={axis.x} y1={plot.top} y2={bottom} className="stroke-base-content/25" />
          <text
            transform={`rotate(${axis.side === 'left' ? -90 : 90} ${axis.titleX} ${plot.top + plot.height / 2})`}
            x={axis.titleX}
            y={plot.top + plot.height / 2}
            textAnchor="middle"
            dominantBaseline="middle"
          >
            {axis.title}
          </text>
        </g>
      ))}
      <line x1={plot.left} x2={plot.left + plot.width} y1={bottom} y2={bottom} className="stroke-base-content/25" />
      {layout.xAxis.labels.map((label, index) => (
        <text
          key={index}
          x={label.x}
          y={label.y}
          textAnchor={label.rotate ? 'end' : 'middle'}
          transform={label.rotate ? `rotate(${label.rotate} ${label.x} ${label.y})` : undefined}
          dominantBaseline={label.rotate ? 'hanging' : undefined}
        >
          {label.text}
        </text>
      ))}
      <text x={plot.left + plot.width / 2} y={layout.xAxis.titleY} textAnchor="middle">
        {layout.xAxis.title}
      </text>
      {hover && (
        <rect
          x={plot.left + hover.index * layout.band}
          y={plot.top}
          width={layout.band}
          height={plot.height}
          className="fill-base-content/5"
        />
      )}
      {layout.bars.map((bar) => (
        <rect
          key={`${bar.series}-${bar.index}`}
          x={bar.x}
          y={bar.y}
          width={bar.width}
          height={bar.height}
          fill={bar.colour}
        />
      ))}
      {layout.lines.map((line) => (
        <g key={line.series}>
          <path d={line.path} fill="none" stroke={line.colour} strokeWidth={3} />
          {line.pointRadius > 0 &&
            line.points.map((point) => (
              <circle key={point.index} cx={point.x} cy={point.y} r={line.pointRadius} fill={line.colour} />
            ))}
        </g>
      ))}
      {layout.legend.map((entry) => (
        <g key={entry.label}>
          <rect x={entry.x} y={entry.y - 10} width={12} height={12} fill={entry.colour} />
          <text x={entry.x + 18} y={entry.y}>
            {entry.label}
          </text>
        </g>
      ))}
      {hover && (
        <Tooltip
          layout={layout}
          model={model}
          index={hover.index}
          pointerX={hover.x}
          formats={formats}
          measure={measure}
        />
      )}
    </svg>
  );
}

/**
 * One panel of a chart: a box measured on its own (useBox) with the drawing laid out to fit it.
 * `legend: 'always'` when the chart is split in panels, so each names the series it shows.
 */
function ChartPanel({
  kind,
  model,
  locale,
  texts,
  formats,
  legend,
  className,
}: {
  kind: ChartKind;
  model: ChartModel;
  locale: Locale;
  texts: ChartTexts;
  formats: Formats;
  legend: 'several' | 'always';
  className: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const drawn = useBox(box);
  // Laid out on every render of the chart (a few dozen labels, measured once each): hovering
  // re-renders only the drawing.
  const layout =
    drawn && drawn.width > 0 ? layoutChart(kind, model, locale, texts, drawn, drawn.measure, legend) : undefined;
  return (
    <div ref={box} className={`relative w-full ${className}`}>
      {layout && drawn && <ChartDrawing layout={layout} model={model} formats={formats} measure={drawn.measure} />}
    </div>
  );
}

/**
 * One analysis chart: an image (`role="img"`) named by what it shows, described by a data table of
 * exactly the values drawn (behind a disclosure, visible on demand and read by screen readers
 * through aria-describedby). Drawn as SVG from charts.ts's layout, at the box's size and again
 * whenever the box changes; metrics of more than two units as small multiples, one panel per unit; pointing at a category shows its values. Loading keeps the previous
 * drawing greyed under a spinner; nothing to draw says so in words instead of showing empty axes.
 */
export default function AnalysisChart({ kind, model, load, locale, label, texts, messages }: Props) {
  const tableId = useId();
  const empty = load === 'ready' && isEmptyChart(model);
  const hidden = empty || model.labels.length === 0;
  const formats = useMemo<Formats>(
    () => ({
      count: metricNumberFormat(locale, 'count'),
      energy: metricNumberFormat(locale, 'energy'),
      money: metricNumberFormat(locale, 'money'),
    }),
    [locale],
  );
  const panels = useMemo(() => chartPanels(model), [model]);
  const multiple = panels.length > 1;

  return (
    // min-w-0: a grid item as narrow as its column, not as wide as the drawing, so the chart
    // follows the window when it narrows.
    <figure className="grid min-w-0 gap-2">
      <div
        className={`relative w-full rounded-box border border-base-300 p-2 ${multiple && !hidden ? '' : 'h-72 md:h-80'}`}
        aria-busy={load === 'loading'}
      >
        <div
          role="img"
          aria-label={label}
          aria-describedby={tableId}
          className={`relative grid w-full gap-4 ${multiple ? '' : 'h-full'} ${hidden ? 'hidden' : load === 'loading' ? 'opacity-40' : ''}`}
        >
          {!hidden &&
            panels.map((panel) => (
              <ChartPanel
                key={panel.series.map((series) => series.label).join('|')}
                kind={kind}
                model={panel}
                locale={locale}
                texts={texts}
                formats={formats}
                legend={multiple ? 'always' : 'several'}
                className={multiple ? 'h-56' : 'h-full'}
              />
            ))}
        </div>
        {load === 'loading' && (
          <p role="status" className="absolute inset-0 flex items-center justify-center gap-2 text-base-content/70">
            <span className="loading loading-spinner loading-md" aria-hidden="true" />
            {messages.loading}
          </p>
        )}
        {load === 'ready' && empty && (
          <p
            role="status"
            className="absolute inset-0 flex items-center justify-center text-center text-base-content/70"
          >
            {messages.empty}
          </p>
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
                  <th key={series.label} scope="col" className="text-right">
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {model.labels.map((rowLabel, index) => (
                <tr key={`${rowLabel}-${index}`}>
                  <th scope="row" className="font-normal">
                    {rowLabel}
                  </th>
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
