/**
 * The `kubernetes` stack: a namespace holding PostgreSQL (unless a managed one is configured),
 * the broker's replicas, Prometheus and Grafana.
 */
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { monitoringFiles } from '../files.js';
import { assertPinnedImage } from '../images.js';
import { PORTS, clusterUrl, partOfLabels } from '../naming.js';
import type { Settings } from '../settings.js';
import { dbPoolSize } from '../sizing.js';
import { createBroker } from './broker.js';
import { createGrafana } from './grafana.js';
import { createCloudnativePgOperator } from './cloudnativePgOperator.js';
import { createPostgres } from './postgres.js';
import { createReplicatedPostgres } from './replicatedPostgres.js';
import { createPrometheus } from './prometheus.js';

export interface DeployOutputs {
  brokerUrl: pulumi.Output<string>;
  grafanaUrl: pulumi.Output<string>;
}

/** A LoadBalancer's address once the cloud has given one; otherwise the in-cluster name. */
function serviceUrl(service: k8s.core.v1.Service, fallback: string, port: number): pulumi.Output<string> {
  return service.status.apply((status) => {
    const ingress = status?.loadBalancer?.ingress?.[0];
    const host = ingress?.hostname ?? ingress?.ip;
    return host ? `http://${host}:${port}` : fallback;
  });
}

/** The stack's own PostgreSQL, replicated by CloudNativePG unless `postgres: single`; none with a managed one. */
function ownPostgres(settings: Settings, namespace: pulumi.Output<string>): { url: pulumi.Output<string>; resource: pulumi.Resource } | undefined {
  if (settings.database.kind !== 'own') return undefined;
  const args = {
    namespace,
    namespaceName: settings.kubernetes.namespace,
    stack: settings.stack,
    password: settings.database.password,
    storageSize: settings.database.storageSize,
    storageClass: settings.kubernetes.storageClass,
    maxConnections: settings.databaseMaxConnections,
  };
  if (settings.database.topology === 'single') {
    const single = createPostgres(args);
    return { url: single.url, resource: single.statefulSet };
  }
  const operatorNamespace = settings.kubernetes.postgresOperatorNamespace;
  const operator = operatorNamespace ? createCloudnativePgOperator(operatorNamespace) : undefined;
  const replicated = createReplicatedPostgres({ ...args, operator });
  return { url: replicated.url, resource: replicated.cluster };
}

export function deployKubernetes(settings: Settings): DeployOutputs {
  if (!settings.image) throw new Error('miniqueue:image is required on Kubernetes: a pushed image, pinned by tag or digest');
  const image = assertPinnedImage(settings.image);
  const { namespace: namespaceName, serviceType } = settings.kubernetes;
  const ns = new k8s.core.v1.Namespace('miniqueue', {
    metadata: { name: namespaceName, labels: partOfLabels() },
  });
  const namespace = ns.metadata.name;

  const postgres = ownPostgres(settings, namespace);
  const databaseUrl = settings.database.kind === 'external' ? settings.database.url : postgres!.url;

  const broker = createBroker({
    namespace,
    stack: settings.stack,
    image,
    env: { ...settings.broker, dbPoolSize: dbPoolSize(settings.scaling.maxReplicas, settings.databaseMaxConnections) },
    secrets: {
      DATABASE_URL: databaseUrl,
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: settings.bootstrapAdminKey,
      GITHUB_CLIENT_SECRET: settings.githubClientSecret,
      MINIQUEUE_PUSH_SECRET_KEY: settings.pushSecretKey,
    },
    scaling: settings.scaling,
    resources: settings.resources,
    serviceType,
    dependsOn: postgres ? [postgres.resource] : [],
  });

  const files = monitoringFiles();
  createPrometheus({
    namespace,
    namespaceName,
    stack: settings.stack,
    brokerImage: image,
    adminKeySecret: broker.secret,
    files,
    storageSize: settings.kubernetes.prometheusStorageSize,
    storageClass: settings.kubernetes.storageClass,
  });
  const grafana = createGrafana({ namespace, stack: settings.stack, adminPassword: settings.grafanaAdminPassword, files, serviceType });

  const inCluster = (component: 'broker' | 'grafana') => clusterUrl(component, namespaceName);
  return {
    brokerUrl: settings.kubernetes.brokerUrl ? pulumi.output(settings.kubernetes.brokerUrl) : serviceUrl(broker.service, inCluster('broker'), PORTS.broker),
    grafanaUrl: settings.kubernetes.grafanaUrl
      ? pulumi.output(settings.kubernetes.grafanaUrl)
      : serviceUrl(grafana.service, inCluster('grafana'), PORTS.grafana),
  };
}
