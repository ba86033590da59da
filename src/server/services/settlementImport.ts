/**
 * The operator's settlement import (POST /api/ops/settlement/import; docs/partner.md, Import
 * format). A file's rows are checked one by one and every problem is reported with the row number
 * a spreadsheet shows (header = 1) and the column's header; any problem and nothing is written.
 * Otherwise every row is written (an existing order × month replaced) in ONE transaction that also
 * rewrites the monthly roll-up of the months touched (refreshSettlementMonthly) and the audit row.
 *
 * Numbers are exact: energy (MWh, 3 dp) and prices (元/kWh, 5 dp) are parsed as decimals and the
 * money is computed in integers (kWh × 1/100 000 元), rounded half away from zero to the cent:
 *   settledAmount = round(energy × 1000 × contractPrice, 2)
 *   saving        = round(energy × 1000 × (marketPrice − contractPrice), 2)
 * A file may give the money itself (its system's own rounding); it is kept when within the
 * tolerance — one cent plus the most a price rounded to 5 decimals can move it: ½ of 0.00001
 * 元/kWh per kWh for the amount (energy in MWh × 0.005 元), twice that for the saving (two prices).
 */
import { sql } from 'drizzle-orm';
import { ApiCode } from '../../lib/apiCodes.ts';
import { t, type Locale, type MessageKey, type MessageVars } from '../../lib/i18n/index.ts';
import { countKey } from '../../lib/i18n/plural.ts';
import { OrderStatusCode } from '../../lib/orderStatus.ts';
import { currentPeriod } from '../../lib/partner.ts';
import {
  settlementImportColumns,
  settlementImportMaxRows,
  type ImportRejection,
  type ImportResultData,
  type SettlementImportColumnKey,
} from '../../lib/schemas/partner.ts';
import { addMonths, monthPattern } from '../../lib/schemas/order.ts';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import { ApiError } from '../apiError.ts';
import { writeAudit } from './audit.ts';
import type { ImportCell } from './settlementFile.ts';
import { refreshSettlementMonthly } from './settlementRollup.ts';

/** Limits of the columns (numeric(14,3), numeric(8,5), numeric(16,2)). */
const maxEnergyMwh = 99_999_999_999;
const maxPrice = 999.99999;
const maxMoney = 99_999_999_999_999;
/** Rows per INSERT statement (its columns are 12 array parameters). */
const insertChunk = 5000;
/**
 * Imports take this transaction-scoped advisory lock first: two imports at once would each rewrite
 * the roll-up of the same months and the second would collide with the first's new rows.
 */
const importLockKey = 6_600_001;

export interface ImportActor {
  userId: number;
  ip: string | null;
  locale: Locale;
}

/** A checked row, ready to be written. */
interface GoodRow {
  line: number;
  order: OrderFacts;
  month: string;
  energy: Decimal;
  contractPrice: Decimal;
  marketPrice: Decimal;
  settledAmountCents: bigint;
  savingCents: bigint;
  status: 1 | 2;
}

/** A decimal as an integer count of 10^-scale units (exact), with its text. */
interface Decimal {
  units: bigint;
  scale: number;
}

function decimalText(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const text = value.scale === 0 ? digits : `${digits.slice(0, -value.scale)}.${digits.slice(-value.scale)}`;
  return negative ? `-${text}` : text;
}

/**
 * A PostgreSQL array literal of the values, for ONE bound parameter: numbers as they are, text
 * quoted (backslash and quote escaped), null as NULL. The values come from the database or were
 * checked here; quoting keeps any text literal anyway.
 */
function arrayLiteral(values: readonly (string | number | null)[]): string {
  const items = values.map((value) => {
    if (value === null) return 'NULL';
    if (typeof value === 'number') return String(value);
    return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * Parses a number cell to `scale` decimals: plain decimals (`1234.5`), thousands separators
 * (`1,234.5`), and the float noise of a spreadsheet's stored value (`0.39200000000000002`) are
 * accepted; more significant decimals than the scale are not.
 */
function parseDecimal(text: string, scale: number): Decimal | 'notNumber' | 'tooPrecise' {
  let value = text.trim().replace(/^\+/, '');
  if (/^-?\d{1,3}(,\d{3})+(\.\d*)?$/.test(value)) value = value.replace(/,/g, '');
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return 'notNumber';
  const number = Number(value);
  if (!Number.isFinite(number)) return 'notNumber';
  const factor = 10 ** scale;
  const scaled = number * factor;
  const rounded = Math.round(scaled);
  // A value with more decimals than the column keeps is refused, not silently rounded; float noise
  // (a billionth of the last unit) is not more decimals.
  if (Math.abs(scaled - rounded) > Math.max(1e-6, Math.abs(scaled) * 1e-12)) return 'tooPrecise';
  if (!Number.isSafeInteger(rounded)) return 'notNumber';
  return { units: BigInt(rounded), scale };
}

/** Half away from zero: `numerator / divisor` rounded to an integer. */
function divideRounded(numerator: bigint, divisor: bigint): bigint {
  const half = divisor / 2n;
  return numerator >= 0n ? (numerator + half) / divisor : -((-numerator + half) / divisor);
}

/** A header as compared: blanks dropped, full-width parentheses as ASCII, lower case. */
function headerKey(text: string): string {
  return text.replace(/\s+/g, '').replace(/（/g, '(').replace(/）/g, ')').toLowerCase();
}

const statusWords: Record<string, 1 | 2> = { '1': 1, '2': 2, 预结算: 1, 正式结算: 2, 預結算: 1, 正式結算: 2 };

interface OrderFacts {
  id: number;
  status: number;
  enterpriseId: number;
  partnerId: number | null;
  areaCode: string;
  productId: string;
  /** YYYY-MM, first and last month of the contract. */
  first: string;
  last: string;
}

/** The orders a file names, by number, in few statements (one bound array each). */
async function ordersByNumber(db: Database, numbers: readonly string[]): Promise<Map<string, OrderFacts>> {
  const found = new Map<string, OrderFacts>();
  const distinct = [...new Set(numbers)];
  for (let start = 0; start < distinct.length; start += 5000) {
    // Order numbers were checked to be letters and digits only, so the array literal needs no quoting.
    const literal = `{${distinct.slice(start, start + 5000).join(',')}}`;
    const rows = rowsOf(
      await db.execute(sql`
        select id, order_no, status, enterprise_id, partner_id, area_code, product_id,
               to_char(contract_start, 'YYYY-MM') as first, contract_months
        from orders where order_no = any(${literal}::text[])`),
    );
    for (const row of rows) {
      const first = String(row['first']);
      found.set(String(row['order_no']), {
        id: Number(row['id']),
        status: Number(row['status']),
        enterpriseId: Number(row['enterprise_id']),
        partnerId: row['partner_id'] === null ? null : Number(row['partner_id']),
        areaCode: String(row['area_code']),
        productId: String(row['product_id']),
        first,
        last: addMonths(first, Number(row['contract_months']) - 1),
      });
    }
  }
  return found;
}

/** `YYYY-MM` from a cell: text `2026-09` (or `2026/09`, `2026-9`), or a spreadsheet date. */
function monthOf(cell: ImportCell): string | undefined {
  if (cell instanceof Date) {
    if (Number.isNaN(cell.getTime())) return undefined;
    return `${cell.getUTCFullYear()}-${String(cell.getUTCMonth() + 1).padStart(2, '0')}`;
  }
  const match = /^(\d{4})[-/.](\d{1,2})$/.exec((cell ?? '').trim());
  if (!match) return undefined;
  const month = `${match[1]}-${match[2]!.padStart(2, '0')}`;
  return monthPattern.test(month) ? month : undefined;
}

function textOf(cell: ImportCell): string {
  if (cell === null) return '';
  return cell instanceof Date ? cell.toISOString() : cell.trim();
}

/**
 * Checks every row of the grid (header first). Answers the rows to write, or every problem found.
 * File-level problems (no header, a required column missing, too many rows) are 400 at `file`.
 */
async function checkImportRows(
  db: Database,
  grid: readonly (readonly ImportCell[])[],
  locale: Locale,
  now: Date = new Date(),
): Promise<{ rows: GoodRow[]; rejected: ImportRejection[] }> {
  const say = (key: MessageKey, vars?: MessageVars) => t(locale, key, vars);
  const header = grid[0];
  if (!header || header.every((cell) => cell === null)) throw ApiError.field('file', 'partner.import.noHeader');
  const positions = new Map<SettlementImportColumnKey, number>();
  const headerKeys = header.map((cell) => headerKey(textOf(cell)));
  for (const column of settlementImportColumns) {
    const at = headerKeys.indexOf(headerKey(column.header));
    if (at === -1) {
      if (column.required) throw ApiError.field('file', 'partner.import.missingColumn', { column: column.header });
      continue;
    }
    if (headerKeys.indexOf(headerKey(column.header), at + 1) !== -1) {
      throw ApiError.field('file', 'partner.import.duplicateColumn', { column: column.header });
    }
    positions.set(column.key, at);
  }
  const data = grid.slice(1).map((cells, index) => ({ line: index + 2, cells }));
  const filled = data.filter((row) => row.cells.some((cell) => cell !== null));
  if (filled.length === 0) throw ApiError.field('file', 'partner.import.noRows');
  if (filled.length > settlementImportMaxRows) {
    throw ApiError.field('file', 'partner.import.tooManyRows', {
      max: settlementImportMaxRows,
      rows: filled.length,
    });
  }

  const cellOf = (cells: readonly ImportCell[], key: SettlementImportColumnKey): ImportCell => {
    const at = positions.get(key);
    return at === undefined ? null : (cells[at] ?? null);
  };
  const headerOf = (key: SettlementImportColumnKey) =>
    settlementImportColumns.find((column) => column.key === key)!.header;

  const numbers = filled
    .map((row) => textOf(cellOf(row.cells, 'orderNo')))
    .filter((text) => /^[A-Za-z0-9]{1,20}$/.test(text));
  const orderFacts = await ordersByNumber(db, numbers);
  const thisMonth = currentPeriod(2, now);
  const seen = new Map<string, number>();
  const rejected: ImportRejection[] = [];
  const rows: GoodRow[] = [];

  for (const { line, cells } of filled) {
    const problems: ImportRejection[] = [];
    const reject = (key: SettlementImportColumnKey, message: MessageKey, vars?: MessageVars) =>
      problems.push({ row: line, column: headerOf(key), message: say(message, vars) });
    const required = (key: SettlementImportColumnKey): string | undefined => {
      const text = textOf(cellOf(cells, key));
      if (text === '') reject(key, 'partner.import.required');
      return text === '' ? undefined : text;
    };

    // 订单号: an order in force or completed.
    const orderNo = required('orderNo');
    let order: OrderFacts | undefined;
    if (orderNo !== undefined) {
      order = /^[A-Za-z0-9]{1,20}$/.test(orderNo) ? orderFacts.get(orderNo) : undefined;
      if (!order) reject('orderNo', 'partner.import.orderUnknown');
      else if (order.status !== OrderStatusCode.IN_FORCE && order.status !== OrderStatusCode.COMPLETED) {
        reject('orderNo', 'partner.import.orderNotInForce');
      }
    }

    // 结算月份: a month of the order's contract, not after this month, once per order in the file.
    const monthCell = cellOf(cells, 'settleMonth');
    const month = monthCell === null ? undefined : monthOf(monthCell);
    if (monthCell === null) reject('settleMonth', 'partner.import.required');
    else if (month === undefined) reject('settleMonth', 'partner.import.month');
    else if (month > thisMonth) reject('settleMonth', 'partner.import.monthFuture', { month: thisMonth });
    else if (order && (month < order.first || month > order.last)) {
      reject('settleMonth', 'partner.import.monthOutsideContract', { first: order.first, last: order.last });
    }
    if (order && month !== undefined) {
      const key = `${order.id}:${month}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) reject('settleMonth', 'partner.import.duplicateRow', { row: earlier });
      else seen.set(key, line);
    }

    // Energy and prices: exact decimals within the columns' ranges.
    const number = (
      key: SettlementImportColumnKey,
      scale: number,
      min: number,
      max: number,
      positive: boolean,
    ): Decimal | undefined => {
      const text = required(key);
      if (text === undefined) return undefined;
      const value = parseDecimal(text, scale);
      if (value === 'notNumber') reject(key, 'partner.import.number');
      else if (value === 'tooPrecise') reject(key, 'partner.import.decimals', { scale });
      else {
        const asNumber = Number(value.units) / 10 ** scale;
        if (asNumber < min || asNumber > max || (positive && value.units <= 0n)) {
          reject(key, positive ? 'partner.import.rangePositive' : 'partner.import.range', { min, max });
        } else return value;
      }
      return undefined;
    };
    const energy = number('settledEnergy', 3, 0, maxEnergyMwh, false);
    const contractPrice = number('contractPrice', 5, 0, maxPrice, true);
    const marketPrice = number('marketPrice', 5, 0, maxPrice, true);

    // 状态: 预结算 / 正式结算, or 1 / 2.
    const statusText = required('status');
    const status = statusText === undefined ? undefined : statusWords[statusText];
    if (statusText !== undefined && status === undefined) reject('status', 'partner.import.status');

    // Money: computed; a given value must agree within the tolerance (see the file's comment).
    let settledAmountCents: bigint | undefined;
    let savingCents: bigint | undefined;
    if (energy && contractPrice && marketPrice) {
      // energy.units = kWh; price units = 1/100 000 元: their product is in 1/100 000 元, a cent is 1 000 of them.
      const computedAmount = divideRounded(energy.units * contractPrice.units, 1000n);
      const computedSaving = divideRounded(energy.units * (marketPrice.units - contractPrice.units), 1000n);
      const kwh = Number(energy.units);
      const money = (key: 'settledAmount' | 'saving', computed: bigint, toleranceCents: number): bigint | undefined => {
        const text = textOf(cellOf(cells, key));
        if (text === '') return computed;
        const given = parseDecimal(text, 2);
        if (given === 'notNumber') reject(key, 'partner.import.number');
        else if (given === 'tooPrecise') reject(key, 'partner.import.decimals', { scale: 2 });
        else if (Math.abs(Number(given.units)) > maxMoney * 100)
          reject(key, 'partner.import.range', { min: -maxMoney, max: maxMoney });
        else {
          const off = Number(given.units - computed);
          if (Math.abs(off) > toleranceCents) {
            reject(key, 'partner.import.moneyMismatch', { computed: decimalText({ units: computed, scale: 2 }) });
          } else return given.units;
        }
        return undefined;
      };
      settledAmountCents = money('settledAmount', computedAmount, 1 + Math.ceil(kwh * 0.0005));
      savingCents = money('saving', computedSaving, 1 + Math.ceil(kwh * 0.001));
      // Huge energy at a high price can leave the money columns' range (numeric(16,2)).
      if (settledAmountCents !== undefined && Math.abs(Number(settledAmountCents)) > maxMoney * 100) {
        reject('settledAmount', 'partner.import.range', { min: 0, max: maxMoney });
      }
      if (savingCents !== undefined && Math.abs(Number(savingCents)) > maxMoney * 100) {
        reject('saving', 'partner.import.range', { min: -maxMoney, max: maxMoney });
      }
    }

    if (problems.length > 0) {
      rejected.push(...problems);
      continue;
    }
    rows.push({
      line,
      order: order!,
      month: month!,
      energy: energy!,
      contractPrice: contractPrice!,
      marketPrice: marketPrice!,
      settledAmountCents: settledAmountCents!,
      savingCents: savingCents!,
      status: status!,
    });
  }
  return { rows, rejected };
}

/**
 * The whole import in ONE transaction, behind the import lock: the rows are checked against the
 * orders as they are now, and either every problem is thrown (code 400 with the report, the
 * transaction rolled back: nothing written) or every row is written — inserted, or replacing the
 * (order, month) already there — then the roll-up of the months touched and the audit row.
 */
export async function importSettlements(
  db: Database,
  actor: ImportActor,
  grid: readonly (readonly ImportCell[])[],
  file: { name: string; kind: string; bytes: number },
): Promise<ImportResultData> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${importLockKey})`);
    const { rows, rejected } = await checkImportRows(tx, grid, actor.locale);
    if (rejected.length > 0) {
      const report: ImportResultData = { imported: 0, months: [], rejected };
      const count = new Set(rejected.map((rejection) => rejection.row)).size;
      throw new ApiError(ApiCode.BAD_REQUEST, countKey('partner.import.rejected'), { count }, report);
    }
    const months = [...new Set(rows.map((row) => row.month))].sort();
    let replaced = 0;
    for (let start = 0; start < rows.length; start += insertChunk) {
      const chunk = rows.slice(start, start + insertChunk);
      const column = (value: (row: GoodRow) => string | number | null) => arrayLiteral(chunk.map(value));
      // One parameter per column (an array literal) instead of one per cell: drizzle's and the
      // driver's cost per bound value made a full import take seconds (docs/performance.md);
      // unnest() takes them at once.
      const written = rowsOf(
        await tx.execute(sql`
          insert into settlement_results as s (order_id, enterprise_id, partner_id, area_code, product_id, settle_month,
            settled_energy, contract_price, market_price, settled_amount, saving, status, imported_by_user_id, updated_at)
          select r.order_id, r.enterprise_id, r.partner_id, r.area_code, r.product_id, r.settle_month,
            r.settled_energy, r.contract_price, r.market_price, r.settled_amount, r.saving, r.status, ${actor.userId}::int4, now()
          from unnest(
            ${column((row) => row.order.id)}::int4[], ${column((row) => row.order.enterpriseId)}::int4[],
            ${column((row) => row.order.partnerId)}::int4[], ${column((row) => row.order.areaCode)}::text[],
            ${column((row) => row.order.productId)}::text[], ${column((row) => `${row.month}-01`)}::date[],
            ${column((row) => decimalText(row.energy))}::numeric[], ${column((row) => decimalText(row.contractPrice))}::numeric[],
            ${column((row) => decimalText(row.marketPrice))}::numeric[],
            ${column((row) => decimalText({ units: row.settledAmountCents, scale: 2 }))}::numeric[],
            ${column((row) => decimalText({ units: row.savingCents, scale: 2 }))}::numeric[], ${column((row) => row.status)}::int2[]
          ) as r(order_id, enterprise_id, partner_id, area_code, product_id, settle_month,
                 settled_energy, contract_price, market_price, settled_amount, saving, status)
          on conflict (order_id, settle_month) do update set
            enterprise_id = excluded.enterprise_id, partner_id = excluded.partner_id, area_code = excluded.area_code,
            product_id = excluded.product_id, settled_energy = excluded.settled_energy, contract_price = excluded.contract_price,
            market_price = excluded.market_price, settled_amount = excluded.settled_amount, saving = excluded.saving,
            status = excluded.status, imported_by_user_id = excluded.imported_by_user_id, updated_at = excluded.updated_at
          returning (s.xmax::text <> '0') as replaced`),
      );
      // xmax is 0 for a row this statement inserted, the updating transaction's id for one replaced.
      replaced += written.filter((row) => row['replaced'] === true).length;
    }
    await refreshSettlementMonthly(tx, months);
    await writeAudit(tx, {
      userId: actor.userId,
      action: 'settlement.import',
      target: 'settlement',
      detail: { file: file.name, kind: file.kind, bytes: file.bytes, rows: rows.length, replaced, months },
      ip: actor.ip,
    });
    return { imported: rows.length, months, rejected: [] };
  });
}
