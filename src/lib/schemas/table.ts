/**
 * The table request (`antTable`, spec §3 and DOMAIN.md "The table request"): one JSON shape for
 * every table call — which columns, which page, a keyword, per-field contains-matches, ranges,
 * value lists and the sort order. Shared by the browser (src/lib/tableRequest.ts builds it from
 * the URL) and the server (src/server/table/antTable.ts checks every field name against the
 * table's allow-list and turns it into bound SQL).
 *
 * The schema checks the shape and the spec's limits only; whether a field exists, may be used in
 * that part and whether a value fits the column's type depends on the table and is the engine's
 * job. Objects are strict: an unknown key is an error, not ignored, so a misspelt part never
 * silently widens a result.
 */
import { z } from 'zod';
import { tableFieldPattern, tableLimits } from '../tableLimits.ts';

export const tableFieldSchema = z.string().regex(tableFieldPattern);

export const sortDirections = ['ascend', 'descend', 'asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

/** A value of `filter` or a `range` bound: the engine coerces it to the column's type. */
export const tableValueSchema = z.union([z.string().max(tableLimits.maxText), z.number(), z.boolean()]);
export type TableValue = z.infer<typeof tableValueSchema>;

/** A page number or size: an integer, or a string of digits (form posts carry strings). */
function pagerNumber(max: number) {
  return z
    .union([z.number(), z.string().regex(/^\d{1,9}$/).transform(Number)])
    .pipe(z.number().int().min(1).max(max));
}

/**
 * `{ [field]: value }` of one part. The keys are checked on the raw object first: zod's record
 * skips a `__proto__` key without an issue, and a hostile key must be refused, not ignored.
 */
const fieldRecord = <T extends z.ZodType>(value: T) =>
  z
    .unknown()
    .superRefine((input, ctx) => {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
      const keys = Object.keys(input);
      if (keys.length > tableLimits.maxFields) {
        ctx.addIssue({ code: 'custom', message: 'table.tooManyFields', input });
        return;
      }
      for (const key of keys) {
        if (!tableFieldPattern.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'table.badFieldName', input });
      }
    })
    .pipe(z.record(tableFieldSchema, value)) as unknown as z.ZodType<
    Record<string, z.output<T>>,
    Record<string, z.input<T>>
  >;

/** A `range` bound; `null` or `''` means "no bound" (what a cleared date picker sends). */
const rangeBoundSchema = z.union([z.string().max(tableLimits.maxText), z.number(), z.null()]);

export const tableRequestSchema = z.strictObject({
  select: z.array(tableFieldSchema).max(tableLimits.maxSelect).optional(),
  pager: z
    .strictObject({
      current: pagerNumber(tableLimits.maxCurrent).optional(),
      pageSize: pagerNumber(tableLimits.maxPageSize).optional(),
    })
    .optional(),
  search: z
    .strictObject({
      keyword: z.string().max(tableLimits.maxText).optional(),
      select: z.array(tableFieldSchema).max(tableLimits.maxSelect).optional(),
    })
    .optional(),
  liker: fieldRecord(z.string().max(tableLimits.maxText)).optional(),
  range: fieldRecord(
    z.strictObject({
      start: rangeBoundSchema.optional(),
      end: rangeBoundSchema.optional(),
      self: z.boolean().optional(),
    }),
  ).optional(),
  filter: fieldRecord(z.array(tableValueSchema).min(1).max(tableLimits.maxFilterValues)).optional(),
  sorter: z
    .array(z.strictObject({ key: tableFieldSchema, sort: z.enum(sortDirections) }))
    .max(tableLimits.maxSorters)
    .optional(),
});

/** The request as sent (pager numbers may be digit strings). */
export type TableRequestInput = z.input<typeof tableRequestSchema>;
/** The request after the shape check. */
export type TableRequest = z.output<typeof tableRequestSchema>;

/** The answer of every table call. */
export interface TableAnswer<Row> {
  result: Row[];
  totalCount: number;
}

/** `ascend`/`asc` → asc, `descend`/`desc` → desc. */
export function normalizeDirection(sort: SortDirection): 'asc' | 'desc' {
  return sort === 'ascend' || sort === 'asc' ? 'asc' : 'desc';
}
