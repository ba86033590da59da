/**
 * Every environment variable's documentation, in one place: the server's (config.ts's envSchema,
 * keyed by its names so the type checker refuses a variable without documentation) and the few
 * that other parts read (the site build, the tests). scripts/config-docs.ts writes the README's
 * table, docs/api-plumbing.md's list and .env.example from this; `npm run check` fails when one of
 * them is stale.
 *
 * Links are written relative to the repository's root (`docs/deployment.md#the-cdn`); each
 * document gets them relative to itself.
 */
import type { envSchema } from './config.ts';

export type ServerVariable = keyof typeof envSchema.shape;

/** The groups of the generated documents, in their order. */
export const groups = {
  server: 'Server',
  database: 'Database',
  storage: 'Object storage and the CDN',
  security: 'Security and accounts',
  site: 'Site builds and the worker',
  metrics: 'Metrics',
  sms: 'SMS',
  bank: 'Bank (USB-key certification)',
  build: 'Build time',
  tests: 'Tests and benchmarks',
} as const;

export type Group = keyof typeof groups;

export interface VariableDoc {
  group: Group;
  /**
   * The default as a reader should see it (Markdown). Omitted: the schema's own default, or "—"
   * when it has none. Needed where the default is a rule (`sandbox` locally; `none` when…).
   */
  default?: string;
  /** One line: what the variable is (Markdown), for .env.example and docs/api-plumbing.md. */
  summary: string;
  /** What an operator must know beyond the summary (Markdown); the README shows summary and details. */
  details?: string;
  /** For docs/api-plumbing.md only: which modules read it and how (Markdown). */
  code?: string;
}

export const serverVariables: Record<ServerVariable, VariableDoc> = {
  HOST: {
    group: 'server',
    summary: 'the address the server listens on (`0.0.0.0` for every interface)',
  },
  PORT: { group: 'server', summary: 'the port the server listens on' },
  STATIC_DIR: { group: 'server', summary: 'the built site the server serves' },
  LOG_LEVEL: { group: 'server', summary: 'pino log level (`silent` in tests)' },
  BODY_LIMIT_BYTES: {
    group: 'server',
    default: '1 MiB',
    summary: 'the largest JSON or form body a call takes (413 beyond)',
  },
  UPLOAD_LIMIT_BYTES: {
    group: 'server',
    default: '11 MiB',
    summary: 'the largest body of a file upload call (413 beyond): a 10 MB file and its form',
    code: '`uploadPaths` in middleware/bodyLimit.ts; other calls keep BODY_LIMIT_BYTES',
  },
  REQUEST_TIMEOUT_MS: {
    group: 'server',
    summary:
      'the time an `/api` call has to start its answer; past it HTTP 503 `api.timeout` and the server goes on serving others',
    details: '([docs/security.md](docs/security.md))',
    code: 'middleware/requestBudget.ts',
  },
  UPLOAD_TIMEOUT_MS: {
    group: 'server',
    summary: 'the same for the upload calls, whose body may arrive slowly from a phone',
    code: '`uploadPaths`',
  },
  SHUTDOWN_DRAIN_SECONDS: {
    group: 'server',
    summary:
      'on SIGTERM the server serves on this long while `/api/health/ready` answers 503, so the load balancer stops sending users before it closes',
    details: '([docs/deployment.md](docs/deployment.md#health-checks))',
    code: 'main.ts close(): then it stops accepting connections and lets the open requests finish',
  },

  DATA_DIR: {
    group: 'database',
    summary: 'the embedded PGlite database directory; with `STORAGE=local` also the uploaded files',
    details:
      '**Durability:** PGlite survives a killed process (measured: 0 of ~700 000 acknowledged writes lost to `kill -9`) but never fsyncs, so an operating-system crash or a power loss can lose recent commits; `npm start` says so when it runs without demo data or with `PUBLIC_ORIGIN`. Use PostgreSQL for production',
    code: 'PGlite in `DATA_DIR/pglite`, uploads in `DATA_DIR/uploads`, builds in `DATA_DIR/site`',
  },
  DATABASE_URL: {
    group: 'database',
    default: '— (embedded PGlite)',
    summary: 'a PostgreSQL server (`postgres://…`); when set, PGlite is not used. The production store',
    code: 'db/client.ts (postgres-js)',
  },
  DB_POOL_MAX: {
    group: 'database',
    summary: 'PostgreSQL connections per process',
    details: "N processes × this must stay below the server's `max_connections`",
  },
  DB_STATEMENT_TIMEOUT_MS: {
    group: 'database',
    summary: 'a statement running longer is cancelled (advisory on PGlite)',
    code: "PostgreSQL's `statement_timeout` (db/client.ts)",
  },
  DB_CONNECT_TIMEOUT_MS: {
    group: 'database',
    summary: 'a PostgreSQL connection not made in this long fails; the API answers 503 `api.busy`',
    code: 'db/client.ts; the configuration check waits as long',
  },

  STORAGE: {
    group: 'storage',
    summary:
      'where uploaded certification files (and site builds) are kept: `local` (`DATA_DIR`) or `s3`, a bucket of any S3-compatible service (AWS S3, Aliyun OSS, MinIO, Ceph RGW)',
    details:
      'The bucket is needed when API processes run on more than one machine. `S3_*` settings set without `STORAGE=s3` stop the start (files would silently stay on one disk), but for the connection settings (`S3_ENDPOINT`, the key pair, `S3_FORCE_PATH_STYLE`) when `CDN_S3_BUCKET` uses them. Checked at start (a missing bucket, refused credentials or an endpoint that does not answer stop it, naming the variable to change). Services, permissions and moving existing files: [docs/deployment.md](docs/deployment.md#object-storage)',
    code: 'storage/fromConfig.ts',
  },
  S3_ENDPOINT: {
    group: 'storage',
    default: '— (AWS S3 for `S3_REGION`)',
    summary: "the S3-compatible service's URL, `http(s)://host[:port]`; unset for AWS S3",
    code: '`npm run bucket-sync` (backups, docs/operations.md) reaches its buckets with this, S3_REGION, the key pair and S3_FORCE_PATH_STYLE',
  },
  S3_REGION: { group: 'storage', summary: "the region the requests are signed for (the bucket's, on AWS)" },
  S3_BUCKET: {
    group: 'storage',
    summary: 'the bucket of `STORAGE=s3` (required with it); must not be public',
    details: 'S3 naming rules: 3–63 lower-case letters, digits, `.`, `-`',
  },
  S3_ACCESS_KEY_ID: {
    group: 'storage',
    summary: "the object store's access key id: both it and `S3_SECRET_ACCESS_KEY`, or neither",
    details: "Neither: the AWS SDK's own chain (`AWS_ACCESS_KEY_ID`…, `AWS_PROFILE`, an EC2/ECS/EKS role)",
  },
  S3_SECRET_ACCESS_KEY: {
    group: 'storage',
    summary: 'the secret of `S3_ACCESS_KEY_ID`; never logged nor echoed in a configuration error',
  },
  S3_FORCE_PATH_STYLE: {
    group: 'storage',
    default: '`true` with `S3_ENDPOINT`, else `false`',
    summary:
      'path-style addressing, `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO, Ceph RGW, s3rver); `false` for AWS and Aliyun OSS',
  },
  S3_PREFIX: {
    group: 'storage',
    summary: 'put before every key (`portal` → `portal/uploads/…`), so one bucket can hold several installs',
  },
  S3_TIMEOUT_MS: {
    group: 'storage',
    summary:
      "each object-store call's deadline, retries included, plus one second per MiB it sends; past it the call fails and the API answers 503 `api.busy`",
    code: 'storage/s3Store.ts; the configuration check gives the bucket as long',
  },
  CDN_S3_BUCKET: {
    group: 'storage',
    summary:
      'a bucket a CDN serves the site from: every successful rebuild (and rollback) uploads its `dist/` there before it is published',
    details:
      'Hashed assets immutable, HTML `no-cache`, `.br`/`.gz` copies with their `Content-Encoding`, pages last. Reached with the `S3_*` connection settings above, also with `STORAGE=local` (then `S3_ENDPOINT` or `S3_REGION` is required); never the same bucket as `S3_BUCKET`. Checked at start like `S3_BUCKET`. Edge rules, cache headers, purge: [docs/deployment.md](docs/deployment.md#the-cdn)',
    code: "site/cdn.ts, with static.ts's Content-Type and Cache-Control; a failed upload fails the rebuild (rollback: 503 `rebuild.cdnFailed`)",
  },
  CDN_S3_PREFIX: {
    group: 'storage',
    summary: 'put before every key in the CDN bucket (`www` → `www/welcome/home/index.html`); needs `CDN_S3_BUCKET`',
    details: "Point the CDN's origin path at it",
  },

  PUBLIC_ORIGIN: {
    group: 'security',
    summary: 'the public origin behind a proxy (`https://portal.example.com`): CSRF check, canonical URLs at build',
    details:
      'Setting it says this is a deployment: by default no demo account is seeded, the sandbox bank is off and privileged roles need two-step verification (below)',
    code: "middleware/csrf.ts accepts it besides the request's own origin; astro.config.mjs reads it at build",
  },
  TRUST_PROXY: {
    group: 'security',
    summary: 'believe `X-Forwarded-For`/`-Proto`/`-Host` (only behind a proxy that sets them)',
  },
  COOKIE_SECURE: {
    group: 'security',
    summary: "the session cookie's `Secure`: `auto` (when the request is https), `true`, `false`",
  },
  SESSION_IDLE_MINUTES: { group: 'security', summary: 'a session unused this long ends' },
  STAFF_SESSION_IDLE_MINUTES: {
    group: 'security',
    summary:
      "a staff account's session (administrator, operator, editor, auditor, partner staff) unused this long ends: 等保 2.0 level 3 asks a short idle timeout of privileged users ([docs/privacy.md](docs/privacy.md))",
  },
  STAFF_PASSWORD_MAX_AGE_DAYS: {
    group: 'security',
    summary:
      'a staff password older than this many days must be replaced (by SMS, 忘记密码) before the account signs in again; `0`: never expires ([docs/accounts.md](docs/accounts.md), Staff passwords)',
  },
  SESSION_ABSOLUTE_HOURS: { group: 'security', summary: 'a session ends this long after sign-in, used or not' },
  APP_SECRET: {
    group: 'security',
    default: '— (generated once, kept in the database)',
    summary:
      "the root of the server's keys (captcha answers, second-factor secrets, recovery codes, the audit chain's HMAC), ≥ 32 characters (`openssl rand -base64 32`)",
    details:
      'Refused at start if shorter; never logged. Unset: 32 random bytes are generated by the first process and kept in the database (`server_secrets`), so every process of a deployment uses the same keys. Changing it makes pending captchas, enrolled second factors and recovery codes unreadable ([docs/accounts.md](docs/accounts.md#two-step-verification)), and the audit chain unverifiable with the new value ([docs/privacy.md](docs/privacy.md#the-audit-chain))',
    code: 'secrets.ts; hidden in configuration errors',
  },
  MFA_REQUIRED_ROLES: {
    group: 'security',
    default: 'none locally; `operator,editor,partner` when `PUBLIC_ORIGIN` is set',
    summary:
      'accounts holding one of these roles (comma list of `operator`, `editor`, `partner`, `enterprise`, `individual`; `none` for nobody) must have two-step verification',
    details:
      'Until their session has proved it, every role-guarded call answers 403 and the page says to enrol (or verify) in account settings. Locally the demo accounts log in with their passwords alone ([docs/accounts.md](docs/accounts.md#required-for-privileged-roles))',
    code: 'middleware/session.ts requireRole; an unknown role stops the start',
  },
  SEED_DEMO_ACCOUNTS: {
    group: 'security',
    default: '`true` locally; `false` when `PUBLIC_ORIGIN` is set',
    summary: 'seed the demo accounts (their passwords are in the README) into an empty database',
    details:
      '`true` with `PUBLIC_ORIGIN` seeds them anyway — a public demo — and the start-up banner and the log warn that their passwords are public; a deployment whose database still has demo accounts opening with those passwords gets their names in the banner at every start',
  },

  REBUILD_TOKEN: {
    group: 'site',
    summary:
      'bearer token of the automation call `POST /api/admin/site/rebuild` (publishes every pending draft) and its history/rollback calls (≥ 32 characters)',
    details: 'Unset disables them (the studio needs no token)',
    code: 'routes/siteAdmin.ts; unset: the calls answer 404; hidden in configuration errors',
  },
  REBUILD_TIMEOUT_MINUTES: {
    group: 'site',
    summary: "an editors' rebuild running longer is stopped and recorded as failed",
  },
  SITE_WORKER: {
    group: 'site',
    default: '`embedded` on PGlite, `external` with `DATABASE_URL`',
    summary:
      "who runs the job queue's jobs (site builds, scheduled publications): this process (`embedded`) or `npm run worker` processes (`external`)",
    details: '([docs/deployment.md](docs/deployment.md#jobs-and-the-worker))',
    code: 'jobs/worker.ts',
  },
  SITE_POLL_SECONDS: {
    group: 'site',
    summary:
      'how often each process checks which build is published, besides the database notification (a missed one is caught this late)',
    code: 'site/sitePublisher.ts',
  },
  SITE_BUILD_HELD: {
    group: 'site',
    summary:
      'the process that runs builds keeps one `astro build` started ahead, its code bundled, so that a publication skips its start (about 4 s); `false` on a machine that cannot spare the 0.8 GB it keeps resident',
    code: 'site/buildCommand.ts (content/heldBuild.ts)',
  },
  WORKER_STOP_SECONDS: {
    group: 'site',
    summary:
      '`npm run worker` on SIGTERM lets its running job go on this long, then hands it back to the queue so another worker retries it',
    code: 'worker.ts (jobs/queue.ts stop)',
  },

  METRICS_TOKEN: {
    group: 'metrics',
    summary:
      "bearer token of `GET /metrics` (Prometheus text) on the API's port (≥ 32 random characters, `openssl rand -hex 32`); unset: no `/metrics` there (404)",
    details:
      'Also asked for on `METRICS_PORT` when both are set; never logged. [docs/deployment.md](docs/deployment.md#metrics)',
    code: 'metrics/endpoint.ts; hidden in configuration errors',
  },
  METRICS_PORT: {
    group: 'metrics',
    summary: "a listener of its own serving only `/metrics`, for a private network; the worker's only listener",
    details: 'Not `PORT`; give each process on one machine its own',
  },
  METRICS_HOST: {
    group: 'metrics',
    default: '`HOST`',
    summary: 'the interface `METRICS_PORT` listens on (e.g. a private address)',
  },
  METRICS_ENABLED: {
    group: 'metrics',
    summary:
      '`false`: measure nothing per request, session check or statement, and serve nothing; only to measure what metrics cost (`npm run bench -- metrics`)',
    details: 'Refused with `METRICS_TOKEN` or `METRICS_PORT`',
    code: 'metrics/instruments.ts',
  },

  SMS_HTTP_URL: {
    group: 'sms',
    default: '— (the outbox)',
    summary: 'an SMS gateway (`https://…`): verification codes are POSTed to it as JSON',
    details:
      "Unset → the outbox provider (table `sms_outbox`, and the message on the server's terminal when it has one; no log line holds the code), for local runs. The request: [docs/api-plumbing.md](docs/api-plumbing.md#sms-providers)",
    code: 'sms/http.ts',
  },
  SMS_HTTP_KEY: {
    group: 'sms',
    summary: "the gateway's key, sent as `Authorization: Bearer …`; never logged",
    code: 'hidden in configuration errors',
  },
  SMS_HTTP_TIMEOUT_MS: {
    group: 'sms',
    summary: 'how long to wait for the gateway before the send fails (503 `sms.sendFailed`)',
  },

  BANK_PROVIDER: {
    group: 'bank',
    default: '`sandbox` locally; `none` when `PUBLIC_ORIGIN` is set',
    summary: 'the bank behind USB-key certification: `sandbox` or `none`',
    details:
      '`sandbox` is **demo mode**: the local stand-in bank (deterministic accounts and keys, demo PIN `123456`, and `POST /api/sandbox/icbc/usbkey/sign` as the key) — anyone who knows the PIN certifies an enterprise held under a sandbox account\'s name; the start-up banner and the USB-key page say so. `none`: USB-key certification is not offered (its calls answer 409 U盾认证未开通, `/api/sandbox/…` is 404, the page says "not available"). `BANK_PROVIDER=sandbox` together with `PUBLIC_ORIGIN` refuses to start unless `BANK_SANDBOX_ALLOWED=true`. A real bank needs its own provider: [docs/enterprises.md](docs/enterprises.md)',
    code: 'bank/fromConfig.ts; `none`: 409 `bank.error.notEnabled`, `/api/sandbox/*` unmounted',
  },
  BANK_SANDBOX_ALLOWED: {
    group: 'bank',
    summary:
      '`true`: allow `BANK_PROVIDER=sandbox` with `PUBLIC_ORIGIN` set — a public demo, run knowingly (it only allows the sandbox; it does not choose it)',
  },
  BANK_TIMEOUT_MS: { group: 'bank', summary: 'a bank call that takes longer is abandoned: 503, nothing changed' },
  BANK_SANDBOX_LATENCY_MS: { group: 'bank', summary: 'how long each sandbox bank call takes' },
  BANK_SANDBOX_SEED: {
    group: 'bank',
    summary:
      "the sandbox derives each account's USB-key signing key from it (≥ 16 characters; demo only, not a secret)",
  },
};

/** A variable some other part reads from its environment; `readBy` says which. */
export interface OtherVariableDoc extends Omit<VariableDoc, 'default'> {
  group: 'build' | 'tests';
  /** Who reads it (Markdown): a command and the module. */
  readBy: string;
  default: string;
}

export const otherVariables: Record<string, OtherVariableDoc> = {
  CONTENT_DIR: {
    group: 'build',
    readBy: '`npm run build` and the server (src/content/load.ts)',
    default: '`src/content`',
    summary: "the content files that seed an empty database's content and that `npm run build` reads",
    details:
      'Afterwards editors change the content in the studio at `/studio` (see [docs/editing-content.md](docs/editing-content.md)); a rebuild sets it to its snapshot of the content',
  },
  PWA: {
    group: 'build',
    readBy: '`npm run build` (src/lib/layoutSettings.ts)',
    default: '`false`',
    summary: "`true` turns on the spec's offline mode (`pwa` layout setting)",
    details:
      'A service worker keeps visited pages, warns when offline and offers a refresh when a new build is published; off, pages unregister any old worker',
  },
  BUILD_ID: {
    group: 'build',
    readBy: '`npm run build` (src/pages/sw.js.ts)',
    default: "the build's start time",
    summary: 'the id baked into the service worker (a new id is how browsers notice a new build)',
  },
  BUILD_LOCALES: {
    group: 'build',
    readBy: '`npm run build` (src/lib/i18n/locales.ts)',
    default: 'every locale',
    summary: 'a comma list of the locales to build pages for (the tests build two to be quicker)',
  },
  CHROMIUM_PATH: {
    group: 'tests',
    readBy: 'the browser tests (scripts/chromium.ts)',
    default: '`/usr/bin/chromium`',
    summary: 'the browser the browser tests drive',
  },
  TEST_DATABASE_URL: {
    group: 'tests',
    readBy: 'the API and cluster tests (tests/api/harness.ts, scripts/postgres.ts)',
    default: '—',
    summary: 'run the API tests against this PostgreSQL server instead of PGlite',
    details: 'The cluster test makes a fresh database on it instead of starting its own server',
  },
  LAYOUT_SCREENSHOTS: {
    group: 'tests',
    readBy: 'tests/e2e/layout.spec.ts',
    default: '—',
    summary:
      'a directory the layout browser test also saves its screenshots into (five pages, zh-CN and id-ID, 390 and 1280 px)',
    details: '([docs/orders-ui.md](docs/orders-ui.md#phones))',
  },
  BENCH_DIST: {
    group: 'tests',
    readBy: '`npm run bench -- js`',
    default: '—',
    summary: 'measure this build directory instead of building and measuring `dist/`',
  },
};
