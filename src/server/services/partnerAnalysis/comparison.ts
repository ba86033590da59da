/**
 * The partner analysis' comparison (docs/partner.md, Analysis): chosen institutions side by side,
 * by product or by province, for one period — POST getCompareDataAntTable and its xlsx export —
 * over the shared roll-up (rollup.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { SiteContent } from '../../../content/schemas.ts';
import { classifiedMetrics, type Classification, type ClassifiedMetric, type YearType } from '../../../lib/partner.ts';
import type { CompareData, CompareRowData } from '../../../lib/schemas/partner.ts';
import type { TableRequest } from '../../../lib/schemas/table.ts';
import { rowsOf, type Database } from '../../db/client.ts';
import { ApiError } from '../../apiError.ts';
import { defineTable, runTable, streamTable, type TableDefinition } from '../../table/antTable.ts';
import { assertAllInScope, type PartnerScope } from '../partnerScope.ts';
import {
  type AnalysisWindow,
  windowOf,
  defaultPeriod,
  rounded,
  addInto,
  intArray,
  idArray,
  textArray,
  numberOf,
  type InstitutionNode,
  institutionsOf,
  unionOfSubtrees,
  countMetricsSql,
  orderRows,
  settlementRows,
  metricColumns,
  metricRelation,
} from './rollup.ts';

export interface CompareInput {
  yearType: YearType;
  period?: string | undefined;
  partnerIds: number[];
  classification: Classification;
}

export type ClassValues = Record<ClassifiedMetric, number>;

function zeroClassValues(): ClassValues {
  return Object.fromEntries(classifiedMetrics.map((metric) => [metric, 0])) as ClassValues;
}

/** Each institution's own classified figures per class (product id or area code). */
async function ownClassMetrics(
  db: Database,
  ids: readonly number[],
  window: AnalysisWindow,
  yearType: YearType,
  classification: Classification,
): Promise<Map<number, Map<string, ClassValues>>> {
  const own = new Map<number, Map<string, ClassValues>>();
  if (!ids.length) return own;
  const scope = idArray(ids);
  const classColumn = classification === 'product' ? sql`product_id` : sql`area_code`;
  const result = await db.execute(sql`
    select partner_id, class_key, sum(orders)::int8 as orders, round(sum(contracted) / 12, 3) as contracted,
      sum(settled_energy) as settled_energy, sum(settled_amount) as settled_amount, sum(saving) as saving
    from (
      select partner_id, (${classColumn})::text as class_key, sum(orders) as orders, sum(contracted) as contracted,
        0::numeric as settled_energy, 0::numeric as settled_amount, 0::numeric as saving
      from (${orderRows(scope, window, yearType)}) o group by 1, 2
      union all
      select partner_id, (${classColumn})::text, 0, 0, sum(settled_energy), sum(settled_amount), sum(saving)
      from (${settlementRows(scope, window)}) m group by 1, 2
    ) per
    group by partner_id, class_key`);
  for (const row of rowsOf(result)) {
    const partnerId = Number(row['partner_id']);
    const classKey = String(row['class_key']).trim();
    const values = zeroClassValues();
    for (const metric of classifiedMetrics) values[metric] = rounded(metric, numberOf(row[countMetricsSql[metric]]));
    let byClass = own.get(partnerId);
    if (!byClass) own.set(partnerId, (byClass = new Map()));
    byClass.set(classKey, values);
  }
  return own;
}

/** Every class in the content's order (all five products, every province), then any the data has besides. */
export function classesOf(
  content: SiteContent,
  classification: Classification,
  seen: Iterable<string>,
): { key: string; name: string }[] {
  const known =
    classification === 'product'
      ? [...content.products]
          .sort((a, b) => a.sort - b.sort)
          .map((product) => ({ key: product.productId as string, name: product.name }))
      : [...content.regions]
          .sort((a, b) => a.sort - b.sort || a.areaCode.localeCompare(b.areaCode))
          .map((region) => ({ key: region.areaCode, name: region.name }));
  const keys = new Set(known.map((item) => item.key));
  const extra = [...new Set(seen)].filter((key) => !keys.has(key)).sort();
  return [...known, ...extra.map((key) => ({ key, name: key }))];
}

function compareTable(from: SQL) {
  return defineTable({
    from,
    columns: {
      classKey: { sql: sql`c.class_key`, type: 'text', filter: true, sort: true },
      className: { sql: sql`c.class_name`, type: 'text', search: true, like: true, sort: true },
      partnerId: { sql: sql`c.partner_id`, type: 'int', filter: true, sort: true },
      partnerName: { sql: sql`p.name`, type: 'text', search: true, like: true, sort: true },
      ...metricColumns(classifiedMetrics, 'c'),
      /** The natural order: classes as the content lists them, institutions as the caller chose them. */
      position: { sql: sql`c.position`, type: 'int', select: false },
    },
    defaultSort: [{ key: 'position', sort: 'ascend' }],
    tieBreaker: sql`c.position`,
  });
}

export interface PreparedCompare {
  yearType: YearType;
  period: string;
  table: TableDefinition;
  institutions: InstitutionNode[];
  own: Map<number, Map<string, ClassValues>>;
}

/** Institutions in `ids`' subtrees (one statement; every descendant of a visible institution is visible). */
async function subtreesOf(db: Database, tops: readonly InstitutionNode[]): Promise<InstitutionNode[]> {
  if (!tops.length) return [];
  const prefixes = tops.map((node) => `${node.path}%`);
  const rows = rowsOf(
    await db.execute(
      sql`select id, path from partner_institutions where path like any(${textArray(prefixes)}) order by id`,
    ),
  );
  return rows.map((row) => ({ id: Number(row['id']), path: String(row['path']) }));
}

export async function prepareCompare(
  db: Database,
  scope: PartnerScope,
  input: CompareInput,
  content: SiteContent,
): Promise<PreparedCompare> {
  const chosen = [...new Set(input.partnerIds)];
  // `1,1` passes the schema's count but compares one institution with itself.
  if (chosen.length < 2) throw ApiError.field('partnerIds', 'partner.analysis.compareDistinct');
  assertAllInScope(scope, chosen);
  const tops = await institutionsOf(db, chosen);
  const institutions = await subtreesOf(db, tops);
  const period =
    input.period ??
    (await defaultPeriod(
      db,
      institutions.map((node) => node.id),
      input.yearType,
    ));
  const own = await ownClassMetrics(
    db,
    institutions.map((node) => node.id),
    windowOf(input.yearType, period),
    input.yearType,
    input.classification,
  );
  const seen = [...own.values()].flatMap((byClass) => [...byClass.keys()]);
  const classes = classesOf(content, input.classification, seen);
  // Per class, each chosen institution's subtree sum.
  const rows: { classKey: string; className: string; partnerId: number; values: ClassValues }[] = [];
  const members = new Map(chosen.map((id) => [id, unionOfSubtrees(institutions, [id])]));
  for (const item of classes) {
    for (const id of chosen) {
      const values = zeroClassValues();
      for (const node of members.get(id) ?? [])
        addInto(values, own.get(node.id)?.get(item.key) ?? {}, classifiedMetrics);
      rows.push({ classKey: item.key, className: item.name, partnerId: id, values });
    }
  }
  const relation = metricRelation(
    'c',
    [
      { name: 'position', values: intArray(rows.map((_, index) => index + 1)) },
      { name: 'class_key', values: textArray(rows.map((row) => row.classKey)) },
      { name: 'class_name', values: textArray(rows.map((row) => row.className)) },
      { name: 'partner_id', values: idArray(rows.map((row) => row.partnerId)) },
    ],
    classifiedMetrics,
    rows.map((row) => row.values),
  );
  const table = compareTable(sql`${relation} join partner_institutions p on p.id = c.partner_id`);
  return { yearType: input.yearType, period, table: table as unknown as TableDefinition, institutions, own };
}

export async function comparePage(
  db: Database,
  scope: PartnerScope,
  input: CompareInput,
  request: TableRequest,
  content: SiteContent,
): Promise<CompareData> {
  const prepared = await prepareCompare(db, scope, input, content);
  const page = await runTable(db, prepared.table, request);
  return { ...(page as CompareData), yearType: prepared.yearType, period: prepared.period };
}

/**
 * The comparison rows of an export, then the totals: per class, the union of the listed
 * institutions' subtrees, so nested institutions compared side by side are counted once.
 */
export async function* compareExportRows(
  db: Database,
  prepared: PreparedCompare,
  request: TableRequest,
  cap: number,
  onTotals: (totals: ClassValues, rows: number) => void,
): AsyncGenerator<Partial<CompareRowData>[]> {
  const listed = new Map<string, number[]>();
  let count = 0;
  for await (const chunk of streamTable(db, prepared.table, { ...request, select: [] }, { cap })) {
    for (const row of chunk) {
      const key = String(row['classKey']);
      listed.set(key, [...(listed.get(key) ?? []), Number(row['partnerId'])]);
    }
    count += chunk.length;
    yield chunk as Partial<CompareRowData>[];
  }
  const totals = zeroClassValues();
  for (const [classKey, tops] of listed) {
    for (const node of unionOfSubtrees(prepared.institutions, tops))
      addInto(totals, prepared.own.get(node.id)?.get(classKey) ?? {}, classifiedMetrics);
  }
  onTotals(totals, count);
}
