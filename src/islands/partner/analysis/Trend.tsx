import { useMemo } from 'react';
import { useDraft } from '../../useDraft.ts';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { partnerMetrics, type PartnerMetric } from '../../../lib/partner.ts';
import type { TrendData, TrendRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import type { Column } from '../../table/DataTable.tsx';
import { PARTNER_API } from '../partnerApi.ts';
import { OutOfScopeNotice, outsideScope } from '../OutOfScope.tsx';
import { usePartnerTree } from '../usePartnerTree.ts';
import AnalysisFilters from './AnalysisFilters.tsx';
import AnalysisResults from './AnalysisResults.tsx';
import { metricLabel, type TrendMessages } from './analysisMessages.ts';
import {
  defaultTrendSpan,
  readTrendParams,
  trendPeriods,
  trendSpanProblem,
  writeTrendParams,
  type TrendParams,
} from './analysisQuery.ts';
import { trendChart } from './chartData.ts';
import { InstitutionSelect, InstitutionsNotice } from './InstitutionPickers.tsx';
import { metricColumns } from './metricColumns.ts';
import { PeriodField } from './PeriodPicker.tsx';
import { useAllRows } from './useAllRows.ts';
import { useAnalysisTable } from './useAnalysisTable.ts';

interface Props {
  locale: Locale;
  messages: TrendMessages;
}

type Row = Partial<TrendRowData>;

/** The server's default order: oldest period first. */
const query = { sort: [{ key: 'period', order: 'asc' as const }] };

function body(params: TrendParams) {
  return {
    yearType: params.yearType,
    from: params.from,
    to: params.to,
    ...(params.partnerId ? { partnerId: params.partnerId } : {}),
  };
}

/**
 * 趋势分析 (/partner/analysis/trend): the metrics per year, month or day over a span (default the
 * last 5 years, 12 months or 30 days), for every visible institution or one subtree; a line chart
 * of the chosen metrics (one y axis per unit) over the whole span, and the periods in a
 * server-sorted, paged table. A span the server would refuse is explained at the pickers first.
 */
export default function Trend({ locale, messages }: Props) {
  const tree = usePartnerTree();
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
  const [draft, setDraft] = useDraft({ from: shownFrom, to: shownTo }, `${shownFrom}|${shownTo}`);
  const problem = trendSpanProblem(yearType, draft.from, draft.to);

  const chart = useAllRows<Row>(
    `${PARTNER_API}/getTrendDataAntTable`,
    params && body(params),
    ['period', ...metrics],
    table.ready,
  );
  const periods = useMemo(() => trendPeriods(yearType, shownFrom, shownTo), [yearType, shownFrom, shownTo]);
  const model = useMemo(
    () =>
      trendChart(
        chart.rows,
        periods,
        metrics.map((metric) => ({ metric, label: metricLabel(messages, metric) })),
      ),
    [chart.rows, periods, metrics, messages],
  );

  const columns: Column<Row>[] = [
    {
      key: 'period',
      label: messages['analysis.axis.period'],
      sortable: true,
      className: 'whitespace-nowrap tabular-nums',
    },
    ...metricColumns<Row, PartnerMetric>(partnerMetrics, messages, locale),
  ];

  const set = (patch: Partial<TrendParams>) => params && table.setParams({ ...params, ...patch });
  const outside = outsideScope(tree.load, [params?.partnerId]).length > 0;
  const changeSpan = (next: { from: string; to: string }) => {
    setDraft(next);
    if (!trendSpanProblem(yearType, next.from, next.to)) set(next);
  };
  const toggleMetric = (metric: PartnerMetric) => {
    if (!params) return;
    const next = metrics.includes(metric)
      ? metrics.filter((other) => other !== metric)
      : partnerMetrics.filter((other) => other === metric || metrics.includes(other));
    if (next.length) table.setChartParams({ ...params, metrics: next });
  };

  return (
    <div className="grid gap-5">
      <AnalysisFilters
        messages={messages}
        locale={locale}
        yearType={yearType}
        // Another granularity starts from its own default span: 5 years is not 5 months.
        onYearType={(next) => set({ yearType: next, from: '', to: '' })}
        exportUrl={`${PARTNER_API}/exportTrendAntTable`}
        exportData={() =>
          params && { ...body({ ...params, from: shownFrom, to: shownTo }), antTable: buildAntTable(state) }
        }
        exportDisabled={!params || outside}
      >
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
          load={tree.load}
          value={params?.partnerId}
          onChange={(partnerId) => set({ partnerId })}
        />
      </AnalysisFilters>
      {problem && (
        <p role="alert" className="text-sm text-error">
          {messages[problem]}
        </p>
      )}
      <fieldset className="fieldset">
        <legend className="fieldset-legend">{messages['analysis.metrics']}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {partnerMetrics.map((metric) => {
            const checked = metrics.includes(metric);
            // The chart needs one metric at least: the last one stays ticked, looking as chosen as it
            // is (a disabled box would look greyed, unchosen), and its title says why it stays.
            const last = checked && metrics.length === 1;
            return (
              <label
                key={metric}
                className="label cursor-pointer gap-2 text-base-content"
                title={last ? messages['analysis.metricsLast'] : undefined}
              >
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm checkbox-primary"
                  checked={checked}
                  aria-disabled={last || undefined}
                  aria-description={last ? messages['analysis.metricsLast'] : undefined}
                  onChange={() => toggleMetric(metric)}
                />
                {metricLabel(messages, metric)}
              </label>
            );
          })}
        </div>
      </fieldset>
      <InstitutionsNotice load={tree.load} messages={messages} onRetry={tree.reload} />
      {outside && tree.load.state === 'ready' ? (
        <OutOfScopeNotice roots={tree.load.roots} messages={messages} onOwn={(root) => set({ partnerId: root.id })} />
      ) : (
        <AnalysisResults
          messages={messages}
          locale={locale}
          shown={format(messages['analysis.spanShown'], { from: shownFrom, to: shownTo })}
          chart={{
            kind: 'line',
            model,
            load: chart.load,
            failed: table.load === 'failed' || chart.load === 'failed',
            label: format(messages['analysis.chart.trend'], {
              metrics: metrics.map((metric) => metricLabel(messages, metric)).join(', '),
              from: shownFrom,
              to: shownTo,
            }),
            xTitle: messages['analysis.axis.period'],
            firstColumn: messages['analysis.axis.period'],
          }}
          table={{
            caption: messages['analysis.table.trend'],
            columns,
            rowKey: (row) => String(row.period),
            emptyMessage: messages['analysis.empty.trend'],
            view: table.view,
          }}
        />
      )}
    </div>
  );
}
