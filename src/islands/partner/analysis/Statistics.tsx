import { useId, useMemo } from 'react';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { currentPeriod, metricUnits, partnerMetrics, type PartnerMetric } from '../../../lib/partner.ts';
import type { StatisticsData, StatisticsRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import DataTable, { type Column } from '../../table/DataTable.tsx';
import AnalysisChart from './AnalysisChart.tsx';
import { chartTexts, exportMessages, metricLabel, type StatisticsMessages } from './analysisMessages.ts';
import { convertPeriod, readStatisticsParams, writeStatisticsParams, type StatisticsParams } from './analysisQuery.ts';
import { metricNumberFormat, statisticsChart } from './chartData.ts';
import ExportButton from './ExportButton.tsx';
import { InstitutionSelect, InstitutionsNotice } from './InstitutionPickers.tsx';
import { GranularitySwitch, PeriodField } from './PeriodPicker.tsx';
import { useAnalysisTable } from './useAnalysisTable.ts';
import { PARTNER_API, useInstitutions } from './useInstitutions.ts';

interface Props {
  locale: Locale;
  messages: StatisticsMessages;
}

type Row = Partial<StatisticsRowData>;

/** The server's default order, shown on the headers (level, then code). */
const query = { sort: [{ key: 'level', order: 'asc' as const }, { key: 'partnerCode', order: 'asc' as const }] };

function body(params: StatisticsParams) {
  return { yearType: params.yearType, period: params.period, ...(params.partnerId ? { partnerId: params.partnerId } : {}) };
}

/**
 * 统计分析 (/partner/analysis/statistics): each visible institution's metrics (its whole subtree)
 * for one year, month or day; a bar chart of one metric over the institutions of the page shown;
 * the table sorted and paged on the server; granularity, period, institution, metric and the
 * table's page and order kept in the address.
 */
export default function Statistics({ locale, messages }: Props) {
  const institutions = useInstitutions();
  const metricId = useId();
  const table = useAnalysisTable<StatisticsParams, StatisticsData>({
    url: `${PARTNER_API}/getStaDataAntTable`,
    query,
    readParams: readStatisticsParams,
    writeParams: writeStatisticsParams,
    body,
  });
  const { params, answer, state } = table;
  const rows = useMemo(() => (answer?.result ?? []) as Row[], [answer]);
  const metric = params?.metric ?? 'settledEnergy';
  const yearType = params?.yearType ?? 1;
  const shownPeriod = params?.period || (answer?.yearType === yearType ? answer.period : '') || currentPeriod(yearType);
  const model = useMemo(() => statisticsChart(rows, metric, metricLabel(messages, metric)), [rows, metric, messages]);
  const { texts, chartMessages } = chartTexts(messages, messages['analysis.institution'], messages['analysis.col.partnerName']);

  const columns: Column<Row>[] = [
    { key: 'partnerCode', label: messages['analysis.col.partnerCode'], sortable: true, className: 'whitespace-nowrap font-mono' },
    { key: 'partnerName', label: messages['analysis.col.partnerName'], sortable: true, className: 'whitespace-nowrap' },
    { key: 'level', label: messages['analysis.col.level'], sortable: true, className: 'whitespace-nowrap', render: (row) => (row.level ? messages[`partner.level.${row.level}`] : '') },
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

  const set = (patch: Partial<StatisticsParams>) => params && table.setParams({ ...params, ...patch });

  return (
    <div className="grid gap-5">
      <div role="group" aria-label={messages['analysis.filters']} className="flex flex-wrap items-end gap-x-5 gap-y-2">
        <GranularitySwitch
          legend={messages['analysis.granularity']}
          labels={{ 1: messages['partner.yearType.1'], 2: messages['partner.yearType.2'], 3: messages['partner.yearType.3'] }}
          value={yearType}
          onChange={(next) => set({ yearType: next, period: params?.period ? convertPeriod(params.period, yearType, next) : '' })}
        />
        <PeriodField
          label={messages[`analysis.periodLabel.${yearType}`]}
          yearType={yearType}
          value={shownPeriod}
          invalidMessage={messages[`partner.period.${yearType}`]}
          max={currentPeriod(yearType)}
          onChange={(period) => set({ period })}
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
          <label className="fieldset-legend" htmlFor={metricId}>{messages['analysis.metric']}</label>
          <select
            id={metricId}
            className="select select-sm w-56"
            value={metric}
            onChange={(event) => params && table.setChartParams({ ...params, metric: event.currentTarget.value as PartnerMetric })}
          >
            {partnerMetrics.map((key) => (
              <option key={key} value={key}>{metricLabel(messages, key)}</option>
            ))}
          </select>
        </div>
        <div className="fieldset">
          <ExportButton
            url={`${PARTNER_API}/exportAntTable`}
            data={params && { ...body({ ...params, period: shownPeriod }), antTable: buildAntTable(state) }}
            locale={locale}
            messages={exportMessages(messages)}
          />
        </div>
      </div>
      <InstitutionsNotice
        load={institutions.load}
        empty={institutions.options.length === 0}
        failure={institutions.failure}
        messages={{ loading: messages['analysis.institution.loading'], failed: messages['analysis.institution.failed'], empty: messages['analysis.institution.empty'], retry: messages['analysis.retry'] }}
        onRetry={institutions.retry}
      />
      <p className="text-sm text-base-content/70">{format(messages['analysis.periodShown'], { period: shownPeriod })}</p>
      {table.load === 'failed' ? (
        <p className="text-sm text-base-content/70">{messages['analysis.chart.failed']}</p>
      ) : (
        <AnalysisChart
          kind="bar"
          model={model}
          load={table.load === 'ready' ? 'ready' : 'loading'}
          locale={locale}
          label={format(messages['analysis.chart.statistics'], { metric: metricLabel(messages, metric), period: shownPeriod })}
          texts={texts}
          messages={chartMessages}
        />
      )}
      <DataTable
        caption={messages['analysis.table.statistics']}
        columns={columns}
        rowKey={(row) => String(row.partnerId)}
        emptyMessage={messages['analysis.empty.statistics']}
        messages={messages}
        {...table.view}
      />
    </div>
  );
}
