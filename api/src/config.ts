import Joi from 'joi';
import { checkDatabaseUrl } from './db/databaseUrlSetting.js';

/**
 * Every environment variable the broker reads, in one schema. A bad value fails at boot with
 * a message naming the variable, never later at request time. Deployment code reads
 * `envSchema.describe()` so that its wiring cannot drift from what the broker accepts.
 */
export const envSchema = Joi.object({
  PORT: Joi.number().port().default(8080).description('HTTP port'),
  // Loopback unless told otherwise: a broker started on a laptop is not open to its network. The
  // container image, Docker Compose and the Pulumi program set 0.0.0.0 themselves.
  HOST: Joi.string().default('127.0.0.1').description('Interface to listen on (0.0.0.0: every interface)'),
  DATABASE_URL: Joi.string()
    .custom(checkDatabaseUrl)
    .description(
      "PostgreSQL connection string, one host or several (libpq's multi-host form, target_session_attrs read-write, primary or prefer-standby); unset = embedded PostgreSQL in MINIQUEUE_DATA_DIR",
    ),
  MINIQUEUE_DATA_DIR: Joi.string().default('./.miniqueue').description('Data directory of the embedded PostgreSQL'),
  MINIQUEUE_DB_POOL_SIZE: Joi.number().integer().min(2).max(200).default(10).description('Connections in the pool'),
  MINIQUEUE_DB_CONNECTION_WAIT_SECONDS: Joi.number()
    .min(0.1)
    .max(60)
    .default(5)
    .description('How long a request waits for a free database connection before it is answered 503'),
  MINIQUEUE_DB_LOCK_TIMEOUT_SECONDS: Joi.number()
    .min(0.1)
    .max(600)
    .default(10)
    .description('How long a statement in a transaction waits for a lock before the transaction fails (503)'),
  MINIQUEUE_DB_STARTUP_RETRY_SECONDS: Joi.number()
    .min(0)
    .max(3600)
    .default(60)
    .description(
      'How long a starting instance keeps trying, with backoff, while the database takes no connection (at its connection limit, starting up, unreachable) before it exits; 0 tries once',
    ),
  MINIQUEUE_BOOTSTRAP_ADMIN_KEY: Joi.string()
    .pattern(/^mq_[A-Za-z0-9_-]{43,200}$/)
    .description('Key of the bootstrap-admin client (mq_ + at least 43 base64url characters)'),
  MINIQUEUE_MAX_PAYLOAD_BYTES: Joi.number()
    .integer()
    .min(1)
    .max(8 * 1024 * 1024)
    .default(262144)
    .description('Largest payload, in UTF-8 bytes'),
  MINIQUEUE_SWEEP_INTERVAL_SECONDS: Joi.number().integer().min(1).max(60).default(1).description('How often expired leases are returned to their queues'),
  MINIQUEUE_IDEMPOTENCY_TTL_HOURS: Joi.number()
    .integer()
    .min(1)
    .max(24 * 7)
    .default(24)
    .description('How long an Idempotency-Key is remembered'),
  MINIQUEUE_ACKED_RETENTION_HOURS: Joi.number()
    .integer()
    .min(0)
    .max(8760)
    .default(24)
    .description('Hours acked messages are kept (listing, history); 0 keeps none. A queue may set its own'),
  MINIQUEUE_DEAD_RETENTION_HOURS: Joi.number()
    .integer()
    .min(0)
    .max(87600)
    .default(0)
    .description('Hours dead letters are kept before they are deleted; 0 keeps them until replayed, deleted or purged'),
  MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS: Joi.number().integer().min(1).max(300).default(25).description('Grace period for in-flight requests on SIGTERM'),
  MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS: Joi.number()
    .integer()
    .min(1)
    .max(600)
    .default(10)
    .description('Time a client has, from connecting (or from the end of its previous request), to send a request line and headers'),
  MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS: Joi.number()
    .integer()
    .min(1)
    .max(3600)
    .default(30)
    .description('Time a client has to send a whole request, body included; waiting for the answer (a long poll) does not count'),
  MINIQUEUE_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: Joi.number()
    .integer()
    .min(1)
    .max(600)
    .default(5)
    .description('How long an idle keep-alive connection stays open between requests'),
  MINIQUEUE_LONG_POLLS_PER_CREDENTIAL: Joi.number()
    .integer()
    .min(1)
    .max(100_000)
    .default(100)
    .description('Long polls (consume or receive with wait_seconds > 0) one credential may have waiting at once, per instance; more is 429'),
  MINIQUEUE_GROUP_COMMIT_MAX_WAITING: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .default(20_000)
    .description(
      'Requests of one kind (single publishes, claims, acks, nacks) that may wait for a group-commit slot, per instance; more is 503 with Retry-After',
    ),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  CORS_ALLOWED_ORIGINS: Joi.string()
    .allow('')
    .default('http://localhost:5173,http://localhost:8080')
    // An origin is scheme://host[:port]: one with a path or a trailing slash would never match.
    .pattern(/^\s*((\*|https?:\/\/[^/\s,]+)\s*(,\s*|$))*$/)
    .messages({ 'string.pattern.base': '{#label} must be comma-separated origins like https://dashboard.example.com (no path), or *' })
    .description('Comma-separated browser origins allowed to call the API and open WebSockets'),
  GITHUB_CLIENT_ID: Joi.string().description('GitHub OAuth app client id (dashboard sign-in)'),
  GITHUB_CLIENT_SECRET: Joi.string().description('GitHub OAuth app client secret'),
  GITHUB_CALLBACK_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .description('Callback URL registered with the GitHub OAuth app'),
  GITHUB_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .description('GitHub Enterprise Server base URL, e.g. https://github.example.com (default: github.com)'),
  MINIQUEUE_DASHBOARD_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .description('Where sign-in returns to (default: this server)'),
  MINIQUEUE_ADMINS: Joi.string()
    .allow('')
    .default('')
    .pattern(/^\s*([A-Za-z0-9-]{1,39}\s*(,\s*|$))*$/)
    .messages({ 'string.pattern.base': '{#label} must be comma-separated GitHub logins (no @)' })
    .description('Comma-separated GitHub logins that get admin'),
  MINIQUEUE_PUBLIC_VIEWER: Joi.boolean().default(true).description('false: only admins may sign in'),
  MINIQUEUE_COMMIT: Joi.string().default('unknown').description('Deployed commit, shown by /actuator/info'),
  MINIQUEUE_RATE_LIMIT_ENABLED: Joi.boolean().default(true).description('false: no rate limiting at all'),
  MINIQUEUE_RATE_LIMIT_PER_SECOND: Joi.number()
    .positive()
    .max(1_000_000)
    .default(500)
    .description('Requests per second per credential (API key or session), per instance'),
  MINIQUEUE_RATE_LIMIT_BURST: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .default(1000)
    .description('Requests a credential may make at once before the per-second rate applies'),
  MINIQUEUE_RATE_LIMIT_ANONYMOUS_PER_SECOND: Joi.number()
    .positive()
    .max(1_000_000)
    .default(20)
    .description('Requests per second per client address to routes without a credential (sign-in, health), per instance'),
  MINIQUEUE_RATE_LIMIT_ANONYMOUS_BURST: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .default(100)
    .description('Burst of requests per client address to routes without a credential'),
  // Empty counts as unset: docker compose passes an optional variable left out of .env as ''.
  MINIQUEUE_PUSH_SECRET_KEY: Joi.string()
    .allow('')
    .pattern(/^[A-Za-z0-9_-]{43}=?$/)
    .messages({ 'string.pattern.base': '{#label} must be 32 random bytes in base64url (43 characters), e.g. from `openssl rand -base64 32 | tr +/ -_`' })
    .description("Key that encrypts push endpoints' signing secrets in the database (32 bytes, base64url); unset: push endpoints cannot be set"),
  MINIQUEUE_PUSH_PUBLIC: Joi.boolean().default(true).description('Push endpoints may be on public addresses; false: only in MINIQUEUE_PUSH_ALLOWED_NETWORKS'),
  MINIQUEUE_PUSH_ALLOWED_NETWORKS: Joi.string()
    .allow('')
    .default('')
    .pattern(/^\s*([0-9A-Fa-f.:]+\/\d{1,3}\s*(,\s*|$))*$/)
    .messages({ 'string.pattern.base': '{#label} must be comma-separated CIDR networks like 10.1.0.0/16 or fd00::/8' })
    .description('Comma-separated private, loopback or link-local networks push endpoints may be in (all such are refused otherwise)'),
  MINIQUEUE_PUSH_ALLOW_HTTP_LOOPBACK: Joi.boolean()
    .default(false)
    .description('Development: push endpoints may use http:// when they are on a loopback address (which must also be allowed)'),
  MINIQUEUE_PUSH_BACKOFF_SECONDS: Joi.number()
    .integer()
    .min(0)
    .max(900)
    .default(1)
    .description('Ceiling of the first wait after a failed push; it doubles per retry up to 900 s, with jitter'),
  MINIQUEUE_WS_MAX_SOCKETS_PER_CREDENTIAL: Joi.number()
    .integer()
    .min(1)
    .max(1_000_000)
    .default(100)
    .description('WebSockets one credential (API key or session) may hold open at once, per instance'),
  MINIQUEUE_STREAM_RESUME_GRACE_MS: Joi.number()
    .integer()
    .min(0)
    .max(300_000)
    .default(5000)
    .description('How long a stream whose connection broke keeps its unacked messages for the client to resume it; then they go back to their queues'),
  MINIQUEUE_STREAM_MAX_UNCONFIRMED: Joi.number()
    .integer()
    .min(1)
    .max(100_000)
    .default(1000)
    .description('Publishes one stream may have unconfirmed at once; beyond it the broker stops reading that stream until some commit'),
  MINIQUEUE_STREAM_TOTAL_QUEUED_BYTES: Joi.number()
    .integer()
    .min(1024 * 1024)
    .max(64 * 1024 * 1024 * 1024)
    .default(128 * 1024 * 1024)
    .description(
      'Bytes all streams of an instance together may have queued for their sockets and not yet written out (each stream has 1 MiB at most); past it no stream claims until some drains',
    ),
  MINIQUEUE_DB_STATEMENT_TIMEOUT_SECONDS: Joi.number()
    .min(0.1)
    .max(3600)
    .default(30)
    .description('Longest any one statement may run before PostgreSQL cancels it (the request is answered 503)'),
  MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS: Joi.number()
    .min(0.1)
    .max(600)
    .default(10)
    .description(
      'Longest a write waits for its commit (e.g. for a synchronous standby that is gone) before it is answered 503 with Retry-After; the outcome is then unknown (see docs/api-guide.md)',
    ),
  MINIQUEUE_DASHBOARD_DB_POOL_SIZE: Joi.number()
    .integer()
    .min(1)
    .max(50)
    .default(2)
    .description("Connections of the dashboard's own pool (its reads and the Prometheus gauges), on top of MINIQUEUE_DB_POOL_SIZE"),
  MINIQUEUE_DASHBOARD_STATEMENT_TIMEOUT_SECONDS: Joi.number()
    .min(0.1)
    .max(3600)
    .default(5)
    .description('Longest a dashboard read or a Prometheus gauge read may run (at most MINIQUEUE_DB_STATEMENT_TIMEOUT_SECONDS)'),
})
  .and('GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET')
  .custom((env, helpers) =>
    // Node refuses a header timeout longer than the request timeout it is part of.
    env.MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS > env.MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS
      ? helpers.message({ custom: 'MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS must not exceed MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS' })
      : env,
  )
  .custom((env, helpers) =>
    // Sign-in that nobody could complete is a mistake, not a setting.
    env.GITHUB_CLIENT_ID && env.MINIQUEUE_PUBLIC_VIEWER === false && !/[A-Za-z0-9]/.test(env.MINIQUEUE_ADMINS)
      ? helpers.message({ custom: 'MINIQUEUE_PUBLIC_VIEWER=false needs at least one login in MINIQUEUE_ADMINS, or nobody could sign in' })
      : env,
  )
  .custom((env, helpers) =>
    env.MINIQUEUE_DASHBOARD_STATEMENT_TIMEOUT_SECONDS > env.MINIQUEUE_DB_STATEMENT_TIMEOUT_SECONDS
      ? helpers.message({ custom: 'MINIQUEUE_DASHBOARD_STATEMENT_TIMEOUT_SECONDS must not exceed MINIQUEUE_DB_STATEMENT_TIMEOUT_SECONDS' })
      : env,
  )
  .unknown(true);

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  dbPoolSize: number;
  dbConnectionWaitMs: number;
  dbLockTimeoutMs: number;
  dbStartupRetryMs: number;
  bootstrapAdminKey?: string;
  maxPayloadBytes: number;
  sweepIntervalSeconds: number;
  idempotencyTtlHours: number;
  ackedRetentionHours: number;
  deadRetentionHours: number;
  shutdownTimeoutSeconds: number;
  http: { headersTimeoutSeconds: number; requestTimeoutSeconds: number; keepAliveTimeoutSeconds: number };
  longPollsPerCredential: number;
  groupCommitMaxWaiting: number;
  logLevel: string;
  corsAllowedOrigins: string[];
  github?: { clientId: string; clientSecret: string; callbackUrl?: string; url?: string };
  dashboardUrl?: string;
  admins: string[];
  publicViewer: boolean;
  commit: string;
  rateLimit: { enabled: boolean; perSecond: number; burst: number; anonymousPerSecond: number; anonymousBurst: number };
  wsMaxSocketsPerCredential: number;
  stream: { resumeGraceMs: number; maxUnconfirmed: number; totalQueuedBytes: number };
  push: PushConfig;
  dbStatementTimeoutMs: number;
  /** A commit not confirmed within this long is answered 503, its outcome unknown (db/commitBound.ts). */
  dbCommitTimeoutMs: number;
  /** The dashboard's reads run on a pool of their own, so they never hold the broker's connections. */
  dashboardDb: { poolSize: number; statementTimeoutMs: number };
}

export interface PushConfig {
  /** Encrypts the endpoints' signing secrets at rest; without it push endpoints cannot be set. */
  secretKey?: Buffer;
  publicTargets: boolean;
  allowedNetworks: string[];
  allowHttpLoopback: boolean;
  backoffSeconds: number;
}

const list = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/** Validates the environment and turns it into a typed config; throws on bad input. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = Joi.attempt(env, envSchema, 'Invalid configuration:', { abortEarly: false });
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.MINIQUEUE_DATA_DIR,
    dbPoolSize: e.MINIQUEUE_DB_POOL_SIZE,
    dbConnectionWaitMs: Math.round(e.MINIQUEUE_DB_CONNECTION_WAIT_SECONDS * 1000),
    dbLockTimeoutMs: Math.round(e.MINIQUEUE_DB_LOCK_TIMEOUT_SECONDS * 1000),
    dbStartupRetryMs: Math.round(e.MINIQUEUE_DB_STARTUP_RETRY_SECONDS * 1000),
    bootstrapAdminKey: e.MINIQUEUE_BOOTSTRAP_ADMIN_KEY,
    maxPayloadBytes: e.MINIQUEUE_MAX_PAYLOAD_BYTES,
    sweepIntervalSeconds: e.MINIQUEUE_SWEEP_INTERVAL_SECONDS,
    idempotencyTtlHours: e.MINIQUEUE_IDEMPOTENCY_TTL_HOURS,
    ackedRetentionHours: e.MINIQUEUE_ACKED_RETENTION_HOURS,
    deadRetentionHours: e.MINIQUEUE_DEAD_RETENTION_HOURS,
    shutdownTimeoutSeconds: e.MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS,
    http: {
      headersTimeoutSeconds: e.MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS,
      requestTimeoutSeconds: e.MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS,
      keepAliveTimeoutSeconds: e.MINIQUEUE_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS,
    },
    longPollsPerCredential: e.MINIQUEUE_LONG_POLLS_PER_CREDENTIAL,
    groupCommitMaxWaiting: e.MINIQUEUE_GROUP_COMMIT_MAX_WAITING,
    logLevel: e.LOG_LEVEL,
    corsAllowedOrigins: list(e.CORS_ALLOWED_ORIGINS),
    github: e.GITHUB_CLIENT_ID
      ? { clientId: e.GITHUB_CLIENT_ID, clientSecret: e.GITHUB_CLIENT_SECRET, callbackUrl: e.GITHUB_CALLBACK_URL, url: e.GITHUB_URL?.replace(/\/+$/, '') }
      : undefined,
    dashboardUrl: e.MINIQUEUE_DASHBOARD_URL,
    admins: list(e.MINIQUEUE_ADMINS).map((login) => login.toLowerCase()),
    publicViewer: e.MINIQUEUE_PUBLIC_VIEWER,
    commit: e.MINIQUEUE_COMMIT,
    rateLimit: {
      enabled: e.MINIQUEUE_RATE_LIMIT_ENABLED,
      perSecond: e.MINIQUEUE_RATE_LIMIT_PER_SECOND,
      burst: e.MINIQUEUE_RATE_LIMIT_BURST,
      anonymousPerSecond: e.MINIQUEUE_RATE_LIMIT_ANONYMOUS_PER_SECOND,
      anonymousBurst: e.MINIQUEUE_RATE_LIMIT_ANONYMOUS_BURST,
    },
    wsMaxSocketsPerCredential: e.MINIQUEUE_WS_MAX_SOCKETS_PER_CREDENTIAL,
    stream: {
      resumeGraceMs: e.MINIQUEUE_STREAM_RESUME_GRACE_MS,
      maxUnconfirmed: e.MINIQUEUE_STREAM_MAX_UNCONFIRMED,
      totalQueuedBytes: e.MINIQUEUE_STREAM_TOTAL_QUEUED_BYTES,
    },
    push: {
      secretKey: e.MINIQUEUE_PUSH_SECRET_KEY ? Buffer.from(e.MINIQUEUE_PUSH_SECRET_KEY, 'base64url') : undefined,
      publicTargets: e.MINIQUEUE_PUSH_PUBLIC,
      allowedNetworks: list(e.MINIQUEUE_PUSH_ALLOWED_NETWORKS),
      allowHttpLoopback: e.MINIQUEUE_PUSH_ALLOW_HTTP_LOOPBACK,
      backoffSeconds: e.MINIQUEUE_PUSH_BACKOFF_SECONDS,
    },
    dbStatementTimeoutMs: Math.round(e.MINIQUEUE_DB_STATEMENT_TIMEOUT_SECONDS * 1000),
    dbCommitTimeoutMs: Math.round(e.MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS * 1000),
    dashboardDb: {
      poolSize: e.MINIQUEUE_DASHBOARD_DB_POOL_SIZE,
      statementTimeoutMs: Math.round(e.MINIQUEUE_DASHBOARD_STATEMENT_TIMEOUT_SECONDS * 1000),
    },
  };
}
