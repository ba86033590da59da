/**
 * The configuration checked against the world before a process serves or takes jobs: the
 * database answers, the buckets (or DATA_DIR) take a write, the secrets are not guessable, and no
 * two settings contradict each other. config.ts checks each value's form when it is read; what
 * needs the network, or the values taken together, is checked here. `startServer` and the worker
 * refuse to start on a failure, and `npm start -- --check` runs these checks alone
 * (docs/deployment.md, "Checking a configuration").
 *
 * Every failure is one line naming the variable to change, and all are reported together, so an
 * operator fixes a configuration in one round. No line echoes a secret or a password.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import type { Config, S3Config } from './config.ts';
import { cdnStoreFromConfig } from './site/cdn.ts';
import { objectStoreFromConfig } from './storage/fromConfig.ts';
import { createLocalStore } from './storage/localStore.ts';
import { ObjectStoreUnavailableError, type ObjectStore } from './storage/objectStore.ts';
import { networkFailures } from '../lib/networkErrors.ts';

/** One check's outcome: what it looked at, and the problems found (none: it passed). */
export interface PreflightResult {
  check: string;
  /** What was checked, for the `ok` line (no secret in it). */
  subject: string;
  problems: string[];
}

export class PreflightError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The configuration cannot be used:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'PreflightError';
    this.problems = problems;
  }
}

export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${formatSeconds(ms)}`);
    this.name = 'TimeoutError';
  }
}

const formatSeconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** `work`'s outcome, or a TimeoutError after `ms` (the work goes on; its late outcome is dropped). */
export async function within<T>(work: PromiseLike<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  // Awaited once: a drizzle query runs again at each `then`.
  const outcome = Promise.resolve(work);
  outcome.catch(() => {}); // a failure after the timeout has no one left to tell
  try {
    return await Promise.race([outcome, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || (error instanceof Error ? error.name : 'error');
}

/**
 * How long DATA_DIR may take a probe. The database and the buckets get their own deadlines
 * (DB_CONNECT_TIMEOUT_MS, S3_TIMEOUT_MS): a check that waited longer than a real call would pass
 * a service the API then finds too slow.
 */
const storeBudgetMs = 10_000;

/**
 * A small object put and deleted under the store's prefix: the store exists and takes writes with
 * these credentials (a HEAD alone does not prove s3:PutObject). A key of its own each time, so
 * processes probing together never delete each other's.
 */
export async function probeObjectStore(store: ObjectStore): Promise<void> {
  const key = `.probe-${randomBytes(8).toString('hex')}`;
  const body = new TextEncoder().encode('portal write probe\n');
  await store.put(key, body, { size: body.byteLength, contentType: 'text/plain' });
  await store.remove([key]);
}

// ——— Settings that contradict each other ———

const isLocalHost = (origin: string) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(origin).hostname);

/**
 * Values each valid on their own that cannot work together (config.ts's rules cover the bank, the
 * storage and the CDN; these are the others).
 */
export function contradictions(config: Config): string[] {
  const problems: string[] = [];
  // The default is external only with DATABASE_URL, so external without it was asked for.
  if (config.siteWorker === 'external' && config.databaseUrl === undefined) {
    problems.push(
      'SITE_WORKER=external without DATABASE_URL: the embedded database (PGlite) allows one process, so no `npm run worker` could run the builds; unset SITE_WORKER, or set DATABASE_URL to a PostgreSQL server',
    );
  }
  const origin = config.publicOrigin;
  const https = origin?.startsWith('https:') === true;
  if (origin !== undefined && https && config.cookieSecure === 'never') {
    problems.push(
      `COOKIE_SECURE=false with PUBLIC_ORIGIN=${origin}: the session cookie would go without Secure on an https site; unset COOKIE_SECURE (auto) or set it to true`,
    );
  }
  if (origin !== undefined && https && config.cookieSecure === 'auto' && !config.trustProxy) {
    problems.push(
      `COOKIE_SECURE=auto with PUBLIC_ORIGIN=${origin} and TRUST_PROXY off: the server listens on plain http behind the TLS proxy, so it never sees https and the session cookie would never be Secure; set TRUST_PROXY=true (the proxy sets X-Forwarded-Proto) or COOKIE_SECURE=true`,
    );
  }
  if (origin !== undefined && !https && config.cookieSecure === 'always' && !isLocalHost(origin)) {
    problems.push(
      `COOKIE_SECURE=true with PUBLIC_ORIGIN=${origin}: browsers do not send a Secure cookie back over http, so nobody could stay signed in; use an https PUBLIC_ORIGIN or unset COOKIE_SECURE`,
    );
  }
  if (config.smsHttpKey !== undefined && config.smsHttpUrl === undefined) {
    problems.push(
      'SMS_HTTP_KEY without SMS_HTTP_URL: codes would go to the outbox table, not to a gateway; set SMS_HTTP_URL, or unset SMS_HTTP_KEY',
    );
  }
  if (config.staffSessionIdleMinutes > config.sessionIdleMinutes) {
    problems.push(
      `STAFF_SESSION_IDLE_MINUTES=${config.staffSessionIdleMinutes} is longer than SESSION_IDLE_MINUTES=${config.sessionIdleMinutes}: staff sessions would outlive everyone else's; shorten STAFF_SESSION_IDLE_MINUTES`,
    );
  }
  if (config.sessionIdleMinutes >= config.sessionAbsoluteHours * 60) {
    problems.push(
      `SESSION_IDLE_MINUTES=${config.sessionIdleMinutes} is not shorter than SESSION_ABSOLUTE_HOURS=${config.sessionAbsoluteHours}: every session would end at its absolute limit and the idle timeout would never apply; shorten SESSION_IDLE_MINUTES`,
    );
  }
  return problems;
}

// ——— Secrets ———

/** Fewer distinct characters than this is not a random value (32 random hex characters have about 15). */
const minDistinctCharacters = 8;

/** Why a secret's value is guessable, or undefined. Says nothing of the value itself. */
export function secretWeakness(value: string): string | undefined {
  const distinct = new Set(value).size;
  if (distinct < minDistinctCharacters)
    return `it has only ${distinct} different character${distinct === 1 ? '' : 's'}`;
  for (let unit = 1; unit <= value.length / 2; unit += 1) {
    if (value.length % unit === 0 && value.slice(0, unit).repeat(value.length / unit) === value)
      return `it is one ${unit}-character sequence repeated`;
  }
  return undefined;
}

/** The configured secrets (length is config.ts's to check): each must look random. */
export function weakSecrets(config: Config): string[] {
  const secrets: [string, string | undefined][] = [
    ['APP_SECRET', config.appSecret],
    ['REBUILD_TOKEN', config.rebuildToken],
    ['METRICS_TOKEN', config.metricsToken],
  ];
  const problems: string[] = [];
  for (const [name, value] of secrets) {
    const weakness = value === undefined ? undefined : secretWeakness(value);
    if (weakness)
      problems.push(`${name} is too weak: ${weakness}; use a random value (e.g. \`openssl rand -base64 32\`)`);
  }
  return problems;
}

// ——— The database ———

/** DATABASE_URL as it may be shown: user, host, port and database, the password as `***`, no query. */
export function displayDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}${parsed.password ? ':***' : ''}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** A message from the driver, with the password taken out should it ever appear in one. */
function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // not a URL: nothing to hide
  }
  return password.length >= 3 ? text.split(password).join('***') : text;
}

async function checkPostgres(url: string, budgetMs: number): Promise<string[]> {
  const shown = displayDatabaseUrl(url);
  const client = postgres(url, {
    max: 1,
    connect_timeout: Math.ceil(budgetMs / 1000),
    idle_timeout: 1,
    onnotice: () => {},
    connection: { application_name: 'hgd-portal-check' },
  });
  try {
    const [row] = await within(
      client<{ readOnly: string }[]>`select current_setting('transaction_read_only') as "readOnly"`,
      budgetMs,
    );
    if (row?.readOnly === 'on')
      return [`DATABASE_URL (${shown}): the server is read-only (a standby?); point it at the primary`];
    return [];
  } catch (error) {
    const deadline = error instanceof TimeoutError ? ' (DB_CONNECT_TIMEOUT_MS)' : '';
    return [
      `DATABASE_URL (${shown}): cannot connect and run a query: ${withoutPassword(reasonOf(error), url)}${deadline}`,
    ];
  } finally {
    await client.end({ timeout: 1 }).catch(() => {});
  }
}

async function checkDatabase(config: Config): Promise<PreflightResult> {
  if (config.databaseUrl !== undefined) {
    return {
      check: 'database',
      subject: `PostgreSQL ${displayDatabaseUrl(config.databaseUrl)}`,
      problems: await checkPostgres(config.databaseUrl, config.dbConnectTimeoutMs),
    };
  }
  const dir = path.join(config.dataDir, 'pglite');
  try {
    await within(probeObjectStore(createLocalStore(dir)), storeBudgetMs);
    return { check: 'database', subject: `embedded PGlite in ${dir}`, problems: [] };
  } catch (error) {
    return {
      check: 'database',
      subject: dir,
      problems: [`DATA_DIR (${config.dataDir}): the embedded database cannot be written there: ${reasonOf(error)}`],
    };
  }
}

// ——— Object stores ———

/** What the S3 SDK (or the store wrapping its error) tells of a failure, from the error and its causes. */
function s3Failure(error: unknown): { name: string; code: string; status: number | undefined } {
  let name = '';
  let code = '';
  let status: number | undefined;
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth += 1) {
    const e = at as Error & { code?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } };
    if (!name && e.name !== 'Error') name = e.name;
    if (!code && typeof e.code === 'string') code = e.code;
    if (!code && typeof e.Code === 'string') code = e.Code;
    status ??= e.$metadata?.httpStatusCode;
  }
  return { name, code, status };
}

/** Why the service never answered, or undefined when it did (with an error of its own). */
function unansweredReason(error: unknown, timeoutMs: number): string | undefined {
  if (error instanceof TimeoutError) return `within ${formatSeconds(timeoutMs)} (S3_TIMEOUT_MS)`;
  const { name, code, status } = s3Failure(error);
  if (status !== undefined) return undefined;
  if (networkFailures[code]) return `(${networkFailures[code]})`;
  // The SDK's own connection and socket deadlines, and the store's (S3_TIMEOUT_MS).
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof ObjectStoreUnavailableError)
    return `within ${formatSeconds(timeoutMs)} (S3_TIMEOUT_MS)`;
  return undefined;
}

/**
 * A bucket's failure as one line that starts with the variable to change: the endpoint when
 * nothing answered (the bucket was never reached), the bucket when it does not exist, the key
 * pair when it was refused or may not write. `variable` is the bucket's: S3_BUCKET, or
 * CDN_S3_BUCKET (reached with the same connection settings).
 */
function bucketProblem(
  error: unknown,
  variable: 'S3_BUCKET' | 'CDN_S3_BUCKET',
  s3: S3Config,
  step: 'check' | 'probe',
): string {
  const bucket = `${variable}="${s3.bucket}"`;
  // Without S3_ENDPOINT the SDK derives AWS's endpoint from the region.
  const [serviceVariable, service, hint] =
    s3.endpoint === undefined
      ? ['S3_REGION', `AWS S3 for S3_REGION=${s3.region}`, "; check S3_REGION, or set S3_ENDPOINT to the service's URL"]
      : ['S3_ENDPOINT', `the service at S3_ENDPOINT=${s3.endpoint}`, ''];
  const never = unansweredReason(error, s3.timeoutMs);
  if (never !== undefined)
    return `${serviceVariable}: ${service} does not answer ${never}, so ${bucket} was never reached${hint}`;
  const { name, code, status } = s3Failure(error);
  const reason = reasonOf(error)
    .replace(/^Object storage: /, '')
    .replace(/\bS3_BUCKET\b/g, variable);
  const credentials = 'S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY';
  if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket') return `${variable}: ${reason}`;
  if (status === 301 || status === 400) return `S3_REGION / S3_FORCE_PATH_STYLE: ${reason}`;
  const refused =
    status === 401 ||
    status === 403 ||
    name === 'CredentialsProviderError' ||
    /\bAccessDenied\b/.test(`${code} ${reason}`);
  if (step === 'probe' && (refused || status === undefined)) {
    // The bucket answered its HeadBucket with these keys, so what they lack is the right to write.
    return `${credentials}: a probe object could not be written and deleted in ${bucketPlace(s3)}: ${reason}; the credentials need s3:PutObject and s3:DeleteObject there`;
  }
  if (refused) return `${credentials}: ${reason}`;
  // An HTTP answer no S3 bucket gives to these calls: a failing service, or not an S3 service at all.
  return `${serviceVariable}: ${service} failed on ${bucket}: ${reason}`;
}

/**
 * The bucket answers (a HeadBucket), then takes a probe, each within S3_TIMEOUT_MS; a failure
 * names the variable to change (bucketProblem).
 */
async function checkBucket(
  store: ObjectStore,
  variable: 'S3_BUCKET' | 'CDN_S3_BUCKET',
  s3: S3Config,
): Promise<string[]> {
  try {
    await within(store.check?.() ?? Promise.resolve(), s3.timeoutMs);
  } catch (error) {
    return [bucketProblem(error, variable, s3, 'check')];
  }
  try {
    await within(probeObjectStore(store), s3.timeoutMs);
    return [];
  } catch (error) {
    return [bucketProblem(error, variable, s3, 'probe')];
  }
}

function bucketPlace(s3: { bucket: string; endpoint: string | undefined; region: string; prefix: string }): string {
  return `bucket "${s3.bucket}"${s3.prefix ? ` under ${s3.prefix}` : ''} at ${s3.endpoint ?? `AWS S3 ${s3.region}`}`;
}

async function checkObjectStore(config: Config): Promise<PreflightResult> {
  const store = objectStoreFromConfig(config);
  if (config.storage === 's3' && config.s3) {
    const where = bucketPlace(config.s3);
    return {
      check: 'object store',
      subject: `${where} (probe put and deleted)`,
      problems: await checkBucket(store, 'S3_BUCKET', config.s3),
    };
  }
  try {
    await within(probeObjectStore(store), storeBudgetMs);
    return { check: 'object store', subject: `local files in ${config.dataDir}`, problems: [] };
  } catch (error) {
    return {
      check: 'object store',
      subject: config.dataDir,
      problems: [`DATA_DIR (${config.dataDir}): uploaded files cannot be written there: ${reasonOf(error)}`],
    };
  }
}

async function checkCdn(config: Config): Promise<PreflightResult | undefined> {
  const store = cdnStoreFromConfig(config);
  if (!store || !config.cdn) return undefined;
  const where = bucketPlace(config.cdn);
  return {
    check: 'CDN bucket',
    subject: `${where} (probe put and deleted)`,
    problems: await checkBucket(store, 'CDN_S3_BUCKET', config.cdn),
  };
}

/** Every check, run together; each result lists its problems (none: passed). */
export async function runPreflight(config: Config): Promise<PreflightResult[]> {
  const settings: PreflightResult = {
    check: 'settings',
    subject: 'no contradictions',
    problems: contradictions(config),
  };
  const secrets: PreflightResult = { check: 'secrets', subject: 'not guessable', problems: weakSecrets(config) };
  const [database, objects, cdn] = await Promise.all([
    checkDatabase(config),
    checkObjectStore(config),
    checkCdn(config),
  ]);
  return [settings, secrets, database, objects, ...(cdn ? [cdn] : [])];
}

/** Throws a PreflightError listing every problem, or resolves when there is none. */
export async function assertPreflight(config: Config): Promise<void> {
  const problems = (await runPreflight(config)).flatMap((result) => result.problems);
  if (problems.length > 0) throw new PreflightError(problems);
}

/** The report of `npm start -- --check`: one line per check passed, one per problem found. */
export function preflightLines(results: readonly PreflightResult[]): string[] {
  return results.flatMap((result) =>
    result.problems.length === 0
      ? [`ok    ${result.check}: ${result.subject}`]
      : result.problems.map((problem) => `FAIL  ${result.check}: ${problem}`),
  );
}
