import { useId, useMemo } from 'react';
import { format } from '../../../lib/api/messages.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { classifications, classifiedMetrics, currentPeriod, metricUnits, type Classification, type ClassifiedMetric } from '../../../lib/partner.ts';
import type { CompareData, CompareRowData } from '../../../lib/schemas/partner.ts';
import { buildAntTable } from '../../../lib/tableRequest.ts';
import DataTable, { type Column } from '../../table/DataTable.tsx';
import AnalysisChart from './AnalysisChart.tsx';
import { chartTexts, exportMessages, metricLabel, type CompareMessages } from './analysisMessages.ts';
import { convertPeriod, readCompareParams, writeCompareParams, type CompareParams } from './analysisQuery.ts';
import { compareChart, metricNumberFormat } from './chartData.ts';
import ExportButton from './ExportButton.tsx';
import { InstitutionChecklist, InstitutionsNotice } from './InstitutionPickers.tsx';
import { namesById } from './institutions.ts';
import { GranularitySwitch, PeriodField } from './PeriodPicker.tsx';
import { useAllRows } from './useAllRows.ts';
import { useAnalysisTable } from './useAnalysisTable.ts';
import { PARTNER_API, useInstitutions } from './useInstitutions.ts';

interface Props {
  locale: Locale;
  messages: CompareMessages;
}

type Row = Partial<CompareRowData>;

/** The comparison asks for two institutions at least (schema: 2–8). */
const MIN_PARTNERS = 2;

function body(params: CompareParams) {
  if (params.partnerIds.length < MIN_PARTNERS) return undefined;
  return { yearType: params.yearType, period: params.period, partnerIds: params.partnerIds.join(','), classification: params.classification };
}

/**
 * 机构对比 (/partner/analysis/institution): 2–8 chosen institutions side by side, split by product
 * or by province, for one year, month or day: a grouped bar chart (classes × institutions) of one
 * metric over every row, and the rows in a server-sorted, paged table. Everything chosen stays in
 * the address.
 */
export default function InstitutionCompare({ locale, messages }: Props) {
  const institutions = useInstitutions();
  const metricId = useId();
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
  const shownPeriod = params?.period || (answer?.yearType === yearType ? answer.period : '') || currentPeriod(yearType);
  const fields = params && body(params);
  const chart = useAllRows<Row>(`${PARTNER_API}/getCompareDataAntTable`, fields, ['classKey', 'className', 'partnerId', 'partnerName', metric], table.ready);
  const names = useMemo(() => namesById(institutions.options), [institutions.options]);
  const model = useMemo(() => compareChart(chart.rows, metric, partnerIds, names), [chart.rows, metric, partnerIds, names]);
  const { texts, chartMessages } = chartTexts(messages, messages['analysis.axis.class'], messages['analysis.axis.class']);
  const classification = params?.classification ?? 'product';

  const columns: Column<Row>[] = [
    { key: 'className', label: messages['analysis.axis.class'], sortable: true, className: 'whitespace-nowrap' },
    { key: 'partnerName', label: messages['analysis.col.partnerName'], sortable: true, className: 'whitespace-nowrap' },
    ...classifiedMetrics.map((key): Column<Row> => {
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

  const set = (patch: Partial<CompareParams>) => params && table.setParams({ ...params, ...patch });
  const enough = partnerIds.length >= MIN_PARTNERS;

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
        <div className="fieldset">
          <label className="fieldset-legend" htmlFor={classificationId}>{messages['analysis.classification']}</label>
          <select
            id={classificationId}
            className="select select-sm w-40"
            value={classification}
            onChange={(event) => set({ classification: event.currentTarget.value as Classification })}
          >
            {classifications.map((key) => (
              <option key={key} value={key}>{messages[`partner.classification.${key}`]}</option>
            ))}
          </select>
        </div>
        <div className="fieldset">
          <label className="fieldset-legend" htmlFor={metricId}>{messages['analysis.metric']}</label>
          <select
            id={metricId}
            className="select select-sm w-56"
            value={metric}
            onChange={(event) => params && table.setChartParams({ ...params, metric: event.currentTarget.value as ClassifiedMetric })}
          >
            {classifiedMetrics.map((key) => (
              <option key={key} value={key}>{metricLabel(messages, key)}</option>
            ))}
          </select>
        </div>
        <div className="fieldset">
          <ExportButton
            url={`${PARTNER_API}/exportClassificationAntTable`}
            data={params && enough ? { ...body({ ...params, period: shownPeriod }), antTable: buildAntTable(state) } : undefined}
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
      {institutions.load === 'ready' && institutions.options.length > 0 && (
        <InstitutionChecklist
          legend={messages['analysis.compare.institutions']}
          messages={{ chosen: messages['analysis.compare.chosen'], tooFew: messages['analysis.compare.tooFew'], full: messages['analysis.compare.full'] }}
          levelLabel={(option) => messages[`partner.level.${option.level}`]}
          options={institutions.options}
          value={partnerIds}
          min={MIN_PARTNERS}
          onChange={(ids) => set({ partnerIds: ids })}
        />
      )}
      {enough ? (
        <>
          <p className="text-sm text-base-content/70">{format(messages['analysis.periodShown'], { period: shownPeriod })}</p>
          {table.load === 'failed' || chart.load === 'failed' ? (
            <p className="text-sm text-base-content/70">{messages['analysis.chart.failed']}</p>
          ) : (
            <AnalysisChart
              kind="bar"
              model={model}
              load={chart.load}
              locale={locale}
              label={format(messages['analysis.chart.compare'], {
                metric: metricLabel(messages, metric),
                classification: messages[`partner.classification.${classification}`],
                period: shownPeriod,
              })}
              texts={texts}
              messages={chartMessages}
            />
          )}
          <DataTable
            caption={messages['analysis.table.compare']}
            columns={columns}
            rowKey={(row) => `${row.classKey}-${row.partnerId}`}
            emptyMessage={messages['analysis.empty.compare']}
            messages={messages}
            {...table.view}
          />
        </>
      ) : (
        <p className="alert alert-info alert-soft text-sm">{format(messages['analysis.compare.tooFew'], { min: MIN_PARTNERS })}</p>
      )}
    </div>
  );
}
