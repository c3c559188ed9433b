/**
 * PostgreSQL as a CloudNativePG Cluster of three instances: one primary and two streaming
 * standbys, each on a node of its own, commits confirmed only once a standby has them.
 *
 * `synchronous: {method: any, number: 1, dataDurability: required}` is what makes a confirmed
 * publish survive the loss of the primary: PostgreSQL answers COMMIT only after one standby has
 * flushed the WAL, and with `required` the operator never lowers that to zero standbys (writes wait
 * instead), the trade-off RabbitMQ's quorum queues make. With three instances one standby may be
 * lost, or drained, and writes go on. The brokers reach the primary through the operator's `-rw`
 * Service, and every connection checks it is on a writable server (target_session_attrs), so a
 * connection that lands on a pod being demoted during a switchover is left at once.
 */
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { DATABASE, postgresUrl } from '../database.js';
import { IMAGES } from '../images.js';
import { PORTS, SERVICE_NAMES, labels } from '../naming.js';
import { COMPONENT_RESOURCES } from '../sizing.js';
import type { PostgresArgs } from './postgres.js';

export interface ReplicatedPostgresArgs extends PostgresArgs {
  /** The operator's Helm release: the Cluster's CRD and webhooks come with it. */
  operator?: pulumi.Resource;
}

export const POSTGRES_INSTANCES = 3;

/** The Cluster's spec, a pure function so the tests can hold it to the operator's CRD schema. */
export function clusterSpec(args: Pick<ReplicatedPostgresArgs, 'storageSize' | 'storageClass' | 'maxConnections'>, appSecretName: string) {
  return {
    instances: POSTGRES_INSTANCES,
    imageName: IMAGES.cloudnativePgPostgres,
    // The operator restarts the standbys first and then switches over, without waiting for a person.
    primaryUpdateStrategy: 'unsupervised',
    postgresql: {
      parameters: { max_connections: String(args.maxConnections) },
      synchronous: { method: 'any', number: 1, dataDurability: 'required' },
    },
    bootstrap: { initdb: { database: DATABASE.name, owner: DATABASE.user, secret: { name: appSecretName } } },
    // The operator's own budgets (primary and standbys): a drain never takes the primary and a
    // standby at once. A second budget of ours over the same pods would make every eviction fail.
    enablePDB: true,
    affinity: { enablePodAntiAffinity: true, podAntiAffinityType: 'required', topologyKey: 'kubernetes.io/hostname' },
    storage: { size: args.storageSize, ...(args.storageClass ? { storageClass: args.storageClass } : {}) },
    resources: COMPONENT_RESOURCES.postgres,
  };
}

export function createReplicatedPostgres(args: ReplicatedPostgresArgs) {
  const name = SERVICE_NAMES.postgres;
  const metadata = { namespace: args.namespace, labels: labels('postgres', args.stack) };
  const appSecretName = `${name}-app`;
  const secret = new k8s.core.v1.Secret('postgres', {
    metadata: { ...metadata, name: appSecretName },
    type: 'kubernetes.io/basic-auth',
    stringData: { username: DATABASE.user, password: pulumi.secret(args.password) },
  });
  const cluster = new k8s.apiextensions.CustomResource(
    'postgres',
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { ...metadata, name },
      spec: clusterSpec(args, appSecretName),
    },
    { dependsOn: [secret, ...(args.operator ? [args.operator] : [])] },
  );
  const url = pulumi.secret(
    args.password.apply((password) =>
      postgresUrl({
        host: `${name}-rw.${args.namespaceName}.svc.cluster.local`,
        port: PORTS.postgres,
        password,
        query: 'target_session_attrs=read-write',
      }),
    ),
  );
  return { secret, cluster, url };
}
