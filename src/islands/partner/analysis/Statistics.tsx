import { useMemo } from 'react';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { partnerMetrics } from '../../../lib/partner.ts';
import type { StatisticsData, StatisticsRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import type { Column } from '../../table/DataTable.tsx';
import { PARTNER_API } from '../partnerApi.ts';
import { OutOfScopeNotice, outsideScope } from '../OutOfScope.tsx';
import { usePartnerTree } from '../usePartnerTree.ts';
import AnalysisFilters, { MetricSelect } from './AnalysisFilters.tsx';
import AnalysisResults from './AnalysisResults.tsx';
import { metricLabel, type StatisticsMessages } from './analysisMessages.ts';
import {
  convertPeriod,
  readStatisticsParams,
  shownPeriodOf,
  writeStatisticsParams,
  type StatisticsParams,
} from './analysisQuery.ts';
import { statisticsChart } from './chartData.ts';
import { InstitutionSelect, InstitutionsNotice } from './InstitutionPickers.tsx';
import { metricColumns } from './metricColumns.ts';
import { useAnalysisTable } from './useAnalysisTable.ts';

interface Props {
  locale: Locale;
  messages: StatisticsMessages;
}

type Row = Partial<StatisticsRowData>;

/** The server's default order, shown on the headers (level, then code). */
const query = {
  sort: [
    { key: 'level', order: 'asc' as const },
    { key: 'partnerCode', order: 'asc' as const },
  ],
};

function body(params: StatisticsParams) {
  return {
    yearType: params.yearType,
    period: params.period,
    ...(params.partnerId ? { partnerId: params.partnerId } : {}),
  };
}

/**
 * 统计分析 (/partner/analysis/statistics): each visible institution's metrics (its whole subtree)
 * for one year, month or day; a bar chart of one metric over the institutions of the page shown;
 * the table sorted and paged on the server; granularity, period, institution, metric and the
 * table's page and order kept in the address.
 */
export default function Statistics({ locale, messages }: Props) {
  const tree = usePartnerTree();
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
  const shownPeriod = shownPeriodOf(yearType, params?.period, answer);
  const model = useMemo(() => statisticsChart(rows, metric, metricLabel(messages, metric)), [rows, metric, messages]);

  const columns: Column<Row>[] = [
    {
      key: 'partnerCode',
      label: messages['analysis.col.partnerCode'],
      kind: 'secondary',
      sortable: true,
      className: 'font-mono',
    },
    {
      key: 'partnerName',
      label: messages['analysis.col.partnerName'],
      kind: 'key',
      sortable: true,
      className: 'whitespace-nowrap',
    },
    {
      key: 'level',
      label: messages['analysis.col.level'],
      sortable: true,
      className: 'whitespace-nowrap',
      render: (row) => (row.level ? messages[`partner.level.${row.level}`] : ''),
    },
    ...metricColumns<Row, (typeof partnerMetrics)[number]>(partnerMetrics, messages, locale),
  ];

  const set = (patch: Partial<StatisticsParams>) => params && table.setParams({ ...params, ...patch });
  const outside = outsideScope(tree.load, [params?.partnerId]).length > 0;

  return (
    <div className="grid gap-5">
      <AnalysisFilters
        messages={messages}
        locale={locale}
        yearType={yearType}
        onYearType={(next) =>
          set({ yearType: next, period: params?.period ? convertPeriod(params.period, yearType, next) : '' })
        }
        period={{ value: shownPeriod, onChange: (period) => set({ period }) }}
        exportUrl={`${PARTNER_API}/exportAntTable`}
        exportData={() => params && { ...body({ ...params, period: shownPeriod }), antTable: buildAntTable(state) }}
        exportDisabled={!params || outside}
      >
        <InstitutionSelect
          label={messages['analysis.institution']}
          allLabel={messages['analysis.institution.all']}
          load={tree.load}
          value={params?.partnerId}
          onChange={(partnerId) => set({ partnerId })}
        />
        <MetricSelect
          label={messages['analysis.metric']}
          metrics={partnerMetrics}
          value={metric}
          messages={messages}
          onChange={(next) => params && table.setChartParams({ ...params, metric: next })}
        />
      </AnalysisFilters>
      <InstitutionsNotice load={tree.load} messages={messages} onRetry={tree.reload} />
      {outside && tree.load.state === 'ready' ? (
        <OutOfScopeNotice roots={tree.load.roots} messages={messages} onOwn={(root) => set({ partnerId: root.id })} />
      ) : (
        <AnalysisResults
          messages={messages}
          locale={locale}
          shown={format(messages['analysis.periodShown'], { period: shownPeriod })}
          chart={{
            kind: 'bar',
            model,
            load: table.load === 'ready' ? 'ready' : 'loading',
            failed: table.load === 'failed',
            label: format(messages['analysis.chart.statistics'], {
              metric: metricLabel(messages, metric),
              period: shownPeriod,
            }),
            xTitle: messages['analysis.institution'],
            firstColumn: messages['analysis.col.partnerName'],
          }}
          table={{
            caption: messages['analysis.table.statistics'],
            columns,
            rowKey: (row) => String(row.partnerId),
            emptyMessage: messages['analysis.empty.statistics'],
            view: table.view,
          }}
        />
      )}
    </div>
  );
}
