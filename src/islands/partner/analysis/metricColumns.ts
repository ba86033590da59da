/** The metric columns every analysis table ends with: sortable, right-aligned, the unit's decimals in the locale. */
import type { Locale } from '../../../lib/i18n/locales.ts';
import { metricUnits, type PartnerMetric } from '../../../lib/partner.ts';
import type { Column } from '../../table/DataTable.tsx';
import { metricLabel, type AnalysisMessages } from './analysisMessages.ts';
import { metricNumberFormat } from './chartData.ts';

export function metricColumns<Row extends Partial<Record<M, unknown>>, M extends PartnerMetric>(
  metrics: readonly M[],
  messages: AnalysisMessages,
  locale: Locale,
): Column<Row>[] {
  return metrics.map((key): Column<Row> => {
    const numbers = metricNumberFormat(locale, metricUnits[key]);
    return {
      key,
      label: metricLabel(messages, key),
      sortable: true,
      className: 'text-right tabular-nums whitespace-nowrap',
      render: (row) => {
        const value = row[key];
        return typeof value === 'number' ? numbers.format(value) : '';
      },
    };
  });
}
