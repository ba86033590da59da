import { useId, useMemo } from 'react';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import {
  classifications,
  classifiedMetrics,
  type Classification,
  type ClassifiedMetric,
} from '../../../lib/partner.ts';
import type { CompareData, CompareRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import type { Column } from '../../table/DataTable.tsx';
import { PARTNER_API } from '../partnerApi.ts';
import { namesById } from '../partnerTree.ts';
import { OutOfScopeNotice, outsideScope } from '../OutOfScope.tsx';
import { usePartnerTree } from '../usePartnerTree.ts';
import AnalysisFilters, { MetricSelect } from './AnalysisFilters.tsx';
import AnalysisResults from './AnalysisResults.tsx';
import { metricLabel, type CompareMessages } from './analysisMessages.ts';
import {
  convertPeriod,
  readCompareParams,
  shownPeriodOf,
  writeCompareParams,
  type CompareParams,
} from './analysisQuery.ts';
import { compareChart } from './chartData.ts';
import { InstitutionChecklist, InstitutionsNotice } from './InstitutionPickers.tsx';
import { metricColumns } from './metricColumns.ts';
import { useAllRows } from './useAllRows.ts';
import { useAnalysisTable } from './useAnalysisTable.ts';

interface Props {
  locale: Locale;
  messages: CompareMessages;
}

type Row = Partial<CompareRowData>;

/** The comparison asks for two institutions at least (schema: 2–8). */
const MIN_PARTNERS = 2;

function body(params: CompareParams) {
  if (params.partnerIds.length < MIN_PARTNERS) return undefined;
  return {
    yearType: params.yearType,
    period: params.period,
    partnerIds: params.partnerIds.join(','),
    classification: params.classification,
  };
}

/**
 * 机构对比 (/partner/analysis/institution): 2–8 chosen institutions side by side, split by product
 * or by province, for one year, month or day: a grouped bar chart (classes × institutions) of one
 * metric over every row, and the rows in a server-sorted, paged table. Everything chosen stays in
 * the address.
 */
export default function InstitutionCompare({ locale, messages }: Props) {
  const tree = usePartnerTree();
  const classificationId = useId();
  const table = useAnalysisTable<CompareParams, CompareData>({
    url: `${PARTNER_API}/getCompareDataAntTable`,
    readParams: readCompareParams,
    writeParams: writeCompareParams,
    body,
  });
  const { params, answer, state } = table;
  const metric = params?.metric ?? 'settledEnergy';
  const yearType = params?.yearType ?? 1;
  const partnerIds = useMemo(() => params?.partnerIds ?? [], [params]);
  const shownPeriod = shownPeriodOf(yearType, params?.period, answer);
  const fields = params && body(params);
  const chart = useAllRows<Row>(
    `${PARTNER_API}/getCompareDataAntTable`,
    fields,
    ['classKey', 'className', 'partnerId', 'partnerName', metric],
    table.ready,
  );
  const options = useMemo(() => (tree.load.state === 'ready' ? tree.load.rows : []), [tree.load]);
  const names = useMemo(() => namesById(options), [options]);
  const model = useMemo(
    () => compareChart(chart.rows, metric, partnerIds, names),
    [chart.rows, metric, partnerIds, names],
  );
  const classification = params?.classification ?? 'product';

  const columns: Column<Row>[] = [
    { key: 'className', label: messages['analysis.axis.class'], kind: 'secondary', sortable: true },
    {
      key: 'partnerName',
      label: messages['analysis.col.partnerName'],
      kind: 'key',
      sortable: true,
      className: 'whitespace-nowrap',
    },
    ...metricColumns<Row, ClassifiedMetric>(classifiedMetrics, messages, locale),
  ];

  const set = (patch: Partial<CompareParams>) => params && table.setParams({ ...params, ...patch });
  const enough = partnerIds.length >= MIN_PARTNERS;
  const outside = outsideScope(tree.load, partnerIds);

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
        exportUrl={`${PARTNER_API}/exportClassificationAntTable`}
        exportData={() =>
          params && enough ? { ...body({ ...params, period: shownPeriod }), antTable: buildAntTable(state) } : undefined
        }
        exportDisabled={!params || !enough || outside.length > 0}
      >
        <div className="fieldset">
          <label className="fieldset-legend" htmlFor={classificationId}>
            {messages['analysis.classification']}
          </label>
          <select
            id={classificationId}
            className="select select-sm w-40"
            value={classification}
            onChange={(event) => set({ classification: event.currentTarget.value as Classification })}
          >
            {classifications.map((key) => (
              <option key={key} value={key}>
                {messages[`partner.classification.${key}`]}
              </option>
            ))}
          </select>
        </div>
        <MetricSelect
          label={messages['analysis.metric']}
          metrics={classifiedMetrics}
          value={metric}
          messages={messages}
          onChange={(next) => params && table.setChartParams({ ...params, metric: next })}
        />
      </AnalysisFilters>
      <InstitutionsNotice load={tree.load} messages={messages} onRetry={tree.reload} />
      {options.length > 0 && (
        <InstitutionChecklist
          legend={messages['analysis.compare.institutions']}
          messages={{
            chosen: messages['analysis.compare.chosen'],
            tooFew: messages['analysis.compare.tooFew'],
            full: messages['analysis.compare.full'],
          }}
          levelLabel={(option) => messages[`partner.level.${option.node.level}`]}
          options={options}
          value={partnerIds}
          min={MIN_PARTNERS}
          onChange={(ids) => set({ partnerIds: ids })}
        />
      )}
      {outside.length > 0 && tree.load.state === 'ready' ? (
        // Keep the chosen ones the user may see, with their own institution in place of the others.
        <OutOfScopeNotice
          roots={tree.load.roots}
          messages={messages}
          onOwn={(root) =>
            set({ partnerIds: [...new Set([...partnerIds.filter((id) => !outside.includes(id)), root.id])] })
          }
        />
      ) : enough ? (
        <AnalysisResults
          messages={messages}
          locale={locale}
          shown={format(messages['analysis.periodShown'], { period: shownPeriod })}
          chart={{
            kind: 'bar',
            model,
            load: chart.load,
            failed: table.load === 'failed' || chart.load === 'failed',
            label: format(messages['analysis.chart.compare'], {
              metric: metricLabel(messages, metric),
              classification: messages[`partner.classification.${classification}`],
              period: shownPeriod,
            }),
            xTitle: messages['analysis.axis.class'],
            firstColumn: messages['analysis.axis.class'],
          }}
          table={{
            caption: messages['analysis.table.compare'],
            columns,
            rowKey: (row) => `${row.classKey}-${row.partnerId}`,
            emptyMessage: messages['analysis.empty.compare'],
            view: table.view,
          }}
        />
      ) : (
        <p className="alert alert-info alert-soft text-sm">
          {format(messages['analysis.compare.tooFew'], { min: MIN_PARTNERS })}
        </p>
      )}
    </div>
  );
}
