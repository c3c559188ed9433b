/**
 * Prometheus in the namespace: discovers every broker pod through the API (a Role limited to
 * reading pods here), scrapes each with its own `metrics` key, and evaluates alerts.yml.
 * The key is issued by an init container running prometheus/metrics-key.mjs with the broker
 * image's node; the admin key it uses never reaches the Prometheus container.
 */
import * as k8s from '@pulumi/kubernetes';
import type * as pulumi from '@pulumi/pulumi';
import { CONTAINER_PATHS, type MonitoringFiles } from '../files.js';
import { METRICS_KEY_DIR, METRICS_KEY_FILE } from '../health.js';
import { IMAGES } from '../images.js';
import { PORTS, SERVICE_NAMES, labels, selectorLabels } from '../naming.js';
import { COMPONENT_RESOURCES } from '../sizing.js';
import { configChecksum } from './checksum.js';
import { kubernetesPrometheusConfig } from './prometheusConfig.js';
import { IMAGE_USERS, restrictedContainer, restrictedPod } from './security.js';

export interface PrometheusArgs {
  namespace: pulumi.Input<string>;
  namespaceName: string;
  stack: string;
  brokerImage: string;
  /** The Secret holding MINIQUEUE_BOOTSTRAP_ADMIN_KEY (the broker's). */
  adminKeySecret: k8s.core.v1.Secret;
  files: MonitoringFiles;
  storageSize: string;
  storageClass?: string;
}

function rbac(args: PrometheusArgs, metadata: { namespace: pulumi.Input<string>; labels: Record<string, string> }) {
  const name = SERVICE_NAMES.prometheus;
  const account = new k8s.core.v1.ServiceAccount('prometheus', { metadata: { ...metadata, name } });
  const role = new k8s.rbac.v1.Role('prometheus', {
    metadata: { ...metadata, name },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
  });
  const binding = new k8s.rbac.v1.RoleBinding('prometheus', {
    metadata: { ...metadata, name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role.metadata.name },
    subjects: [{ kind: 'ServiceAccount', name: account.metadata.name, namespace: args.namespaceName }],
  });
  return { account, role, binding };
}

export function createPrometheus(args: PrometheusArgs) {
  const name = SERVICE_NAMES.prometheus;
  const metadata = { namespace: args.namespace, labels: labels('prometheus', args.stack) };
  const { account, binding } = rbac(args, metadata);
  const prometheusYml = kubernetesPrometheusConfig(args.namespaceName, args.stack);
  const config = new k8s.core.v1.ConfigMap('prometheus-config', {
    metadata: { ...metadata, name: 'prometheus-config' },
    data: { 'prometheus.yml': prometheusYml, 'alerts.yml': args.files.alertRules },
  });
  const scripts = new k8s.core.v1.ConfigMap('prometheus-metrics-key', {
    metadata: { ...metadata, name: 'prometheus-metrics-key' },
    data: { 'metrics-key.mjs': args.files.metricsKeyScript },
  });
  const data = new k8s.core.v1.PersistentVolumeClaim('prometheus-data', {
    metadata: { ...metadata, name: 'prometheus-data' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: args.storageClass,
      resources: { requests: { storage: args.storageSize } },
    },
  });
  const deployment = new k8s.apps.v1.Deployment(
    'prometheus',
    {
      metadata: { ...metadata, name },
      spec: {
        replicas: 1,
        // The volume is ReadWriteOnce: the old pod must let go before the new one starts.
        strategy: { type: 'Recreate' },
        selector: { matchLabels: selectorLabels('prometheus', args.stack) },
        template: {
          metadata: {
            labels: labels('prometheus', args.stack),
            annotations: { 'miniqueue.dev/config-checksum': configChecksum(prometheusYml, args.files.alertRules, args.files.metricsKeyScript) },
          },
          spec: {
            serviceAccountName: account.metadata.name,
            securityContext: restrictedPod(IMAGE_USERS.prometheus),
            initContainers: [
              {
                name: 'metrics-key',
                image: args.brokerImage,
                command: ['node', CONTAINER_PATHS.metricsKeyScript],
                env: [
                  { name: 'MINIQUEUE_URL', value: `http://${SERVICE_NAMES.broker}:${PORTS.broker}` },
                  { name: 'METRICS_KEY_FILE', value: METRICS_KEY_FILE },
                  {
                    name: 'MINIQUEUE_ADMIN_KEY',
                    valueFrom: { secretKeyRef: { name: args.adminKeySecret.metadata.name, key: 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY' } },
                  },
                ],
                resources: COMPONENT_RESOURCES.metricsKey,
                securityContext: restrictedContainer(),
                volumeMounts: [
                  { name: 'metrics-key-script', mountPath: CONTAINER_PATHS.metricsKeyScript, subPath: 'metrics-key.mjs', readOnly: true },
                  { name: 'metrics-key', mountPath: METRICS_KEY_DIR },
                ],
              },
            ],
            containers: [
              {
                name: 'prometheus',
                image: IMAGES.prometheus,
                args: [
                  `--config.file=${CONTAINER_PATHS.prometheusConfigDir}/prometheus.yml`,
                  '--storage.tsdb.path=/prometheus',
                  '--storage.tsdb.retention.time=15d',
                ],
                ports: [{ name: 'http', containerPort: PORTS.prometheus }],
                readinessProbe: { httpGet: { path: '/-/ready', port: 'http' }, periodSeconds: 10 },
                livenessProbe: { httpGet: { path: '/-/healthy', port: 'http' }, periodSeconds: 20, failureThreshold: 6 },
                resources: COMPONENT_RESOURCES.prometheus,
                securityContext: restrictedContainer(),
                volumeMounts: [
                  { name: 'config', mountPath: CONTAINER_PATHS.prometheusConfigDir, readOnly: true },
                  { name: 'metrics-key', mountPath: METRICS_KEY_DIR, readOnly: true },
                  { name: 'data', mountPath: '/prometheus' },
                ],
              },
            ],
            volumes: [
              { name: 'config', configMap: { name: config.metadata.name } },
              { name: 'metrics-key-script', configMap: { name: scripts.metadata.name } },
              // In memory: the key lives as long as the pod, and a new pod issues a new one.
              { name: 'metrics-key', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
              { name: 'data', persistentVolumeClaim: { claimName: data.metadata.name } },
            ],
          },
        },
      },
    },
    { dependsOn: [binding] },
  );
  const service = new k8s.core.v1.Service('prometheus', {
    metadata: { ...metadata, name },
    spec: { selector: selectorLabels('prometheus', args.stack), ports: [{ name: 'http', port: PORTS.prometheus, targetPort: 'http' }] },
  });
  return { deployment, service, config };
}
