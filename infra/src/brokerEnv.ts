/**
 * The broker's environment, as the deployment sets it. Plain values are returned here; the
 * secret ones are only named, and each target takes their values from a Pulumi secret (a
 * Kubernetes Secret, or a secret container env on Docker). A test checks every name against the
 * broker's own config schema, so the two cannot drift.
 */
import { PORTS } from './naming.js';

export const SECRET_ENV = ['DATABASE_URL', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY', 'GITHUB_CLIENT_SECRET', 'MINIQUEUE_PUSH_SECRET_KEY'] as const;
export type SecretEnvName = (typeof SECRET_ENV)[number];

/** The broker's SIGTERM grace period, which the pod's termination grace is derived from. */
export const SHUTDOWN_TIMEOUT_SECONDS = 25;

/** The same rule as the broker's schema: mq_ and at least 43 base64url characters. */
export const ADMIN_KEY_PATTERN = /^mq_[A-Za-z0-9_-]{43,200}$/;

/** The same rule as the broker's schema: 32 bytes in base64url (43 characters, an optional `=`). */
export const PUSH_SECRET_KEY_PATTERN = /^[A-Za-z0-9_-]{43}=?$/;

export interface BrokerEnvInput {
  dbPoolSize: number;
  logLevel: string;
  corsAllowedOrigins?: string;
  commit?: string;
  dashboardUrl?: string;
  admins?: string;
  publicViewer?: boolean;
  github?: { clientId: string; callbackUrl?: string };
  /** Whether the stack has a push secret key; its value is a secret, set by the target. */
  pushSecretKey?: boolean;
  pushAllowedNetworks?: string;
}

export interface BrokerEnv {
  plain: Record<string, string>;
  secret: SecretEnvName[];
}

export function brokerEnv(input: BrokerEnvInput): BrokerEnv {
  const plain: Record<string, string> = {
    PORT: String(PORTS.broker),
    HOST: '0.0.0.0',
    LOG_LEVEL: input.logLevel,
    MINIQUEUE_DB_POOL_SIZE: String(input.dbPoolSize),
    MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
  };
  const optional: Record<string, string | undefined> = {
    CORS_ALLOWED_ORIGINS: input.corsAllowedOrigins,
    MINIQUEUE_COMMIT: input.commit,
    MINIQUEUE_DASHBOARD_URL: input.dashboardUrl,
    MINIQUEUE_ADMINS: input.admins,
    MINIQUEUE_PUBLIC_VIEWER: input.publicViewer === undefined ? undefined : String(input.publicViewer),
    GITHUB_CLIENT_ID: input.github?.clientId,
    GITHUB_CALLBACK_URL: input.github?.callbackUrl,
    MINIQUEUE_PUSH_ALLOWED_NETWORKS: input.pushAllowedNetworks,
  };
  for (const [name, value] of Object.entries(optional)) if (value !== undefined) plain[name] = value;
  const secret: SecretEnvName[] = ['DATABASE_URL', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY'];
  if (input.github) secret.push('GITHUB_CLIENT_SECRET');
  if (input.pushSecretKey) secret.push('MINIQUEUE_PUSH_SECRET_KEY');
  return { plain, secret };
}

/** Docker's `KEY=value` form, in a stable order. */
export function dockerEnvList(plain: Record<string, string>): string[] {
  return Object.keys(plain)
    .sort()
    .map((name) => `${name}=${plain[name]}`);
}
