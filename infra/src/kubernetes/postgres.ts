/**
 * PostgreSQL as a one-pod StatefulSet with its own volume, for clusters without a managed
 * database. The broker never talks to it but through the Service `postgres`.
 */
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { DATABASE, postgresUrl } from '../database.js';
import { IMAGES } from '../images.js';
import { PORTS, SERVICE_NAMES, labels, selectorLabels } from '../naming.js';
import { COMPONENT_RESOURCES } from '../sizing.js';
import { IMAGE_USERS, restrictedContainer, restrictedPod } from './security.js';

export interface PostgresArgs {
  namespace: pulumi.Input<string>;
  namespaceName: string;
  stack: string;
  password: pulumi.Output<string>;
  storageSize: string;
  storageClass?: string;
  maxConnections: number;
}

export function createPostgres(args: PostgresArgs) {
  const name = SERVICE_NAMES.postgres;
  const metadata = { namespace: args.namespace, labels: labels('postgres', args.stack) };
  const secret = new k8s.core.v1.Secret('postgres', {
    metadata: { ...metadata, name },
    type: 'Opaque',
    stringData: { password: pulumi.secret(args.password) },
  });
  const service = new k8s.core.v1.Service('postgres', {
    metadata: { ...metadata, name },
    // Headless: the StatefulSet's one pod answers at a stable name.
    spec: { clusterIP: 'None', selector: selectorLabels('postgres', args.stack), ports: [{ name: 'postgres', port: PORTS.postgres, targetPort: 'postgres' }] },
  });
  const statefulSet = new k8s.apps.v1.StatefulSet(
    'postgres',
    {
      metadata: { ...metadata, name },
      spec: {
        serviceName: name,
        replicas: 1,
        selector: { matchLabels: selectorLabels('postgres', args.stack) },
        template: {
          metadata: { labels: labels('postgres', args.stack) },
          spec: {
            securityContext: restrictedPod(IMAGE_USERS.postgres),
            containers: [
              {
                name: 'postgres',
                image: IMAGES.postgres,
                args: ['-c', `max_connections=${args.maxConnections}`],
                ports: [{ name: 'postgres', containerPort: PORTS.postgres }],
                env: [
                  { name: 'POSTGRES_USER', value: DATABASE.user },
                  { name: 'POSTGRES_DB', value: DATABASE.name },
                  { name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name, key: 'password' } } },
                  // A subdirectory: the volume's root holds lost+found, which initdb refuses.
                  { name: 'PGDATA', value: '/var/lib/postgresql/data/pgdata' },
                ],
                readinessProbe: { exec: { command: ['pg_isready', '-U', DATABASE.user, '-d', DATABASE.name] }, periodSeconds: 5 },
                livenessProbe: { exec: { command: ['pg_isready', '-U', DATABASE.user, '-d', DATABASE.name] }, periodSeconds: 15, failureThreshold: 6 },
                resources: COMPONENT_RESOURCES.postgres,
                securityContext: restrictedContainer(false),
                volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
              },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              accessModes: ['ReadWriteOnce'],
              storageClassName: args.storageClass,
              resources: { requests: { storage: args.storageSize } },
            },
          },
        ],
      },
    },
    { dependsOn: [secret] },
  );
  const url = pulumi.secret(
    args.password.apply((password) => postgresUrl({ host: `${name}.${args.namespaceName}.svc.cluster.local`, port: PORTS.postgres, password })),
  );
  return { secret, service, statefulSet, url };
}
