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
import type { Config } from './config.ts';
import { cdnStoreFromConfig } from './site/cdn.ts';
import { objectStoreFromConfig } from './storage/fromConfig.ts';
import { createLocalStore } from './storage/localStore.ts';
import type { ObjectStore } from './storage/objectStore.ts';

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

/** How long the database may take to connect and answer, and a bucket to take a probe. */
const databaseBudgetMs = 5_000;
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

async function checkPostgres(url: string): Promise<string[]> {
  const shown = displayDatabaseUrl(url);
  const client = postgres(url, {
    max: 1,
    connect_timeout: Math.ceil(databaseBudgetMs / 1000),
    idle_timeout: 1,
    onnotice: () => {},
    connection: { application_name: 'hgd-portal-check' },
  });
  try {
    const [row] = await within(
      client<{ readOnly: string }[]>`select current_setting('transaction_read_only') as "readOnly"`,
      databaseBudgetMs,
    );
    if (row?.readOnly === 'on')
      return [`DATABASE_URL (${shown}): the server is read-only (a standby?); point it at the primary`];
    return [];
  } catch (error) {
    return [`DATABASE_URL (${shown}): cannot connect and run a query: ${withoutPassword(reasonOf(error), url)}`];
  } finally {
    await client.end({ timeout: 1 }).catch(() => {});
  }
}

async function checkDatabase(config: Config): Promise<PreflightResult> {
  if (config.databaseUrl !== undefined) {
    return {
      check: 'database',
      subject: `PostgreSQL ${displayDatabaseUrl(config.databaseUrl)}`,
      problems: await checkPostgres(config.databaseUrl),
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

/**
 * The bucket answers (the S3 engine's own check, whose message names what to fix for a missing
 * bucket or refused credentials), then takes a probe. `variable` is the bucket's variable:
 * S3_BUCKET, or CDN_S3_BUCKET (reached with the same connection settings).
 */
async function checkBucket(
  store: ObjectStore,
  variable: 'S3_BUCKET' | 'CDN_S3_BUCKET',
  where: string,
): Promise<string[]> {
  try {
    await within(store.check?.() ?? Promise.resolve(), storeBudgetMs);
  } catch (error) {
    const reason = reasonOf(error)
      .replace(/^Object storage: /, '')
      .replace(/\bS3_BUCKET\b/g, variable);
    return [`${variable}: ${reason}`];
  }
  try {
    await within(probeObjectStore(store), storeBudgetMs);
    return [];
  } catch (error) {
    return [
      `${variable}: a probe object could not be written and deleted in ${where}: ${reasonOf(error)}; the credentials need s3:PutObject and s3:DeleteObject there`,
    ];
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
      problems: await checkBucket(store, 'S3_BUCKET', where),
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
    problems: await checkBucket(store, 'CDN_S3_BUCKET', where),
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
