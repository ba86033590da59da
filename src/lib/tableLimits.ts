/**
 * The table request's limits and the shape of a column name (DOMAIN.md "The table request"),
 * the same for every table: read by the request's schema (schemas/table.ts, on the server) and by
 * the browser's request builder (tableRequest.ts). A plain module, so a table page that only
 * builds requests loads no validation code.
 */

/** Upper bounds of the request, the same for every table (a table may lower the page size). */
export const tableLimits = {
  /** Largest page size any table serves. */
  maxPageSize: 100,
  /** Highest page number (offsets beyond 10 million rows are a mistake, not a need). */
  maxCurrent: 100_000,
  defaultPageSize: 10,
  maxSelect: 50,
  maxSorters: 5,
  /** Length of a keyword, a contains-match or a text value. */
  maxText: 100,
  /** Values of one `filter` field. */
  maxFilterValues: 100,
  /** Fields named in one part (liker, range, filter). */
  maxFields: 50,
} as const;

/**
 * A column's name in the API: a letter, then letters, digits or underscores. Names like
 * `__proto__` or `a.b` can never be a column, so they are refused by shape before any lookup.
 */
export const tableFieldPattern = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
