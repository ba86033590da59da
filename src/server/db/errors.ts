/**
 * Recognising database errors: the flows answer some as business outcomes, the error handler maps
 * whole classes to answers (bad value → 400, too busy → 503), and the logger keeps only what names
 * the fault, never the values. Both drivers (PGlite and postgres-js) report PostgreSQL's SQLSTATE
 * as `code`; drizzle wraps the driver's error as `cause`.
 */
import { isNetworkFailure } from '../../lib/networkErrors.ts';

export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique index refused the write (two requests raced for the same phone, name or account). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/**
 * What a database error says about the request, by SQLSTATE class: `badValue` — the data did not
 * fit (22: out of range, invalid text, bad encoding, impossible date; 54: a value over a program
 * limit), which the schemas should have refused and the caller can fix; `busy` — the server could
 * not finish in time or under load (57014 statement timeout, 40001/40P01 serialization failure or
 * deadlock, 53: insufficient resources), which a retry may fix; otherwise undefined (a real fault).
 */
export function databaseFault(error: unknown): 'badValue' | 'busy' | undefined {
  const state = sqlStateOf(error);
  if (!state) return undefined;
  if (state.startsWith('22') || state.startsWith('54')) return 'badValue';
  if (state === '57014' || state === '40001' || state === '40P01' || state.startsWith('53')) return 'busy';
  return undefined;
}

/**
 * Connection failures of postgres-js (its own codes and Node's), and PostgreSQL's own answers that
 * it cannot serve: class 08 (connection exception), 57P01–57P03 (shutting down, cannot connect now).
 */
/** postgres-js's own codes for a connection it lost or could not make. */
const driverConnectionCodes = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** A statement that got no answer within the client's own deadline (a frozen or unreachable server). */
export class DatabaseDeadlineError extends Error {
  readonly code = 'STATEMENT_DEADLINE';
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

/**
 * The database cannot be reached or did not answer (an outage, not a fault of the request): its
 * code (`ECONNREFUSED`, `CONNECT_TIMEOUT`, `57P01`, `STATEMENT_DEADLINE`…), or undefined.
 */
export function databaseOutage(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (current instanceof DatabaseDeadlineError) return current.code;
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (driverConnectionCodes.has(code) || isNetworkFailure(code) || code.startsWith('08') || /^57P0[123]$/.test(code))
    )
      return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Identifier fields of the drivers' errors: they name schema objects, never values. */
const identifierFields = [
  'severity',
  'routine',
  'schema',
  'schema_name',
  'table',
  'table_name',
  'column',
  'column_name',
  'constraint',
  'constraint_name',
  'dataType',
  'data_type',
] as const;

/** A database error as a log may show it: SQLSTATE and the objects it names; no message, detail or parameters (they quote values). */
export function describeDatabaseError(error: object): Record<string, unknown> {
  const described: Record<string, unknown> = { sqlState: (error as { code?: unknown }).code };
  for (const field of identifierFields) {
    const value = (error as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') described[field] = value;
  }
  return described;
}
