/** Types shared by the app, its middleware and its routes. */
import type { Locale } from '../lib/i18n/index.ts';
import type { BankProvider } from './bank/provider.ts';
import type { Config } from './config.ts';
import type { Database, DatabaseKind } from './db/client.ts';
import type { FieldCipher } from './fieldEncryption.ts';
import type { UserRole, UserStatus } from './db/schema/index.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Logger } from './logger.ts';
import type { MetricsRegistry } from './metrics/registry.ts';
import type { KeySource } from './secrets.ts';
import type { BuildCommand } from './site/buildCommand.ts';
import type { Publication, PublishedSite } from './site/servedSite.ts';
import type { SitePublisher } from './site/sitePublisher.ts';
import type { SiteRebuilder } from './site/rebuild.ts';
import type { Drain } from './shutdown.ts';
import type { SmsProvider } from './sms/provider.ts';
import type { ObjectStore } from './storage/objectStore.ts';
import type { SecondFactorDemand } from '../lib/schemas/secondFactor.ts';

/** What the app is built from; tests pass their own (in-memory database, silent logger). */
export interface AppDeps {
  db: Database;
  config: Config;
  logger: Logger;
  /**
   * What /metrics serves (metrics/registry.ts): the app adds its own parts' instruments to it. The
   * server passes the one its METRICS_PORT listener serves too; omitted: one made for this app.
   */
  metrics?: MetricsRegistry;
  /** The Astro build output to serve; omitted in the dev server (Astro serves pages there). */
  staticDir?: string;
  /** Reported by /api/health; derived from config.databaseUrl when omitted. */
  dbKind?: DatabaseKind;
  /** The SMS gateway; omitted means the outbox provider on `db` (sms/provider.ts). */
  sms?: SmsProvider;
  /**
   * What is served until a publication says otherwise; omitted means `staticDir` with CONTENT_DIR.
   * Ignored when `publisher` is given (the server's, which chose it at start: site/sitePublisher.ts).
   */
  publication?: Publication;
  /** Which build every process serves (site/sitePublisher.ts); omitted means one made for this app. */
  publisher?: SitePublisher;
  /**
   * The job queue (jobs/queue.ts); omitted means one made for this app on `db`, started by its
   * first job (the server passes its own, started at once and stopped at shutdown).
   */
  jobs?: JobQueue;
  /** The site builds' command (`astro build` by default; tests inject a fast one). */
  siteBuild?: { command?: BuildCommand };
  /**
   * Rebuild the published content at once (the server: its STATIC_DIR is a new release built
   * from other content than the database publishes). Another process already rebuilding is fine.
   */
  rebuildAtStart?: boolean;
  /**
   * The bank of USB-key certification; omitted means the one BANK_PROVIDER names
   * (bank/fromConfig.ts); null means none (USB-key certification not offered).
   */
  bank?: BankProvider | null;
  /**
   * Where uploaded files are kept (storage/objectStore.ts); omitted means the one STORAGE names
   * (storage/fromConfig.ts). The server passes the runtime's, checked at start.
   */
  objects?: ObjectStore;
  /**
   * The server's keys (secrets.ts); the server passes those it loaded at start. Omitted: read
   * from APP_SECRET or the database on first use.
   */
  keys?: KeySource;
  /** The server's shutdown drain (shutdown.ts): /api/health/ready answers 503 once it began. */
  drain?: Drain;
}

/** What route modules receive: AppDeps with every default filled in. */
export type RouteDeps = AppDeps & {
  sms: SmsProvider;
  site: PublishedSite;
  publisher: SitePublisher;
  /** Builds, publishes, previews and rolls back the site (the studio and the token calls). */
  rebuilder: SiteRebuilder;
  jobs: JobQueue;
  /** Null with BANK_PROVIDER=none: USB-key certification is not offered. */
  bank: BankProvider | null;
  objects: ObjectStore;
  keys: KeySource;
  /** Seals and opens the encrypted columns (fieldEncryption.ts). */
  cipher: FieldCipher;
};

/** The logged-in user as the request sees it (never the password hash). */
export interface SessionUser {
  id: number;
  userName: string;
  name: string;
  mobile: string;
  email: string;
  avatar: string;
  roles: UserRole[];
  status: UserStatus;
  /** The name of the enterprise the user owns, '' when none: read with the session (currentUser shows it). */
  enterpriseName: string;
  /** The versions of the legal documents last agreed to (users.agreed_versions), for currentUser's `consentOwed`. */
  agreedVersions: Partial<Record<string, string>>;
}

export interface SessionState {
  /** sha256 hex of the cookie token (the sessions table's primary key). */
  id: string;
  userId: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  /** When this session proved a second factor (login's second step, or enrolling one); null: never. */
  secondFactorAt: Date | null;
}

/** What request handlers log with. */
export type RequestLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface AppVariables {
  requestId: string;
  locale: Locale;
  /** The request's logger: its lines carry the request id (middleware/requestLog.ts). */
  log: RequestLogger;
  session: SessionState | null;
  user: SessionUser | null;
  /**
   * Set when the user's role requires a second factor (MFA_REQUIRED_ROLES) and this session has
   * not proved one: `enrol` (the account has none yet) or `verify`, and the account's own roles;
   * `user.roles` lacks the required ones until it does (so every role check sees them missing).
   */
  secondFactorDemand: { demand: SecondFactorDemand; accountRoles: UserRole[] } | null;
}

export interface AppEnv {
  Variables: AppVariables;
}

/** The environment after `requireSession`: a user is present. */
export interface AuthedEnv {
  Variables: AppVariables & { session: SessionState; user: SessionUser };
}
