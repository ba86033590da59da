/**
 * Recognising database errors the flows answer as business outcomes. Both drivers (PGlite and
 * postgres-js) report PostgreSQL's SQLSTATE as `code`; drizzle wraps the driver's error as `cause`.
 */
function sqlState(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique index refused the write (two requests raced for the same phone, name or account). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}
