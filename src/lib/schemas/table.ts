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
import { z } from 'zod/mini';
import { tableFieldPattern, tableLimits } from '../tableLimits.ts';

export const tableFieldSchema = z.string().check(z.regex(tableFieldPattern));

export const sortDirections = ['ascend', 'descend', 'asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

/** A value of `filter` or a `range` bound: the engine coerces it to the column's type. */
export const tableValueSchema = z.union([z.string().check(z.maxLength(tableLimits.maxText)), z.number(), z.boolean()]);
export type TableValue = z.infer<typeof tableValueSchema>;

/** A page number or size: an integer, or a string of digits (form posts carry strings). */
function pagerNumber(max: number) {
  return z.pipe(
    z.union([z.number(), z.pipe(z.string().check(z.regex(/^\d{1,9}$/)), z.transform(Number))]),
    z.number().check(z.int(), z.gte(1), z.lte(max)),
  );
}

/**
 * `{ [field]: value }` of one part. The keys are checked on the raw object first: zod's record
 * skips a `__proto__` key without an issue, and a hostile key must be refused, not ignored.
 */
const fieldRecord = <T extends z.ZodMiniType>(value: T) =>
  z.pipe(
    z.unknown().check(
      z.superRefine((input, ctx) => {
        if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
        const keys = Object.keys(input);
        if (keys.length > tableLimits.maxFields) {
          ctx.addIssue({ code: 'custom', message: 'table.tooManyFields', input });
          return;
        }
        for (const key of keys) {
          if (!tableFieldPattern.test(key))
            ctx.addIssue({ code: 'custom', path: [key], message: 'table.badFieldName', input });
        }
      }),
    ),
    z.record(tableFieldSchema, value),
  ) as unknown as z.ZodMiniType<Record<string, z.output<T>>, Record<string, z.input<T>>>;

/** A `range` bound; `null` or `''` means "no bound" (what a cleared date picker sends). */
const rangeBoundSchema = z.union([z.string().check(z.maxLength(tableLimits.maxText)), z.number(), z.null()]);

export const tableRequestSchema = z.strictObject({
  select: z.optional(z.array(tableFieldSchema).check(z.maxLength(tableLimits.maxSelect))),
  pager: z.optional(
    z.strictObject({
      current: z.optional(pagerNumber(tableLimits.maxCurrent)),
      pageSize: z.optional(pagerNumber(tableLimits.maxPageSize)),
    }),
  ),
  search: z.optional(
    z.strictObject({
      keyword: z.optional(z.string().check(z.maxLength(tableLimits.maxText))),
      select: z.optional(z.array(tableFieldSchema).check(z.maxLength(tableLimits.maxSelect))),
    }),
  ),
  liker: z.optional(fieldRecord(z.string().check(z.maxLength(tableLimits.maxText)))),
  range: z.optional(
    fieldRecord(
      z.strictObject({
        start: z.optional(rangeBoundSchema),
        end: z.optional(rangeBoundSchema),
        self: z.optional(z.boolean()),
      }),
    ),
  ),
  filter: z.optional(
    fieldRecord(z.array(tableValueSchema).check(z.minLength(1), z.maxLength(tableLimits.maxFilterValues))),
  ),
  sorter: z.optional(
    z
      .array(z.strictObject({ key: tableFieldSchema, sort: z.enum(sortDirections) }))
      .check(z.maxLength(tableLimits.maxSorters)),
  ),
});

/**
 * The body of a table call as the server reads it (`readTableRequest`, src/server/table/antTable.ts):
 * `antTable` as a JSON string (form body) or as the object itself (JSON body). What the API
 * description shows; the server parses it with `parseTableRequest`.
 */
export const tableCallBody = z.object({ antTable: z.optional(z.union([z.string(), tableRequestSchema])) });

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
