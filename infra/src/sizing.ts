/**
 * Sizes that are decisions, as pure functions of config, so tests pin them down.
 */
export type ResourceList = { cpu: string; memory: string };
export type Resources = { requests: ResourceList; limits: ResourceList };
export type ResourceOverrides = { requests?: Partial<ResourceList>; limits?: Partial<ResourceList> };

export const DEFAULT_BROKER_RESOURCES: Resources = {
  requests: { cpu: '250m', memory: '256Mi' },
  limits: { cpu: '1', memory: '512Mi' },
};

/** The parts beside the broker are sized for one queue of moderate traffic; raise with the load. */
export const COMPONENT_RESOURCES = {
  postgres: { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '1Gi' } },
  prometheus: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } },
  grafana: { requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
  metricsKey: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
} satisfies Record<string, Resources>;

const CPU = /^(\d+m|\d+(\.\d+)?)$/;
const MEMORY = /^\d+(Ki|Mi|Gi|Ti|k|M|G|T)?$/;

/** Defaults merged with the stack's overrides; a malformed quantity fails the deploy at once. */
export function brokerResources(overrides: ResourceOverrides = {}): Resources {
  const merged: Resources = {
    requests: { ...DEFAULT_BROKER_RESOURCES.requests, ...overrides.requests },
    limits: { ...DEFAULT_BROKER_RESOURCES.limits, ...overrides.limits },
  };
  for (const [kind, list] of Object.entries(merged)) {
    if (!CPU.test(list.cpu)) throw new Error(`brokerResources.${kind}.cpu: not a CPU quantity: ${list.cpu}`);
    if (!MEMORY.test(list.memory)) throw new Error(`brokerResources.${kind}.memory: not a memory quantity: ${list.memory}`);
  }
  return merged;
}

export interface Scaling {
  replicas: number;
  maxReplicas: number;
  targetCpuUtilization: number;
}

/** Replicas the Deployment starts with and the bounds the HPA keeps it in. */
export function scaling(replicas = 2, maxReplicas = Math.max(replicas, 6), targetCpuUtilization = 70): Scaling {
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`replicas must be a whole number ≥ 1, got ${replicas}`);
  if (!Number.isInteger(maxReplicas) || maxReplicas < replicas) {
    throw new Error(`maxReplicas (${maxReplicas}) must be a whole number ≥ replicas (${replicas})`);
  }
  if (targetCpuUtilization < 10 || targetCpuUtilization > 100) {
    throw new Error(`targetCpuUtilization must be within 10..100, got ${targetCpuUtilization}`);
  }
  return { replicas, maxReplicas, targetCpuUtilization };
}

/** An HPA only when it has room to act. */
export function needsAutoscaler(s: Scaling): boolean {
  return s.maxReplicas > s.replicas;
}

/**
 * Connections per broker, so that every replica the HPA may start fits in the database.
 * Besides its pool, each broker holds two dedicated connections (LISTEN for cross-instance
 * notifications, and the realtime coordinator's session for consumer sockets and the dispatcher
 * lock) and opens one more for a moment: the health check's, or at start-up (before the pool
 * exists) the one for migrations. Ten connections stay free for PostgreSQL's reserved slots and
 * a person with psql.
 */
export const DEDICATED_CONNECTIONS_PER_BROKER = 3;
/**
 * The dashboard's own pool (its reads and the Prometheus gauges), beside the broker's: the
 * broker's default MINIQUEUE_DASHBOARD_DB_POOL_SIZE, which the program leaves as it is.
 */
export const DASHBOARD_CONNECTIONS_PER_BROKER = 2;

export function dbPoolSize(maxReplicas: number, databaseMaxConnections: number): number {
  const budget = Math.floor((databaseMaxConnections - 10) / maxReplicas) - DEDICATED_CONNECTIONS_PER_BROKER - DASHBOARD_CONNECTIONS_PER_BROKER;
  if (budget < 2) {
    throw new Error(
      `${maxReplicas} brokers do not fit in ${databaseMaxConnections} database connections: ` + 'raise databaseMaxConnections or lower maxReplicas',
    );
  }
  // Past about 20, a Node process gains nothing from more connections, and the database loses.
  return Math.min(budget, 20);
}

/**
 * Time Kubernetes gives a pod between SIGTERM and SIGKILL: the preStop pause (load balancers stop
 * sending new requests), the broker's own shutdown timeout (in-flight requests and long polls of
 * up to 20 s finish), and a margin.
 */
export function terminationGraceSeconds(shutdownTimeoutSeconds: number, preStopSeconds: number): number {
  return preStopSeconds + shutdownTimeoutSeconds + 5;
}

/** Never fewer ready brokers than asked for during a rollout: one extra pod at a time. */
export function rollingUpdate(): { maxSurge: number; maxUnavailable: number } {
  return { maxSurge: 1, maxUnavailable: 0 };
}

/** Voluntary evictions (node drains) take one broker at a time; with one replica, drains still proceed. */
export function disruptionBudget(): { maxUnavailable: number } {
  return { maxUnavailable: 1 };
}
