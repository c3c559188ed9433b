/**
 * The stack's config (`pulumi config`), read and checked in one place. Everything secret stays a
 * Pulumi Output marked secret from here on, so it is encrypted in the state and masked in logs.
 */
import * as pulumi from '@pulumi/pulumi';
import { ADMIN_KEY_PATTERN, PUSH_SECRET_KEY_PATTERN, type BrokerEnvInput } from './brokerEnv.js';
import { brokerResources, scaling, type ResourceOverrides, type Resources, type Scaling } from './sizing.js';

export type Target = 'local' | 'kubernetes';
export const TARGETS: readonly Target[] = ['local', 'kubernetes'];
export type ServiceType = 'ClusterIP' | 'LoadBalancer' | 'NodePort';
const SERVICE_TYPES: readonly ServiceType[] = ['ClusterIP', 'LoadBalancer', 'NodePort'];

/**
 * How the stack's own PostgreSQL runs on Kubernetes: `replicated` (the default) is a CloudNativePG
 * cluster of three with synchronous replication; `single` is one pod, for development.
 */
export type PostgresTopology = 'replicated' | 'single';
export const POSTGRES_TOPOLOGIES: readonly PostgresTopology[] = ['replicated', 'single'];

/** A managed PostgreSQL (connection string from config, one host or several), or one the stack runs itself. */
export type DatabaseSettings =
  { kind: 'external'; url: pulumi.Output<string> } | { kind: 'own'; topology: PostgresTopology; password: pulumi.Output<string>; storageSize: string };

export interface Settings {
  stack: string;
  target: Target;
  /** The broker image; required on Kubernetes, built from the Dockerfile on `local` when unset. */
  image?: string;
  bootstrapAdminKey: pulumi.Output<string>;
  grafanaAdminPassword: pulumi.Output<string>;
  githubClientSecret?: pulumi.Output<string>;
  /** Encrypts push endpoints' signing secrets; every broker instance gets the same one. */
  pushSecretKey?: pulumi.Output<string>;
  database: DatabaseSettings;
  databaseMaxConnections: number;
  scaling: Scaling;
  resources: Resources;
  broker: Omit<BrokerEnvInput, 'dbPoolSize'>;
  kubernetes: {
    namespace: string;
    serviceType: ServiceType;
    storageClass?: string;
    prometheusStorageSize: string;
    /** Where the CloudNativePG operator is installed; undefined: the cluster has one already. */
    postgresOperatorNamespace?: string;
    /** Where users reach the broker and Grafana (an Ingress of yours), when not the Service itself. */
    brokerUrl?: string;
    grafanaUrl?: string;
  };
  local: { brokerPort: number; prometheusPort: number; grafanaPort: number };
}

function oneOf<T extends string>(key: string, value: string | undefined, allowed: readonly T[], fallback?: T): T {
  const chosen = value ?? fallback;
  if (chosen === undefined || !allowed.includes(chosen as T)) {
    throw new Error(`miniqueue:${key} must be one of ${allowed.join(', ')}${value ? `, got ${value}` : ''}`);
  }
  return chosen as T;
}

/** Checks the admin key's shape at deploy time without ever printing it. */
function checkedAdminKey(key: pulumi.Output<string>): pulumi.Output<string> {
  return pulumi.secret(
    key.apply((value) => {
      if (!ADMIN_KEY_PATTERN.test(value)) {
        throw new Error('miniqueue:bootstrapAdminKey must be mq_ followed by at least 43 base64url characters');
      }
      return value;
    }),
  );
}

/** Checked at deploy time as the broker would at boot, so a bad key fails `pulumi up`, not the pods. */
function checkedPushSecretKey(key: pulumi.Output<string> | undefined): pulumi.Output<string> | undefined {
  if (!key) return undefined;
  return pulumi.secret(
    key.apply((value) => {
      if (!PUSH_SECRET_KEY_PATTERN.test(value)) {
        throw new Error('miniqueue:pushSecretKey must be 32 random bytes in base64url (43 characters)');
      }
      return value;
    }),
  );
}

function readDatabase(config: pulumi.Config, target: Target): DatabaseSettings {
  const url = config.getSecret('databaseUrl');
  if (url) return { kind: 'external', url };
  return {
    kind: 'own',
    // One Docker engine has nowhere to spread replicas: `local` always runs one server.
    topology: target === 'kubernetes' ? oneOf('postgres', config.get('postgres'), POSTGRES_TOPOLOGIES, 'replicated') : 'single',
    password: config.requireSecret('postgresPassword'),
    storageSize: config.get('postgresStorageSize') ?? '10Gi',
  };
}

function readGithub(config: pulumi.Config): Pick<BrokerEnvInput, 'github'> & { secret?: pulumi.Output<string> } {
  const clientId = config.get('githubClientId');
  if (!clientId) return {};
  return {
    github: { clientId, callbackUrl: config.get('githubCallbackUrl') },
    secret: config.requireSecret('githubClientSecret'),
  };
}

export function readSettings(config = new pulumi.Config('miniqueue'), stack = pulumi.getStack()): Settings {
  const target = oneOf('target', config.get('target'), TARGETS);
  const github = readGithub(config);
  const pushSecretKey = checkedPushSecretKey(config.getSecret('pushSecretKey'));
  const replicas = config.getNumber('replicas') ?? 2;
  return {
    stack,
    target,
    image: config.get('image'),
    bootstrapAdminKey: checkedAdminKey(config.requireSecret('bootstrapAdminKey')),
    grafanaAdminPassword: config.requireSecret('grafanaAdminPassword'),
    githubClientSecret: github.secret,
    pushSecretKey,
    database: readDatabase(config, target),
    databaseMaxConnections: config.getNumber('databaseMaxConnections') ?? 100,
    scaling:
      target === 'local'
        ? scaling(1, 1)
        : scaling(replicas, config.getNumber('maxReplicas') ?? Math.max(replicas, 6), config.getNumber('targetCpuUtilization') ?? 70),
    resources: brokerResources(config.getObject<ResourceOverrides>('brokerResources')),
    broker: {
      logLevel: config.get('logLevel') ?? 'info',
      corsAllowedOrigins: config.get('corsAllowedOrigins'),
      commit: config.get('commit'),
      dashboardUrl: config.get('dashboardUrl'),
      admins: config.get('admins'),
      publicViewer: config.getBoolean('publicViewer'),
      github: github.github,
      pushSecretKey: pushSecretKey !== undefined,
      pushAllowedNetworks: config.get('pushAllowedNetworks'),
    },
    kubernetes: {
      namespace: config.get('namespace') ?? 'miniqueue',
      serviceType: oneOf('serviceType', config.get('serviceType'), SERVICE_TYPES, 'ClusterIP'),
      storageClass: config.get('storageClass'),
      postgresOperatorNamespace:
        config.getBoolean('installPostgresOperator') === false ? undefined : (config.get('postgresOperatorNamespace') ?? 'cnpg-system'),
      prometheusStorageSize: config.get('prometheusStorageSize') ?? '10Gi',
      brokerUrl: config.get('brokerUrl'),
      grafanaUrl: config.get('grafanaUrl'),
    },
    local: {
      brokerPort: config.getNumber('brokerPort') ?? 8080,
      prometheusPort: config.getNumber('prometheusPort') ?? 9090,
      grafanaPort: config.getNumber('grafanaPort') ?? 3000,
    },
  };
}
