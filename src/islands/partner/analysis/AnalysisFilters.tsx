import { useId, type ReactNode } from 'react';
import type { RequestData } from '../../../lib/api/encode.ts';
import type { Locale } from '../../../lib/i18n/locales.ts';
import { currentPeriod, type PartnerMetric, type YearType } from '../../../lib/partner.ts';
import ExportButton from '../../table/ExportButton.tsx';
import { metricLabel, type AnalysisMessages } from './analysisMessages.ts';
import { GranularitySwitch, PeriodField } from './PeriodPicker.tsx';

interface Props {
  messages: AnalysisMessages;
  locale: Locale;
  yearType: YearType;
  onYearType: (yearType: YearType) => void;
  /** A one-period page's period (shown, and its change); the trend passes its span as children instead. */
  period?: { value: string; onChange: (period: string) => void };
  /** The page's own fields, between the period and the export. */
  children: ReactNode;
  /** The export call, and its fields read when pressed (undefined while the page cannot ask). */
  exportUrl: string;
  exportData: () => RequestData | undefined;
  exportDisabled: boolean;
}

/**
 * The header every analysis page shares: one named group holding the 年/月/日 switch, the period
 * (one-period pages), the page's own fields and the export of what the table shows.
 */
export default function AnalysisFilters({
  messages,
  locale,
  yearType,
  onYearType,
  period,
  children,
  exportUrl,
  exportData,
  exportDisabled,
}: Props) {
  return (
    <div role="group" aria-label={messages['analysis.filters']} className="flex flex-wrap items-end gap-x-5 gap-y-2">
      <GranularitySwitch
        legend={messages['analysis.granularity']}
        labels={{
          1: messages['partner.yearType.1'],
          2: messages['partner.yearType.2'],
          3: messages['partner.yearType.3'],
        }}
        value={yearType}
        onChange={onYearType}
      />
      {period && (
        <PeriodField
          label={messages[`analysis.periodLabel.${yearType}`]}
          yearType={yearType}
          value={period.value}
          invalidMessage={messages[`partner.period.${yearType}`]}
          max={currentPeriod(yearType)}
          onChange={period.onChange}
        />
      )}
      {children}
      <div className="fieldset">
        <ExportButton url={exportUrl} data={exportData} locale={locale} messages={messages} disabled={exportDisabled} />
      </div>
    </div>
  );
}

interface MetricSelectProps<M extends PartnerMetric> {
  label: string;
  metrics: readonly M[];
  value: M;
  messages: AnalysisMessages;
  onChange: (metric: M) => void;
}

/** The one metric a chart draws (statistics, comparison): a native select of the metrics' names. */
export function MetricSelect<M extends PartnerMetric>({
  label,
  metrics,
  value,
  messages,
  onChange,
}: MetricSelectProps<M>) {
  const id = useId();
  return (
    <div className="fieldset">
      <label className="fieldset-legend" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="select select-sm w-56"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value as M)}
      >
        {metrics.map((key) => (
          <option key={key} value={key}>
            {metricLabel(messages, key)}
          </option>
        ))}
      </select>
    </div>
  );
}
