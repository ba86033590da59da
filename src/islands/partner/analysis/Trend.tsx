import { useEffect, useMemo, useState } from 'react';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { metricUnits, partnerMetrics } from '../../../lib/partner.ts';
import type { TrendData, TrendRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import DataTable, { type Column } from '../../table/DataTable.tsx';
import AnalysisChart from './AnalysisChart.tsx';
import { chartTexts, exportMessages, metricLabel, type TrendMessages } from './analysisMessages.ts';
import { defaultTrendSpan, readTrendParams, trendPeriods, trendSpanProblem, writeTrendParams, type TrendParams } from './analysisQuery.ts';
import { metricNumberFormat, trendChart } from './chartData.ts';
import ExportButton from './ExportButton.tsx';
import { InstitutionSelect, InstitutionsNotice } from './InstitutionPickers.tsx';
import { GranularitySwitch, PeriodField } from './PeriodPicker.tsx';
import { useAllRows } from './useAllRows.ts';
import { useAnalysisTable } from './useAnalysisTable.ts';
import { PARTNER_API, useInstitutions } from './useInstitutions.ts';

interface Props {
  locale: Locale;
  messages: TrendMessages;
}

type Row = Partial<TrendRowData>;

/** The server's default order: oldest period first. */
const query = { sort: [{ key: 'period', order: 'asc' as const }] };

function body(params: TrendParams) {
  return { yearType: params.yearType, from: params.from, to: params.to, ...(params.partnerId ? { partnerId: params.partnerId } : {}) };
}

/**
 * 趋势分析 (/partner/analysis/trend): the metrics per year, month or day over a span (default the
 * last 5 years, 12 months or 30 days), for every visible institution or one subtree; a line chart
 * of the chosen metrics (one y axis per unit) over the whole span, and the periods in a
 * server-sorted, paged table. A span the server would refuse is explained at the pickers first.
 */
export default function Trend({ locale, messages }: Props) {
  const institutions = useInstitutions();
  const table = useAnalysisTable<TrendParams, TrendData>({
    url: `${PARTNER_API}/getTrendDataAntTable`,
    query,
    readParams: readTrendParams,
    writeParams: writeTrendParams,
    body,
  });
  const { params, answer, state } = table;
  const yearType = params?.yearType ?? 1;
  const metrics = useMemo(() => params?.metrics ?? ['settledEnergy' as const], [params]);
  const fallback = defaultTrendSpan(yearType);
  const answered = answer?.yearType === yearType ? answer : undefined;
  const shownFrom = params?.from || answered?.from || fallback.from;
  const shownTo = params?.to || answered?.to || fallback.to;

  // The span being typed: committed to the address only when the server would accept it.
  const [draft, setDraft] = useState({ from: shownFrom, to: shownTo });
  useEffect(() => setDraft({ from: shownFrom, to: shownTo }), [shownFrom, shownTo]);
  const problem = trendSpanProblem(yearType, draft.from, draft.to);

  const chart = useAllRows<Row>(`${PARTNER_API}/getTrendDataAntTable`, params && body(params), ['period', ...metrics], table.ready);
  const periods = useMemo(() => trendPeriods(yearType, shownFrom, shownTo), [yearType, shownFrom, shownTo]);
  const model = useMemo(
    () => trendChart(chart.rows, periods, metrics.map((metric) => ({ metric, label: metricLabel(messages, metric) }))),
    [chart.rows, periods, metrics, messages],
  );
  const { texts, chartMessages } = chartTexts(messages, messages['analysis.axis.period'], messages['analysis.axis.period']);

  const columns: Column<Row>[] = [
    { key: 'period', label: messages['analysis.axis.period'], sortable: true, className: 'whitespace-nowrap tabular-nums' },
    ...partnerMetrics.map((key): Column<Row> => {
      const numbers = metricNumberFormat(locale, metricUnits[key]);
      return {
        key,
        label: metricLabel(messages, key),
        sortable: true,
        className: 'text-right tabular-nums whitespace-nowrap',
        render: (row) => (typeof row[key] === 'number' ? numbers.format(row[key]) : ''),
      };
    }),
  ];

  const set = (patch: Partial<TrendParams>) => params && table.setParams({ ...params, ...patch });
  const changeSpan = (next: { from: string; to: string }) => {
    setDraft(next);
    if (!trendSpanProblem(yearType, next.from, next.to)) set(next);
  };
  const toggleMetric = (metric: (typeof partnerMetrics)[number]) => {
    if (!params) return;
    const next = metrics.includes(metric) ? metrics.filter((other) => other !== metric) : partnerMetrics.filter((other) => other === metric || metrics.includes(other));
    if (next.length) table.setChartParams({ ...params, metrics: next });
  };

  return (
    <div className="grid gap-5">
      <div role="group" aria-label={messages['analysis.filters']} className="flex flex-wrap items-end gap-x-5 gap-y-2">
        <GranularitySwitch
          legend={messages['analysis.granularity']}
          labels={{ 1: messages['partner.yearType.1'], 2: messages['partner.yearType.2'], 3: messages['partner.yearType.3'] }}
          value={yearType}
          // Another granularity starts from its own default span: 5 years is not 5 months.
          onChange={(next) => set({ yearType: next, from: '', to: '' })}
        />
        <PeriodField
          label={messages['analysis.from']}
          yearType={yearType}
          value={draft.from}
          invalidMessage={messages[`partner.period.${yearType}`]}
          onChange={(from) => changeSpan({ ...draft, from })}
        />
        <PeriodField
          label={messages['analysis.to']}
          yearType={yearType}
          value={draft.to}
          invalidMessage={messages[`partner.period.${yearType}`]}
          onChange={(to) => changeSpan({ ...draft, to })}
        />
        <InstitutionSelect
          label={messages['analysis.institution']}
          allLabel={messages['analysis.institution.all']}
          options={institutions.options}
          value={params?.partnerId}
          disabled={institutions.load !== 'ready'}
          onChange={(partnerId) => set({ partnerId })}
        />
        <div className="fieldset">
          <ExportButton
            url={`${PARTNER_API}/exportTrendAntTable`}
            data={params && { ...body({ ...params, from: shownFrom, to: shownTo }), antTable: buildAntTable(state) }}
            locale={locale}
            messages={exportMessages(messages)}
          />
        </div>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-error">{messages[problem]}</p>
      )}
      <fieldset className="fieldset">
        <legend className="fieldset-legend">{messages['analysis.metrics']}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {partnerMetrics.map((metric) => {
            const checked = metrics.includes(metric);
            return (
              <label key={metric} className="label cursor-pointer gap-2 text-base-content">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={checked}
                  // The chart needs one metric at least: the last one cannot be unticked.
                  disabled={checked && metrics.length === 1}
                  onChange={() => toggleMetric(metric)}
                />
                {metricLabel(messages, metric)}
              </label>
            );
          })}
        </div>
      </fieldset>
      <InstitutionsNotice
        load={institutions.load}
        empty={institutions.options.length === 0}
        failure={institutions.failure}
        messages={{ loading: messages['analysis.institution.loading'], failed: messages['analysis.institution.failed'], empty: messages['analysis.institution.empty'], retry: messages['analysis.retry'] }}
        onRetry={institutions.retry}
      />
      <p className="text-sm text-base-content/70">{format(messages['analysis.spanShown'], { from: shownFrom, to: shownTo })}</p>
      {table.load === 'failed' || chart.load === 'failed' ? (
        <p className="text-sm text-base-content/70">{messages['analysis.chart.failed']}</p>
      ) : (
        <AnalysisChart
          kind="line"
          model={model}
          load={chart.load}
          locale={locale}
          label={format(messages['analysis.chart.trend'], { metrics: metrics.map((metric) => metricLabel(messages, metric)).join(', '), from: shownFrom, to: shownTo })}
          texts={texts}
          messages={chartMessages}
        />
      )}
      <DataTable
        caption={messages['analysis.table.trend']}
        columns={columns}
        rowKey={(row) => String(row.period)}
        emptyMessage={messages['analysis.empty.trend']}
        messages={messages}
        {...table.view}
      />
    </div>
  );
}
