/**
 * Server configuration, read from the environment once and validated: a bad value stops the start
 * with a message that names the variable. Embedded default: PGlite under DATA_DIR; set
 * DATABASE_URL for a PostgreSQL server. Each variable's documentation is in configDocs.ts, which the
 * type checker keeps complete and scripts/config-docs.ts turns into the README's table,
 * docs/api-plumbing.md's list and .env.example.
 */
import path from 'node:path';
import { z } from 'zod';
import { userRoles, type UserRole } from '../lib/roles.ts';
import { staffRoles } from '../lib/staffRoles.ts';

const MiB = 1024 * 1024;

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((value) => ['1', 'true', 'yes', 'on'].includes(value));

const positiveInt = z.coerce.number().int().positive();

const origin = z.url({ protocol: /^https?$/ }).transform((value, context) => {
  const parsed = new URL(value);
  if (parsed.pathname !== '/' || parsed.search || parsed.hash) {
    context.addIssue({ code: 'custom', message: 'must be an origin only, e.g. https://portal.example.com' });
    return z.NEVER;
  }
  return parsed.origin;
});

// S3's bucket naming rules (3–63 lower-case letters, digits, dots and hyphens).
const bucketName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    'must be a bucket name: 3–63 lower-case letters, digits, dots or hyphens',
  );

const keyPrefix = z
  .string()
  .regex(
    /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/,
    'must be path segments of letters, digits, ".", "_" or "-", e.g. portal/',
  )
  .refine(
    (value) => !value.split('/').some((segment) => segment === '.' || segment === '..'),
    'must not contain "." or ".." segments',
  );

export const envSchema = z.object({
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STATIC_DIR: z.string().min(1).default('./dist'),
  BODY_LIMIT_BYTES: positiveInt.default(1 * MiB),
  UPLOAD_LIMIT_BYTES: positiveInt.default(11 * MiB),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: flag.default(false),
  SESSION_IDLE_MINUTES: positiveInt.default(30),
  STAFF_SESSION_IDLE_MINUTES: positiveInt.default(15),
  STAFF_PASSWORD_MAX_AGE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  SESSION_ABSOLUTE_HOURS: positiveInt.default(12),
  PUBLIC_ORIGIN: origin.optional(),
  DB_STATEMENT_TIMEOUT_MS: positiveInt.default(15_000),
  REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  UPLOAD_TIMEOUT_MS: positiveInt.default(300_000),
  DB_POOL_MAX: positiveInt.default(10),
  // The client's own deadlines on PostgreSQL (db/client.ts): a connection, and a statement past the server's statement_timeout.
  DB_CONNECT_TIMEOUT_MS: positiveInt.default(5_000),
  // On SIGTERM: serve on this long with /api/health/ready answering 503, so the load balancer stops sending users first.
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  // Unset: seeded for a local run, not once PUBLIC_ORIGIN says this is a deployment (seedDemoAccountsRule).
  SEED_DEMO_ACCOUNTS: flag.optional(),
  SMS_HTTP_URL: z.url({ protocol: /^https?$/ }).optional(),
  SMS_HTTP_KEY: z.string().min(8).optional(),
  SMS_HTTP_TIMEOUT_MS: positiveInt.default(5_000),
  // Long and random, because it is the only thing guarding a call that rebuilds and republishes the site.
  REBUILD_TOKEN: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  REBUILD_TIMEOUT_MINUTES: positiveInt.default(20),
  // `npm run worker` on SIGTERM: how long its running job may go on before the worker hands it back to the queue.
  WORKER_STOP_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  // A build held ready on the worker (site/buildCommand.ts): publications skip astro's start; it stays resident.
  SITE_BUILD_HELD: flag.default(true),
  SITE_POLL_SECONDS: positiveInt.default(10),
  // Who runs the site's builds (jobs/worker.ts): this process (`embedded`), or `npm run worker`
  // processes (`external`). Unset: embedded on PGlite, external on PostgreSQL.
  SITE_WORKER: z.enum(['embedded', 'external']).optional(),
  // `sandbox` (demo mode) or `none`; a production bank adds its name here (docs/enterprises.md).
  // Unset: `sandbox` for a local run, `none` once PUBLIC_ORIGIN says this is a deployment (bankProviderRule).
  BANK_PROVIDER: z.enum(['sandbox', 'none']).optional(),
  BANK_SANDBOX_ALLOWED: flag.default(false),
  BANK_TIMEOUT_MS: positiveInt.default(10_000),
  BANK_SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(300),
  BANK_SANDBOX_SEED: z.string().min(16, 'must be at least 16 characters').default('hgd-sandbox-bank-demo-seed'),
  // Where uploaded files (and site builds) are kept: `local` (DATA_DIR) or an S3-compatible bucket (storageRule).
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be a region name such as us-east-1 or cn-hangzhou')
    .default('us-east-1'),
  S3_BUCKET: bucketName.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.optional(),
  S3_PREFIX: keyPrefix.optional(),
  // Each object-store call's deadline (retries included), plus a second per MiB it sends (storage/s3Store.ts).
  S3_TIMEOUT_MS: positiveInt.default(5_000),
  // The bucket a CDN serves the site from (site/cdn.ts); reached with the S3_* connection settings (cdnRule).
  CDN_S3_BUCKET: bucketName.optional(),
  CDN_S3_PREFIX: keyPrefix.optional(),
  // The root of the server's keys (secrets.ts); unset: generated once and kept in the database.
  APP_SECRET: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
  // Roles whose accounts need a second factor for every role-guarded call (mfaRequiredRolesRule).
  MFA_REQUIRED_ROLES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((role) => role.trim())
        .filter(Boolean),
    )
    .pipe(
      z.union([z.tuple([z.literal('none')]), z.array(z.enum(userRoles)).min(1)], {
        error: `must be "none" or a comma list of ${userRoles.join(', ')}`,
      }),
    )
    .optional(),
  // GET /metrics (metrics/endpoint.ts): with this token on the API's port, and/or on a port of its own (metricsRule).
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).optional(),
  METRICS_ENABLED: flag.default(true),
});

const secretVariables = new Set([
  'SMS_HTTP_KEY',
  'REBUILD_TOKEN',
  'S3_SECRET_ACCESS_KEY',
  'APP_SECRET',
  'METRICS_TOKEN',
]);

export interface Config {
  host: string;
  port: number;
  /** Absolute; PGlite keeps its files in `<dataDir>/pglite`. */
  dataDir: string;
  /** PostgreSQL server URL; undefined means embedded PGlite. */
  databaseUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Absolute path of the Astro build output. */
  staticDir: string;
  /** Limit for JSON and form bodies. */
  bodyLimitBytes: number;
  /** Limit for multipart bodies (uploads: 10 MB files plus the form). */
  uploadLimitBytes: number;
  /** `auto`: Secure when the request came over https (or X-Forwarded-Proto https behind a trusted proxy). */
  cookieSecure: 'auto' | 'always' | 'never';
  /** Believe X-Forwarded-For / -Proto / -Host (only behind a proxy that sets them). */
  trustProxy: boolean;
  sessionIdleMinutes: number;
  /** STAFF_SESSION_IDLE_MINUTES: the idle timeout of staff accounts (lib/roles.ts, staffRoles). */
  staffSessionIdleMinutes: number;
  /** STAFF_PASSWORD_MAX_AGE_DAYS: a staff password older than this must be replaced before signing in (0: never). */
  staffPasswordMaxAgeDays: number;
  sessionAbsoluteHours: number;
  /** Extra origin accepted by the CSRF check besides the request's own, e.g. the public URL behind a proxy. */
  publicOrigin: string | undefined;
  dbStatementTimeoutMs: number;
  /** Time an /api call has to start its answer (middleware/requestBudget.ts); past it, HTTP 503. */
  requestTimeoutMs: number;
  /** The same for the upload calls, whose body may come slowly from a phone. */
  uploadTimeoutMs: number;
  dbPoolMax: number;
  /** A PostgreSQL connection not made in this long fails (the call answers 503 api.busy). */
  dbConnectTimeoutMs: number;
  /**
   * A stopping server goes on serving this long while /api/health/ready answers 503 (main.ts
   * close()), before it stops accepting connections and lets the open requests finish.
   */
  shutdownDrainSeconds: number;
  /**
   * Seed the demo accounts (published passwords) into an empty database: by default only for a
   * local run (seedDemoAccountsRule); an explicit true with PUBLIC_ORIGIN is a public demo.
   */
  seedDemoAccounts: boolean;
  /** SMS gateway (sms/http.ts); unset means the outbox provider (database + log). */
  smsHttpUrl: string | undefined;
  /** Sent as `Authorization: Bearer <key>`; never logged. */
  smsHttpKey: string | undefined;
  smsHttpTimeoutMs: number;
  /** Bearer token of POST/GET /api/admin/site/rebuild; undefined disables those calls (404). */
  rebuildToken: string | undefined;
  /** An editors' rebuild running longer is stopped and recorded as failed. */
  rebuildTimeoutMinutes: number;
  /** How long a stopping `npm run worker` lets its running job go on before handing it back to the queue. */
  workerStopSeconds: number;
  /** Whether the process running builds keeps one held ready (content/heldBuild.ts): about 0.8 GB resident while it waits. */
  siteBuildHeld: boolean;
  /** How often each process checks the published build besides LISTEN/NOTIFY (site/sitePublisher.ts). */
  sitePollSeconds: number;
  /** `embedded`: this process also runs the job queue's worker (builds, schedules); `external`: `npm run worker` does. */
  siteWorker: 'embedded' | 'external';
  /**
   * The bank behind USB-key certification (bank/provider.ts): `sandbox` is the local stand-in of
   * demo mode (anyone certifies with the demo PIN), `none` turns USB-key certification off.
   */
  bankProvider: 'sandbox' | 'none';
  /** BANK_SANDBOX_ALLOWED: the operator knowingly runs the sandbox bank with PUBLIC_ORIGIN set. */
  bankSandboxAllowed: boolean;
  /** A bank call that takes longer is abandoned (503) and nothing changes. */
  bankTimeoutMs: number;
  /** How long each sandbox bank call takes, to make waiting visible. */
  bankSandboxLatencyMs: number;
  /** The sandbox derives each account's USB-key signing key from this (demo only, not a secret). */
  bankSandboxSeed: string;
  /**
   * Where uploaded files and site builds are kept (storage/fromConfig.ts): `local` is DATA_DIR,
   * `s3` a bucket of an S3-compatible object store, needed when more than one API process runs.
   */
  storage: 'local' | 's3';
  /** Set when `storage` is `s3`. */
  s3: S3Config | undefined;
  /** APP_SECRET: the root of the server's keys (secrets.ts); undefined: one generated and kept in the database. Never logged. */
  appSecret: string | undefined;
  /**
   * Accounts holding one of these roles need a second factor proved in their session before any
   * role-guarded call (middleware/session.ts requireRole); empty: nobody is required to.
   */
  mfaRequiredRoles: readonly UserRole[];
  /**
   * CDN_S3_BUCKET: every successful rebuild (and every rollback) uploads its pages to this bucket,
   * which a CDN serves, before it is published (site/cdn.ts); the S3_* connection settings, its
   * own bucket and prefix (CDN_S3_PREFIX). Undefined: no CDN upload.
   */
  cdn: S3Config | undefined;
  /** METRICS_TOKEN: the bearer token of GET /metrics on the API's port (and on METRICS_PORT); undefined: no /metrics there. Never logged. */
  metricsToken: string | undefined;
  /** METRICS_PORT: a listener serving only /metrics (the worker's too); undefined: none. */
  metricsPort: number | undefined;
  /** METRICS_HOST: the interface of that listener (a private network's); HOST when unset. */
  metricsHost: string;
  /**
   * METRICS_ENABLED: measure requests and statements (metrics/instruments.ts). Only `false` to
   * measure what measuring costs (`npm run bench -- metrics`); nothing is served then.
   */
  metricsEnabled: boolean;
}

export interface S3Config {
  /** The service's URL; undefined: AWS S3's endpoint for the region. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Both or neither; neither: the AWS SDK's own chain (AWS_* variables, instance role…). */
  accessKeyId: string | undefined;
  /** Never logged or echoed. */
  secretAccessKey: string | undefined;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO, Ceph RGW). */
  forcePathStyle: boolean;
  /** Put before every key (e.g. `portal/`), so one bucket can serve several installs; '' for none. */
  prefix: string;
  /** A call's deadline, retries included, plus a second per MiB it sends; past it the call fails (503). */
  timeoutMs: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The sandbox bank is demo mode: it certifies any enterprise whose name a sandbox account holds,
 * with the demo PIN. So BANK_PROVIDER defaults to `sandbox` only for a local run (PUBLIC_ORIGIN
 * unset) and to `none` in a deployment (PUBLIC_ORIGIN set); an explicit BANK_PROVIDER=sandbox with
 * PUBLIC_ORIGIN refuses to start unless BANK_SANDBOX_ALLOWED=true says it is meant (a public demo).
 */
function bankProviderRule(e: z.infer<typeof envSchema>): Config['bankProvider'] {
  const provider = e.BANK_PROVIDER ?? (e.PUBLIC_ORIGIN === undefined ? 'sandbox' : 'none');
  if (provider === 'sandbox' && e.PUBLIC_ORIGIN !== undefined && !e.BANK_SANDBOX_ALLOWED) {
    throw new ConfigError(
      'Invalid server configuration:\n' +
        `  BANK_PROVIDER="sandbox" with PUBLIC_ORIGIN=${JSON.stringify(e.PUBLIC_ORIGIN)}: the sandbox bank certifies any enterprise ` +
        'with the demo PIN and is not for a deployment; set BANK_PROVIDER=none, or BANK_SANDBOX_ALLOWED=true to run a public demo knowingly',
    );
  }
  return provider;
}

/** The privileged roles of a deployment: the staff console, the editors' studio, the banks' settlement data. */
export const deploymentMfaRoles: readonly UserRole[] = staffRoles;

/**
 * A second factor is required of privileged accounts once PUBLIC_ORIGIN says this is a deployment
 * (every staff role); a local run requires none, so the demo accounts log in with their
 * password alone. MFA_REQUIRED_ROLES overrides either way (`none` to require it of nobody).
 */
function mfaRequiredRolesRule(e: z.infer<typeof envSchema>): readonly UserRole[] {
  const given = e.MFA_REQUIRED_ROLES;
  if (given === undefined) return e.PUBLIC_ORIGIN === undefined ? [] : deploymentMfaRoles;
  return given[0] === 'none' ? [] : [...new Set(given as UserRole[])];
}

/**
 * The demo accounts' passwords are published (README, the start-up banner), so a deployment
 * (PUBLIC_ORIGIN set) gets none unless SEED_DEMO_ACCOUNTS=true asks for them (a public demo,
 * which the banner and the log then call out); a local run gets them unless told otherwise.
 */
function seedDemoAccountsRule(e: z.infer<typeof envSchema>): boolean {
  return e.SEED_DEMO_ACCOUNTS ?? e.PUBLIC_ORIGIN === undefined;
}

/**
 * STORAGE=s3 needs S3_BUCKET, and the access key id and secret both or neither; S3_* settings
 * without STORAGE=s3 are a mistake (files would silently stay on the local disk). Path-style
 * addressing defaults to on with S3_ENDPOINT (MinIO, Ceph) and off without (AWS).
 */
function storageRule(e: z.infer<typeof envSchema>): Pick<Config, 'storage' | 's3'> {
  const problems: string[] = [];
  const s3Names = [
    'S3_ENDPOINT',
    'S3_BUCKET',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
    'S3_PREFIX',
  ] as const;
  // With a CDN bucket the connection settings are in use even when files stay local (cdnRule).
  const cdnConnection: readonly string[] = e.CDN_S3_BUCKET === undefined ? [] : cdnConnectionNames;
  if (e.STORAGE === 'local') {
    const set = s3Names.filter((name) => e[name] !== undefined && !cdnConnection.includes(name));
    if (set.length > 0)
      problems.push(
        `  STORAGE="local" with ${set.join(', ')} set: set STORAGE=s3 to keep files in the bucket, or unset ${set.join(', ')}`,
      );
  } else {
    if (e.S3_BUCKET === undefined) problems.push('  S3_BUCKET is required when STORAGE=s3');
    if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing = e.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
      problems.push(
        `  ${missing} is required with ${missing === 'S3_ACCESS_KEY_ID' ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} (set both, or neither to use the AWS SDK's own credentials)`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid server configuration:\n${problems.join('\n')}`);
  if (e.STORAGE === 'local' || e.S3_BUCKET === undefined) return { storage: 'local', s3: undefined };
  const prefix = e.S3_PREFIX === undefined ? '' : e.S3_PREFIX.endsWith('/') ? e.S3_PREFIX : `${e.S3_PREFIX}/`;
  return {
    storage: 's3',
    s3: {
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
      prefix,
      timeoutMs: e.S3_TIMEOUT_MS,
    },
  };
}

/** The S3_* settings a CDN bucket is reached with, whatever STORAGE says. */
const cdnConnectionNames = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;

/**
 * CDN_S3_BUCKET is reached with the object store's connection settings. With STORAGE=s3 those are
 * there already; with STORAGE=local it needs S3_ENDPOINT or an explicit S3_REGION (the default
 * us-east-1 is not assumed to be meant) and the key pair both or neither. The CDN bucket is served
 * to everyone, so it must not be the private bucket of STORAGE=s3. CDN_S3_PREFIX needs a bucket.
 */
function cdnRule(e: z.infer<typeof envSchema>, regionGiven: boolean, s3: S3Config | undefined): S3Config | undefined {
  const problems: string[] = [];
  if (e.CDN_S3_BUCKET === undefined) {
    if (e.CDN_S3_PREFIX !== undefined)
      problems.push('  CDN_S3_PREFIX is set without CDN_S3_BUCKET: set the CDN bucket, or unset CDN_S3_PREFIX');
  } else if (s3 !== undefined) {
    if (e.CDN_S3_BUCKET === s3.bucket) {
      problems.push(
        `  CDN_S3_BUCKET="${e.CDN_S3_BUCKET}" is S3_BUCKET: the CDN bucket is served to everyone and S3_BUCKET holds the certification files; give the CDN a bucket of its own`,
      );
    }
  } else {
    if (e.S3_ENDPOINT === undefined && !regionGiven) {
      problems.push(
        '  CDN_S3_BUCKET needs the object store connection settings: S3_ENDPOINT (the service URL; unset for AWS S3) or S3_REGION (the bucket region), ' +
          'with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or neither, for the AWS SDK credential chain) and S3_FORCE_PATH_STYLE if needed',
      );
    }
    if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing = e.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
      problems.push(
        `  ${missing} is required with ${missing === 'S3_ACCESS_KEY_ID' ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} for CDN_S3_BUCKET (set both, or neither to use the AWS SDK's own credentials)`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid server configuration:\n${problems.join('\n')}`);
  if (e.CDN_S3_BUCKET === undefined) return undefined;
  const prefix =
    e.CDN_S3_PREFIX === undefined ? '' : e.CDN_S3_PREFIX.endsWith('/') ? e.CDN_S3_PREFIX : `${e.CDN_S3_PREFIX}/`;
  return {
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    bucket: e.CDN_S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    prefix,
    timeoutMs: e.S3_TIMEOUT_MS,
  };
}

/**
 * /metrics needs a guard, so it is served only with METRICS_TOKEN or on METRICS_PORT; a
 * METRICS_PORT that is PORT would put it on the public listener unguarded; with METRICS_ENABLED=false
 * there is nothing to serve.
 */
function metricsRule(
  e: z.infer<typeof envSchema>,
): Pick<Config, 'metricsToken' | 'metricsPort' | 'metricsHost' | 'metricsEnabled'> {
  const problems: string[] = [];
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    problems.push(`  METRICS_PORT=${e.METRICS_PORT} is PORT: give the metrics listener a port of its own`);
  if (!e.METRICS_ENABLED) {
    const set = (['METRICS_TOKEN', 'METRICS_PORT'] as const).filter((name) => e[name] !== undefined);
    if (set.length > 0)
      problems.push(
        `  METRICS_ENABLED=false with ${set.join(', ')} set: nothing is measured to serve; unset METRICS_ENABLED or ${set.join(', ')}`,
      );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid server configuration:\n${problems.join('\n')}`);
  return {
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST ?? e.HOST,
    metricsEnabled: e.METRICS_ENABLED,
  };
}

/** Reads and validates the configuration from `env` (blank values count as unset). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((name) => [name, env[name]?.trim()])
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '?');
      // A secret's value stays out of the message (it is printed and logged at start).
      const shown = secretVariables.has(name) ? '[hidden]' : JSON.stringify(present[name] ?? '');
      return `  ${name}=${shown}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid server configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const bankProvider = bankProviderRule(e);
  const storage = storageRule(e);
  const cdn = cdnRule(e, present['S3_REGION'] !== undefined, storage.s3);
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    staticDir: path.resolve(e.STATIC_DIR),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
    cookieSecure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true' ? 'always' : 'never',
    trustProxy: e.TRUST_PROXY,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    staffSessionIdleMinutes: e.STAFF_SESSION_IDLE_MINUTES,
    staffPasswordMaxAgeDays: e.STAFF_PASSWORD_MAX_AGE_DAYS,
    sessionAbsoluteHours: e.SESSION_ABSOLUTE_HOURS,
    publicOrigin: e.PUBLIC_ORIGIN,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    uploadTimeoutMs: e.UPLOAD_TIMEOUT_MS,
    dbPoolMax: e.DB_POOL_MAX,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    seedDemoAccounts: seedDemoAccountsRule(e),
    smsHttpUrl: e.SMS_HTTP_URL,
    smsHttpKey: e.SMS_HTTP_KEY,
    smsHttpTimeoutMs: e.SMS_HTTP_TIMEOUT_MS,
    rebuildToken: e.REBUILD_TOKEN,
    rebuildTimeoutMinutes: e.REBUILD_TIMEOUT_MINUTES,
    workerStopSeconds: e.WORKER_STOP_SECONDS,
    siteBuildHeld: e.SITE_BUILD_HELD,
    sitePollSeconds: e.SITE_POLL_SECONDS,
    siteWorker: e.SITE_WORKER ?? (e.DATABASE_URL ? 'external' : 'embedded'),
    bankProvider,
    bankSandboxAllowed: e.BANK_SANDBOX_ALLOWED,
    bankTimeoutMs: e.BANK_TIMEOUT_MS,
    bankSandboxLatencyMs: e.BANK_SANDBOX_LATENCY_MS,
    bankSandboxSeed: e.BANK_SANDBOX_SEED,
    ...storage,
    cdn,
    appSecret: e.APP_SECRET,
    mfaRequiredRoles: mfaRequiredRolesRule(e),
    ...metricsRule(e),
  };
}

let cached: Config | undefined;

/** The process configuration, read on first use. */
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}
