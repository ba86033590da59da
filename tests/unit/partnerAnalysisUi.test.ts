/** Pure parts of the partner analysis islands: their state in the address, periods, chart shaping, numbers. */
import { describe, expect, it } from 'vitest';
import {
  compareMessageKeys,
  statisticsMessageKeys,
  trendMessageKeys,
} from '../../src/islands/partner/analysis/analysisMessages.ts';
import {
  convertPeriod,
  defaultTrendSpan,
  readCompareParams,
  readIds,
  readStatisticsParams,
  readTrendParams,
  shiftPeriod,
  trendPeriods,
  toggleId,
  trendSpanProblem,
  writeCompareParams,
  writeStatisticsParams,
  writeTrendParams,
} from '../../src/islands/partner/analysis/analysisQuery.ts';
import {
  chartUnits,
  compareChart,
  isEmptyChart,
  metricNumberFormat,
  statisticsChart,
  tickNumberFormat,
  trendChart,
} from '../../src/islands/partner/analysis/chartData.ts';
import {
  categoryAt,
  chartPanels,
  layoutChart,
  linearTicks,
  maxAxes,
} from '../../src/islands/partner/analysis/charts.ts';
import { formatBytes } from '../../src/islands/table/exportFile.ts';
import { flattenTree, indentedName, namesById } from '../../src/islands/partner/partnerTree.ts';
import { dictionaries, locales, pick } from '../../src/lib/i18n/index.ts';
import { trendBody, type PartnerTreeNode } from '../../src/lib/schemas/partner.ts';
import { readTableQuery, writeTableQuery } from '../../src/lib/tableRequest.ts';

const query = (text: string) => new URLSearchParams(text);
/** 2026-11-22 10:00 in China (UTC+8). */
const now = new Date('2026-11-22T02:00:00Z');

describe('the analysis state in the address', () => {
  it('gives the defaults for a bare address and writes nothing back for them', () => {
    const statistics = readStatisticsParams(query(''));
    expect(statistics).toEqual({ yearType: 1, period: '', partnerId: undefined, metric: 'settledEnergy' });
    expect(writeStatisticsParams(statistics).toString()).toBe('');
    const compare = readCompareParams(query(''));
    expect(compare).toEqual({
      yearType: 1,
      period: '',
      partnerIds: [],
      classification: 'product',
      metric: 'settledEnergy',
    });
    expect(writeCompareParams(compare).toString()).toBe('');
    const trend = readTrendParams(query(''));
    expect(trend).toEqual({ yearType: 1, from: '', to: '', partnerId: undefined, metrics: ['settledEnergy'] });
    expect(writeTrendParams(trend).toString()).toBe('');
  });

  it('round-trips every page state', () => {
    const statistics = { yearType: 2 as const, period: '2026-03', partnerId: 17, metric: 'saving' as const };
    expect(readStatisticsParams(writeStatisticsParams(statistics))).toEqual(statistics);
    const compare = {
      yearType: 3 as const,
      period: '2026-02-28',
      partnerIds: [4, 17, 9],
      classification: 'area' as const,
      metric: 'orders' as const,
    };
    expect(readCompareParams(writeCompareParams(compare))).toEqual(compare);
    const trend = {
      yearType: 2 as const,
      from: '2025-12',
      to: '2026-11',
      partnerId: 3,
      metrics: ['orders' as const, 'saving' as const],
    };
    expect(readTrendParams(writeTrendParams(trend))).toEqual(trend);
  });

  it('drops what does not fit: a period of another granularity, unknown metrics, bad ids', () => {
    expect(readStatisticsParams(query('yt=2&period=2026&partner=abc&metric=evil'))).toEqual({
      yearType: 2,
      period: '',
      partnerId: undefined,
      metric: 'settledEnergy',
    });
    expect(readStatisticsParams(query('yt=9&period=2026-02-30')).yearType).toBe(1);
    expect(readStatisticsParams(query('yt=3&period=2026-02-30')).period).toBe('');
    expect(readCompareParams(query('cls=colour&metric=registeredEnterprises'))).toMatchObject({
      classification: 'product',
      metric: 'settledEnergy',
    });
    expect(readTrendParams(query('metrics=saving,bogus,saving,orders')).metrics).toEqual(['saving', 'orders']);
    expect(readTrendParams(query('metrics=bogus')).metrics).toEqual(['settledEnergy']);
  });

  it('reads at most eight distinct valid institution ids, in the order given', () => {
    expect(readIds('5,3,5,x,0,-1,99999999999,7')).toEqual([5, 3, 7]);
    expect(readIds('1,2,3,4,5,6,7,8,9,10')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(readIds(null)).toEqual([]);
  });

  it('shares the address with the table without either losing its keys', () => {
    const table = writeTableQuery({
      page: 3,
      size: 20,
      sort: [{ key: 'saving', order: 'desc' }],
      keyword: '',
      filters: {},
      likes: {},
      ranges: {},
    });
    const both = writeStatisticsParams({ yearType: 2, period: '2026-10', partnerId: 4, metric: 'orders' }, table);
    expect(readTableQuery(both)).toMatchObject({ page: 3, size: 20, sort: [{ key: 'saving', order: 'desc' }] });
    expect(readStatisticsParams(both)).toEqual({ yearType: 2, period: '2026-10', partnerId: 4, metric: 'orders' });
    // Writing the page state again replaces its own keys only.
    const again = writeStatisticsParams(
      { yearType: 1, period: '', partnerId: undefined, metric: 'settledEnergy' },
      both,
    );
    expect(again.toString()).toBe('page=3&size=20&sort=saving%3Adesc');
    // The trend's from/to are not the table's from.<field>/to.<field> ranges.
    expect(
      readTableQuery(
        writeTrendParams({ yearType: 2, from: '2026-01', to: '2026-06', partnerId: undefined, metrics: ['orders'] }),
      ).ranges,
    ).toEqual({});
  });
});

describe('periods across granularities', () => {
  it('keeps the enclosing year or month when going coarser', () => {
    expect(convertPeriod('2025-07-14', 3, 2, now)).toBe('2025-07');
    expect(convertPeriod('2025-07-14', 3, 1, now)).toBe('2025');
    expect(convertPeriod('2025-07', 2, 1, now)).toBe('2025');
  });

  it('takes the current month or day inside the current period, else the last one', () => {
    expect(convertPeriod('2026', 1, 2, now)).toBe('2026-11');
    expect(convertPeriod('2026', 1, 3, now)).toBe('2026-11-22');
    expect(convertPeriod('2026-11', 2, 3, now)).toBe('2026-11-22');
    expect(convertPeriod('2024', 1, 2, now)).toBe('2024-12');
    expect(convertPeriod('2024', 1, 3, now)).toBe('2024-12-31');
    expect(convertPeriod('2024-02', 2, 3, now)).toBe('2024-02-29');
    expect(convertPeriod('2025-02', 2, 3, now)).toBe('2025-02-28');
  });

  it('keeps the current period implicit and drops malformed text', () => {
    expect(convertPeriod('', 1, 3, now)).toBe('');
    expect(convertPeriod('2026-13', 2, 3, now)).toBe('');
  });

  it('shifts periods across year and month ends', () => {
    expect(shiftPeriod(2, '2026-01', -1)).toBe('2025-12');
    expect(shiftPeriod(2, '2026-11', -11)).toBe('2025-12');
    expect(shiftPeriod(3, '2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftPeriod(1, '2026', -4)).toBe('2022');
  });

  it('shows the server’s default trend spans: 5 years, 12 months, 30 days up to now', () => {
    expect(defaultTrendSpan(1, now)).toEqual({ from: '2022', to: '2026' });
    expect(defaultTrendSpan(2, now)).toEqual({ from: '2025-12', to: '2026-11' });
    expect(defaultTrendSpan(3, now)).toEqual({ from: '2026-10-24', to: '2026-11-22' });
    for (const yearType of [1, 2, 3] as const) {
      const span = defaultTrendSpan(yearType, now);
      expect(trendPeriods(yearType, span.from, span.to)).toHaveLength({ 1: 5, 2: 12, 3: 30 }[yearType]);
    }
  });

  it('explains a span before the server refuses it, exactly when the schema would', () => {
    const cases = [
      [2, '2026-05', '2026-01'],
      [2, '2021-01', '2026-01'],
      [2, '2021-02', '2026-01'],
      [1, '2000', '2020'],
      [1, '2001', '2020'],
      [3, '2026-01-01', '2026-04-02'],
      [3, '2026-01-01', '2026-04-03'],
    ] as const;
    for (const [yearType, from, to] of cases) {
      const problem = trendSpanProblem(yearType, from, to);
      const parsed = trendBody.safeParse({ yearType, from, to });
      expect(problem === undefined, `${yearType} ${from}..${to}`).toBe(parsed.success);
      if (!parsed.success) expect(parsed.error.issues[0]?.message).toBe(problem);
    }
  });
});

/** Text widths as the chart's 12 px font roughly has them: a CJK character 12 px, others 7 px. */
const measure = (text: string) => [...text].reduce((width, char) => width + (char.charCodeAt(0) > 0x2e80 ? 12 : 7), 0);
const texts = { xTitle: '时间', unitTitles: { count: '数量', energy: '电量（MWh）', money: '金额（元）' } };

describe('chart shaping', () => {
  it('draws one bar per institution of the page, gaps for missing values', () => {
    const model = statisticsChart(
      [
        { partnerId: 1, partnerName: '广东省分行', saving: 1200.5 },
        { partnerId: 2, partnerName: '广州天河支行', saving: 0 },
        { partnerId: 3, partnerName: '深圳南山支行' },
      ],
      'saving',
      '节省金额（元）',
    );
    expect(model).toEqual({
      labels: ['广东省分行', '广州天河支行', '深圳南山支行'],
      series: [{ label: '节省金额（元）', unit: 'money', values: [1200.5, 0, null] }],
    });
    expect(isEmptyChart(model)).toBe(false);
    expect(isEmptyChart(statisticsChart([{ partnerName: 'a', saving: 0 }], 'saving', 'x'))).toBe(true);
    expect(isEmptyChart(statisticsChart([], 'saving', 'x'))).toBe(true);
  });

  it('groups the comparison by class (classes with nothing left out), one series per chosen institution in the order chosen', () => {
    const rows = [
      { classKey: 'p1', className: '峰谷套餐', partnerId: 5, partnerName: '广州天河支行', orders: 3 },
      { classKey: 'p1', className: '峰谷套餐', partnerId: 7, partnerName: '深圳南山支行', orders: 1 },
      { classKey: 'p2', className: '固定价格', partnerId: 7, partnerName: '深圳南山支行', orders: 4 },
      { classKey: 'p3', className: '绿电套餐', partnerId: 5, partnerName: '广州天河支行', orders: 0 },
      { classKey: 'p3', className: '绿电套餐', partnerId: 7, partnerName: '深圳南山支行', orders: 0 },
    ];
    const model = compareChart(rows, 'orders', [7, 5, 9], new Map([[9, '佛山禅城支行']]));
    expect(model.labels).toEqual(['峰谷套餐', '固定价格']);
    expect(model.series.map((series) => [series.label, series.values])).toEqual([
      ['深圳南山支行', [1, 4]],
      ['广州天河支行', [3, 0]],
      ['佛山禅城支行', [0, 0]],
    ]);
    expect(model.series.every((series) => series.unit === 'count')).toBe(true);
  });

  it('lays the trend on every period of the span oldest first, whatever the rows’ order', () => {
    const periods = trendPeriods(2, '2026-09', '2026-11');
    const model = trendChart(
      [
        { period: '2026-11', settledEnergy: 3.5, saving: 10 },
        { period: '2026-09', settledEnergy: 1.25, saving: 0 },
      ],
      periods,
      [
        { metric: 'settledEnergy', label: 'E' },
        { metric: 'saving', label: 'S' },
      ],
    );
    expect(model.labels).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(model.series).toEqual([
      { label: 'E', unit: 'energy', values: [1.25, null, 3.5] },
      { label: 'S', unit: 'money', values: [0, null, 10] },
    ]);
    expect(chartUnits(model)).toEqual(['energy', 'money']);
  });

  it('lays out one y axis per unit, localized ticks and titles, the first on the left with the grid', () => {
    const model = trendChart(
      [{ period: '2026', orders: 12000, saving: 34567.5 }],
      ['2026'],
      [
        { metric: 'orders', label: 'O' },
        { metric: 'saving', label: 'S' },
      ],
    );
    const layout = layoutChart('line', model, 'zh-CN', texts, { width: 800, height: 320 }, measure);
    expect(layout.yAxes.map((axis) => [axis.unit, axis.side, axis.title, axis.grid])).toEqual([
      ['count', 'left', '数量', true],
      ['money', 'right', '金额（元）', false],
    ]);
    expect(layout.xAxis.title).toBe('时间');
    const countTicks = layout.yAxes[0]?.ticks ?? [];
    expect(countTicks.every((tick) => tick.label === tickNumberFormat('zh-CN').format(tick.value))).toBe(true);
    expect(countTicks.at(-1)!.value).toBeGreaterThanOrEqual(12000);
    expect(tickNumberFormat('zh-CN').format(12000)).toBe('1.2万');
    // Every value is on its own axis's scale, inside the plot.
    const { plot } = layout;
    for (const line of layout.lines) {
      for (const point of line.points) {
        expect(point.y).toBeGreaterThanOrEqual(plot.top);
        expect(point.y).toBeLessThanOrEqual(plot.top + plot.height);
      }
    }
    expect(layout.legend.map((entry) => entry.label)).toEqual(['O', 'S']);
  });

  it('groups bars per category, turns labels that do not fit, and finds the category under the pointer', () => {
    const model = compareChart(
      [
        { classKey: 'a', className: '广东省', partnerId: 1, partnerName: 'P1', orders: 4 },
        { classKey: 'a', className: '广东省', partnerId: 2, partnerName: 'P2', orders: 2 },
        { classKey: 'b', className: '广西壮族自治区', partnerId: 1, partnerName: 'P1', orders: 1 },
      ],
      'orders',
      [1, 2],
    );
    const wide = layoutChart('bar', model, 'zh-CN', texts, { width: 800, height: 320 }, measure);
    // Class × institution, a zero where an institution has nothing in a class.
    expect(wide.bars.map((bar) => [bar.series, bar.index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    const [p1a, , p2a, p2b] = wide.bars;
    expect(p1a!.x + p1a!.width).toBeLessThanOrEqual(p2a!.x);
    expect(p1a!.height).toBeCloseTo(p2a!.height * 2);
    expect(p2b!.height).toBe(0);
    expect(wide.xAxis.labels.every((label) => label.rotate === 0)).toBe(true);
    const narrow = layoutChart('bar', model, 'zh-CN', texts, { width: 200, height: 320 }, measure);
    expect(narrow.xAxis.labels.every((label) => label.rotate === -45)).toBe(true);
    expect(categoryAt(wide, wide.plot.left + 1, 2)).toBe(0);
    expect(categoryAt(wide, wide.plot.left + wide.plot.width - 1, 2)).toBe(1);
    expect(categoryAt(wide, wide.plot.left - 1, 2)).toBeUndefined();
  });

  it('breaks a line at a missing value instead of drawing a false zero', () => {
    const model = trendChart(
      [
        { period: '2026-09', saving: 5 },
        { period: '2026-11', saving: 7 },
        { period: '2026-12', saving: 6 },
      ],
      ['2026-09', '2026-10', '2026-11', '2026-12'],
      [{ metric: 'saving', label: 'S' }],
    );
    const [line] = layoutChart('line', model, 'zh-CN', texts, { width: 800, height: 320 }, measure).lines;
    expect(line?.points.map((point) => point.index)).toEqual([0, 2, 3]);
    expect(line?.path.match(/M/g)).toHaveLength(2);
  });

  it('chooses round ticks from zero that cover every value', () => {
    expect(linearTicks([3, 97], 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(linearTicks([0.3], 3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(linearTicks([], 5)).toEqual([0, 1]);
    expect(linearTicks([-15, 40], 5)).toEqual([-20, -10, 0, 10, 20, 30, 40]);
  });
});

describe('numbers in the locale', () => {
  it('formats metrics with the unit’s decimals and grouped digits', () => {
    expect(metricNumberFormat('zh-CN', 'energy').format(1234.5)).toBe('1,234.500');
    expect(metricNumberFormat('pt-BR', 'money').format(1234.5)).toBe('1.234,50');
    expect(metricNumberFormat('id-ID', 'count').format(1234)).toBe('1.234');
    expect(tickNumberFormat('en-US').format(12_000)).toBe('12K');
  });

  it('says how much of a download has arrived', () => {
    expect(formatBytes(1_234_567, 'zh-CN')).toMatch(/^1\.2\s?MB$/);
    expect(formatBytes(350_000, 'en-US')).toMatch(/^350\s?kB$/);
    expect(formatBytes(1_500_000, 'pt-BR')).toMatch(/^1,5\s?MB$/);
  });
});

describe('the institution pickers', () => {
  const node = (id: number, name: string, level: 1 | 2 | 3, children: PartnerTreeNode[] = []): PartnerTreeNode => ({
    id,
    code: `C${id}`,
    name,
    level,
    parentId: null,
    areaCode: null,
    children,
  });
  const tree = [
    node(2, '广东省分行', 2, [node(5, '广州天河支行', 3), node(6, '深圳南山支行', 3)]),
    node(9, '海南省分行', 2),
  ];

  it('lists the tree depth first with depths', () => {
    const options = flattenTree(tree);
    expect(options.map((option) => [option.node.id, option.depth])).toEqual([
      [2, 1],
      [5, 2],
      [6, 2],
      [9, 1],
    ]);
    expect(indentedName(options[1]!)).toBe('\u00a0\u00a0\u00a0广州天河支行');
    expect(namesById(options).get(6)).toBe('深圳南山支行');
  });

  it('chooses at most eight, unchooses in place', () => {
    expect(toggleId([1, 2], 3, 8)).toEqual([1, 2, 3]);
    expect(toggleId([1, 2, 3], 2, 8)).toEqual([1, 3]);
    expect(toggleId([1, 2, 3, 4, 5, 6, 7, 8], 9, 8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('the analysis messages', () => {
  it('exist in every locale for every key an island receives', () => {
    for (const locale of locales) {
      for (const keys of [statisticsMessageKeys, compareMessageKeys, trendMessageKeys]) {
        const messages = pick(locale, keys);
        for (const key of keys) expect(messages[key], `${locale} ${key}`).toBeTruthy();
      }
    }
  });

  it('use the glossary’s word for export', () => {
    expect(
      ['zh-CN', 'en-US', 'zh-TW', 'id-ID', 'pt-BR'].map((locale) => dictionaries[locale as 'zh-CN']['partner.export']),
    ).toEqual(['导出', 'Export', '匯出', 'Ekspor', 'Exportar']);
  });
});

describe('a line chart draws only the values in the data', () => {
  it('joins the periods with straight segments through the points themselves: no curve between them', () => {
    // Yearly figures with a sharp rise then a fall, as the trend page shows them (2025 and 2026 the peak).
    const values = [120, 980, 1000, 150, 140, 900, 60];
    const model = trendChart(
      values.map((saving, index) => ({ period: String(2020 + index), saving })),
      values.map((_, index) => String(2020 + index)),
      [{ metric: 'saving', label: 'S' }],
    );
    const [line] = layoutChart('line', model, 'zh-CN', texts, { width: 800, height: 400 }, measure).lines;
    const points = line?.points ?? [];
    expect(points).toHaveLength(values.length);
    const round = (value: number) => Math.round(value * 10) / 10;
    expect(line?.path).toBe(
      points.map((point, index) => `${index === 0 ? 'M' : 'L'}${round(point.x)} ${round(point.y)}`).join(' '),
    );
  });
});

describe('a chart has two y axes at most', () => {
  const periods = ['2024', '2025', '2026'];
  const rows = periods.map((period, index) => ({
    period,
    orders: index + 1,
    settledEnergy: 1000 * (index + 1),
    settledAmount: 500_000 * (index + 1),
    saving: 20_000 * index,
  }));
  const metrics = [
    { metric: 'orders', label: 'orders' },
    { metric: 'settledEnergy', label: 'energy' },
    { metric: 'settledAmount', label: 'amount' },
    { metric: 'saving', label: 'saving' },
  ] as const;

  it('keeps metrics of two units in one chart, with a left and a right axis', () => {
    const model = trendChart(rows, periods, metrics.slice(0, 2));
    const panels = chartPanels(model);
    expect(panels).toHaveLength(1);
    const layout = layoutChart('line', panels[0]!, 'zh-CN', texts, { width: 358, height: 280 }, measure);
    expect(layout.yAxes.map((axis) => axis.side)).toEqual(['left', 'right']);
  });

  it('draws three units as small multiples, one axis each, every series keeping its colour', () => {
    const model = trendChart(rows, periods, metrics);
    const panels = chartPanels(model);
    expect(panels.map((panel) => panel.series.map((series) => series.label))).toEqual([
      ['orders'],
      ['energy'],
      ['amount', 'saving'],
    ]);
    expect(new Set(panels.flatMap((panel) => panel.series.map((series) => series.colour))).size).toBe(4);
    for (const panel of panels) {
      const layout = layoutChart('line', panel, 'zh-CN', texts, { width: 358, height: 224 }, measure, 'always');
      expect(layout.yAxes.length).toBeLessThanOrEqual(maxAxes);
      // A panel of one series still names it.
      expect(layout.legend.map((entry) => entry.label)).toEqual(panel.series.map((series) => series.label));
    }
    expect(() => layoutChart('line', model, 'zh-CN', texts, { width: 358, height: 224 }, measure)).toThrow();
  });

  it('keeps each y axis title clear of its tick labels on a 390 px phone', () => {
    const model = trendChart(rows, periods, [metrics[1], metrics[2]]);
    const layout = layoutChart('line', model, 'zh-CN', texts, { width: 358, height: 280 }, measure);
    for (const axis of layout.yAxes) {
      const widest = Math.max(...axis.ticks.map((tick) => measure(tick.label)));
      // Tick labels sit 6 px outside the axis line; the turned title is one line high around titleX.
      const labelsOuterEdge = axis.side === 'left' ? axis.x - 6 - widest : axis.x + 6 + widest;
      const titleInnerEdge = axis.side === 'left' ? axis.titleX + 8 : axis.titleX - 8;
      if (axis.side === 'left') expect(titleInnerEdge).toBeLessThanOrEqual(labelsOuterEdge);
      else expect(titleInnerEdge).toBeGreaterThanOrEqual(labelsOuterEdge);
      expect(axis.side === 'left' ? axis.titleX - 8 : axis.titleX + 8).toBeGreaterThanOrEqual(0);
      expect(axis.side === 'left' ? axis.titleX - 8 : axis.titleX + 8).toBeLessThanOrEqual(358);
    }
  });
});
