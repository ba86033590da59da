/**
 * The partner analysis' statistics (docs/partner.md, Analysis): every metric per institution of the
 * scope, its subtree included, for one period — POST getStaDataAntTable and its xlsx export — over
 * the shared roll-up (rollup.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { partnerMetrics, type YearType } from '../../../lib/partner.ts';
import type { MetricValues, StatisticsData, StatisticsRowData } from '../../../lib/schemas/partner.ts';
import type { TableRequest } from '../../../lib/schemas/table.ts';
import type { Database } from '../../db/client.ts';
import { defineTable, runTable, streamTable, type TableDefinition } from '../../table/antTable.ts';
import { subtreeInScope, type PartnerScope } from '../partnerScope.ts';
import {
  windowOf,
  defaultPeriod,
  zeroMetrics,
  addInto,
  idArray,
  type InstitutionNode,
  institutionsOf,
  rollUp,
  unionOfSubtrees,
  ownMetrics,
  metricColumns,
  metricRelation,
} from './rollup.ts';

function statisticsTable(from: SQL) {
  return defineTable({
    from,
    columns: {
      partnerId: { sql: sql`p.id`, type: 'int', filter: true, sort: true },
      partnerCode: { sql: sql`p.code`, type: 'text', search: true, like: true, filter: true, sort: true },
      partnerName: { sql: sql`p.name`, type: 'text', search: true, like: true, sort: true },
      level: { sql: sql`p.level`, type: 'int', filter: true, sort: true },
      parentId: { sql: sql`p.parent_id`, type: 'int', nullable: true, filter: true, sort: true },
      ...metricColumns(partnerMetrics, 'm'),
    },
    defaultSort: [
      { key: 'level', sort: 'ascend' },
      { key: 'partnerCode', sort: 'ascend' },
    ],
    tieBreaker: sql`p.id`,
  });
}

export interface StatisticsInput {
  yearType: YearType;
  period?: string | undefined;
  partnerId?: number | undefined;
}

/** A statistics request resolved: the listed institutions with their subtree figures, as an engine table. */
export interface PreparedStatistics {
  yearType: YearType;
  period: string;
  table: TableDefinition;
  institutions: InstitutionNode[];
  own: Map<number, MetricValues>;
}

export async function prepareStatistics(
  db: Database,
  scope: PartnerScope,
  input: StatisticsInput,
): Promise<PreparedStatistics> {
  const ids = input.partnerId === undefined ? scope.ids : await subtreeInScope(db, scope, input.partnerId);
  const period = input.period ?? (await defaultPeriod(db, ids, input.yearType));
  const [institutions, own] = await Promise.all([
    institutionsOf(db, ids),
    ownMetrics(db, ids, windowOf(input.yearType, period), input.yearType),
  ]);
  const rolled = rollUp(institutions, own, partnerMetrics);
  const listed = institutions.map((node) => node.id);
  const relation = metricRelation(
    'm',
    [{ name: 'partner_id', values: idArray(listed) }],
    partnerMetrics,
    listed.map((id) => rolled.get(id) ?? zeroMetrics()),
  );
  const table = statisticsTable(sql`partner_institutions p join ${relation} on m.partner_id = p.id`);
  return { yearType: input.yearType, period, table: table as unknown as TableDefinition, institutions, own };
}

export async function statisticsPage(
  db: Database,
  scope: PartnerScope,
  input: StatisticsInput,
  request: TableRequest,
): Promise<StatisticsData> {
  const prepared = await prepareStatistics(db, scope, input);
  const page = await runTable(db, prepared.table, request);
  return { ...(page as StatisticsData), yearType: prepared.yearType, period: prepared.period };
}

/**
 * The statistics rows of an export (every row the request matches, up to `cap`), and then the
 * totals: the union of the listed institutions' subtrees — a head office listed with its
 * branches counts each enterprise, order and settlement once, not once per row it appears in.
 */
export async function* statisticsExportRows(
  db: Database,
  prepared: PreparedStatistics,
  request: TableRequest,
  cap: number,
  onTotals: (totals: MetricValues, rows: number) => void,
): AsyncGenerator<Partial<StatisticsRowData>[]> {
  const listed: number[] = [];
  for await (const chunk of streamTable(db, prepared.table, { ...request, select: [] }, { cap })) {
    for (const row of chunk) listed.push(Number(row['partnerId']));
    yield chunk as Partial<StatisticsRowData>[];
  }
  const totals = zeroMetrics();
  for (const node of unionOfSubtrees(prepared.institutions, listed))
    addInto(totals, prepared.own.get(node.id) ?? {}, partnerMetrics);
  onTotals(totals, listed.length);
}
