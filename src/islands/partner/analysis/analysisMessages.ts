/** The messages each analysis island receives as props (picked on the page, never the whole dictionary). */
import type { MessageKey } from '../../../lib/i18n/index.ts';
import { classifications, partnerLevels, partnerMetrics, yearTypes, type PartnerMetric } from '../../../lib/partner.ts';
import { dataTableMessageKeys } from '../../table/dataTable.ts';
import { exportMessageKeys } from '../../table/exportFile.ts';
import { outOfScopeMessageKeys } from '../OutOfScope.tsx';

const metricKeys = partnerMetrics.map((metric) => `partner.metric.${metric}` as const);
const levelKeys = partnerLevels.map((level) => `partner.level.${level}` as const);
const yearTypeKeys = yearTypes.map((yearType) => `partner.yearType.${yearType}` as const);
const periodErrorKeys = yearTypes.map((yearType) => `partner.period.${yearType}` as const);
const periodLabelKeys = yearTypes.map((yearType) => `analysis.periodLabel.${yearType}` as const);

/** What every analysis page shows: filters, institutions' states, chart states, units, export. */
const sharedKeys = [
  ...dataTableMessageKeys,
  ...metricKeys,
  ...yearTypeKeys,
  ...periodErrorKeys,
  ...periodLabelKeys,
  'analysis.filters',
  'analysis.granularity',
  'analysis.institution',
  'analysis.institution.loading',
  'analysis.institution.failed',
  'analysis.institution.empty',
  'analysis.retry',
  'analysis.chart.loading',
  'analysis.chart.empty',
  'analysis.chart.failed',
  'analysis.chart.data',
  'analysis.unit.count',
  'analysis.unit.energy',
  'analysis.unit.money',
  ...exportMessageKeys,
  ...outOfScopeMessageKeys,
] as const satisfies readonly MessageKey[];

export const statisticsMessageKeys = [
  ...sharedKeys,
  ...levelKeys,
  'analysis.institution.all',
  'analysis.metric',
  'analysis.periodShown',
  'analysis.chart.statistics',
  'analysis.col.partnerCode',
  'analysis.col.partnerName',
  'analysis.col.level',
  'analysis.table.statistics',
  'analysis.empty.statistics',
] as const satisfies readonly MessageKey[];

export const compareMessageKeys = [
  ...sharedKeys,
  ...levelKeys,
  ...classifications.map((classification) => `partner.classification.${classification}` as const),
  'analysis.classification',
  'analysis.metric',
  'analysis.periodShown',
  'analysis.compare.institutions',
  'analysis.compare.chosen',
  'analysis.compare.tooFew',
  'analysis.compare.full',
  'analysis.chart.compare',
  'analysis.axis.class',
  'analysis.col.partnerName',
  'analysis.table.compare',
  'analysis.empty.compare',
] as const satisfies readonly MessageKey[];

export const trendMessageKeys = [
  ...sharedKeys,
  'analysis.institution.all',
  'analysis.from',
  'analysis.to',
  'analysis.metrics',
  'analysis.metricsLast',
  'analysis.spanShown',
  'analysis.chart.trend',
  'analysis.axis.period',
  'analysis.table.trend',
  'analysis.empty.trend',
  'partner.trendOrder',
  'partner.trendSpan.1',
  'partner.trendSpan.2',
  'partner.trendSpan.3',
] as const satisfies readonly MessageKey[];

export type StatisticsMessages = Record<(typeof statisticsMessageKeys)[number], string>;
export type CompareMessages = Record<(typeof compareMessageKeys)[number], string>;
export type TrendMessages = Record<(typeof trendMessageKeys)[number], string>;

/** What every analysis island receives (the shared header, the institutions' states, the charts). */
export type AnalysisMessages = Record<(typeof sharedKeys)[number], string>;

export function metricLabel(messages: AnalysisMessages, metric: PartnerMetric): string {
  return messages[`partner.metric.${metric}`];
}

/** The y axis titles by unit, and the chart states' texts, from any analysis island's messages. */
export function chartTexts(messages: AnalysisMessages, xTitle: string, firstColumn: string) {
  return {
    texts: {
      xTitle,
      unitTitles: {
        count: messages['analysis.unit.count'],
        energy: messages['analysis.unit.energy'],
        money: messages['analysis.unit.money'],
      },
    },
    chartMessages: {
      loading: messages['analysis.chart.loading'],
      empty: messages['analysis.chart.empty'],
      dataTable: messages['analysis.chart.data'],
      firstColumn,
    },
  };
}
