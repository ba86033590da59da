/**
 * Inputs and answers of the partner calls (spec §7: hgdarc partner/* and partneraccount/*, hgdsel
 * settlementbuyresult/*) and the operator's settlement import. Pages and server share them; the
 * codes and period rules are in src/lib/partner.ts, the behaviour in docs/partner.md.
 *
 * Every analysis and table call takes the table request as `antTable` (a JSON string,
 * src/lib/schemas/table.ts) beside its own fields; exports are GET downloads of the same fields
 * flattened into the query (src/lib/api/encode.ts), answering an `.xlsx` file.
 */
import { z } from 'zod/mini';
import {
  classifications,
  compareMaxPartners,
  defaultYearType,
  isPeriod,
  isYearType,
  periodCount,
  trendMaxBuckets,
  type ClassifiedMetric,
  type PartnerLevel,
  type PartnerMetric,
  type SettlementStatus,
  type YearType,
} from '../partner.ts';
import { preprocess, recordIdSchema, uploadedFileSchema, userNameSchema } from './fields.ts';
import type { TableAnswer } from './table.ts';

/** An optional parameter: empty (an unset form field, `?partnerId=`) counts as absent. */
function optional<S extends z.ZodMiniType>(schema: S) {
  return preprocess((value) => (value === '' ? undefined : value), z.optional(schema));
}

export const partnerIdSchema = recordIdSchema;
/** 工号: letters, digits, `-` and `_`, 1–32. */
export const empIdSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,32}$/));
/** An institution's code (the bank's), as typed on the enterprise form: 4–32 letters or digits. */
export const partnerCodeSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9]{4,32}$/));

/** 1, 2 or 3 (src/lib/partner.ts); absent or empty is 1. */
export const yearTypeSchema = z.pipe(
  preprocess(
    (value) => (value === '' || value === undefined ? defaultYearType : value),
    z.coerce.number().check(z.int(), z.gte(1), z.lte(3)),
  ),
  z.transform((value) => value as YearType),
);

/** The period fields checked against the granularity: YYYY, YYYY-MM or YYYY-MM-DD (spec §9). */
function checkPeriods(
  body: { yearType: YearType } & Record<string, unknown>,
  fields: readonly string[],
  ctx: z.core.$RefinementCtx,
) {
  // A granularity that failed its own check is already reported; periods cannot be read without it.
  if (!isYearType(body.yearType)) return;
  for (const field of fields) {
    const value = body[field];
    if (typeof value === 'string' && !isPeriod(body.yearType, value)) {
      ctx.addIssue({ code: 'custom', path: [field], message: `partner.period.${body.yearType}` });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Institutions and staff relations (base /api/front/hgdarc)

/** GET partner/getPartnersByEmpId — the institutions the signed-in user is related to (optionally by one staff number). */
export const partnersByEmpIdQuery = z.object({ empId: optional(empIdSchema) });

/** GET partneraccount/getPartnerAccountInfo — one institution's details and staff, or (no id) the user's own relations. */
export const partnerAccountInfoQuery = z.object({ partnerId: optional(partnerIdSchema) });

/** POST partneraccount/addRelationPartnerAccount — relate a user (by login name) to an institution in scope. */
export const addRelationBody = z.object({
  partnerId: partnerIdSchema,
  userName: userNameSchema,
  empId: empIdSchema,
});
export type AddRelationBody = z.input<typeof addRelationBody>;

/** POST partneraccount/delRelationPartnerAccount — remove one relation (by its id). */
export const delRelationBody = z.object({ id: partnerIdSchema });

export interface PartnerData {
  id: number;
  code: string;
  name: string;
  parentId: number | null;
  level: PartnerLevel;
  areaCode: string | null;
}

/** A node of the partner tree (spec §3 `partnerTree`): the visible institutions, nested. */
export interface PartnerTreeNode extends PartnerData {
  children: PartnerTreeNode[];
}

/** One of the user's relations (getPartnersByEmpId). */
export interface RelatedPartnerData extends PartnerData {
  empId: string;
}

export interface PartnerDetailData extends PartnerData {
  address: string;
  phone: string;
  contactName: string;
  parentName: string | null;
  /** Names from the root down to this institution. */
  pathNames: string[];
  childCount: number;
}

export interface PartnerAccountData {
  id: number;
  partnerId: number;
  userId: number;
  userName: string;
  name: string;
  /** Masked: 138****8000. */
  mobile: string;
  empId: string;
  createdAt: string;
  /** The signed-in user's own relation (it cannot remove itself). */
  self: boolean;
}

export interface PartnerAccountInfoData {
  partner: PartnerDetailData | null;
  accounts: PartnerAccountData[];
}

// ---------------------------------------------------------------------------------------------
// Settlement results (base /api/front/hgdsel/settlementbuyresult)

/**
 * POST getSettlementAntTable and GET exportSettlementAntTable: the table request plus an optional
 * institution, which narrows the rows to that institution's subtree (it must be in scope).
 */
export const settlementTableBody = z.object({
  partnerId: optional(partnerIdSchema),
});

/** The settlement table's columns (engine column names; src/server/services/settlementTable.ts). */
export interface SettlementRowData {
  id: number;
  orderNo: string;
  enterpriseName: string;
  creditCode: string | null;
  partnerId: number | null;
  partnerName: string | null;
  areaCode: string;
  productId: string;
  setName: string;
  /** YYYY-MM */
  settleMonth: string;
  settledEnergy: number;
  contractPrice: number;
  marketPrice: number;
  settledAmount: number;
  saving: number;
  status: SettlementStatus;
}
export type SettlementTableData = TableAnswer<Partial<SettlementRowData>>;

// ---------------------------------------------------------------------------------------------
// Analysis (base /api/front/hgdarc/partner)

/** POST getStaDataAntTable, GET exportAntTable: per institution, for one period. */
export const statisticsBody = z
  .object({
    yearType: yearTypeSchema,
    /** Defaults to the current period at that granularity (China time). */
    period: optional(z.string().check(z.trim(), z.maxLength(10))),
    /** The subtree to list (default: every institution in scope). */
    partnerId: optional(partnerIdSchema),
  })
  .check(z.superRefine((body, ctx) => checkPeriods(body, ['period'], ctx)));
export type StatisticsBody = z.input<typeof statisticsBody>;

export type MetricValues = Record<PartnerMetric, number>;

export interface StatisticsRowData extends MetricValues {
  partnerId: number;
  partnerCode: string;
  partnerName: string;
  level: PartnerLevel;
  parentId: number | null;
}

export interface StatisticsData extends TableAnswer<Partial<StatisticsRowData>> {
  yearType: YearType;
  period: string;
}

/** POST getCompareDataAntTable, GET exportClassificationAntTable: chosen institutions by classification. */
export const compareBody = z
  .object({
    yearType: yearTypeSchema,
    period: optional(z.string().check(z.trim(), z.maxLength(10))),
    /** 2 to 8 institutions in scope; comma-separated in a query string. */
    partnerIds: preprocess(
      (value) => (typeof value === 'string' ? value.split(',').filter((part) => part !== '') : value),
      z.array(partnerIdSchema).check(z.minLength(2), z.maxLength(compareMaxPartners)),
    ),
    classification: preprocess(
      (value) => (value === '' || value === undefined ? 'product' : value),
      z.enum(classifications),
    ),
  })
  .check(z.superRefine((body, ctx) => checkPeriods(body, ['period'], ctx)));
export type CompareBody = z.input<typeof compareBody>;

export interface CompareRowData extends Record<ClassifiedMetric, number> {
  /** The product id or area code. */
  classKey: string;
  /** Its name in the request's locale (product name, province name). */
  className: string;
  partnerId: number;
  partnerName: string;
}

export interface CompareData extends TableAnswer<Partial<CompareRowData>> {
  yearType: YearType;
  period: string;
}

/** POST getTrendDataAntTable, GET exportTrendAntTable: the metrics per period from `from` to `to`. */
export const trendBody = z
  .object({
    yearType: yearTypeSchema,
    /** Default: the last 5 years, 12 months or 30 days up to the current period. */
    from: optional(z.string().check(z.trim(), z.maxLength(10))),
    to: optional(z.string().check(z.trim(), z.maxLength(10))),
    partnerId: optional(partnerIdSchema),
  })
  .check(
    z.superRefine((body, ctx) => {
      checkPeriods(body, ['from', 'to'], ctx);
      if (
        isYearType(body.yearType) &&
        typeof body.from === 'string' &&
        typeof body.to === 'string' &&
        isPeriod(body.yearType, body.from) &&
        isPeriod(body.yearType, body.to)
      ) {
        if (body.from > body.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'partner.trendOrder' });
        else if (periodCount(body.yearType, body.from, body.to) > trendMaxBuckets[body.yearType]) {
          ctx.addIssue({ code: 'custom', path: ['to'], message: `partner.trendSpan.${body.yearType}` });
        }
      }
    }),
  );
export type TrendBody = z.input<typeof trendBody>;

export interface TrendRowData extends MetricValues {
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  period: string;
}

export interface TrendData extends TableAnswer<Partial<TrendRowData>> {
  yearType: YearType;
  from: string;
  to: string;
}

// ---------------------------------------------------------------------------------------------
// The operator's settlement import (base /api/ops/settlement)

/** One rejected row of an import: its line in the file (header = 1), the column and why. */
export interface ImportRejection {
  row: number;
  column: string;
  message: string;
}

export interface ImportResultData {
  /** Rows written (inserted or replaced); 0 when anything was rejected. */
  imported: number;
  months: string[];
  rejected: ImportRejection[];
}

/** Largest import file: 5 MB. */
export const settlementImportMaxBytes = 5 * 1024 * 1024;
/** Most data rows one import may hold. */
export const settlementImportMaxRows = 20_000;

/**
 * The import's columns, found by their (Chinese) header whatever the page's locale — the format is
 * fixed so files from any tool match; full-width parentheses and blanks in a header are ignored.
 * `required: false` columns may be absent or empty (the money is then computed).
 */
export const settlementImportColumns = [
  { key: 'orderNo', header: '订单号', required: true, format: 'text', width: 22 },
  { key: 'settleMonth', header: '结算月份', required: true, format: 'text', width: 10 },
  { key: 'settledEnergy', header: '结算电量(MWh)', required: true, format: 'energy', width: 16 },
  { key: 'contractPrice', header: '合同电价(元/kWh)', required: true, format: 'price', width: 18 },
  { key: 'marketPrice', header: '市场参考价(元/kWh)', required: true, format: 'price', width: 20 },
  { key: 'settledAmount', header: '结算电费(元)', required: false, format: 'money', width: 16 },
  { key: 'saving', header: '节省金额(元)', required: false, format: 'money', width: 16 },
  { key: 'status', header: '状态', required: true, format: 'text', width: 10 },
] as const;
export type SettlementImportColumnKey = (typeof settlementImportColumns)[number]['key'];

/** POST /api/ops/settlement/import (multipart): the file; its content is checked row by row on the server. */
export const settlementImportBody = z.object({
  file: uploadedFileSchema.check(
    z.refine((file) => file.size > 0, { message: 'partner.import.empty' }),
    z.refine((file) => file.size <= settlementImportMaxBytes, { message: 'partner.import.tooLarge' }),
    z.refine((file) => /\.(csv|xlsx)$/i.test(file.name), { message: 'partner.import.fileType' }),
  ),
});

/** GET /api/ops/settlement/template?format=csv|xlsx (default xlsx). */
export const settlementTemplateQuery = z.object({
  format: preprocess((value) => (value === '' || value === undefined ? 'xlsx' : value), z.enum(['csv', 'xlsx'])),
});
