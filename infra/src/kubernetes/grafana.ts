/**
 * Grafana with the provisioned datasource and dashboards from grafana/, mounted from ConfigMaps.
 * Nothing is kept on disk: the dashboards are files, so a new pod looks the same as the old.
 */
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { CONTAINER_PATHS, type MonitoringFiles } from '../files.js';
import { IMAGES } from '../images.js';
import { PORTS, SERVICE_NAMES, labels, selectorLabels } from '../naming.js';
import type { ServiceType } from '../settings.js';
import { COMPONENT_RESOURCES } from '../sizing.js';
import { configChecksum } from './checksum.js';
import { IMAGE_USERS, restrictedContainer, restrictedPod } from './security.js';

export interface GrafanaArgs {
  namespace: pulumi.Input<string>;
  stack: string;
  adminPassword: pulumi.Output<string>;
  files: MonitoringFiles;
  serviceType: ServiceType;
}

export function createGrafana(args: GrafanaArgs) {
  const name = SERVICE_NAMES.grafana;
  const metadata = { namespace: args.namespace, labels: labels('grafana', args.stack) };
  const secret = new k8s.core.v1.Secret('grafana', {
    metadata: { ...metadata, name },
    type: 'Opaque',
    stringData: { 'admin-password': pulumi.secret(args.adminPassword) },
  });
  const configMap = (id: string, data: Record<string, string>) => new k8s.core.v1.ConfigMap(id, { metadata: { ...metadata, name: id }, data });
  const datasources = configMap('grafana-datasources', { 'prometheus.yml': args.files.grafanaDatasources });
  const providers = configMap('grafana-dashboard-providers', { 'miniqueue.yml': args.files.grafanaDashboardProvider });
  const dashboards = configMap('grafana-dashboards', args.files.grafanaDashboards);
  const checksum = configChecksum(args.files.grafanaDatasources, args.files.grafanaDashboardProvider, ...Object.values(args.files.grafanaDashboards));

  const deployment = new k8s.apps.v1.Deployment(
    'grafana',
    {
      metadata: { ...metadata, name },
      spec: {
        replicas: 1,
        selector: { matchLabels: selectorLabels('grafana', args.stack) },
        template: {
          metadata: { labels: labels('grafana', args.stack), annotations: { 'miniqueue.dev/config-checksum': checksum } },
          spec: {
            securityContext: restrictedPod(IMAGE_USERS.grafana),
            containers: [
              {
                name: 'grafana',
                image: IMAGES.grafana,
                ports: [{ name: 'http', containerPort: PORTS.grafana }],
                env: [
                  { name: 'GF_SECURITY_ADMIN_USER', value: 'admin' },
                  { name: 'GF_SECURITY_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name, key: 'admin-password' } } },
                  { name: 'GF_USERS_ALLOW_SIGN_UP', value: 'false' },
                  // Logs to stdout only: the root filesystem is read-only.
                  { name: 'GF_LOG_MODE', value: 'console' },
                  { name: 'GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH', value: `${CONTAINER_PATHS.grafanaDashboards}/miniqueue.json` },
                ],
                readinessProbe: { httpGet: { path: '/api/health', port: 'http' }, periodSeconds: 10 },
                livenessProbe: { httpGet: { path: '/api/health', port: 'http' }, periodSeconds: 20, failureThreshold: 6 },
                resources: COMPONENT_RESOURCES.grafana,
                securityContext: restrictedContainer(),
                volumeMounts: [
                  { name: 'storage', mountPath: '/var/lib/grafana' },
                  { name: 'tmp', mountPath: '/tmp' },
                  { name: 'datasources', mountPath: CONTAINER_PATHS.grafanaDatasources, readOnly: true },
                  { name: 'providers', mountPath: CONTAINER_PATHS.grafanaDashboardProviders, readOnly: true },
                  { name: 'dashboards', mountPath: CONTAINER_PATHS.grafanaDashboards, readOnly: true },
                ],
              },
            ],
            volumes: [
              { name: 'storage', emptyDir: {} },
              { name: 'tmp', emptyDir: {} },
              { name: 'datasources', configMap: { name: datasources.metadata.name } },
              { name: 'providers', configMap: { name: providers.metadata.name } },
              { name: 'dashboards', configMap: { name: dashboards.metadata.name } },
            ],
          },
        },
      },
    },
    { dependsOn: [secret] },
  );
  const service = new k8s.core.v1.Service('grafana', {
    metadata: { ...metadata, name },
    spec: { type: args.serviceType, selector: selectorLabels('grafana', args.stack), ports: [{ name: 'http', port: PORTS.grafana, targetPort: 'http' }] },
  });
  return { deployment, service };
}
