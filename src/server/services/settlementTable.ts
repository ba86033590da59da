/**
 * The partner's settlement table (POST settlementbuyresult/getSettlementAntTable) and its export
 * (GET exportSettlementAntTable) as one definition of the table engine (docs/tables.md;
 * docs/partner.md, Settlement rows). The columns are the API's (`SettlementRowData`,
 * src/lib/schemas/partner.ts).
 *
 * Scope: every statement carries `s.partner_id = any(visible ids)` (or the chosen institution's
 * subtree), so a row of an institution outside the caller's scope can never be listed, counted,
 * summed or exported. Speed: settlement_results carries the institution, area and product copied
 * from the order, so the scoped count of a month range reads settlement_results alone through
 * (partner_id, settle_month desc, id desc); orders, enterprises and institutions are joined only
 * in the statements that use their columns (the engine's `joins`). A keyword or liker matches the
 * copies of the order number, set name and enterprise name kept on the row by the database
 * (migration 0011's triggers; the engine's `match`), so it joins nothing either; the page still
 * shows the order's and the enterprise's own values.
 */
import { sql } from 'drizzle-orm';
import type { SiteContent } from '../../content/schemas.ts';
import { t, type Locale, type MessageKey } from '../../lib/i18n/index.ts';
import { exportRowCap, type SettlementStatus } from '../../lib/partner.ts';
import type { SettlementTableData } from '../../lib/schemas/partner.ts';
import type { TableRequest } from '../../lib/schemas/table.ts';
import type { Database } from '../db/client.ts';
import { defineTable, runTable, streamTable, type TableRow } from '../table/antTable.ts';
import type { XlsxColumn, XlsxFormat, XlsxSheet } from '../xlsx/writer.ts';
import { partnerIdIn, subtreeInScope, type PartnerScope } from './partnerScope.ts';

export const settlementTable = defineTable({
  from: sql`settlement_results s`,
  joins: {
    order: sql`join orders o on o.id = s.order_id`,
    enterprise: sql`join enterprises e on e.id = s.enterprise_id`,
    partner: sql`left join partner_institutions p on p.id = s.partner_id`,
  },
  columns: {
    id: { sql: sql`s.id`, type: 'int' },
    orderNo: { sql: sql`o.order_no`, match: sql`s.order_no`, type: 'text', join: 'order', search: true, like: true },
    enterpriseName: {
      sql: sql`e.enterprise_name`,
      match: sql`s.enterprise_name`,
      type: 'text',
      join: 'enterprise',
      search: true,
      like: true,
      sort: true,
    },
    creditCode: { sql: sql`e.credit_code`, type: 'text', join: 'enterprise', nullable: true },
    partnerId: { sql: sql`s.partner_id`, type: 'int', filter: true, nullable: true },
    partnerName: { sql: sql`p.name`, type: 'text', join: 'partner', sort: true, nullable: true },
    areaCode: { sql: sql`s.area_code`, type: 'text', filter: true },
    productId: { sql: sql`s.product_id`, type: 'text', filter: true },
    setName: { sql: sql`o.set_name`, match: sql`s.set_name`, type: 'text', join: 'order', search: true },
    settleMonth: { sql: sql`s.settle_month`, type: 'month', range: true, filter: true, sort: true },
    settledEnergy: { sql: sql`s.settled_energy`, type: 'number', range: true, sort: true },
    contractPrice: { sql: sql`s.contract_price`, type: 'number', range: true, sort: true },
    marketPrice: { sql: sql`s.market_price`, type: 'number', range: true, sort: true },
    settledAmount: { sql: sql`s.settled_amount`, type: 'number', range: true, sort: true },
    saving: { sql: sql`s.saving`, type: 'number', range: true, sort: true },
    status: { sql: sql`s.status`, type: 'int', filter: true },
  },
  defaultSort: [{ key: 'settleMonth', sort: 'descend' }],
  tieBreaker: sql`s.id`,
});

type SettlementRow = TableRow<typeof settlementTable.columns>;

/** The institutions a settlement call reads: the caller's scope, or the chosen institution's subtree (404 when not visible). */
export async function settlementScopeIds(
  db: Database,
  scope: PartnerScope,
  partnerId: number | undefined,
): Promise<number[]> {
  return partnerId === undefined ? scope.ids : subtreeInScope(db, scope, partnerId);
}

/** One page of the settlement rows of `partnerIds`. */
export async function settlementPage(
  db: Database,
  request: TableRequest,
  partnerIds: readonly number[],
): Promise<SettlementTableData> {
  const page = await runTable(db, settlementTable, request, { scope: partnerIdIn(sql`s.partner_id`, partnerIds) });
  return page as SettlementTableData;
}

/** The export's columns, in order: header message, cell format, and whether the totals row sums it. */
const exportColumns: readonly {
  key: MessageKey;
  format: XlsxFormat;
  width: number;
  total?: boolean;
  value: (row: SettlementRow, names: ClassNames) => string | number | null;
}[] = [
  { key: 'partner.settlement.column.settleMonth', format: 'text', width: 10, value: (row) => row.settleMonth },
  { key: 'partner.settlement.column.orderNo', format: 'text', width: 22, value: (row) => row.orderNo },
  { key: 'partner.settlement.column.enterpriseName', format: 'text', width: 32, value: (row) => row.enterpriseName },
  { key: 'partner.settlement.column.creditCode', format: 'text', width: 22, value: (row) => row.creditCode },
  { key: 'partner.settlement.column.partnerName', format: 'text', width: 24, value: (row) => row.partnerName },
  { key: 'partner.settlement.column.area', format: 'text', width: 12, value: (row, names) => names.area(row.areaCode) },
  {
    key: 'partner.settlement.column.product',
    format: 'text',
    width: 14,
    value: (row, names) => names.product(row.productId),
  },
  { key: 'partner.settlement.column.setName', format: 'text', width: 28, value: (row) => row.setName },
  {
    key: 'partner.settlement.column.settledEnergy',
    format: 'energy',
    width: 16,
    total: true,
    value: (row) => row.settledEnergy,
  },
  { key: 'partner.settlement.column.contractPrice', format: 'price', width: 16, value: (row) => row.contractPrice },
  { key: 'partner.settlement.column.marketPrice', format: 'price', width: 18, value: (row) => row.marketPrice },
  {
    key: 'partner.settlement.column.settledAmount',
    format: 'money',
    width: 16,
    total: true,
    value: (row) => row.settledAmount,
  },
  { key: 'partner.settlement.column.saving', format: 'money', width: 16, total: true, value: (row) => row.saving },
  {
    key: 'partner.settlement.column.status',
    format: 'text',
    width: 10,
    value: (row, names) => names.status(row.status),
  },
];

interface ClassNames {
  area(code: string | null): string | null;
  product(id: string | null): string | null;
  status(status: number | null): string | null;
}

/** Area, product and status as words: provinces and products from the content, statuses in the locale. */
function classNames(content: SiteContent, locale: Locale): ClassNames {
  const areas = new Map(content.regions.map((region) => [region.areaCode as string, region.name]));
  const products = new Map(content.products.map((product) => [product.productId as string, product.name]));
  return {
    area: (code) => (code === null ? null : (areas.get(code) ?? code)),
    product: (id) => (id === null ? null : (products.get(id) ?? id)),
    status: (status) => (status === null ? null : t(locale, `partner.settlementStatus.${status as SettlementStatus}`)),
  };
}

/**
 * The export of the rows a request matches (no paging, every column whatever `select` says, at
 * most `exportRowCap` rows): the sheet for the xlsx writer. The request is checked here, before
 * any byte is sent, so a bad one answers 400 like the table call.
 */
export function settlementExportSheet(
  db: Database,
  request: TableRequest,
  partnerIds: readonly number[],
  locale: Locale,
  content: SiteContent,
): XlsxSheet {
  const { select: _select, ...everyColumn } = request;
  const chunks = streamTable(db, settlementTable, everyColumn, {
    scope: partnerIdIn(sql`s.partner_id`, partnerIds),
    cap: exportRowCap,
  });
  const names = classNames(content, locale);
  async function* rows(): AsyncGenerator<readonly (string | number | null)[]> {
    for await (const chunk of chunks) {
      for (const row of chunk) yield exportColumns.map((column) => column.value(row, names));
    }
  }
  const columns: XlsxColumn[] = exportColumns.map((column) => ({
    header: t(locale, column.key),
    format: column.format,
    width: column.width,
    ...(column.total ? { total: true } : {}),
  }));
  return {
    name: t(locale, 'partner.settlement.sheet'),
    columns,
    rows: rows(),
    totalsLabel: t(locale, 'partner.settlement.totals'),
  };
}
