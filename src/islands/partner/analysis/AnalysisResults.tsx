import type { Locale } from '../../../lib/i18n/locales.ts';
import DataTable, { type Column } from '../../table/DataTable.tsx';
import AnalysisChart, { type ChartLoad } from './AnalysisChart.tsx';
import { chartTexts, type AnalysisMessages } from './analysisMessages.ts';
import type { ChartModel } from './chartData.ts';
import type { ChartKind } from './charts.ts';

type TableView<Row> = Omit<
  Parameters<typeof DataTable<Row>>[0],
  'caption' | 'columns' | 'rowKey' | 'emptyMessage' | 'messages'
>;

interface Props<Row> {
  messages: AnalysisMessages;
  locale: Locale;
  /** What the rows are of, in words (the period or span the answer holds). */
  shown: string;
  chart: {
    kind: ChartKind;
    model: ChartModel;
    load: ChartLoad;
    /** Its rows could not be loaded: said in words instead of an empty chart. */
    failed: boolean;
    /** The chart's accessible name. */
    label: string;
    xTitle: string;
    /** Header of the first column of the chart's data table. */
    firstColumn: string;
  };
  table: {
    caption: string;
    columns: readonly Column<Row>[];
    rowKey: (row: Row) => string;
    emptyMessage: string;
    /** useAnalysisTable's `view`. */
    view: TableView<Row>;
  };
}

/** The body every analysis page shares: what is shown, the chart (or why there is none), the table. */
export default function AnalysisResults<Row>({ messages, locale, shown, chart, table }: Props<Row>) {
  const { texts, chartMessages } = chartTexts(messages, chart.xTitle, chart.firstColumn);
  return (
    <>
      <p className="text-sm text-base-content/70">{shown}</p>
      {chart.failed ? (
        <p className="text-sm text-base-content/70">{messages['analysis.chart.failed']}</p>
      ) : (
        <AnalysisChart
          kind={chart.kind}
          model={chart.model}
          load={chart.load}
          locale={locale}
          label={chart.label}
          texts={texts}
          messages={chartMessages}
        />
      )}
      <DataTable
        caption={table.caption}
        columns={table.columns}
        rowKey={table.rowKey}
        emptyMessage={table.emptyMessage}
        messages={messages}
        {...table.view}
      />
    </>
  );
}
